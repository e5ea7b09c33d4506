// Evaluators: nodes computed at conversion time that add no layer (or, for
// sizes only known at run time, a shape computation). Python scalar
// arithmetic follows Python's rules (floor division and modulo round toward
// -inf; int ** negative int is a float).
#include <cmath>
#include <functional>
#include <random>
#include <utility>

#include "atenrt/errors.h"
#include "conversion/aten_ops/common.h"
#include "conversion/host_tensor.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/select.h"
#include "conversion/impl/unary.h"
#include "ir/py_scalar.h"

namespace atenrt::conversion::aten_ops {
namespace {
constexpr Family kFamily{.name = "evaluator", .supports_dynamic_shapes = true};
using network::ElementwiseOp;

// ---------------------------------------------------------------- getitem / views without layers

ATENRT_CONVERTER(kFamily, "operator.getitem")(const Scope&, const NodeArgs& args) {
  const Value seq = args.value(std::size_t{0});
  const Value idx = args.value(std::size_t{1});
  if (!seq.is_list()) throw UnsupportedError("getitem on " + seq.describe() + " (expected a tuple or list)");
  if (!idx.is_int()) throw UnsupportedError("getitem index is " + idx.describe() + ", not an int");
  const auto n = static_cast<std::int64_t>(seq.list().size());
  std::int64_t i = idx.as_int();
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw UnsupportedError("getitem index " + std::to_string(idx.as_int()) + " out of range for " + std::to_string(n));
  return one(seq.list()[static_cast<std::size_t>(i)]);
}

// detach / alias / lift_fresh_copy / clone: the same value (a graph output
// that is an input gets its own copy in convert_graph).
Outputs same(const Scope&, const NodeArgs& args) { return one(args.value("self")); }
ATENRT_REGISTER(kFamily, keys("aten.detach.default", "aten.alias.default", "aten.lift_fresh_copy.default", "aten.lift_fresh.default"), same);

// ---------------------------------------------------------------- sizes

Value dim_size(const Scope& s, NetworkTensor* x, std::int64_t dim) {
  const auto d = impl::normalize_dim(dim, x->rank());
  if (x->dims[static_cast<std::size_t>(d)] >= 0) return x->dims[static_cast<std::size_t>(d)];
  // Known at run time only: shape → element d (a 0-d int64 tensor).
  auto* shape = s.add_shape("shape", x);
  auto* index = s.constant(scalar_tensor_int(DType::Int64, d), "index");
  return s.add_gather("", shape, index, network::GatherMode::Axis, 0);
}

ATENRT_CONVERTER(kFamily, "aten.sym_size.int")(const Scope& s, const NodeArgs& args) {
  return one(dim_size(s, args.tensor("self"), args.i("dim")));
}
// torch 1.13 traces `aten.sym_size` (a packet) with (self, dim).
ATENRT_CONVERTER(kFamily, "aten.sym_size.default")(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor("self");
  if (args.has("dim")) return one(dim_size(s, x, args.i("dim")));
  if (args.num_args() >= 2) return one(dim_size(s, x, args.i(args.node().inputs[1].name)));
  Value::List all;
  for (std::int64_t d = 0; d < x->rank(); ++d) all.push_back(dim_size(s, x, d));
  return one(all);
}
ATENRT_CONVERTER(kFamily, "aten.sym_numel.default", .validator = requires_static({"self"}), .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) {
  return one(impl::numel(args.tensor("self")->dims));
}
ATENRT_CONVERTER(kFamily, "aten.sym_stride.int", .validator = requires_static({"self"}), .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) {
  auto* x = args.tensor("self");
  const auto d = impl::normalize_dim(args.i("dim"), x->rank());
  std::int64_t stride = 1;
  for (auto k = d + 1; k < x->rank(); ++k) stride *= x->dims[static_cast<std::size_t>(k)];
  return one(stride);
}

// ---------------------------------------------------------------- Python scalar operators

// Known operands are folded by ir::eval_python_scalar_op (the rules lowering
// uses too); an operand known only at run time (a size of a dynamic input, a
// bool computed from one) becomes the matching layer.
ir::PyNumber to_py(const Scalar& s) {
  if (s.kind == Scalar::Kind::Bool) return ir::PyNumber::of_bool(s.i != 0);
  if (s.kind == Scalar::Kind::Int) return ir::PyNumber::of_int(s.i);
  return ir::PyNumber::of_float(s.f);
}
Value to_value(const ir::PyNumber& n) {
  if (n.is_bool()) return n.i != 0;
  if (n.is_float()) return n.f;
  return n.i;
}

std::optional<ElementwiseOp> binary_layer_op(const std::string& target) {
  static const std::pair<const char*, ElementwiseOp> ops[] = {
      {"operator.add", ElementwiseOp::Add},       {"operator.sub", ElementwiseOp::Sub},
      {"operator.mul", ElementwiseOp::Mul},       {"operator.truediv", ElementwiseOp::Div},
      {"operator.floordiv", ElementwiseOp::FloorDiv}, {"operator.mod", ElementwiseOp::Remainder},
      {"operator.pow", ElementwiseOp::Pow},       {"operator.eq", ElementwiseOp::Equal},
      {"operator.ne", ElementwiseOp::NotEqual},   {"operator.lt", ElementwiseOp::Less},
      {"operator.le", ElementwiseOp::LessEqual},  {"operator.gt", ElementwiseOp::Greater},
      {"operator.ge", ElementwiseOp::GreaterEqual}, {"torch.sym_min", ElementwiseOp::Min},
      {"torch.sym_max", ElementwiseOp::Max},      {"operator.and_", ElementwiseOp::And},
      {"operator.or_", ElementwiseOp::Or},        {"operator.xor", ElementwiseOp::Xor},
  };
  for (const auto& [key, op] : ops) {
    if (target == key) return op;
  }
  return std::nullopt;
}

Operand to_operand(const Scope& s, const Value& v, const char* what) {
  if (auto num = NodeArgs::as_scalar(v)) return {nullptr, num};
  if (v.is_tensor()) return {s.tensor(v, what), std::nullopt};
  throw UnsupportedError(std::string("operand ") + what + " is " + v.describe() + ", not a number");
}

// A binary operator with an operand known only at run time.
Value on_tensors(const Scope& s, const std::string& target, const Operand& a, const Operand& b) {
  namespace ew = impl::elementwise;
  const auto op = binary_layer_op(target);
  if (!op) throw UnsupportedError(target + " of a value known only at run time is not supported");
  switch (*op) {
    case ElementwiseOp::Add: return ew::add(s, a, b, Scalar::of_int(1));
    case ElementwiseOp::Sub: return ew::sub(s, a, b, Scalar::of_int(1));
    case ElementwiseOp::Mul: return ew::mul(s, a, b);
    case ElementwiseOp::Div: return ew::div(s, a, b);
    case ElementwiseOp::Pow: return ew::pow(s, a, b);
    case ElementwiseOp::And:
    case ElementwiseOp::Or:
    case ElementwiseOp::Xor:
      // On bools Python's & | ^ are logical; on ints they are bitwise.
      return ew::bitwise(s, a, b, *op);
    case ElementwiseOp::Equal:
    case ElementwiseOp::NotEqual:
    case ElementwiseOp::Less:
    case ElementwiseOp::LessEqual:
    case ElementwiseOp::Greater:
    case ElementwiseOp::GreaterEqual: return ew::compare(s, a, b, *op);
    default: return ew::arithmetic(s, a, b, *op);
  }
}

// A one-operand operator on a number known only at run time (a 0-d tensor:
// int64 for a Python int, bool, float32 for a float, as the run-time
// arithmetic above makes them). Python's int(), trunc, floor and ceil of a
// float give an int; of an int or a bool, the int itself.
Value run_time_unary(const Scope& s, const std::string& target, NetworkTensor* x) {
  using network::UnaryOp;
  namespace un = impl::unary;
  const bool floating = is_floating(x->dtype);
  auto as_int = [&](NetworkTensor* t) { return impl::cast(s, t, DType::Int64); };
  if (target == "operator.neg") return un::unary(s, x->dtype == DType::Bool ? as_int(x) : x, UnaryOp::Neg);
  if (target == "operator.not_" || target == "torch.sym_not") return un::logical_not(s, x);
  if (target == "operator.pos") return x->dtype == DType::Bool ? as_int(x) : x;
  if (target == "operator.abs") return un::unary(s, x->dtype == DType::Bool ? as_int(x) : x, UnaryOp::Abs);
  if (target == "torch.sym_float") return floating ? x : impl::cast(s, x, DType::Float32);
  // A float cast to int64 truncates toward zero (torch's x86 rule for values that fit).
  if (target == "torch.sym_int" || target == "math.trunc") return as_int(x);
  if (target == "math.floor") return as_int(floating ? un::unary(s, x, UnaryOp::Floor) : x);
  if (target == "math.ceil") return as_int(floating ? un::unary(s, x, UnaryOp::Ceil) : x);
  if (target == "math.sqrt" || target == "torch.sym_sqrt") {
    // Python raises on a negative operand (nan passes: its root is nan): a Check layer stops the run
    // with an InputError naming the node, as the known-value case names it when the network is built.
    NetworkTensor* root_of = floating ? x : impl::cast(s, x, DType::Float32);
    NetworkTensor* negative = impl::elementwise::compare(s, {root_of, std::nullopt}, {nullptr, Scalar::of_int(0)},
                                                         ElementwiseOp::Less);
    s.add_layer("domain_check", {un::logical_not(s, negative)},
                network::CheckParams{s.where() + ": " + target +
                                     " of a negative number (Python raises ValueError: math domain error)"});
    return un::unary(s, root_of, UnaryOp::Sqrt);
  }
  throw UnsupportedError(target + " of a value known only at run time is not supported");
}

// torch.sym_ite(cond, then, else) with any operand known only at run time:
// a known condition picks its operand; a run-time one selects (Python's truth
// of an int or float: non-zero).
Value run_time_ite(const Scope& s, const std::vector<Value>& values) {
  if (auto c = NodeArgs::as_scalar(values[0]); c && !values[0].is_host_tensor()) {
    return to_py(*c).truthy() ? values[1] : values[2];
  }
  NetworkTensor* cond = s.tensor(values[0], "a");
  if (cond->dtype != DType::Bool) {
    cond = impl::elementwise::compare(s, {cond, std::nullopt}, {nullptr, Scalar::of_int(0)}, ElementwiseOp::NotEqual);
  }
  return impl::select::where(s, cond, to_operand(s, values[1], "b"), to_operand(s, values[2], "c"));
}

Outputs python_scalar_op(const Scope& s, const NodeArgs& args) {
  const std::string target = s.target();
  const int arity = ir::python_scalar_op_arity(target);
  if (arity < 0 || args.num_args() != static_cast<std::size_t>(arity)) {
    throw UnsupportedError(target + " takes " + std::to_string(arity) + " operands, the node has " +
                           std::to_string(args.num_args()));
  }
  std::vector<Value> values;
  std::vector<ir::PyNumber> known;
  for (int k = 0; k < arity; ++k) {
    values.push_back(args.value(static_cast<std::size_t>(k)));
    const auto num = NodeArgs::as_scalar(values.back());
    if (num && !values.back().is_host_tensor()) known.push_back(to_py(*num));
  }
  if (known.size() == values.size()) return one(to_value(ir::eval_python_scalar_op(target, known)));
  if (target == "torch.sym_ite") return one(run_time_ite(s, values));
  if (arity == 1) return one(run_time_unary(s, target, s.tensor(values[0], "a")));
  return one(on_tensors(s, target, to_operand(s, values[0], "a"), to_operand(s, values[1], "b")));
}

// item() / _local_scalar_dense: the tensor's one element as a number. Known
// when the network is built (a weight, a folded constant): that number;
// computed at run time: a 0-d tensor, which the scalar consumers
// (scalar_tensor, the Python operators above) take as a run-time number.
Capability one_element(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("self");
  if (!m) return Capability::yes();
  for (const auto& d : m->sizes) {
    if (!d.is_static() || *d.value != 1) {
      return Capability::no("item() of a tensor that may not hold exactly one element (" + m->to_string() + ")");
    }
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten._local_scalar_dense.default", "aten.item.default"), .validator = one_element)
(const Scope& s, const NodeArgs& args) {
  const Value v = args.value("self");
  if (v.is_host_tensor()) {
    if (auto num = NodeArgs::as_scalar(v)) return one(to_value(to_py(*num)));
  }
  NetworkTensor* t = args.tensor("self");
  if (impl::numel(impl::static_dims(t, "item()")) != 1) {
    throw UnsupportedError("item() of " + v.describe() + ": the tensor must hold exactly one element");
  }
  return one(t->rank() == 0 ? t : impl::reshape(s, t, network::Dims{}));
}

// Every Python scalar operator: folded when its operands are known, layers
// on 0-d tensors when one is known only at run time (above).
ATENRT_CONVERTER(kFamily, keys("operator.add", "operator.sub", "operator.mul", "operator.truediv", "operator.floordiv",
                               "operator.mod", "operator.pow", "operator.eq", "operator.ne", "operator.lt",
                               "operator.le", "operator.gt", "operator.ge", "operator.and_", "operator.or_",
                               "operator.xor", "operator.neg", "operator.not_", "torch.sym_not", "torch.sym_min",
                               "torch.sym_max", "operator.pos", "operator.abs", "math.trunc", "math.floor", "math.ceil",
                               "math.sqrt", "torch.sym_int", "torch.sym_float", "torch.sym_ite", "torch.sym_sqrt"))
(const Scope& s, const NodeArgs& args) {
  return python_scalar_op(s, args);
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
