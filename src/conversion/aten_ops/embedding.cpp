// Embedding converters; the validators carry the seed's limits.
#include "conversion/aten_ops/common.h"
#include "conversion/host_tensor.h"
#include "conversion/impl/embedding.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace emb = impl::embedding;
constexpr Family kFamily{.name = "embedding"};

Capability embedding_ok(const NodeView& node, const ConversionSettings&) {
  if (auto why = emb::weight_rank_problem(rank_of(node, "weight"))) return Capability::no(*why);
  // scale_grad_by_freq and sparse shape only the gradient: the forward values are the same.
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.embedding.default", .validator = embedding_ok, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(emb::embedding(s, args.tensor("weight"), args.tensor("indices")));
}

// Whether a value is known at conversion time: a weight/constant, or the
// output of a creation op (evaluated to a constant by its converter).
bool known_at_conversion(const ir::Graph& g, const std::string& value) {
  if (g.weight_for_value(value)) return true;
  for (const auto& n : g.nodes) {
    for (const auto& out : n.outputs) {
      const auto* t = out.get_if<ir::TensorRef>();
      if (!t || t->name != value) continue;
      const std::string& op = n.target.name;
      return op == "arange" || op == "full" || op == "zeros" || op == "ones" || op == "scalar_tensor" ||
             op == "lift_fresh_copy";
    }
  }
  return false;
}

// Bags are cut at offsets, which must be known at conversion time (a weight
// or constant), unless indices are 2-d (one bag per row).
Capability bag_ok(const NodeView& node, const ConversionSettings& s) {
  auto c = embedding_ok(node, s);
  if (!c) return c;
  const auto mode = node.literal_int("mode").value_or(0);
  if (mode < 0 || mode > 2) return Capability::no("mode " + std::to_string(mode) + " is not sum, mean or max");
  const ir::TensorMeta* idx = node.meta("indices");
  if (idx && idx->sizes.size() == 1) {
    const ir::Argument* off = node.find("offsets");
    const auto* ref = off ? off->get_if<ir::TensorRef>() : nullptr;
    if (!ref || !known_at_conversion(node.graph(), ref->name)) {
      return Capability::no("offsets must be a constant (bags are cut at conversion time)");
    }
    if (!idx->is_static()) return Capability::no("indices must have a static size");
  }
  for (std::size_t k = 1; k < 4; ++k) {
    if (node.output_used(k)) return Capability::no("only the first output (the bags) is computed");
  }
  if (!node.is_none("per_sample_weights") && mode != 0) return Capability::no("per_sample_weights need mode='sum'");
  if (node.literal_int("padding_idx").value_or(-1) >= 0) return Capability::no("padding_idx is not supported for bags");
  return Capability::yes();
}
Outputs bag(const Scope& s, const NodeArgs& args) {
  auto* indices = args.tensor("indices");
  std::optional<std::vector<std::int64_t>> offsets;
  if (auto t = args.host_tensor("offsets")) {
    const Tensor c = t->contiguous();
    offsets.emplace();
    for (std::int64_t i = 0; i < c.numel(); ++i) offsets->push_back(element_as_int(c, i));
  }
  auto* out = emb::embedding_bag(s, args.tensor("weight"), indices, offsets,
                                 static_cast<emb::BagMode>(args.i("mode")), args.opt_tensor("per_sample_weights"),
                                 args.b("include_last_offset"));
  return {out, Value(), Value(), Value()};
}
ATENRT_REGISTER(kFamily, keys("aten.embedding_bag.default", "aten.embedding_bag.padding_idx", "aten._embedding_bag.default", "aten._embedding_bag_forward_only.default"), bag, .validator = bag_ok);

}  // namespace
}  // namespace atenrt::conversion::aten_ops
