// Pooling converters.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/pool.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace pool = impl::pool;
using network::PoolingOp;
constexpr Family kFamily{.name = "pool", .supports_dynamic_shapes = true};

Outputs max_pool(const Scope& s, const NodeArgs& args, std::size_t n) {
  return one(pool::max_pool(s, args.tensor("self"), n, args.ints("kernel_size"),
                            args.ints("stride"), args.ints("padding"), args.ints("dilation"), args.b("ceil_mode")));
}
Outputs avg_pool(const Scope& s, const NodeArgs& args, std::size_t n) {
  std::optional<std::int64_t> divisor;
  if (args.has("divisor_override")) divisor = args.opt_i("divisor_override");
  return one(pool::avg_pool(s, args.tensor("self"), n, args.ints("kernel_size"),
                            args.ints("stride"), args.ints("padding"), args.b("ceil_mode"),
                            args.b("count_include_pad"), divisor));
}
Outputs adaptive(const Scope& s, const NodeArgs& args, std::size_t n, PoolingOp op) {
  return one(pool::adaptive_pool(s, args.tensor("self"), n, args.ints("output_size"), op));
}
// The second output (argmax indices) is not computed.
Capability indices_unused(const NodeView& node, const ConversionSettings&) {
  if (node.output_used(1)) return Capability::no("the indices output is used; only the pooled values are computed");
  return Capability::yes();
}
Capability padding_fits_kernel(const NodeView& node, const ConversionSettings&) {
  auto k = node.literal_ints("kernel_size");
  auto p = node.literal_ints("padding");
  if (k && p && !k->empty()) {
    for (std::size_t i = 0; i < p->size(); ++i) {
      const auto kk = (*k)[std::min(i, k->size() - 1)];
      if ((*p)[i] * 2 > kk) return Capability::no("padding must be at most half the kernel size");
    }
  }
  return Capability::yes();
}
Validator pool_validator(bool indices) {
  if (indices) return all_of({padding_fits_kernel, indices_unused});
  return padding_fits_kernel;
}

ATENRT_CONVERTER(kFamily, "aten.max_pool1d.default", .validator = pool_validator(false))(const Scope& s, const NodeArgs& args) { return max_pool(s, args, 1); }
ATENRT_CONVERTER(kFamily, "aten.max_pool2d.default", .validator = pool_validator(false))(const Scope& s, const NodeArgs& args) { return max_pool(s, args, 2); }
ATENRT_CONVERTER(kFamily, "aten.max_pool3d.default", .validator = pool_validator(false))(const Scope& s, const NodeArgs& args) { return max_pool(s, args, 3); }
ATENRT_CONVERTER(kFamily, "aten.max_pool1d_with_indices.default", .validator = pool_validator(true))(const Scope& s, const NodeArgs& args) { return {max_pool(s, args, 1)[0], Value()}; }
ATENRT_CONVERTER(kFamily, "aten.max_pool2d_with_indices.default", .validator = pool_validator(true))(const Scope& s, const NodeArgs& args) { return {max_pool(s, args, 2)[0], Value()}; }
ATENRT_CONVERTER(kFamily, "aten.max_pool3d_with_indices.default", .validator = pool_validator(true))(const Scope& s, const NodeArgs& args) { return {max_pool(s, args, 3)[0], Value()}; }
ATENRT_CONVERTER(kFamily, "aten.avg_pool1d.default", .validator = pool_validator(false))(const Scope& s, const NodeArgs& args) { return avg_pool(s, args, 1); }
ATENRT_CONVERTER(kFamily, "aten.avg_pool2d.default", .validator = pool_validator(false))(const Scope& s, const NodeArgs& args) { return avg_pool(s, args, 2); }
ATENRT_CONVERTER(kFamily, "aten.avg_pool3d.default", .validator = pool_validator(false))(const Scope& s, const NodeArgs& args) { return avg_pool(s, args, 3); }
ATENRT_CONVERTER(kFamily, "aten.adaptive_avg_pool1d.default")(const Scope& s, const NodeArgs& args) { return adaptive(s, args, 1, PoolingOp::Average); }
ATENRT_CONVERTER(kFamily, "aten.adaptive_avg_pool2d.default")(const Scope& s, const NodeArgs& args) { return adaptive(s, args, 2, PoolingOp::Average); }
ATENRT_CONVERTER(kFamily, "aten.adaptive_avg_pool3d.default")(const Scope& s, const NodeArgs& args) { return adaptive(s, args, 3, PoolingOp::Average); }
ATENRT_CONVERTER(kFamily, "aten._adaptive_avg_pool2d.default")(const Scope& s, const NodeArgs& args) { return adaptive(s, args, 2, PoolingOp::Average); }
ATENRT_CONVERTER(kFamily, "aten._adaptive_avg_pool3d.default")(const Scope& s, const NodeArgs& args) { return adaptive(s, args, 3, PoolingOp::Average); }
ATENRT_CONVERTER(kFamily, "aten.adaptive_max_pool1d.default", .validator = indices_unused)(const Scope& s, const NodeArgs& args) { return {adaptive(s, args, 1, PoolingOp::Max)[0], Value()}; }
ATENRT_CONVERTER(kFamily, "aten.adaptive_max_pool2d.default", .validator = indices_unused)(const Scope& s, const NodeArgs& args) { return {adaptive(s, args, 2, PoolingOp::Max)[0], Value()}; }
ATENRT_CONVERTER(kFamily, "aten.adaptive_max_pool3d.default", .validator = indices_unused)(const Scope& s, const NodeArgs& args) { return {adaptive(s, args, 3, PoolingOp::Max)[0], Value()}; }

}  // namespace
}  // namespace atenrt::conversion::aten_ops
