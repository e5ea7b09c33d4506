// Evaluators: nodes computed at conversion time that add no layer (or, for
// sizes only known at run time, a shape computation). Python scalar
// arithmetic follows Python's rules (floor division and modulo round toward
// -inf; int ** negative int is a float).
#include <cmath>
#include <functional>
#include <random>

#include "atenrt/errors.h"
#include "conversion/aten_ops/common.h"
#include "conversion/host_tensor.h"
#include "conversion/impl/elementwise.h"
#include "conversion/impl/unary.h"

namespace atenrt::conversion::aten_ops {
namespace {
constexpr const char* kFamily = "evaluator";
using network::ElementwiseOp;

// ---------------------------------------------------------------- getitem / views without layers

ATENRT_CONVERTER("operator.getitem", .supports_dynamic_shapes = true) {
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
Outputs same(ConversionContext&, const NodeArgs& args) { return one(args.value("self")); }
ATENRT_REGISTER("aten.detach.default", same, .supports_dynamic_shapes = true);
ATENRT_REGISTER("aten.alias.default", same, .supports_dynamic_shapes = true);
ATENRT_REGISTER("aten.lift_fresh_copy.default", same, .supports_dynamic_shapes = true);
ATENRT_REGISTER("aten.lift_fresh.default", same, .supports_dynamic_shapes = true);

// ---------------------------------------------------------------- sizes

Value dim_size(ConversionContext& ctx, const NodeArgs& args, NetworkTensor* x, std::int64_t dim) {
  const auto d = impl::normalize_dim(dim, x->rank());
  if (x->dims[static_cast<std::size_t>(d)] >= 0) return x->dims[static_cast<std::size_t>(d)];
  // Known at run time only: shape → element d (a 0-d int64 tensor).
  auto* shape = ctx.net().add_shape(ctx.layer_name(args.name(), "shape"), x);
  auto* index = ctx.constant(scalar_tensor_int(DType::Int64, d), ctx.layer_name(args.name(), "index"));
  return ctx.net().add_gather(ctx.layer_name(args.name()), shape, index, network::GatherMode::Axis, 0);
}

ATENRT_CONVERTER("aten.sym_size.int", .supports_dynamic_shapes = true) {
  return one(dim_size(ctx, args, args.tensor("self"), args.i("dim")));
}
// torch 1.13 traces `aten.sym_size` (a packet) with (self, dim).
ATENRT_CONVERTER("aten.sym_size.default", .supports_dynamic_shapes = true) {
  auto* x = args.tensor("self");
  if (args.has("dim")) return one(dim_size(ctx, args, x, args.i("dim")));
  if (args.num_args() >= 2) return one(dim_size(ctx, args, x, args.i(args.node().inputs[1].name)));
  Value::List all;
  for (std::int64_t d = 0; d < x->rank(); ++d) all.push_back(dim_size(ctx, args, x, d));
  return one(all);
}
ATENRT_CONVERTER("aten.sym_numel.default", .validator = requires_static({"self"})) {
  return one(impl::numel(args.tensor("self")->dims));
}
ATENRT_CONVERTER("aten.sym_stride.int", .validator = requires_static({"self"})) {
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
Value on_tensors(ConversionContext& ctx, const NodeArgs& args, PyOp op, const Operand& a, const Operand& b) {
  namespace ew = impl::elementwise;
  const auto src = SourceIR::Operator;
  const std::string& n = args.name();
  switch (op) {
    case PyOp::Add: return ew::add(ctx, src, n, a, b, Scalar::of_int(1));
    case PyOp::Sub: return ew::sub(ctx, src, n, a, b, Scalar::of_int(1));
    case PyOp::Mul: return ew::mul(ctx, src, n, a, b);
    case PyOp::TrueDiv: return ew::div(ctx, src, n, a, b);
    case PyOp::FloorDiv: return ew::arithmetic(ctx, src, n, a, b, ElementwiseOp::FloorDiv);
    case PyOp::Mod: return ew::arithmetic(ctx, src, n, a, b, ElementwiseOp::Remainder);
    case PyOp::Pow: return ew::pow(ctx, src, n, a, b);
    case PyOp::Eq: return ew::compare(ctx, src, n, a, b, ElementwiseOp::Equal);
    case PyOp::Ne: return ew::compare(ctx, src, n, a, b, ElementwiseOp::NotEqual);
    case PyOp::Lt: return ew::compare(ctx, src, n, a, b, ElementwiseOp::Less);
    case PyOp::Le: return ew::compare(ctx, src, n, a, b, ElementwiseOp::LessEqual);
    case PyOp::Gt: return ew::compare(ctx, src, n, a, b, ElementwiseOp::Greater);
    case PyOp::Ge: return ew::compare(ctx, src, n, a, b, ElementwiseOp::GreaterEqual);
    case PyOp::Min: return ew::arithmetic(ctx, src, n, a, b, ElementwiseOp::Min);
    case PyOp::Max: return ew::arithmetic(ctx, src, n, a, b, ElementwiseOp::Max);
  }
  return {};
}

Operand to_operand(ConversionContext& ctx, const NodeArgs& args, const Value& v, const char* what) {
  if (auto s = NodeArgs::as_scalar(v)) return {nullptr, s};
  if (v.is_tensor()) return {ctx.tensor(v, args.name() + "." + what), std::nullopt};
  throw UnsupportedError(std::string("operand ") + what + " is " + v.describe() + ", not a number");
}

Outputs python_binary(ConversionContext& ctx, const NodeArgs& args, PyOp op) {
  const Value va = args.value(std::size_t{0});
  const Value vb = args.value(std::size_t{1});
  const auto sa = NodeArgs::as_scalar(va);
  const auto sb = NodeArgs::as_scalar(vb);
  if (sa && sb && !va.is_host_tensor() && !vb.is_host_tensor()) return one(fold(op, *sa, *sb));
  return one(on_tensors(ctx, args, op, to_operand(ctx, args, va, "a"), to_operand(ctx, args, vb, "b")));
}

#define ATENRT_PYOP(KEY, OP) \
  ATENRT_CONVERTER(KEY, .supports_dynamic_shapes = true) { return python_binary(ctx, args, PyOp::OP); }
ATENRT_PYOP("operator.add", Add)
ATENRT_PYOP("operator.sub", Sub)
ATENRT_PYOP("operator.mul", Mul)
ATENRT_PYOP("operator.truediv", TrueDiv)
ATENRT_PYOP("operator.floordiv", FloorDiv)
ATENRT_PYOP("operator.mod", Mod)
ATENRT_PYOP("operator.pow", Pow)
ATENRT_PYOP("operator.eq", Eq)
ATENRT_PYOP("operator.ne", Ne)
ATENRT_PYOP("operator.lt", Lt)
ATENRT_PYOP("operator.le", Le)
ATENRT_PYOP("operator.gt", Gt)
ATENRT_PYOP("operator.ge", Ge)
ATENRT_PYOP("torch.sym_min", Min)
ATENRT_PYOP("torch.sym_max", Max)
#undef ATENRT_PYOP

ATENRT_CONVERTER("operator.neg", .supports_dynamic_shapes = true) {
  const Value v = args.value(std::size_t{0});
  if (auto s = NodeArgs::as_scalar(v); s && !v.is_host_tensor()) {
    return one(s->is_float() ? Value(-s->f) : Value(-s->i));
  }
  return one(impl::unary::unary(ctx, SourceIR::Operator, args.name(), ctx.tensor(v, args.name()), network::UnaryOp::Neg));
}
ATENRT_CONVERTER("torch.sym_not", .supports_dynamic_shapes = true) {
  const Value v = args.value(std::size_t{0});
  if (auto s = NodeArgs::as_scalar(v); s && !v.is_host_tensor()) return one(s->i == 0);
  return one(impl::unary::logical_not(ctx, SourceIR::Torch, args.name(), ctx.tensor(v, args.name())));
}
Outputs math_round(const NodeArgs& args, double (*fn)(double)) {
  const Value v = args.value(std::size_t{0});
  auto s = NodeArgs::as_scalar(v);
  if (!s || v.is_host_tensor()) throw UnsupportedError("expected a number known at conversion time, got " + v.describe());
  return one(static_cast<std::int64_t>(fn(s->f)));
}
ATENRT_CONVERTER("math.trunc") { return math_round(args, [](double x) { return std::trunc(x); }); }
ATENRT_CONVERTER("math.floor") { return math_round(args, [](double x) { return std::floor(x); }); }
ATENRT_CONVERTER("math.ceil") { return math_round(args, [](double x) { return std::ceil(x); }); }
ATENRT_CONVERTER("torch.sym_int") { return math_round(args, [](double x) { return std::trunc(x); }); }
ATENRT_CONVERTER("torch.sym_float") {
  const Value v = args.value(std::size_t{0});
  auto s = NodeArgs::as_scalar(v);
  if (!s || v.is_host_tensor()) throw UnsupportedError("expected a number known at conversion time, got " + v.describe());
  return one(s->f);
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
