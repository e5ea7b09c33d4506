#include "atenrt/tensor.h"

#include <cstring>
#include <limits>
#include <new>
#include <sstream>

#include "atenrt/errors.h"
#include "ir/checked_math.h"
#include "ir/memory_limit.h"

namespace atenrt {

std::int64_t numel_of(const std::vector<std::int64_t>& sizes) {
  std::int64_t n = 1;
  for (auto s : sizes) {
    if (__builtin_mul_overflow(n, s, &n)) {
      throw Error("shape " + shape_to_string(sizes) + " has more elements than fit in 64 bits");
    }
  }
  return n;
}

std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> strides(sizes.size());
  std::int64_t acc = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = acc;
    if (__builtin_mul_overflow(acc, std::max<std::int64_t>(sizes[i], 1), &acc)) {
      throw Error("shape " + shape_to_string(sizes) + ": its strides overflow 64 bits");
    }
  }
  return strides;
}

std::string shape_to_string(const std::vector<std::int64_t>& sizes) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < sizes.size(); ++i) out << (i ? ", " : "") << sizes[i];
  out << ']';
  return out.str();
}

std::byte* Storage::mutable_data() {
  if (owner_) throw Error("tensor storage is read-only (weights of a mapped engine file)");
  return bytes_.data();
}

Tensor::Tensor(DType dtype, std::vector<std::int64_t> sizes)
    : dtype_(dtype), sizes_(std::move(sizes)) {
  for (auto s : sizes_) {
    if (s < 0) throw Error("Tensor: negative size in " + shape_to_string(sizes_));
  }
  const std::string what = "a " + std::string(dtype_name(dtype_)) + shape_to_string(sizes_) + " tensor";
  const std::uint64_t bytes = checked::nbytes<Error>(sizes_, element_size(dtype_), what);
  // More than the machine holds can never be allocated: say so, rather than
  // let the allocator throw std::bad_alloc (or overcommit and fault later).
  static const std::uint64_t machine = default_memory_limit();
  if (bytes > machine) {
    throw Error(what + " needs " + format_bytes(bytes) + ", more than this machine's memory (" +
                format_bytes(machine) + ")");
  }
  strides_ = contiguous_strides(sizes_);
  try {
    storage_ = std::make_shared<Storage>(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw Error("cannot allocate " + format_bytes(bytes) + " for " + what + ": out of memory");
  }
}

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, std::vector<std::int64_t> sizes,
               std::vector<std::int64_t> strides, std::int64_t storage_offset)
    : storage_(std::move(storage)),
      dtype_(dtype),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      storage_offset_(storage_offset) {
  if (!storage_) throw FormatError("Tensor view: no storage");
  if (sizes_.size() != strides_.size()) {
    throw FormatError("Tensor view: " + std::to_string(sizes_.size()) + " sizes but " +
                      std::to_string(strides_.size()) + " strides");
  }
  if (storage_offset_ < 0) {
    throw FormatError("Tensor view: negative storage offset " + std::to_string(storage_offset_));
  }
  // The lowest and highest element the view touches must lie in the storage.
  // Work in unsigned 128-bit-free style: every product is checked for overflow.
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t highest = storage_offset_;
  bool empty = false;
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    if (sizes_[i] < 0) throw FormatError("Tensor view: negative size in " + shape_to_string(sizes_));
    if (strides_[i] < 0) {
      throw FormatError("Tensor view: negative stride in " + shape_to_string(strides_));
    }
    if (sizes_[i] == 0) empty = true;
  }
  const std::size_t elem = element_size(dtype_);
  const std::int64_t capacity = static_cast<std::int64_t>(storage_->nbytes() / elem);
  if (empty) return;
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    const std::int64_t span = sizes_[i] - 1;
    if (strides_[i] != 0 && span > (kMax - highest) / strides_[i]) {
      throw FormatError("Tensor view: sizes " + shape_to_string(sizes_) + " and strides " +
                        shape_to_string(strides_) + " overflow");
    }
    highest += span * strides_[i];
  }
  if (highest >= capacity) {
    throw FormatError("Tensor view: sizes " + shape_to_string(sizes_) + ", strides " +
                      shape_to_string(strides_) + ", offset " + std::to_string(storage_offset_) +
                      " reach element " + std::to_string(highest) + " but the storage holds " +
                      std::to_string(capacity) + " elements of " + std::string(dtype_name(dtype_)));
  }
}

bool Tensor::is_contiguous() const {
  const auto expected = contiguous_strides(sizes_);
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    if (sizes_[i] != 1 && strides_[i] != expected[i]) return false;
  }
  return true;
}

const std::byte* Tensor::raw_data() const {
  return storage_ ? storage_->data() + storage_offset_ * static_cast<std::int64_t>(element_size(dtype_))
                  : nullptr;
}

std::byte* Tensor::raw_mutable_data() {
  return storage_ ? storage_->mutable_data() +
                        storage_offset_ * static_cast<std::int64_t>(element_size(dtype_))
                  : nullptr;
}

std::vector<std::byte> Tensor::to_bytes() const {
  const std::size_t elem = element_size(dtype_);
  std::vector<std::byte> out(nbytes());
  if (out.empty()) return out;
  if (is_contiguous()) {
    std::memcpy(out.data(), raw_data(), out.size());
    return out;
  }
  // Walk the view with an index counter, innermost dim fastest.
  std::vector<std::int64_t> index(sizes_.size(), 0);
  const std::byte* base = raw_data();
  const std::int64_t n = numel();
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < sizes_.size(); ++d) offset += index[d] * strides_[d];
    std::memcpy(out.data() + i * elem, base + offset * static_cast<std::int64_t>(elem), elem);
    for (std::size_t d = sizes_.size(); d-- > 0;) {
      if (++index[d] < sizes_[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

Tensor Tensor::contiguous() const {
  if (is_contiguous() && storage_offset_ == 0 &&
      storage_->nbytes() == nbytes()) {
    return *this;
  }
  auto storage = std::make_shared<Storage>(to_bytes());
  return Tensor(std::move(storage), dtype_, sizes_, contiguous_strides(sizes_), 0);
}

}  // namespace atenrt
