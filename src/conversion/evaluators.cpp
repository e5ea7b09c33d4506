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
#include "conversion/impl/unary.h"

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

// ---------------------------------------------------------------- Python scalar arithmetic

enum class PyOp { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, Eq, Ne, Lt, Le, Gt, Ge, Min, Max };

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  if (b == 0) throw UnsupportedError("integer division by zero");
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Value fold(PyOp op, const Scalar& a, const Scalar& b) {
  const bool ints = !a.is_float() && !b.is_float();
  switch (op) {
    case PyOp::Add: return ints ? Value(a.i + b.i) : Value(a.f + b.f);
    case PyOp::Sub: return ints ? Value(a.i - b.i) : Value(a.f - b.f);
    case PyOp::Mul: return ints ? Value(a.i * b.i) : Value(a.f * b.f);
    case PyOp::TrueDiv:
      if (b.f == 0.0) throw UnsupportedError("division by zero");
      return a.f / b.f;
    case PyOp::FloorDiv:
      if (ints) return floor_div(a.i, b.i);
      if (b.f == 0.0) throw UnsupportedError("division by zero");
      return std::floor(a.f / b.f);
    case PyOp::Mod:
      if (ints) return a.i - floor_div(a.i, b.i) * b.i;
      if (b.f == 0.0) throw UnsupportedError("modulo by zero");
      return a.f - std::floor(a.f / b.f) * b.f;
    case PyOp::Pow:
      if (ints && b.i >= 0) {
        std::int64_t r = 1;
        for (std::int64_t k = 0; k < b.i; ++k) r *= a.i;
        return r;
      }
      return std::pow(a.f, b.f);
    case PyOp::Eq: return a.f == b.f;
    case PyOp::Ne: return a.f != b.f;
    case PyOp::Lt: return a.f < b.f;
    case PyOp::Le: return a.f <= b.f;
    case PyOp::Gt: return a.f > b.f;
    case PyOp::Ge: return a.f >= b.f;
    case PyOp::Min: return ints ? Value(std::min(a.i, b.i)) : Value(std::min(a.f, b.f));
    case PyOp::Max: return ints ? Value(std::max(a.i, b.i)) : Value(std::max(a.f, b.f));
  }
  return {};
}

// A run-time operand (a size only known at run time): the matching layer.
Value on_tensors(const Scope& s, PyOp op, const Operand& a, const Operand& b) {
  namespace ew = impl::elementwise;
  switch (op) {
    case PyOp::Add: return ew::add(s, a, b, Scalar::of_int(1));
    case PyOp::Sub: return ew::sub(s, a, b, Scalar::of_int(1));
    case PyOp::Mul: return ew::mul(s, a, b);
    case PyOp::TrueDiv: return ew::div(s, a, b);
    case PyOp::FloorDiv: return ew::arithmetic(s, a, b, ElementwiseOp::FloorDiv);
    case PyOp::Mod: return ew::arithmetic(s, a, b, ElementwiseOp::Remainder);
    case PyOp::Pow: return ew::pow(s, a, b);
    case PyOp::Eq: return ew::compare(s, a, b, ElementwiseOp::Equal);
    case PyOp::Ne: return ew::compare(s, a, b, ElementwiseOp::NotEqual);
    case PyOp::Lt: return ew::compare(s, a, b, ElementwiseOp::Less);
    case PyOp::Le: return ew::compare(s, a, b, ElementwiseOp::LessEqual);
    case PyOp::Gt: return ew::compare(s, a, b, ElementwiseOp::Greater);
    case PyOp::Ge: return ew::compare(s, a, b, ElementwiseOp::GreaterEqual);
    case PyOp::Min: return ew::arithmetic(s, a, b, ElementwiseOp::Min);
    case PyOp::Max: return ew::arithmetic(s, a, b, ElementwiseOp::Max);
  }
  return {};
}

Operand to_operand(const Scope& s, const Value& v, const char* what) {
  if (auto num = NodeArgs::as_scalar(v)) return {nullptr, num};
  if (v.is_tensor()) return {s.tensor(v, what), std::nullopt};
  throw UnsupportedError(std::string("operand ") + what + " is " + v.describe() + ", not a number");
}

Outputs python_binary(const Scope& s, const NodeArgs& args, PyOp op) {
  const Value va = args.value(std::size_t{0});
  const Value vb = args.value(std::size_t{1});
  const auto sa = NodeArgs::as_scalar(va);
  const auto sb = NodeArgs::as_scalar(vb);
  if (sa && sb && !va.is_host_tensor() && !vb.is_host_tensor()) return one(fold(op, *sa, *sb));
  return one(on_tensors(s, op, to_operand(s, va, "a"), to_operand(s, vb, "b")));
}

// One registration for every Python binary operator: the key says which.
constexpr std::pair<const char*, PyOp> kPyOps[] = {
    {"operator.add", PyOp::Add},  {"operator.sub", PyOp::Sub},           {"operator.mul", PyOp::Mul},
    {"operator.truediv", PyOp::TrueDiv}, {"operator.floordiv", PyOp::FloorDiv}, {"operator.mod", PyOp::Mod},
    {"operator.pow", PyOp::Pow},  {"operator.eq", PyOp::Eq},             {"operator.ne", PyOp::Ne},
    {"operator.lt", PyOp::Lt},    {"operator.le", PyOp::Le},             {"operator.gt", PyOp::Gt},
    {"operator.ge", PyOp::Ge},    {"torch.sym_min", PyOp::Min},          {"torch.sym_max", PyOp::Max},
};
PyOp py_op(const std::string& target) {
  for (const auto& [key, op] : kPyOps) {
    if (target == key) return op;
  }
  throw UnsupportedError("no Python operator is registered as " + target);
}
Keys py_op_keys() {
  std::vector<std::string> out;
  for (const auto& entry : kPyOps) out.emplace_back(entry.first);
  return Keys(std::move(out));
}
ATENRT_CONVERTER(kFamily, py_op_keys())(const Scope& s, const NodeArgs& args) {
  return python_binary(s, args, py_op(s.target()));
}

ATENRT_CONVERTER(kFamily, "operator.neg")(const Scope& s, const NodeArgs& args) {
  const Value v = args.value(std::size_t{0});
  if (auto num = NodeArgs::as_scalar(v); num && !v.is_host_tensor()) {
    return one(num->is_float() ? Value(-num->f) : Value(-num->i));
  }
  return one(impl::unary::unary(s, s.tensor(v, "a"), network::UnaryOp::Neg));
}
ATENRT_CONVERTER(kFamily, "torch.sym_not")(const Scope& s, const NodeArgs& args) {
  const Value v = args.value(std::size_t{0});
  if (auto num = NodeArgs::as_scalar(v); num && !v.is_host_tensor()) return one(num->i == 0);
  return one(impl::unary::logical_not(s, s.tensor(v, "a")));
}
Outputs math_round(const NodeArgs& args, double (*fn)(double)) {
  const Value v = args.value(std::size_t{0});
  auto num = NodeArgs::as_scalar(v);
  if (!num || v.is_host_tensor()) throw UnsupportedError("expected a number known at conversion time, got " + v.describe());
  return one(static_cast<std::int64_t>(fn(num->f)));
}
ATENRT_CONVERTER(kFamily, "math.trunc", .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) { return math_round(args, [](double x) { return std::trunc(x); }); }
ATENRT_CONVERTER(kFamily, "math.floor", .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) { return math_round(args, [](double x) { return std::floor(x); }); }
ATENRT_CONVERTER(kFamily, "math.ceil", .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) { return math_round(args, [](double x) { return std::ceil(x); }); }
ATENRT_CONVERTER(kFamily, "torch.sym_int", .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) { return math_round(args, [](double x) { return std::trunc(x); }); }
ATENRT_CONVERTER(kFamily, "torch.sym_float", .supports_dynamic_shapes = false)(const Scope&, const NodeArgs& args) {
  const Value v = args.value(std::size_t{0});
  auto num = NodeArgs::as_scalar(v);
  if (!num || v.is_host_tensor()) throw UnsupportedError("expected a number known at conversion time, got " + v.describe());
  return one(num->f);
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
