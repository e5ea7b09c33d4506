// The interface between atenrt and its libtorch fallback plugin
// (libatenrt_torch.so, plugins/torch/). The core never links libtorch: it
// dlopens the plugin when a program has torch segments (runtime/torch_plugin.h)
// and talks to it through these types only. Both sides are built from one
// tree by one compiler, so standard-library types cross safely; kAbiVersion
// still guards against a stale plugin next to a newer core.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace atenrt::torch_abi {

inline constexpr int kAbiVersion = 2;
inline constexpr const char* kEntryPoint = "atenrt_torch_plugin_api";

// What an argument holds. Tensor kinds refer to the call's tensors by
// position: `ints` holds indices into the tensors passed to run() (-1: None).
enum class ArgKind : std::uint8_t {
  None, Tensor, TensorList, OptionalTensorList, Int, IntList, Double, DoubleList,
  Bool, BoolList, String, ScalarType, MemoryFormat, Layout, Device,
};

struct Arg {
  std::string name;        // as the graph's schema names it
  ArgKind kind = ArgKind::None;
  bool at_default = false; // equals the graph schema's default (may be dropped for an older torch)
  std::int64_t i = 0;      // Int, Bool (0/1), ScalarType (torch's ScalarType code), MemoryFormat, Layout
  double f = 0.0;          // Double
  std::vector<std::int64_t> ints;   // IntList, BoolList, tensor indices
  std::vector<double> floats;       // DoubleList
  std::string s;           // String, Device ("cpu")
};

// One ATen operator call: "aten::linalg_inv_ex" with overload "" (default).
struct OpCall {
  std::string node;      // for messages: "node 'inv' (aten.linalg_inv_ex.default)"
  std::string op;        // qualified name, "aten::eye"
  std::string overload;  // "" for the default overload
  std::vector<Arg> args;
  std::size_t num_tensors = 0;  // tensors run() receives
  std::size_t num_outputs = 0;  // tensors the op returns, flattened
};

// A tensor crossing the boundary, in atenrt's DType numbering (-1: a dtype
// atenrt cannot hold, such as complex; such a tensor stays on torch's side).
// `torch`, when set, is a tensor an earlier call returned (its OwnedTensor's
// owner): the plugin uses it as it is, for values that never leave a torch
// segment.
struct TensorView {
  int dtype = 0;
  const void* data = nullptr;
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
  std::shared_ptr<const void> torch;
};

// A tensor torch made; `owner` keeps torch's storage alive (no copy).
struct OwnedTensor {
  TensorView view;
  std::shared_ptr<const void> owner;
};

// A resolved operator with its non-tensor arguments converted once.
class PreparedOp {
 public:
  virtual ~PreparedOp() = default;
  // Throws std::runtime_error naming the node on a failed call.
  virtual std::vector<OwnedTensor> run(const std::vector<TensorView>& tensors) const = 0;
};

struct Api {
  int abi_version = kAbiVersion;
  const char* torch_version = "";  // "1.13.1"
  // Resolves the operator in the dispatcher and matches arguments to its
  // schema; throws std::runtime_error naming the node, op and argument.
  std::unique_ptr<PreparedOp> (*prepare)(const OpCall& call) = nullptr;
  // libtorch's intra-op thread count is process-global.
  void (*set_num_threads)(int threads) = nullptr;
  int (*num_threads)() = nullptr;
};

}  // namespace atenrt::torch_abi

extern "C" {
using atenrt_torch_plugin_api_fn = const atenrt::torch_abi::Api* (*)();
}
