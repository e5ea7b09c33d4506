// Plugin layers (part of the extension API, atenrt/extension.h): layer kinds
// that atenrt does not have, computed by a kernel a plugin registers.
//
// A plugin registers a KernelSpec under "namespace::name" and a version
// (PluginRegistry::add_kernel); its converters add layers of it with
// ConverterContext::plugin_layer, passing attributes (a small typed map). The
// network infers the layer's outputs by asking the kernel, the builder keeps
// it as one step (nothing is fused into or across it), and the runtime calls
// its execute function on contiguous row-major buffers. An engine file stores
// the kernel's name, version and attributes; loading it needs a plugin that
// registers that kernel (docs/plugins.md).
//
// Header-only like the rest of the extension API: a plugin links no atenrt
// library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "atenrt/dtype.h"

namespace atenrt {

// The dtype and dims of a tensor; -1 marks a dim only known at run time.
struct TensorInfo {
  DType dtype = DType::Float32;
  std::vector<std::int64_t> dims;
  int rank() const { return static_cast<int>(dims.size()); }
};

// Bytes per element of a dtype (atenrt::element_size without linking atenrt).
constexpr std::size_t element_bytes(DType dtype) {
  switch (dtype) {
    case DType::Float64:
    case DType::Int64: return 8;
    case DType::Float32:
    case DType::Int32: return 4;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Int16: return 2;
    case DType::Int8:
    case DType::UInt8:
    case DType::Bool: return 1;
  }
  return 0;
}

// A read-only view of a contiguous row-major tensor: a kernel's input, or a
// weight's values at conversion time (ConverterContext::constant_value).
struct ConstTensorView {
  DType dtype = DType::Float32;
  std::span<const std::int64_t> dims;
  const void* data = nullptr;
  std::int64_t numel() const {
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    return n;
  }
  template <typename T>
  const T* data_as() const { return static_cast<const T*>(data); }
};

// A writable view of a contiguous row-major tensor: a kernel's output.
struct MutableTensorView {
  DType dtype = DType::Float32;
  std::span<const std::int64_t> dims;
  void* data = nullptr;
  std::int64_t numel() const {
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    return n;
  }
  template <typename T>
  T* data_as() const { return static_cast<T*>(data); }
};

// One attribute value of a plugin layer: int, float, string, int[] or float[].
using PluginAttribute =
    std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>, std::vector<double>>;
inline constexpr int kPluginAttributeKinds = 5;  // the variant's alternatives, in order
static_assert(std::variant_size_v<PluginAttribute> == kPluginAttributeKinds);

// A plugin layer's attributes: names (1 to 64 characters: letters, digits,
// '_') to values, kept sorted by name. Engine files store them; a file is
// untrusted, so a kernel reads them with the typed getters, which throw
// std::invalid_argument naming the attribute when it is missing or of
// another type (atenrt reports that naming the layer).
class PluginAttributes {
 public:
  PluginAttributes() = default;
  PluginAttributes(std::initializer_list<std::pair<std::string, PluginAttribute>> items) {
    for (auto& [name, value] : items) set(name, value);
  }

  void set(std::string name, PluginAttribute value) {
    auto it = lower(name);
    if (it != items_.end() && it->first == name) {
      it->second = std::move(value);
    } else {
      items_.insert(it, {std::move(name), std::move(value)});
    }
  }
  const PluginAttribute* find(std::string_view name) const {
    auto it = lower(name);
    return it != items_.end() && it->first == name ? &it->second : nullptr;
  }
  bool has(std::string_view name) const { return find(name) != nullptr; }
  const std::vector<std::pair<std::string, PluginAttribute>>& items() const { return items_; }
  std::size_t size() const { return items_.size(); }

  std::int64_t get_int(std::string_view name) const { return get<std::int64_t>(name, "an int"); }
  double get_float(std::string_view name) const { return get<double>(name, "a float"); }
  const std::string& get_string(std::string_view name) const { return get<std::string>(name, "a string"); }
  const std::vector<std::int64_t>& get_ints(std::string_view name) const {
    return get<std::vector<std::int64_t>>(name, "an int list");
  }
  const std::vector<double>& get_floats(std::string_view name) const {
    return get<std::vector<double>>(name, "a float list");
  }

 private:
  using Items = std::vector<std::pair<std::string, PluginAttribute>>;
  Items::const_iterator lower(std::string_view name) const {
    auto it = items_.begin();
    while (it != items_.end() && std::string_view(it->first) < name) ++it;
    return it;
  }
  Items::iterator lower(std::string_view name) {
    auto it = items_.begin();
    while (it != items_.end() && std::string_view(it->first) < name) ++it;
    return it;
  }
  template <typename T>
  const T& get(std::string_view name, const char* kind) const {
    const PluginAttribute* v = find(name);
    if (!v) throw std::invalid_argument("attribute '" + std::string(name) + "' is missing");
    if (const T* t = std::get_if<T>(v)) return *t;
    throw std::invalid_argument("attribute '" + std::string(name) + "' is not " + kind);
  }
  Items items_;
};

// What a kernel's execute function receives: its inputs and outputs (dims
// as shape inference gave them, every dim known), the layer's attributes and
// scratch memory of the size scratch_bytes asked for (64-byte aligned).
struct KernelLaunch {
  std::span<const ConstTensorView> inputs;
  std::span<const MutableTensorView> outputs;
  const PluginAttributes& attributes;
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
};

// A kernel for a plugin layer kind.
struct KernelSpec {
  // "namespace::name" ("myops::cummax"); a layer names it with the version.
  std::string name;
  std::int64_t version = 1;
  // The outputs' dtypes and dims from the inputs' and the attributes. Dims
  // of -1 (sizes known only at run time) may come in; give -1 where an
  // output size depends on them. Throw (any std::exception) to refuse: the
  // message is reported naming the layer. Called when a converter adds the
  // layer, when an engine file is loaded (which is untrusted: check every
  // attribute and input) and on every reference run.
  std::function<std::vector<TensorInfo>(const std::vector<TensorInfo>& inputs, const PluginAttributes& attributes)>
      infer;
  // Computes the outputs. Must not throw for inputs that infer accepted.
  std::function<void(const KernelLaunch& launch)> execute;
  // Scratch bytes execute needs for these (static) inputs and outputs; empty: none.
  std::function<std::size_t(const std::vector<TensorInfo>& inputs, const std::vector<TensorInfo>& outputs,
                            const PluginAttributes& attributes)>
      scratch_bytes = {};
  // Input dtypes it takes (every input); empty: any that infer accepts.
  std::vector<DType> dtypes = {};
};

}  // namespace atenrt
