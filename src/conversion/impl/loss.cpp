#include "conversion/impl/loss.h"

namespace atenrt::conversion::impl::loss {

using network::ElementwiseOp;
using network::ReduceOp;
using network::UnaryOp;

namespace {
NetworkTensor* un(const Scope& s, NetworkTensor* x, UnaryOp op) { return s.add_unary("", x, op); }
Dims all_axes(const NetworkTensor* x) {
  Dims a;
  for (std::int64_t i = 0; i < x->rank(); ++i) a.push_back(i);
  return a;
}
NetworkTensor* total(const Scope& s, NetworkTensor* x, ReduceOp op) {
  if (x->rank() == 0) return x;
  return s.add_reduce("reduce", x, op, all_axes(x), false);
}
std::pair<NetworkTensor*, NetworkTensor*> same_type(const Scope& s, NetworkTensor* x, NetworkTensor* t) {
  const DType dt = promote_types(x->dtype, t->dtype);
  return {cast(s, x, dt), cast(s, t, dt)};
}
}  // namespace

NetworkTensor* reduce(const Scope& s, NetworkTensor* loss, std::int64_t reduction) {
  check(reduction >= 0 && reduction <= 2, "reduction " + std::to_string(reduction) + " (0 none, 1 mean, 2 sum)");
  if (reduction == 0) return identity(s, loss);
  return identity(s, total(s, loss, reduction == 1 ? ReduceOp::Mean : ReduceOp::Sum));
}

NetworkTensor* mse(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction) {
  auto [a, b] = same_type(s, x, target);
  auto* d = ew(s, a, b, ElementwiseOp::Sub);
  return reduce(s, ew(s, d, d, ElementwiseOp::Mul), reduction);
}

NetworkTensor* smooth_l1(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction, double beta) {
  auto [a, b] = same_type(s, x, target);
  auto* d = un(s, ew(s, a, b, ElementwiseOp::Sub), UnaryOp::Abs);
  if (beta == 0.0) return reduce(s, d, reduction);
  auto* quad = ew_scalar(s, ew(s, d, d, ElementwiseOp::Mul), 0.5 / beta, ElementwiseOp::Mul);
  auto* lin = ew_scalar(s, d, 0.5 * beta, ElementwiseOp::Sub);
  return reduce(s, s.add_select("where", ew_scalar(s, d, beta, ElementwiseOp::Less), quad, lin), reduction);
}

NetworkTensor* huber(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction, double delta) {
  auto [a, b] = same_type(s, x, target);
  auto* d = un(s, ew(s, a, b, ElementwiseOp::Sub), UnaryOp::Abs);
  auto* quad = ew_scalar(s, ew(s, d, d, ElementwiseOp::Mul), 0.5, ElementwiseOp::Mul);
  auto* lin = ew_scalar(s, ew_scalar(s, d, 0.5 * delta, ElementwiseOp::Sub), delta, ElementwiseOp::Mul);
  return reduce(s, s.add_select("where", ew_scalar(s, d, delta, ElementwiseOp::Less), quad, lin), reduction);
}

NetworkTensor* soft_margin(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t reduction) {
  auto [a, b] = same_type(s, x, target);
  auto* z = un(s, un(s, ew(s, a, b, ElementwiseOp::Mul), UnaryOp::Neg), UnaryOp::Exp);
  return reduce(s, un(s, z, UnaryOp::Log1p), reduction);
}

NetworkTensor* binary_cross_entropy(const Scope& s, NetworkTensor* x, NetworkTensor* target, NetworkTensor* weight,
                                    std::int64_t reduction) {
  auto [p, y] = same_type(s, x, target);
  const DType dt = p->dtype;
  // PyTorch clamps the logs at -100 so that 0 * log(0) stays finite.
  auto log_clamped = [&](NetworkTensor* v) { return ew_scalar(s, un(s, v, UnaryOp::Log), -100.0, ElementwiseOp::Max); };
  auto* one = scalar_constant(s, 1.0, dt);
  auto* pos = ew(s, y, log_clamped(p), ElementwiseOp::Mul);
  auto* neg = ew(s, ew(s, one, y, ElementwiseOp::Sub), log_clamped(ew(s, one, p, ElementwiseOp::Sub)), ElementwiseOp::Mul);
  NetworkTensor* l = un(s, ew(s, pos, neg, ElementwiseOp::Add), UnaryOp::Neg);
  if (weight) l = ew(s, l, cast(s, weight, dt), ElementwiseOp::Mul);
  return reduce(s, l, reduction);
}

NetworkTensor* binary_cross_entropy_with_logits(const Scope& s, NetworkTensor* x, NetworkTensor* target,
                                                NetworkTensor* weight, NetworkTensor* pos_weight, std::int64_t reduction) {
  auto [z, y] = same_type(s, x, target);
  const DType dt = z->dtype;
  auto* one = scalar_constant(s, 1.0, dt);
  // Stable form: (1 - y) * z + w_log * (log(exp(-m) + exp(-z - m)) + m), m = max(-z, 0).
  auto* m = ew_scalar(s, un(s, z, UnaryOp::Neg), 0.0, ElementwiseOp::Max);
  auto* lse = ew(s, un(s, ew(s, un(s, un(s, m, UnaryOp::Neg), UnaryOp::Exp),
                               un(s, ew(s, un(s, z, UnaryOp::Neg), m, ElementwiseOp::Sub), UnaryOp::Exp),
                               ElementwiseOp::Add), UnaryOp::Log), m, ElementwiseOp::Add);
  if (pos_weight) {
    auto* lw = ew(s, ew(s, ew(s, cast(s, pos_weight, dt), one, ElementwiseOp::Sub), y, ElementwiseOp::Mul), one, ElementwiseOp::Add);
    lse = ew(s, lw, lse, ElementwiseOp::Mul);
  }
  NetworkTensor* l = ew(s, ew(s, ew(s, one, y, ElementwiseOp::Sub), z, ElementwiseOp::Mul), lse, ElementwiseOp::Add);
  if (weight) l = ew(s, l, cast(s, weight, dt), ElementwiseOp::Mul);
  return reduce(s, l, reduction);
}

NllLoss nll(const Scope& s, NetworkTensor* x, NetworkTensor* target, NetworkTensor* weight, std::int64_t reduction,
            std::int64_t ignore_index) {
  check(reduction >= 0 && reduction <= 2, "reduction " + std::to_string(reduction) + " (0 none, 1 mean, 2 sum)");
  const bool single = x->rank() == 1;
  if (single) {
    x = unsqueeze(s, x, 0);
    target = reshape(s, target, {1});
  }
  auto* t = cast(s, target, DType::Int64);
  auto* valid = ew_scalar(s, t, static_cast<double>(ignore_index), ElementwiseOp::NotEqual);
  auto* safe = s.add_select("safe_target", valid, t, scalar_constant(s, 0.0, DType::Int64));
  auto* picked = s.add_gather("pick", x, unsqueeze(s, safe, 1), network::GatherMode::Elements, 1);
  picked = reshape(s, picked, safe->dims);
  NetworkTensor* w = cast(s, valid, x->dtype);
  if (weight) {
    auto* wc = s.add_gather("class_weight", cast(s, weight, x->dtype), safe, network::GatherMode::Axis, 0);
    w = ew(s, wc, w, ElementwiseOp::Mul);
  }
  auto* l = un(s, ew(s, picked, w, ElementwiseOp::Mul), UnaryOp::Neg);
  auto* tw = total(s.child("total_weight"), w, ReduceOp::Sum);
  if (reduction == 0) return {single ? reshape(s, l, {}) : identity(s, l), tw};
  auto* sum = total(s, l, ReduceOp::Sum);
  if (reduction == 2) return {identity(s, sum), tw};
  return {s.add_elementwise("", sum, tw, ElementwiseOp::Div), tw};
}

}  // namespace atenrt::conversion::impl::loss
