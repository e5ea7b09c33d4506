#include "conversion/impl/margin_loss.h"

#include "conversion/host_tensor.h"
#include "conversion/impl/loss.h"

namespace atenrt::conversion::impl::loss {

using network::CumulativeOp;
using network::ElementwiseOp;
using network::GatherMode;
using network::ReduceOp;

namespace {

// [1, C] int64 constant 0..C-1.
NetworkTensor* class_ids(const Scope& s, std::int64_t classes) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(classes));
  for (std::int64_t c = 0; c < classes; ++c) v[static_cast<std::size_t>(c)] = c;
  return s.add_constant("classes", int64_tensor({1, classes}, v));
}

}  // namespace

NetworkTensor* multi_margin(const Scope& s, NetworkTensor* x, NetworkTensor* target, std::int64_t p, double margin,
                            NetworkTensor* weight, std::int64_t reduction) {
  check(p == 1 || p == 2, "multi_margin_loss takes p = 1 or 2");
  check(is_floating(x->dtype), "multi_margin_loss takes a floating input");
  const bool single = x->rank() <= 1;
  auto* in = single ? reshape(s.child("batch"), x, {1, x->rank() == 0 ? 1 : x->dims[0]}) : x;
  check(in->rank() == 2, "multi_margin_loss takes a [N, C] or [C] input");
  const std::int64_t classes = static_dims(in, "multi_margin_loss")[1];
  auto* y = reshape(s.child("target"), cast(s, target, DType::Int64), {in->dims[0], 1});
  auto* at_target = s.add_gather("at_target", in, y, GatherMode::Elements, 1);  // [N, 1]
  auto* z = ew(s, ew(s, scalar_constant(s, margin, in->dtype), at_target, ElementwiseOp::Sub), in, ElementwiseOp::Add);
  auto* h = ew_scalar(s, z, 0.0, ElementwiseOp::Max);
  if (p == 2) h = ew(s, h, h, ElementwiseOp::Mul);
  if (weight) h = ew(s, h, s.add_gather("weight", cast(s, weight, in->dtype), y, GatherMode::Axis, 0), ElementwiseOp::Mul);
  auto* own = ew(s, y, class_ids(s, classes), ElementwiseOp::Equal);
  h = s.add_select("others", own, scalar_constant(s, 0.0, in->dtype), h);
  auto* per_sample = ew_scalar(s, s.add_reduce("sum", h, ReduceOp::Sum, {1}, false), static_cast<double>(classes),
                               ElementwiseOp::Div);
  return reduce(s, per_sample, reduction);  // torch 1.13 records [1] for a [C] input's unreduced loss
}

std::pair<NetworkTensor*, NetworkTensor*> multilabel_margin(const Scope& s, NetworkTensor* x, NetworkTensor* target,
                                                            std::int64_t reduction) {
  check(is_floating(x->dtype), "multilabel_margin_loss takes a floating input");
  const bool single = x->rank() <= 1;
  const std::int64_t c = x->rank() == 0 ? 1 : x->dims.back();
  auto* in = single ? reshape(s.child("batch"), x, {1, c}) : x;
  check(in->rank() == 2, "multilabel_margin_loss takes a [N, C] or [C] input");
  const std::int64_t n = static_dims(in, "multilabel_margin_loss")[0];
  const DType dt = in->dtype;
  auto* t = reshape(s.child("target"), cast(s, target, DType::Int64), {n, c});
  // The targets are the entries before the first -1.
  auto* listed = s.add_cumulative("listed", cast(s, ew_scalar(s, t, -1.0, ElementwiseOp::NotEqual), DType::Int64),
                                  CumulativeOp::Prod, 1);
  auto* valid = ew_scalar(s, listed, 0.0, ElementwiseOp::NotEqual);                            // [N, C(j)]
  auto* safe = s.add_select("safe", valid, t, scalar_constant(s, 0.0, DType::Int64));          // [N, C(j)]
  auto* hit = ew(s, unsqueeze(s.child("j"), safe, 2), unsqueeze(s.child("i"), class_ids(s, c), 0), ElementwiseOp::Equal);
  hit = ew(s, hit, unsqueeze(s.child("valid"), valid, 2), ElementwiseOp::And);                   // [N, C(j), C(i)]
  auto* is_target = s.add_reduce("is_target", cast(s, hit, DType::Int64), ReduceOp::Max, {1}, false);  // [N, C(i)]
  auto* at_target = s.add_gather("at_target", in, safe, GatherMode::Elements, 1);             // [N, C(j)]
  auto* z = ew(s, ew(s, scalar_constant(s, 1.0, dt), unsqueeze(s.child("xj"), at_target, 2), ElementwiseOp::Sub),
               unsqueeze(s.child("xi"), in, 1), ElementwiseOp::Add);                           // [N, C(j), C(i)]
  auto* h = ew_scalar(s, z, 0.0, ElementwiseOp::Max);
  auto* counted = ew(s, unsqueeze(s.child("valid_j"), valid, 2),
                     unsqueeze(s.child("other_i"), ew_scalar(s, is_target, 0.0, ElementwiseOp::Equal), 1),
                     ElementwiseOp::And);
  h = s.add_select("pairs", counted, h, scalar_constant(s, 0.0, dt));
  auto* per_sample = ew_scalar(s, s.add_reduce("sum", h, ReduceOp::Sum, {1, 2}, false), static_cast<double>(c),
                               ElementwiseOp::Div);
  auto* target_mask = cast(s, is_target, dt);
  if (single) target_mask = reshape(s.child("is_target_out"), target_mask, x->dims);
  if (single && reduction == 0) return {reshape(s, per_sample, {}), target_mask};
  return {reduce(s, per_sample, reduction), target_mask};
}

}  // namespace atenrt::conversion::impl::loss
