// Pooling converters: every overload decodes into one PoolArgs, whose
// problem() is both the validator's and the converter's rule.
#include "conversion/aten_ops/common.h"
#include "conversion/impl/pool.h"
#include "conversion/impl/pool_indices.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace pool = impl::pool;
using network::PoolingOp;
constexpr Family kFamily{.name = "pool", .supports_dynamic_shapes = true};

// What a key pools: the op, the number of spatial dims, adaptive or not.
struct PoolKind {
  PoolingOp op;
  std::size_t spatial;
  bool adaptive;
  bool with_indices;  // a second output (argmax indices) that is not computed
};
PoolKind kind_of(const std::string& target) {
  const bool max = target.find("max_pool") != std::string::npos;
  const bool adaptive = target.find("adaptive") != std::string::npos;
  const std::size_t spatial = target.find("1d") != std::string::npos ? 1 : target.find("3d") != std::string::npos ? 3 : 2;
  const bool with_indices = target.find("with_indices") != std::string::npos || (adaptive && max);
  return {max ? PoolingOp::Max : PoolingOp::Average, spatial, adaptive, with_indices};
}

// Decodes a pooling node's arguments; `ints` and `number` read an argument
// (nullopt when unknown), `has` says whether the overload has it.
template <typename Ints, typename Bool, typename OptInt, typename Has>
std::optional<pool::PoolArgs> decode(const std::string& target, Ints ints, Bool flag, OptInt opt_int, Has has) {
  const PoolKind k = kind_of(target);
  pool::PoolArgs a;
  a.op = k.op;
  a.spatial = k.spatial;
  a.adaptive = k.adaptive;
  if (k.adaptive) {
    auto size = ints("output_size");
    if (!size) return std::nullopt;
    a.output_size = *size;
    return a;
  }
  auto kernel = ints("kernel_size"), stride = ints("stride"), padding = ints("padding");
  auto ceil = flag("ceil_mode");
  if (!kernel || !stride || !padding || !ceil) return std::nullopt;
  a.kernel = *kernel;
  a.stride = *stride;
  a.padding = *padding;
  a.ceil_mode = *ceil;
  if (k.op == PoolingOp::Max) {
    auto dilation = ints("dilation");
    if (!dilation) return std::nullopt;
    a.dilation = *dilation;
  } else {
    auto include = flag("count_include_pad");
    if (!include) return std::nullopt;
    a.count_include_pad = *include;
    if (has("divisor_override")) a.divisor_override = opt_int("divisor_override");
  }
  return a;
}

std::optional<pool::PoolArgs> decode_literals(const NodeView& node) {
  return decode(
      node.target(), [&](const char* n) { return node.literal_ints(n); },
      [&](const char* n) { return node.literal_bool(n); }, [&](const char* n) { return node.literal_int(n); },
      [&](const char* n) { return node.has(n); });
}

pool::PoolArgs decode_resolved(const Scope& s, const NodeArgs& args) {
  return *decode(
      s.target(), [&](const char* n) { return std::optional(args.ints(n)); },
      [&](const char* n) { return std::optional(args.b(n)); }, [&](const char* n) { return args.opt_i(n); },
      [&](const char* n) { return args.has(n); });
}

Capability pool_ok(const NodeView& node, const ConversionSettings&) {
  if (kind_of(node.target()).with_indices && node.output_used(1)) {
    return Capability::no("the indices output is used; only the pooled values are computed");
  }
  if (auto a = decode_literals(node)) {
    const ir::TensorMeta* m = node.meta("self");
    if (auto why = a->problem(m ? static_cast<std::int64_t>(m->sizes.size()) : -1)) return Capability::no(*why);
  }
  return Capability::yes();
}

ATENRT_CONVERTER(kFamily,
                 keys("aten.max_pool1d.default", "aten.max_pool2d.default", "aten.max_pool3d.default",
                      "aten.max_pool1d_with_indices.default", "aten.max_pool2d_with_indices.default",
                      "aten.max_pool3d_with_indices.default", "aten.avg_pool1d.default", "aten.avg_pool2d.default",
                      "aten.avg_pool3d.default", "aten.adaptive_avg_pool1d.default",
                      "aten.adaptive_avg_pool2d.default", "aten.adaptive_avg_pool3d.default",
                      "aten._adaptive_avg_pool2d.default", "aten._adaptive_avg_pool3d.default",
                      "aten.adaptive_max_pool1d.default", "aten.adaptive_max_pool2d.default",
                      "aten.adaptive_max_pool3d.default"),
                 .validator = pool_ok)
(const Scope& s, const NodeArgs& args) {
  auto* y = pool::pool(s, args.tensor("self"), decode_resolved(s, args));
  if (kind_of(s.target()).with_indices) return {y, Value()};
  return one(y);
}

// Max pooling whose indices are read: windows gathered by a constant table (static spatial
// dims), ahead of the pooling layer, which computes the values only.
Capability indices_used(const NodeView& node, const ConversionSettings&) {
  if (!node.output_used(1)) return Capability::no("the indices are not used: the pooling layer computes the values");
  const ir::TensorMeta* m = node.meta("self");
  if (!m || !m->is_static()) return Capability::no("max pooling with its indices needs static input sizes");
  if (auto a = decode_literals(node)) {
    if (auto why = a->problem(static_cast<std::int64_t>(m->sizes.size()))) return Capability::no(*why);
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily,
                 keys("aten.max_pool1d_with_indices.default", "aten.max_pool2d_with_indices.default",
                      "aten.max_pool3d_with_indices.default", "aten.adaptive_max_pool1d.default",
                      "aten.adaptive_max_pool2d.default", "aten.adaptive_max_pool3d.default"),
                 .validator = indices_used, .priority = Priority::High)
(const Scope& s, const NodeArgs& args) {
  auto [values, indices] = pool::max_pool_with_indices(s, args.tensor("self"), decode_resolved(s, args));
  return {values, indices};
}

Capability im2col_ok(const NodeView& node, const ConversionSettings&) {
  const auto k = node.literal_ints("kernel_size"), d = node.literal_ints("dilation"), p = node.literal_ints("padding"),
             st = node.literal_ints("stride");
  if (k && d && p && st) return refuse_if(pool::im2col_problem(*k, *d, *p, *st));
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.im2col.default", .validator = all_of({im2col_ok, requires_static({"self"})}),
                 .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(pool::im2col(s, args.tensor("self"), args.ints("kernel_size"), args.ints("dilation"), args.ints("padding"),
                          args.ints("stride")));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
