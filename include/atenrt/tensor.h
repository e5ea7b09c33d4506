// A host tensor: a shared, immutable-by-convention byte buffer viewed with
// sizes, strides and an offset (all in elements, as in PyTorch).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "atenrt/dtype.h"
#include "atenrt/export.h"

namespace atenrt {

// Owns bytes. Aliased weights (views of one storage) share one Storage.
class ATENRT_API Storage {
 public:
  explicit Storage(std::vector<std::byte> bytes) : bytes_(std::move(bytes)) {}
  explicit Storage(std::size_t nbytes) : bytes_(nbytes) {}
  // Read-only bytes owned elsewhere (a mapped engine file), kept alive by
  // `owner`; mutable_data() throws.
  Storage(const std::byte* data, std::size_t nbytes, std::shared_ptr<const void> owner)
      : external_(data), external_bytes_(nbytes), owner_(std::move(owner)) {}
  std::size_t nbytes() const { return owner_ ? external_bytes_ : bytes_.size(); }
  const std::byte* data() const { return owner_ ? external_ : bytes_.data(); }
  std::byte* mutable_data();
  bool read_only() const { return owner_ != nullptr; }

 private:
  std::vector<std::byte> bytes_;
  const std::byte* external_ = nullptr;
  std::size_t external_bytes_ = 0;
  std::shared_ptr<const void> owner_;
};

ATENRT_API std::int64_t numel_of(const std::vector<std::int64_t>& sizes);
ATENRT_API std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& sizes);
ATENRT_API std::string shape_to_string(const std::vector<std::int64_t>& sizes);

class ATENRT_API Tensor {
 public:
  Tensor() = default;
  // A new contiguous zero-filled tensor.
  Tensor(DType dtype, std::vector<std::int64_t> sizes);
  // A view of an existing storage; throws FormatError when the view reaches
  // outside the storage (every element of the view is checked by bounds).
  Tensor(std::shared_ptr<Storage> storage, DType dtype, std::vector<std::int64_t> sizes,
         std::vector<std::int64_t> strides, std::int64_t storage_offset);

  DType dtype() const { return dtype_; }
  const std::vector<std::int64_t>& sizes() const { return sizes_; }
  const std::vector<std::int64_t>& strides() const { return strides_; }
  std::int64_t storage_offset() const { return storage_offset_; }
  int dim() const { return static_cast<int>(sizes_.size()); }
  std::int64_t numel() const { return numel_of(sizes_); }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * element_size(dtype_); }
  bool defined() const { return storage_ != nullptr; }
  bool is_contiguous() const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }

  // First byte of the view (storage data + offset).
  const std::byte* raw_data() const;
  std::byte* raw_mutable_data();
  template <typename T>
  const T* data() const { return reinterpret_cast<const T*>(raw_data()); }
  template <typename T>
  T* mutable_data() { return reinterpret_cast<T*>(raw_mutable_data()); }

  // A contiguous copy (or this tensor itself when already contiguous).
  Tensor contiguous() const;
  // Bytes of the view in row-major order, whatever its strides.
  std::vector<std::byte> to_bytes() const;

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::Float32;
  std::vector<std::int64_t> sizes_;
  std::vector<std::int64_t> strides_;
  std::int64_t storage_offset_ = 0;
};

}  // namespace atenrt
