// The extension API: converters written outside atenrt, added or put in front
// of the built-in ones without rebuilding atenrt, and kernels for layer kinds
// atenrt does not have (plugin layers, atenrt/plugin_layer.h; docs/plugins.md).
//
// A plugin is a shared library that defines one entry point with
// ATENRT_PLUGIN; its register function adds converters, each keyed on an ATen
// op overload ("aten.renorm.default") with the registry's options: enabled, a
// capability validator, a priority and dynamic-shape support, and kernels
// (PluginRegistry::add_kernel) that its converters use through
// ConverterContext::plugin_layer. Load it with
// `atenrt --plugin libmyops.so ...`, ATENRT_PLUGINS=a.so:b.so,
// atenrt::load_plugin(path) or atenrt.load_plugin(path) in Python.
//
//   atenrt::Capability p_is_two(const atenrt::NodeInfo& node) {
//     if (node.literal_float("p") == 2.0) return atenrt::Capability::yes();
//     return atenrt::Capability::no("only p=2 is converted");
//   }
//   std::vector<atenrt::NetTensor*> my_renorm(atenrt::ConverterContext& ctx) { ... }
//   void register_my_ops(atenrt::PluginRegistry& registry) {
//     registry.add_converter({.keys = {"aten.renorm.default"}, .convert = my_renorm, .validator = p_is_two});
//   }
//   ATENRT_PLUGIN("myops", register_my_ops)
//
// Everything a plugin calls here is inline or virtual: a plugin needs these
// headers only, not libatenrt.so, so the same file serves the command line,
// C++ programs and the Python module. The entry point carries
// ATENRT_EXTENSION_ABI_VERSION; atenrt refuses a plugin built for another one.
// Build plugins with the C++ standard library atenrt was built with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "atenrt/dtype.h"
#include "atenrt/export.h"
#include "atenrt/plugin_layer.h"

// Bumped whenever a class or struct below changes layout or virtual functions.
#define ATENRT_EXTENSION_ABI_VERSION 2

namespace atenrt {

// A tensor of the network a converter builds. Opaque: obtained from the
// ConverterContext of the converter call and valid during that call only.
class NetTensor;

// A validator's answer: yes, or no with a reason that the dry-run report
// prints (the node then goes to the next candidate converter, or to the
// fallback).
struct Capability {
  bool ok = true;
  std::string reason;
  static Capability yes() { return {}; }
  static Capability no(std::string why) { return {false, std::move(why)}; }
};

// The node being judged or converted. Arguments are read by their schema
// name ("self", "dim", "p"); every schema argument is present, defaults
// included. Literal readers give nullopt for an absent or None argument, or
// one of another kind, or one computed by another node.
class NodeInfo {
 public:
  virtual ~NodeInfo() = default;
  virtual std::string target() const = 0;  // "aten.renorm.default"
  virtual std::string name() const = 0;    // the node's name in the graph
  // "node 'renorm_1' (aten.renorm.default)": how messages name it.
  virtual std::string where() const = 0;
  virtual bool has_arg(std::string_view arg) const = 0;
  virtual bool is_none(std::string_view arg) const = 0;
  virtual std::optional<std::int64_t> literal_int(std::string_view arg) const = 0;
  virtual std::optional<double> literal_float(std::string_view arg) const = 0;  // ints too
  virtual std::optional<bool> literal_bool(std::string_view arg) const = 0;
  virtual std::optional<std::string> literal_string(std::string_view arg) const = 0;
  virtual std::optional<std::vector<std::int64_t>> literal_ints(std::string_view arg) const = 0;
  // The recorded dtype and dims of a tensor argument or of output `index`.
  virtual std::optional<TensorInfo> arg_info(std::string_view arg) const = 0;
  virtual std::optional<TensorInfo> output_info(std::size_t index = 0) const = 0;
  // Whether another node (or the graph's outputs) reads output `index`.
  virtual bool output_used(std::size_t index) const = 0;
};

// What a converter works with: the node's arguments resolved to network
// tensors or static values, and the layers it may add. Misuse (a missing or
// mistyped argument, operands a layer cannot take, a tensor from another
// call) throws atenrt::UnsupportedError naming the node; so may the
// converter itself (`throw atenrt::UnsupportedError(ctx.where() + ": ...")`),
// though limits belong in the validator.
//
// Layers are named after the node ("[aten]-[renorm_1]"); `suffix` names an
// intermediate one ("[aten]-[renorm_1]-[norm]"). Op names:
//   activation:  relu sigmoid tanh leaky_relu(alpha=slope) elu(alpha) selu
//                softplus(alpha=beta,beta=threshold) clip(alpha=min,beta=max)
//                gelu_erf gelu_tanh hard_sigmoid(alpha,beta) hard_swish silu mish
//   elementwise: add sub mul div pow min max floor_div trunc_div remainder fmod
//                eq ne lt le gt ge and or xor bit_and bit_or bit_xor zeta igamma igammac
//                nextafter chebyshev_t chebyshev_u chebyshev_v chebyshev_w
//                shifted_chebyshev_t shifted_chebyshev_u shifted_chebyshev_v
//                shifted_chebyshev_w hermite_h hermite_he laguerre_l legendre_p
//                shift_left shift_right
//                (one dtype; comparisons give bool; bit_* and shift_* take integers;
//                zeta to legendre_p floating, the polynomials taking x and the degree)
//   unary:       exp log log2 log10 log1p expm1 sqrt rsqrt abs neg reciprocal sin
//                cos tan asin acos atan sinh cosh asinh acosh atanh erf floor ceil
//                round trunc sign not isnan isinf lgamma digamma erfinv erfc i0 i0e i1
//                i1e bessel_j0 bessel_j1 bessel_y0 bessel_y1 k0 k1 k0e k1e
//                spherical_bessel_j0 airy_ai erfcx trigamma frexp_mantissa frexp_exponent
//   reduce:      sum mean prod max min argmax argmin any all
class ConverterContext : public NodeInfo {
 public:
  // Tensor arguments (a weight or a number becomes a constant layer).
  virtual NetTensor* tensor(std::string_view arg) = 0;
  virtual NetTensor* optional_tensor(std::string_view arg) = 0;  // nullptr for None
  virtual std::vector<NetTensor*> tensors(std::string_view arg) = 0;  // Tensor[]
  // Static arguments, known at conversion time.
  virtual std::int64_t int_arg(std::string_view arg) = 0;
  virtual double float_arg(std::string_view arg) = 0;  // ints and bools too
  virtual bool bool_arg(std::string_view arg) = 0;
  virtual std::string string_arg(std::string_view arg) = 0;
  virtual std::vector<std::int64_t> ints_arg(std::string_view arg) = 0;  // int[], SymInt[]
  virtual std::optional<DType> dtype_arg(std::string_view arg) = 0;      // ScalarType?, nullopt for None
  // The values of a tensor argument known at conversion time (a weight, a
  // buffer, a folded constant), read-only and valid during this call;
  // nullopt for one computed at run time, None or not a tensor.
  virtual std::optional<ConstTensorView> constant_value(std::string_view arg) = 0;

  virtual TensorInfo info(const NetTensor* x) = 0;

  // Layers. Each returns its output tensor.
  virtual NetTensor* activation(std::string_view op, NetTensor* x, double alpha = 0.0, double beta = 0.0,
                                std::string_view suffix = {}) = 0;
  // Broadcasting as torch; both operands of one dtype (cast() first).
  virtual NetTensor* elementwise(std::string_view op, NetTensor* a, NetTensor* b, std::string_view suffix = {}) = 0;
  virtual NetTensor* unary(std::string_view op, NetTensor* x, std::string_view suffix = {}) = 0;
  // torch.matmul, with the last two dims of a or b swapped first when asked.
  virtual NetTensor* matmul(NetTensor* a, NetTensor* b, bool transpose_a = false, bool transpose_b = false,
                            std::string_view suffix = {}) = 0;
  // Empty axes reduce every dim; negative axes count from the end.
  virtual NetTensor* reduce(std::string_view op, NetTensor* x, std::vector<std::int64_t> axes, bool keep_dims,
                            std::string_view suffix = {}) = 0;
  virtual NetTensor* softmax(NetTensor* x, std::int64_t axis, bool log = false, std::string_view suffix = {}) = 0;
  virtual NetTensor* cast(NetTensor* x, DType to, std::string_view suffix = {}) = 0;
  // A constant of `dims` holding `values` (one per element, or one for all)
  // converted to `dtype`.
  virtual NetTensor* constant(std::vector<double> values, std::vector<std::int64_t> dims, DType dtype,
                              std::string_view suffix = {}) = 0;
  // -1 in `dims` takes the remaining size, as torch.reshape.
  virtual NetTensor* reshape(NetTensor* x, std::vector<std::int64_t> dims, std::string_view suffix = {}) = 0;
  virtual NetTensor* permute(NetTensor* x, std::vector<std::int64_t> perm, std::string_view suffix = {}) = 0;
  virtual NetTensor* concat(std::vector<NetTensor*> xs, std::int64_t axis, std::string_view suffix = {}) = 0;
  // Python slice semantics on each listed axis; the other axes are kept whole.
  virtual NetTensor* slice(NetTensor* x, std::vector<std::int64_t> axes, std::vector<std::int64_t> starts,
                           std::vector<std::int64_t> ends, std::vector<std::int64_t> steps,
                           std::string_view suffix = {}) = 0;
  // torch.where(cond, a, b): cond bool, a and b of one dtype, broadcast.
  virtual NetTensor* select(NetTensor* cond, NetTensor* a, NetTensor* b, std::string_view suffix = {}) = 0;

  // A layer of a plugin kernel ("myops::cummax", version): registered by
  // this or an earlier loaded plugin (PluginRegistry::add_kernel). Its
  // outputs, as the kernel's infer gives them; engine files that hold the
  // layer need that kernel loaded to run (atenrt/plugin_layer.h).
  virtual std::vector<NetTensor*> plugin_layer(std::string_view kernel, std::int64_t version,
                                               std::vector<NetTensor*> inputs, PluginAttributes attributes,
                                               std::string_view suffix = {}) = 0;
  // A Tensor[] result: return it as the node output that is a list. Only
  // for returning; a layer given it refuses it.
  virtual NetTensor* list(std::vector<NetTensor*> items) = 0;
};

// One converter registration (Torch-TensorRT's dynamo_tensorrt_converter).
enum class ConverterPriority { High, Standard };

struct ConverterSpec {
  // The op overloads it converts: "aten.renorm.default", never a packet ("aten.renorm").
  std::vector<std::string> keys;
  // One tensor per node output, in order (ctx.list(...) for a Tensor[]
  // output); nullptr for an output it does not compute (a later use is then
  // an error naming the node).
  std::function<std::vector<NetTensor*>(ConverterContext&)> convert;
  // Empty: every node of its keys is taken.
  std::function<Capability(const NodeInfo&)> validator = {};
  // High is tried before every built-in (Standard) converter of the key: how
  // a plugin overrides one; a node its validator refuses falls through.
  ConverterPriority priority = ConverterPriority::Standard;
  // Whether it takes nodes with dims only known at run time.
  bool supports_dynamic_shapes = false;
  bool enabled = true;
};

// What a plugin's register function receives. Registrations are checked as
// they are made and take effect together when the function returns.
class PluginRegistry {
 public:
  virtual ~PluginRegistry() = default;
  virtual void add_converter(ConverterSpec spec) = 0;
  // A kernel for plugin layers (atenrt/plugin_layer.h); its name and
  // version must be new to the process.
  virtual void add_kernel(KernelSpec spec) = 0;
};

// The plugin's entry point, found by name (atenrt_plugin_descriptor) in the
// shared library. abi_version comes first and never moves.
struct PluginDescriptor {
  int abi_version;
  const char* name;  // shown as the converters' family (`atenrt ops`)
  void (*register_converters)(PluginRegistry& registry);
};

// A plugin that was loaded: its file and name, and how many converters it added.
struct PluginInfo {
  std::string path;
  std::string name;
  std::size_t converters = 0;
  std::size_t kernels = 0;
};

// Loads a plugin and adds its converters to the process-wide registry; a file
// loaded already is not loaded again. Throws atenrt::FormatError naming the file
// when it is missing, is not a shared library, has no entry point, was built for
// another ATENRT_EXTENSION_ABI_VERSION, or registers a bad converter (then none
// of its converters is added); atenrt::SettingsError when a plugin that
// ATENRT_PLUGINS names (loaded first) cannot be used. Load plugins before compiling: the registry is
// not guarded against a compile running in another thread.
ATENRT_API PluginInfo load_plugin(const std::string& path);
// Every plugin loaded in this process, in load order (ATENRT_PLUGINS first).
ATENRT_API std::vector<PluginInfo> loaded_plugins();

}  // namespace atenrt

// Defines the plugin's entry point; NAME is a string literal, REGISTER a
// function `void (atenrt::PluginRegistry&)`.
#define ATENRT_PLUGIN(NAME, REGISTER)                                                              \
  extern "C" __attribute__((visibility("default"))) const ::atenrt::PluginDescriptor*             \
  atenrt_plugin_descriptor() {                                                                     \
    static const ::atenrt::PluginDescriptor descriptor{ATENRT_EXTENSION_ABI_VERSION, NAME, REGISTER}; \
    return &descriptor;                                                                            \
  }
