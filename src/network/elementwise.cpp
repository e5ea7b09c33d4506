// Elementwise binary layers with numpy/torch broadcasting.
#include <array>

#include "network/infer.h"

namespace atenrt::network {

namespace {
constexpr std::array<std::string_view, kElementwiseOpCount> kNames = {
    "add", "sub", "mul", "div", "pow", "min", "max", "floor_div", "trunc_div", "remainder",
    "fmod", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor", "bit_and", "bit_or", "bit_xor",
    "zeta", "igamma", "igammac", "nextafter", "chebyshev_t", "chebyshev_u", "chebyshev_v", "chebyshev_w",
    "shifted_chebyshev_t", "shifted_chebyshev_u", "shifted_chebyshev_v", "shifted_chebyshev_w",
    "hermite_h", "hermite_he", "laguerre_l", "legendre_p", "shift_left",
    "shift_right"};
}  // namespace

std::string_view elementwise_op_name(ElementwiseOp op) {
  const auto i = static_cast<std::size_t>(op);
  return i < kNames.size() ? kNames[i] : "?";
}

bool is_comparison_or_logical(ElementwiseOp op) {
  return static_cast<int>(op) >= static_cast<int>(ElementwiseOp::Equal) &&
         static_cast<int>(op) <= static_cast<int>(ElementwiseOp::Xor);
}

bool is_special_function(ElementwiseOp op) {
  return static_cast<int>(op) >= static_cast<int>(ElementwiseOp::Zeta) &&
         static_cast<int>(op) <= static_cast<int>(ElementwiseOp::LegendreP);
}

namespace detail {

Descs infer(const InferContext& ctx, const ElementwiseParams& p) {
  ctx.expect_inputs(2, 2);
  if (static_cast<int>(p.op) >= kElementwiseOpCount) ctx.fail("unknown elementwise op");
  const TensorDesc& a = ctx.in(0);
  const TensorDesc& b = ctx.in(1);
  const std::string op(elementwise_op_name(p.op));
  if (a.dtype != b.dtype) {
    ctx.fail(op + " needs inputs of one dtype, got " + std::string(dtype_name(a.dtype)) + " and " +
             std::string(dtype_name(b.dtype)) + " (cast to the promoted type first)");
  }
  const auto dims = broadcast_dims(a.dims, b.dims);
  if (!dims) {
    ctx.fail("cannot broadcast " + dims_to_string(a.dims) + " with " + dims_to_string(b.dims));
  }
  if (is_comparison_or_logical(p.op)) return {{DType::Bool, *dims}};
  if (a.dtype == DType::Bool && p.op != ElementwiseOp::Min && p.op != ElementwiseOp::Max) {
    ctx.fail(op + " does not take bool inputs");
  }
  const bool bitwise = p.op == ElementwiseOp::BitAnd || p.op == ElementwiseOp::BitOr ||
                       p.op == ElementwiseOp::BitXor || p.op == ElementwiseOp::ShiftLeft ||
                       p.op == ElementwiseOp::ShiftRight;
  if (bitwise && !is_integral(a.dtype)) {
    ctx.fail(op + " needs integer inputs, got " + std::string(dtype_name(a.dtype)));
  }
  if (is_special_function(p.op) && !is_floating(a.dtype)) {
    ctx.fail(op + " needs floating inputs, got " + std::string(dtype_name(a.dtype)) + " (cast first)");
  }
  if (p.op == ElementwiseOp::Div && !is_floating(a.dtype)) {
    ctx.fail("div (true division) needs floating inputs, got " + std::string(dtype_name(a.dtype)) +
             " (cast first, or use floor_div/trunc_div)");
  }
  return {{a.dtype, *dims}};
}

Descs infer(const InferContext& ctx, const SelectParams&) {
  ctx.expect_inputs(3, 3);
  const TensorDesc& c = ctx.in(0);
  const TensorDesc& a = ctx.in(1);
  const TensorDesc& b = ctx.in(2);
  if (c.dtype != DType::Bool) ctx.fail("condition must be bool, got " + std::string(dtype_name(c.dtype)));
  if (a.dtype != b.dtype) {
    ctx.fail("branches must have one dtype, got " + std::string(dtype_name(a.dtype)) + " and " +
             std::string(dtype_name(b.dtype)));
  }
  auto ab = broadcast_dims(a.dims, b.dims);
  std::optional<Dims> all;
  if (ab) all = broadcast_dims(c.dims, *ab);
  if (!all) {
    ctx.fail("cannot broadcast " + dims_to_string(c.dims) + ", " + dims_to_string(a.dims) + " and " +
             dims_to_string(b.dims));
  }
  return {{a.dtype, *all}};
}

}  // namespace detail
}  // namespace atenrt::network
