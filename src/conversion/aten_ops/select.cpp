// Selection / indexing converters.
#include <algorithm>

#include "conversion/aten_ops/common.h"
#include "conversion/impl/index_ops.h"
#include "conversion/impl/select.h"
#include "network/data_dependent.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace se = impl::select;
constexpr Family kFamily{.name = "select", .supports_dynamic_shapes = true};

// Index tensors as the node names them (None entries null).
std::vector<const ir::TensorRef*> index_refs(const NodeView& node) {
  std::vector<const ir::TensorRef*> out;
  const ir::Argument& a = node.arg("indices");
  if (const auto* l = a.get_if<ir::OptionalTensorList>()) {
    for (const auto& t : *l) out.push_back(t ? &*t : nullptr);
  } else if (const auto* l = a.get_if<ir::TensorList>()) {
    for (const auto& t : *l) out.push_back(&t);
  }
  return out;
}

bool is_mask(const ir::TensorMeta* m) { return m && m->dtype && (*m->dtype == DType::Bool || *m->dtype == DType::UInt8); }

// Boolean masks run through nonzero (index: rows found at run time) or a
// select under the mask (index_put: values that broadcast over the masked
// elements, or one row per masked element, taken in order).
Capability index_ok(const NodeView& node, const ConversionSettings& s, bool put) {
  const auto refs = index_refs(node);
  if (std::none_of(refs.begin(), refs.end(), [](const auto* r) { return r != nullptr; })) return Capability::no("no index tensor");
  if (auto why = se::index_count_problem(refs.size(), rank_of(node, "self"))) return Capability::no(*why);
  if (Capability c = requires_static({"self"})(node, s); !c) return c;
  if (put) {
    const auto dt = node.dtype_of("self");
    if (auto why = impl::index_ops::adds_bool_problem(dt.value_or(DType::Float32), node.literal_bool("accumulate").value_or(false))) {
      return Capability::no(*why);
    }
  }
  const ir::TensorMeta* self_meta = node.meta("self");
  if (!self_meta) return Capability::no("self has no tensor metadata");
  const std::vector<std::int64_t> self = self_meta->static_sizes();
  std::size_t at = 0, tensors = 0, masks = 0;
  for (const auto* r : refs) {
    const ir::TensorMeta* m = r ? node.graph().meta(r->name) : nullptr;
    tensors += r != nullptr;
    if (!is_mask(m)) {
      ++at;
      continue;
    }
    ++masks;
    const std::vector<std::int64_t> mask = m->static_sizes();
    if (auto why = se::mask_index_problem(self, at, mask)) return Capability::no(*why);
    if (put) {
      const ir::TensorMeta* v = node.meta("values");
      if (!v) return Capability::no("values has no tensor metadata");
      if (auto why = se::mask_put_problem(self, mask, at, v->static_sizes())) return Capability::no(*why);
    }
    at += mask.size();
  }
  if (put && masks > 0 && tensors > 1) return Capability::no("index_put with a boolean mask and other index tensors is not supported");
  if (put && masks == 0) {  // (a mask's values may hold rows known only when the engine runs)
    if (Capability c = requires_static({"values"})(node, s); !c) return c;
    for (const auto* r : refs) {
      const ir::TensorMeta* m = r ? node.graph().meta(r->name) : nullptr;
      if (r && (!m || !m->is_static())) return Capability::no("index_put with index tensors of dynamic dims is not supported");
    }
  }
  return Capability::yes();
}
Capability index_tensor_ok(const NodeView& node, const ConversionSettings& s) { return index_ok(node, s, false); }
Capability index_put_ok(const NodeView& node, const ConversionSettings& s) { return index_ok(node, s, true); }

Capability select_ok(const NodeView& node, const ConversionSettings& st) {
  if (Capability c = dim_in_range()(node, st); !c) return c;
  const ir::TensorMeta* m = node.meta("self");
  auto dim = node.literal_int("dim");
  auto index = node.literal_int("index");
  if (m && m->sizes.empty()) return Capability::no(se::kSelectOf0d);
  if (!m || !dim || !index) return Capability::yes();
  const auto r = static_cast<std::int64_t>(m->sizes.size());
  const auto d = *dim < 0 ? *dim + r : *dim;
  return refuse_if(se::select_index_problem(*index, m->sizes[static_cast<std::size_t>(d)].value.value_or(-1)));
}
Validator index_rank_ok(const char* op) {
  return [op](const NodeView& node, const ConversionSettings& st) {
    if (Capability c = dim_in_range()(node, st); !c) return c;
    return refuse_if(se::index_rank_problem(rank_of(node, "index"), op));
  };
}

ATENRT_CONVERTER(kFamily, "aten.select.int", .validator = select_ok)(const Scope& s, const NodeArgs& args) {
  return one(se::select(s, args.tensor("self"), args.i("dim"), args.i("index")));
}
ATENRT_CONVERTER(kFamily, "aten.index_select.default", .validator = index_rank_ok("index_select"))(const Scope& s, const NodeArgs& args) {
  return one(se::index_select(s, args.tensor("self"), args.i("dim"), args.tensor("index")));
}
ATENRT_CONVERTER(kFamily, "aten.gather.default", .validator = dim_in_range(), .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(se::gather(s, args.tensor("self"), args.i("dim"), args.tensor("index")));
}
ATENRT_CONVERTER(kFamily, "aten.scatter.src", .validator = dim_in_range())(const Scope& s, const NodeArgs& args) {
  return one(se::scatter(s, args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("src"), network::ScatterReduce::None));
}
ATENRT_CONVERTER(kFamily, "aten.scatter.value", .validator = dim_in_range())(const Scope& s, const NodeArgs& args) {
  return one(se::scatter(s, args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("value"), network::ScatterReduce::None));
}
ATENRT_CONVERTER(kFamily, "aten.scatter_add.default", .validator = dim_in_range())(const Scope& s, const NodeArgs& args) {
  return one(se::scatter(s, args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("src"), network::ScatterReduce::Add));
}
Capability reduce_mode(const NodeView& node, const ConversionSettings&) {
  const auto r = node.literal_string("reduce").value_or("");
  if (r != "add" && r != "multiply") return Capability::no("scatter reduce='" + r + "' (only 'add' and 'multiply')");
  return Capability::yes();
}
network::ScatterReduce reduce_of(const NodeArgs& args) {
  return args.str("reduce") == "add" ? network::ScatterReduce::Add : network::ScatterReduce::Mul;
}
ATENRT_CONVERTER(kFamily, "aten.scatter.reduce", .validator = all_of({dim_in_range(), reduce_mode}))(const Scope& s, const NodeArgs& args) {
  return one(se::scatter(s, args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("src"), reduce_of(args)));
}
ATENRT_CONVERTER(kFamily, "aten.scatter.value_reduce", .validator = all_of({dim_in_range(), reduce_mode}))(const Scope& s, const NodeArgs& args) {
  return one(se::scatter(s, args.tensor("self"), args.i("dim"), args.tensor("index"),
                         args.operand("value"), reduce_of(args)));
}
Outputs where(const Scope& s, const NodeArgs& args) {
  return one(se::where(s, args.tensor("condition"), args.operand("self"), args.operand("other")));
}
ATENRT_CONVERTER(kFamily, keys("aten.where.self", "aten.where.ScalarSelf", "aten.where.ScalarOther", "aten.where.Scalar"))(const Scope& s, const NodeArgs& args) { return where(s, args); }
// The number of rows is known only when the layer runs (a data-dependent
// output shape, docs/dynamic-shapes.md); what follows is sized then.
ATENRT_CONVERTER(kFamily, keys("aten.nonzero.default", "aten.argwhere.default"))(const Scope& s, const NodeArgs& args) {
  return one(se::nonzero(s, args.tensor("self")));
}
// unique/_unique2/unique_dim/unique_consecutive: values, inverse, counts in
// torch 1.13's CPU orders (sorted=False is its hash-set order; over a dim
// always sorted) and with its rules for which of inverse and counts are filled.
Outputs unique_outputs(const std::vector<network::NetworkTensor*>& outs, std::size_t n) {
  return Outputs(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(n));
}
Validator unique_ok(const char* dim_arg) {
  return [dim_arg](const NodeView& node, const ConversionSettings&) {
    if (const auto dt = node.dtype_of("self")) {
      if (auto why = network::unique_dtype_problem(*dt)) return Capability::no(*why);
    }
    const auto dim = dim_arg ? node.literal_int(dim_arg) : std::nullopt;
    if (!dim) return Capability::yes();
    const auto rank = rank_of(node, "self");
    if (rank == 0) return Capability::no("unique over a dim of a 0-d tensor");
    if (auto why = impl::dim_problem(*dim, rank)) return Capability::no(*why);
    // torch raises on zero sizes beside the dim (static sizes: known now).
    const ir::TensorMeta* m = node.meta("self");
    if (!m) return Capability::yes();
    const auto at = static_cast<std::size_t>(*dim < 0 ? *dim + rank : *dim);
    std::size_t zeros = 0;
    for (const auto& d : m->sizes) {
      if (!d.is_static()) return Capability::yes();
      zeros += *d.value == 0;
    }
    if (zeros > (*m->sizes[at].value == 0 ? 1u : 0u)) {
      return Capability::no("unique over dim " + std::to_string(*dim) + " of " + m->to_string() +
                            ": another dim is 0 (torch raises)");
    }
    return Capability::yes();
  };
}
// _unique2 fills inverse for counts too.
ATENRT_CONVERTER(kFamily, "aten._unique2.default", .validator = unique_ok(nullptr))(const Scope& s, const NodeArgs& args) {
  const bool counts = args.b("return_counts");
  return unique_outputs(se::unique(s, args.tensor("self"), {.sorted = args.b("sorted"), .inverse = args.b("return_inverse") || counts, .counts = counts, .dim = {}}), 3);
}
ATENRT_CONVERTER(kFamily, "aten._unique.default", .validator = unique_ok(nullptr))(const Scope& s, const NodeArgs& args) {
  return unique_outputs(se::unique(s, args.tensor("self"), {.sorted = args.b("sorted"), .inverse = args.b("return_inverse"), .counts = false, .dim = {}}), 2);
}
// Over a dim: always sorted, inverse and counts always filled.
ATENRT_CONVERTER(kFamily, "aten.unique_dim.default", .validator = unique_ok("dim"))(const Scope& s, const NodeArgs& args) {
  return unique_outputs(se::unique(s, args.tensor("self"), {.inverse = true, .counts = true, .dim = args.i("dim")}), 3);
}
ATENRT_CONVERTER(kFamily, "aten.unique_consecutive.default", .validator = unique_ok("dim"))(const Scope& s, const NodeArgs& args) {
  network::NetworkTensor* x = args.tensor("self");
  const auto dim = args.opt_i("dim");
  // torch takes the elementwise kernel (flags honoured) without a dim or for
  // dim 0 of a 1-d tensor, else the one over a dim (both filled).
  if (!dim || (*dim == 0 && x->dims.size() == 1)) {
    return unique_outputs(se::unique(s, x, {.consecutive = true, .inverse = args.b("return_inverse"), .counts = args.b("return_counts"), .dim = {}}), 3);
  }
  return unique_outputs(se::unique(s, x, {.consecutive = true, .inverse = true, .counts = true, .dim = dim}), 3);
}
ATENRT_CONVERTER(kFamily, "aten.unique_dim_consecutive.default", .validator = unique_ok("dim"))(const Scope& s, const NodeArgs& args) {
  return unique_outputs(se::unique(s, args.tensor("self"), {.consecutive = true, .inverse = true, .counts = true, .dim = args.i("dim")}), 3);
}
Capability bincount_ok(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* x = node.meta("self");
  if (!x || !x->dtype || !is_integral(*x->dtype) || x->sizes.size() != 1) return Capability::no("bincount takes a 1-d integer tensor");
  if (const ir::TensorMeta* w = node.meta("weights"); w && w->sizes.size() != 1) return Capability::no("bincount weights must be 1-d");
  if (node.literal_int("minlength").value_or(0) < 0) return Capability::no("bincount minlength is negative");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.bincount.default", .validator = bincount_ok)(const Scope& s, const NodeArgs& args) {
  network::NetworkTensor* x = args.tensor("self");
  // torch 1.13 gives an empty input int64 zeros, weights or not.
  network::NetworkTensor* weights = x->dims[0] == 0 ? nullptr : args.opt_tensor("weights");
  return one(se::bincount(s, x, weights, args.i("minlength")));
}
Capability repeats_ok(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* r = node.meta("repeats");
  if (!r || !r->dtype || (*r->dtype != DType::Int64 && *r->dtype != DType::Int32) || r->sizes.size() != 1) {
    return Capability::no("repeat_interleave takes repeats as a 1-d int32 or int64 tensor (torch 1.13's CPU kernel)");
  }
  if (node.has("output_size") && !node.is_none("output_size")) {
    return Capability::no("repeat_interleave with output_size given is not supported (only output_size=None)");
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.repeat_interleave.Tensor", .validator = repeats_ok)(const Scope& s, const NodeArgs& args) {
  return one(se::repeat_interleave(s, args.tensor("repeats")));
}
// where(condition) and nonzero_numpy: nonzero's columns, one [n] index per dim.
Capability where_ok(const NodeView& node, const ConversionSettings&) {
  const char* arg = node.target() == "aten.where.default" ? "condition" : "self";
  if (rank_of(node, arg) < 1) return Capability::no("where(condition) of a 0-d condition is not supported");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten.where.default", "aten.nonzero_numpy.default"), .validator = where_ok)(const Scope& s, const NodeArgs& args) {
  auto* x = args.tensor(s.target() == "aten.where.default" ? "condition" : "self");
  Value::List columns;
  for (auto* c : se::nonzero_columns(s, x)) columns.push_back(c);
  return one(Value(std::move(columns)));
}
ATENRT_CONVERTER(kFamily, "aten.masked_select.default", .validator = requires_static({"self", "mask"}))(const Scope& s, const NodeArgs& args) {
  return one(se::masked_select(s, args.tensor("self"), args.tensor("mask")));
}
ATENRT_CONVERTER(kFamily, keys("aten.masked_fill.Scalar", "aten.masked_fill.Tensor"))(const Scope& s, const NodeArgs& args) {
  return one(se::masked_fill(s, args.tensor("self"), args.tensor("mask"), args.operand("value")));
}
// Index tensors may have dynamic dims (rows a nonzero picked); self's must be static.
ATENRT_CONVERTER(kFamily, keys("aten.index.Tensor", "aten.index.Tensor_hacked_twin"), .validator = index_tensor_ok, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(se::index(s, args.tensor("self"), args.opt_tensors("indices")));
}
// With a mask, values may hold one row per masked element, a count known when the engine runs.
ATENRT_CONVERTER(kFamily, keys("aten.index_put.default", "aten.index_put.hacked_twin"), .validator = index_put_ok, .supports_dynamic_shapes = true)(const Scope& s, const NodeArgs& args) {
  return one(se::index_put(s, args.tensor("self"), args.opt_tensors("indices"),
                           args.tensor("values"), args.b("accumulate")));
}
Capability index_copy_ok(const NodeView& node, const ConversionSettings& s) {
  if (auto why = se::index_rank_problem(rank_of(node, "index"), "index_copy")) return Capability::no(*why);
  if (Capability c = dim_in_range("dim", "self")(node, s); !c) return c;
  return requires_static({"self", "source", "index"})(node, s);
}
ATENRT_CONVERTER(kFamily, "aten.index_copy.default", .validator = index_copy_ok, .supports_dynamic_shapes = false)(const Scope& s, const NodeArgs& args) {
  return one(se::index_copy(s, args.tensor("self"), args.i("dim"), args.tensor("index"),
                            args.tensor("source")));
}

// tril / triu: where(j - i <= diagonal (tril) or >= (triu), x, 0) over the last two dims.
Outputs triangle(const Scope& s, const NodeArgs& args, bool lower) {
  auto* x = args.tensor("self");
  impl::check(x->rank() >= 2, "tril/triu need at least 2 dims");
  const auto r = x->dims[x->dims.size() - 2], c = x->dims.back();
  impl::check(r >= 0 && c >= 0, "tril/triu need static sizes on the last two dims");
  const auto diag = args.i("diagonal");
  Tensor keep(DType::Bool, {r, c});
  for (std::int64_t i = 0; i < r; ++i) {
    for (std::int64_t j = 0; j < c; ++j) {
      keep.mutable_data<std::uint8_t>()[i * c + j] = (lower ? j - i <= diag : j - i >= diag) ? 1 : 0;
    }
  }
  auto* mask = s.add_constant("mask", keep);
  auto* zero = impl::scalar_constant(s, 0.0, x->dtype);
  return one(s.add_select("", mask, x, zero));
}
ATENRT_CONVERTER(kFamily, "aten.tril.default")(const Scope& s, const NodeArgs& args) { return triangle(s, args, true); }
ATENRT_CONVERTER(kFamily, "aten.triu.default")(const Scope& s, const NodeArgs& args) { return triangle(s, args, false); }

}  // namespace
}  // namespace atenrt::conversion::aten_ops
