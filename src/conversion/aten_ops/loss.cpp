// Loss converters over impl/loss.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/loss.h"
#include "conversion/impl/margin_loss.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace ls = impl::loss;
constexpr Family kFamily{.name = "loss", .supports_dynamic_shapes = false};

// PyTorch computes bfloat16/float16 losses in float32 and rounds the result once.
bool reduced(DType t) { return t == DType::BFloat16 || t == DType::Float16; }
NetworkTensor* in(const Scope& s, NetworkTensor* t) { return t && reduced(t->dtype) ? impl::cast(s, t, DType::Float32) : t; }
// Where PyTorch's bfloat16/float16 result depends on its intermediate roundings beyond the
// dtype's tolerance (measured on the OpInfo samples), refuse rather than differ.
Capability full_precision(const NodeView& node, const ConversionSettings&) {
  const auto dt = node.dtype_of("self");
  if (dt && reduced(*dt)) {
    return Capability::no(std::string(dtype_name(*dt)) + " input: PyTorch's result depends on its intermediate "
                          "roundings, which this converter does not reproduce");
  }
  return Capability::yes();
}
NetworkTensor* out(const Scope& s, NetworkTensor* y, const NodeArgs& args) {
  const DType want = args.tensor("self")->dtype;
  return reduced(want) ? s.add_cast("round", y, want) : y;
}

ATENRT_CONVERTER(kFamily, "aten.mse_loss.default")(const Scope& s, const NodeArgs& args) {
  return one(out(s, ls::mse(s, in(s, args.tensor("self")), in(s, args.tensor("target")), args.i("reduction")), args));
}
ATENRT_CONVERTER(kFamily, "aten.smooth_l1_loss.default")(const Scope& s, const NodeArgs& args) {
  return one(out(s, ls::smooth_l1(s, in(s, args.tensor("self")), in(s, args.tensor("target")), args.i("reduction"), args.f("beta")), args));
}
ATENRT_CONVERTER(kFamily, "aten.huber_loss.default", .validator = full_precision)(const Scope& s, const NodeArgs& args) {
  return one(out(s, ls::huber(s, in(s, args.tensor("self")), in(s, args.tensor("target")), args.i("reduction"), args.f("delta")), args));
}
ATENRT_CONVERTER(kFamily, "aten.soft_margin_loss.default", .validator = full_precision)(const Scope& s, const NodeArgs& args) {
  return one(out(s, ls::soft_margin(s, in(s, args.tensor("self")), in(s, args.tensor("target")), args.i("reduction")), args));
}
ATENRT_CONVERTER(kFamily, "aten.binary_cross_entropy.default")(const Scope& s, const NodeArgs& args) {
  return one(out(s, ls::binary_cross_entropy(s, in(s, args.tensor("self")), in(s, args.tensor("target")), in(s, args.opt_tensor("weight")),
                                      args.i("reduction")), args));
}
ATENRT_CONVERTER(kFamily, "aten.binary_cross_entropy_with_logits.default", .validator = full_precision)(const Scope& s, const NodeArgs& args) {
  return one(out(s, ls::binary_cross_entropy_with_logits(s, in(s, args.tensor("self")), in(s, args.tensor("target")), in(s, args.opt_tensor("weight")),
                                                  in(s, args.opt_tensor("pos_weight")), args.i("reduction")), args));
}
Capability nll_fits(const NodeView& node, const ConversionSettings& settings) {
  const auto reduction = node.literal_int("reduction").value_or(1);
  if (reduction < 0 || reduction > 2) return Capability::no("reduction " + std::to_string(reduction) + " (0 none, 1 mean, 2 sum)");
  if (reduction == 0 && node.output_used(1)) {
    return Capability::no("total_weight is read with reduction='none' (PyTorch leaves it unset there)");
  }
  if (auto c = full_precision(node, settings); !c) return c;
  return requires_static({"self", "target"})(node, settings);
}
ATENRT_CONVERTER(kFamily, keys("aten.nll_loss_forward.default", "aten.nll_loss2d_forward.default"), .validator = nll_fits)(const Scope& s, const NodeArgs& args) {
  auto r = ls::nll(s, in(s, args.tensor("self")), in(s, args.tensor("target")), in(s, args.opt_tensor("weight")), args.i("reduction"),
                   args.i("ignore_index"));
  if (args.i("reduction") == 0) return {out(s, r.loss, args), Value()};
  return {out(s, r.loss, args), out(s.child("total_weight"), r.total_weight, args)};
}

Capability margin_p(const NodeView& node, const ConversionSettings&) {
  const auto p = node.literal_number("p");
  if (p && *p != 1.0 && *p != 2.0) return Capability::no("multi_margin_loss takes p = 1 or 2");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.multi_margin_loss.default", .validator = all_of({margin_p, full_precision}))(
    const Scope& s, const NodeArgs& args) {
  return one(ls::multi_margin(s, args.tensor("self"), args.tensor("target"), static_cast<std::int64_t>(args.scalar("p").f),
                              args.scalar("margin").f, args.opt_tensor("weight"), args.i("reduction")));
}
ATENRT_CONVERTER(kFamily, "aten.multilabel_margin_loss_forward.default", .validator = full_precision)(
    const Scope& s, const NodeArgs& args) {
  auto [loss, is_target] = ls::multilabel_margin(s, args.tensor("self"), args.tensor("target"), args.i("reduction"));
  return {loss, is_target};
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
