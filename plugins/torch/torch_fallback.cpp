// libatenrt_torch.so: runs ATen operators that no converter takes, through
// libtorch's c10 dispatcher (a boxed call by operator name and overload), so
// every operator libtorch has runs without per-op code here.
//
// prepare() resolves the operator and matches the graph's arguments (written
// against torch 2.x schemas) to this libtorch's schema: an argument 1.13 lacks
// is dropped when it holds its default, otherwise refused by name; an argument
// whose kind the schema does not take is refused by name. run() wraps our
// buffers with from_blob (no copy), calls the operator and hands back torch's
// outputs with their storage kept alive (no copy), except outputs that alias
// an input, which are cloned (our buffers are reused by the next run).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/api/include/torch/version.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/torch_abi.h"
#include "runtime/torch_policy.h"

namespace atenrt::torch_plugin {
namespace {

using torch_abi::Arg;
using torch_abi::ArgKind;

// atenrt's DType numbering (include/atenrt/dtype.h) to torch's.
constexpr c10::ScalarType kScalarTypes[] = {
    c10::kFloat, c10::kHalf, c10::kBFloat16, c10::kDouble, c10::kLong,
    c10::kInt,   c10::kShort, c10::kChar,    c10::kByte,   c10::kBool};
constexpr int kDTypeCount = 10;

c10::ScalarType scalar_type(int dtype) {
  if (dtype < 0 || dtype >= kDTypeCount) throw std::runtime_error("dtype code " + std::to_string(dtype) + " out of range");
  return kScalarTypes[dtype];
}

int dtype_of(c10::ScalarType t) {
  for (int i = 0; i < kDTypeCount; ++i) {
    if (kScalarTypes[i] == t) return i;
  }
  return -1;
}

[[noreturn]] void fail(const torch_abi::OpCall& call, const std::string& why) {
  throw std::runtime_error(call.node + ": " + why);
}

bool is_kind(const c10::TypePtr& t, c10::TypeKind k) { return t->kind() == k; }

// Whether a schema type takes an argument of this kind (None: an Optional).
bool accepts(c10::TypePtr type, const Arg& a) {
  if (a.kind == ArgKind::None) return is_kind(type, c10::TypeKind::OptionalType) || is_kind(type, c10::TypeKind::NoneType);
  if (is_kind(type, c10::TypeKind::OptionalType)) type = type->expectRef<c10::OptionalType>().getElementType();
  using K = c10::TypeKind;
  auto list_of = [&](auto pred) {
    return is_kind(type, K::ListType) && pred(type->expectRef<c10::ListType>().getElementType());
  };
  auto is_int = [](const c10::TypePtr& t) { return t->kind() == K::IntType || t->kind() == K::SymIntType; };
  // torch.export writes a Python number where a Tensor goes (mul.Tensor(x, 2.0)).
  const bool number = a.kind == ArgKind::Int || a.kind == ArgKind::Double || a.kind == ArgKind::Bool;
  if (number && is_kind(type, K::TensorType)) return true;
  switch (a.kind) {
    case ArgKind::Tensor: return is_kind(type, K::TensorType);
    case ArgKind::TensorList: return list_of([](const c10::TypePtr& e) { return e->kind() == K::TensorType; });
    case ArgKind::OptionalTensorList:
      return list_of([](const c10::TypePtr& e) {
        return e->kind() == K::OptionalType &&
               e->expectRef<c10::OptionalType>().getElementType()->kind() == K::TensorType;
      });
    case ArgKind::Int: return is_int(type) || is_kind(type, K::NumberType) || is_kind(type, K::FloatType) || list_of(is_int);
    case ArgKind::IntList: return list_of(is_int);
    case ArgKind::Double: return is_kind(type, K::FloatType) || is_kind(type, K::NumberType);
    case ArgKind::DoubleList: return list_of([](const c10::TypePtr& e) { return e->kind() == K::FloatType; });
    case ArgKind::Bool: return is_kind(type, K::BoolType) || is_kind(type, K::NumberType);
    case ArgKind::BoolList: return list_of([](const c10::TypePtr& e) { return e->kind() == K::BoolType; });
    case ArgKind::String: return is_kind(type, K::StringType);
    case ArgKind::ScalarType:
    case ArgKind::MemoryFormat:
    case ArgKind::Layout: return is_kind(type, K::IntType);
    case ArgKind::Device: return is_kind(type, K::DeviceObjType);
    case ArgKind::None: break;
  }
  return false;
}

// The IValue of a non-tensor argument, shaped as the schema type wants.
c10::IValue constant_value(const torch_abi::OpCall& call, const c10::Argument& schema_arg, const Arg& a) {
  c10::TypePtr type = schema_arg.type();
  if (is_kind(type, c10::TypeKind::OptionalType)) type = type->expectRef<c10::OptionalType>().getElementType();
  const bool number = a.kind == ArgKind::Int || a.kind == ArgKind::Double || a.kind == ArgKind::Bool;
  if (number && is_kind(type, c10::TypeKind::TensorType)) {
    // A number in a Tensor slot: a wrapped-number tensor, as eager mode makes
    // it, so that type promotion treats it as a Python scalar.
    const c10::Scalar value = a.kind == ArgKind::Double ? c10::Scalar(a.f)
                              : a.kind == ArgKind::Bool ? c10::Scalar(a.i != 0)
                                                        : c10::Scalar(a.i);
    at::Tensor t = c10::scalar_to_tensor(value);
    t.unsafeGetTensorImpl()->set_wrapped_number(true);
    return c10::IValue(t);
  }
  switch (a.kind) {
    case ArgKind::None: return c10::IValue();
    case ArgKind::Int:
      if (is_kind(type, c10::TypeKind::ListType)) {  // an int[N] written as one int
        const auto n = schema_arg.N().value_or(1);
        return c10::IValue(std::vector<std::int64_t>(static_cast<std::size_t>(n), a.i));
      }
      if (is_kind(type, c10::TypeKind::FloatType)) return c10::IValue(static_cast<double>(a.i));
      return c10::IValue(a.i);
    case ArgKind::IntList: return c10::IValue(a.ints);
    case ArgKind::Double: return c10::IValue(a.f);
    case ArgKind::DoubleList: return c10::IValue(a.floats);
    case ArgKind::Bool: return c10::IValue(a.i != 0);
    case ArgKind::BoolList: {
      c10::List<bool> l;
      for (auto v : a.ints) l.push_back(v != 0);
      return c10::IValue(l);
    }
    case ArgKind::String: return c10::IValue(a.s);
    case ArgKind::ScalarType: return c10::IValue(static_cast<std::int64_t>(scalar_type(static_cast<int>(a.i))));
    case ArgKind::MemoryFormat: {
      // The .pt2 numbering: 1 contiguous, 2 channels_last, 3 channels_last_3d, 4 preserve.
      static const std::map<std::int64_t, c10::MemoryFormat> formats = {
          {1, c10::MemoryFormat::Contiguous}, {2, c10::MemoryFormat::ChannelsLast},
          {3, c10::MemoryFormat::ChannelsLast3d}, {4, c10::MemoryFormat::Preserve}};
      auto it = formats.find(a.i);
      if (it == formats.end()) fail(call, "argument '" + a.name + "': memory format " + std::to_string(a.i) + " is not known");
      return c10::IValue(static_cast<std::int64_t>(it->second));
    }
    case ArgKind::Layout:
      if (a.i != 7) fail(call, "argument '" + a.name + "': only strided tensors run in the fallback");
      return c10::IValue(static_cast<std::int64_t>(c10::kStrided));
    case ArgKind::Device:
      if (a.s != "cpu") fail(call, "argument '" + a.name + "': device '" + a.s + "'; the fallback runs on the CPU");
      return c10::IValue(c10::Device(c10::kCPU));
    case ArgKind::Tensor:
    case ArgKind::TensorList:
    case ArgKind::OptionalTensorList: break;
  }
  fail(call, "argument '" + a.name + "' is a tensor");
}

// Where the call's tensors go: a stack slot, or an element of a list in it.
struct TensorSlot {
  std::size_t stack_index = 0;
  const Arg* arg = nullptr;
};

at::Tensor wrap(const torch_abi::TensorView& v) {
  if (v.torch) return *static_cast<const at::Tensor*>(v.torch.get());
  if (v.sizes.size() != v.strides.size()) throw std::runtime_error("tensor with sizes and strides of different rank");
  for (std::size_t d = 0; d < v.sizes.size(); ++d) {
    if (v.sizes[d] < 0 || v.strides[d] < 0) throw std::runtime_error("tensor with a negative size or stride");
  }
  // from_blob never writes; the allowlist keeps operators that write out.
  return at::from_blob(const_cast<void*>(v.data), v.sizes, v.strides,
                       at::TensorOptions().dtype(scalar_type(v.dtype)).device(c10::kCPU));
}

class DispatchedOp final : public torch_abi::PreparedOp {
 public:
  DispatchedOp(torch_abi::OpCall call, c10::OperatorHandle handle) : call_(std::move(call)), op_(handle) {
    const auto& schema = op_.schema();
    std::map<std::string, const Arg*> by_name;
    for (const auto& a : call_.args) by_name[a.name] = &a;
    for (const auto& a : call_.args) {
      const bool known = std::any_of(schema.arguments().begin(), schema.arguments().end(),
                                     [&](const c10::Argument& s) { return s.name() == a.name; });
      if (known) continue;
      if (!a.at_default) {
        fail(call_, "argument '" + a.name + "' is not in libtorch " + std::string(TORCH_VERSION) + "'s schema (" +
                        toString(schema) + ") and is not at its default, so the fallback cannot run it");
      }
    }
    // The schema-based half of the allowlist (torch_policy.h has the names).
    for (const auto& s : schema.arguments()) {
      if (s.alias_info() && s.alias_info()->isWrite()) {
        fail(call_, "refused by the fallback's allowlist: argument '" + s.name() + "' is written by the operator");
      }
      if (s.type()->kind() == c10::TypeKind::GeneratorType ||
          (s.type()->kind() == c10::TypeKind::OptionalType &&
           s.type()->expectRef<c10::OptionalType>().getElementType()->kind() == c10::TypeKind::GeneratorType)) {
        fail(call_, "refused by the fallback's allowlist: the operator takes a random generator");
      }
    }
    for (const auto& s : schema.arguments()) {
      auto it = by_name.find(s.name());
      const std::size_t index = stack_.size();
      if (it == by_name.end()) {
        if (!s.default_value()) {
          fail(call_, "libtorch " + std::string(TORCH_VERSION) + "'s schema (" + toString(schema) +
                          ") needs argument '" + s.name() + "', which the graph does not give");
        }
        stack_.push_back(*s.default_value());
        continue;
      }
      const Arg& a = *it->second;
      if (!accepts(s.type(), a)) {
        fail(call_, "argument '" + a.name + "' does not fit libtorch " + std::string(TORCH_VERSION) +
                        "'s type " + s.type()->str() + " (" + toString(schema) + ")");
      }
      if (a.kind == ArgKind::Tensor || a.kind == ArgKind::TensorList || a.kind == ArgKind::OptionalTensorList) {
        for (auto t : a.ints) {
          if (t < -1 || t >= static_cast<std::int64_t>(call_.num_tensors)) fail(call_, "argument '" + a.name + "' names tensor " + std::to_string(t));
          if (t < 0 && a.kind != ArgKind::OptionalTensorList) fail(call_, "argument '" + a.name + "' has a missing tensor");
        }
        slots_.push_back({index, &a});
        stack_.emplace_back();
      } else {
        stack_.push_back(constant_value(call_, s, a));
      }
    }
    for (const auto& r : schema.returns()) {
      const auto k = r.type()->kind();
      const bool tensor_list = k == c10::TypeKind::ListType &&
                               r.type()->expectRef<c10::ListType>().getElementType()->kind() == c10::TypeKind::TensorType;
      if (k != c10::TypeKind::TensorType && !tensor_list) {
        fail(call_, "the operator returns " + r.type()->str() + "; the fallback returns tensors only");
      }
    }
  }

  std::vector<torch_abi::OwnedTensor> run(const std::vector<torch_abi::TensorView>& tensors) const override {
    if (tensors.size() != call_.num_tensors) {
      fail(call_, "run with " + std::to_string(tensors.size()) + " tensors, expected " + std::to_string(call_.num_tensors));
    }
    try {
      std::vector<at::Tensor> inputs;
      inputs.reserve(tensors.size());
      for (const auto& t : tensors) inputs.push_back(wrap(t));
      torch::jit::Stack stack = stack_;
      for (const auto& slot : slots_) {
        const Arg& a = *slot.arg;
        if (a.kind == ArgKind::Tensor) {
          stack[slot.stack_index] = inputs[static_cast<std::size_t>(a.ints.at(0))];
        } else if (a.kind == ArgKind::TensorList) {
          c10::List<at::Tensor> l;
          for (auto t : a.ints) l.push_back(inputs[static_cast<std::size_t>(t)]);
          stack[slot.stack_index] = l;
        } else {
          c10::List<c10::optional<at::Tensor>> l;
          for (auto t : a.ints) l.push_back(t < 0 ? c10::optional<at::Tensor>() : inputs[static_cast<std::size_t>(t)]);
          stack[slot.stack_index] = l;
        }
      }
      op_.callBoxed(&stack);
      std::vector<at::Tensor> outs;
      for (const auto& v : stack) {
        if (v.isTensor()) {
          outs.push_back(v.toTensor());
        } else if (v.isTensorList()) {
          for (const at::Tensor& t : v.toTensorList()) outs.push_back(t);
        } else {
          fail(call_, "the operator returned a " + v.tagKind());
        }
      }
      if (outs.size() != call_.num_outputs) {
        fail(call_, "the operator returned " + std::to_string(outs.size()) + " tensors, the graph expects " +
                        std::to_string(call_.num_outputs));
      }
      std::vector<torch_abi::OwnedTensor> result;
      for (auto& t : outs) {
        if (!t.defined() || t.layout() != c10::kStrided || !t.device().is_cpu()) {
          fail(call_, "the operator returned a tensor that is not a dense CPU tensor");
        }
        const int dtype = dtype_of(t.scalar_type());  // -1: stays on torch's side (complex)
        // Our buffers are reused by the next run: never hand back a view of them.
        bool aliases_input = false;
        for (const auto& in : inputs) aliases_input = aliases_input || t.is_alias_of(in);
        at::Tensor owned = aliases_input ? t.clone(c10::MemoryFormat::Contiguous) : t.contiguous();
        auto* keep = new at::Tensor(owned);
        torch_abi::OwnedTensor o;
        o.view.dtype = dtype;
        o.view.data = dtype < 0 ? nullptr : keep->data_ptr();
        o.view.sizes.assign(keep->sizes().begin(), keep->sizes().end());
        o.view.strides.assign(keep->strides().begin(), keep->strides().end());
        o.owner = std::shared_ptr<const void>(keep, [](const void* p) { delete static_cast<const at::Tensor*>(p); });
        result.push_back(std::move(o));
      }
      return result;
    } catch (const c10::Error& e) {
      fail(call_, std::string("libtorch: ") + e.what_without_backtrace());
    }
  }

 private:
  torch_abi::OpCall call_;
  c10::OperatorHandle op_;
  torch::jit::Stack stack_;      // the arguments, tensors left empty
  std::vector<TensorSlot> slots_;
};

std::unique_ptr<torch_abi::PreparedOp> prepare(const torch_abi::OpCall& call) {
  if (auto why = torch_policy::refusal(call.op, call.overload); !why.empty()) {
    fail(call, "refused by the fallback's allowlist: " + why);
  }
  auto handle = c10::Dispatcher::singleton().findSchema({call.op, call.overload});
  if (!handle) {
    fail(call, "libtorch " + std::string(TORCH_VERSION) + " has no operator " + call.op +
                   (call.overload.empty() ? "" : "." + call.overload) + " (it is newer than this libtorch)");
  }
  try {
    return std::make_unique<DispatchedOp>(call, *handle);
  } catch (const c10::Error& e) {
    fail(call, std::string("libtorch: ") + e.what_without_backtrace());
  }
}

void set_num_threads(int threads) {
  if (threads > 0 && at::get_num_threads() != threads) at::set_num_threads(threads);
}
int num_threads() { return at::get_num_threads(); }

}  // namespace
}  // namespace atenrt::torch_plugin

extern "C" __attribute__((visibility("default"))) const atenrt::torch_abi::Api* atenrt_torch_plugin_api() {
  static const atenrt::torch_abi::Api api{atenrt::torch_abi::kAbiVersion, TORCH_VERSION,
                                          &atenrt::torch_plugin::prepare, &atenrt::torch_plugin::set_num_threads,
                                          &atenrt::torch_plugin::num_threads};
  return &api;
}
