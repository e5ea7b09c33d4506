// An atenrt converter plugin: aten.renorm.default (torch.renorm: each slice
// along `dim` whose p-norm exceeds `maxnorm` is scaled down to it). atenrt
// converts it too; registered at High priority, the plugin's converter
// overrides the built-in one for the nodes its validator accepts.
//
//   out = self * (norm > maxnorm ? maxnorm / (norm + 1e-7) : 1)
//   norm = the p-norm of self over every dim but `dim` (kept as size 1)
//
// as torch computes it (ATen's renorm and renorm_scale_factor kernels).
#include <atenrt/extension.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using atenrt::Capability;
using atenrt::NetTensor;

// Limits live in the validator: a node it refuses goes to the fallback (or
// the dry-run report says why), never to a converter that would fail.
Capability renorm_supported(const atenrt::NodeInfo& node) {
  const auto self = node.arg_info("self");
  if (!self || self->dtype != atenrt::DType::Float32) return Capability::no("only float32 input is converted");
  if (self->rank() < 2) return Capability::no("an input of rank < 2 is not converted");
  const auto p = node.literal_float("p");
  if (!p || !(*p > 0.0)) return Capability::no("p must be a positive number written in the graph");
  if (!node.literal_int("dim") || !node.literal_float("maxnorm")) {
    return Capability::no("dim and maxnorm must be numbers written in the graph");
  }
  return Capability::yes();
}

std::vector<NetTensor*> convert_renorm(atenrt::ConverterContext& ctx) {
  NetTensor* x = ctx.tensor("self");
  const double p = ctx.float_arg("p");
  const double maxnorm = ctx.float_arg("maxnorm");
  const std::int64_t rank = ctx.info(x).rank();
  std::int64_t dim = ctx.int_arg("dim");
  if (dim < 0) dim += rank;
  std::vector<std::int64_t> axes;  // every dim but `dim`
  for (std::int64_t d = 0; d < rank; ++d) {
    if (d != dim) axes.push_back(d);
  }
  const auto scalar = [&](double v, const char* name) { return ctx.constant({v}, {}, atenrt::DType::Float32, name); };

  NetTensor* norm = nullptr;
  if (std::isinf(p)) {
    norm = ctx.reduce("max", ctx.unary("abs", x, "abs"), axes, true, "norm");
  } else if (p == 1.0) {
    norm = ctx.reduce("sum", ctx.unary("abs", x, "abs"), axes, true, "norm");
  } else if (p == 2.0) {
    NetTensor* squares = ctx.elementwise("mul", x, x, "square");
    norm = ctx.unary("sqrt", ctx.reduce("sum", squares, axes, true, "sum"), "norm");
  } else {
    NetTensor* powers = ctx.elementwise("pow", ctx.unary("abs", x, "abs"), scalar(p, "p"), "pow");
    norm = ctx.elementwise("pow", ctx.reduce("sum", powers, axes, true, "sum"), scalar(1.0 / p, "inv_p"), "norm");
  }
  NetTensor* limit = scalar(maxnorm, "maxnorm");
  NetTensor* too_big = ctx.elementwise("gt", norm, limit, "too_big");
  NetTensor* shrink = ctx.elementwise("div", limit, ctx.elementwise("add", norm, scalar(1e-7, "eps"), "norm_eps"),
                                      "shrink");
  NetTensor* factor = ctx.select(too_big, shrink, scalar(1.0, "one"), "factor");
  return {ctx.elementwise("mul", x, factor)};
}

void register_converters(atenrt::PluginRegistry& registry) {
  // supports_dynamic_shapes stays false: torch 1.13 cannot export renorm with
  // dynamic shapes, so this converter has never been checked on one.
  registry.add_converter({.keys = {"aten.renorm.default"},
                          .convert = convert_renorm,
                          .validator = renorm_supported,
                          .priority = atenrt::ConverterPriority::High});
}

}  // namespace

ATENRT_PLUGIN("renorm_example", register_converters)
