#include "lowering/const_eval.h"

#include <cmath>
#include <algorithm>
#include <unordered_set>

#include "ir/element.h"
#include "lowering/graph_builder.h"
#include "lowering/node_args.h"

namespace atenrt::lowering {
namespace {

const std::unordered_set<std::string>& view_ops() {
  static const std::unordered_set<std::string> s = {"aten.permute.default", "aten.t.default", "aten.transpose.int",
                                                    "aten.view.default", "aten.reshape.default",
                                                    "aten._unsafe_view.default", "aten.unsqueeze.default",
                                                    "aten.squeeze.dims", "aten.squeeze.dim", "aten.slice.Tensor",
                                                    "aten.clone.default", "aten.contiguous.default",
                                                    "aten.detach.default", "aten.alias.default",
                                                    "aten.lift_fresh_copy.default"};
  return s;
}
const std::unordered_set<std::string>& arith_ops() {
  static const std::unordered_set<std::string> s = {"aten.add.Tensor", "aten.sub.Tensor", "aten.mul.Tensor",
                                                    "aten.div.Tensor", "aten.neg.default", "aten._to_copy.default",
                                                    "aten.arange.start_step", "aten.full.default",
                                                    "aten.zeros.default", "aten.ones.default",
                                                    "aten.scalar_tensor.default"};
  return s;
}
// Comparisons give bools: exact on doubles while the operands are (|int| <= 2^53).
const std::unordered_set<std::string>& compare_ops() {
  static const std::unordered_set<std::string> s = {
      "aten.lt.Scalar", "aten.le.Scalar", "aten.gt.Scalar", "aten.ge.Scalar", "aten.eq.Scalar", "aten.ne.Scalar",
      "aten.lt.Tensor", "aten.le.Tensor", "aten.gt.Tensor", "aten.ge.Tensor", "aten.eq.Tensor", "aten.ne.Tensor"};
  return s;
}

bool supported_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Int64 || t == DType::Int32 || t == DType::Bool;
}

// Elements of `t` broadcast to `sizes`, row-major, as doubles.
std::vector<double> broadcast_values(const Tensor& t, const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> strides(sizes.size(), 0);
  const auto lead = sizes.size() - t.sizes().size();
  for (std::size_t i = 0; i < t.sizes().size(); ++i) {
    strides[lead + i] = t.sizes()[i] == 1 ? 0 : t.strides()[i];
  }
  Tensor view(t.storage(), t.dtype(), sizes, strides, t.storage_offset());
  const auto bytes = view.to_bytes();
  const std::size_t es = element_size(t.dtype());
  std::vector<double> out(bytes.size() / es);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = ir::read_f64(bytes.data() + i * es, t.dtype());
  return out;
}

Tensor from_values(const std::vector<double>& v, DType t, const std::vector<std::int64_t>& sizes) {
  Tensor out(t, sizes);
  const std::size_t es = element_size(t);
  for (std::size_t i = 0; i < v.size(); ++i) ir::write_f64(out.raw_mutable_data() + i * es, t, v[i]);
  return out;
}

// A strided view of `t` (no copy).
Tensor restride(const Tensor& t, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides,
                std::int64_t offset) {
  return Tensor(t.storage(), t.dtype(), std::move(sizes), std::move(strides), offset);
}

std::optional<Tensor> eval_view(const ir::Node& n, const Tensor& x, const std::vector<std::int64_t>& out_sizes) {
  const auto& op = n.target;
  const auto r = static_cast<std::int64_t>(x.sizes().size());
  if (op.name == "clone" || op.name == "contiguous" || op.name == "detach" || op.name == "alias" ||
      op.name == "lift_fresh_copy") {
    return x;
  }
  if (op.name == "view" || op.name == "reshape" || op.name == "_unsafe_view") {
    const Tensor c = x.contiguous();
    return restride(c, out_sizes, contiguous_strides(out_sizes), c.storage_offset());
  }
  if (op.name == "unsqueeze" || op.name == "squeeze") {
    const Tensor c = x.contiguous();
    return restride(c, out_sizes, contiguous_strides(out_sizes), c.storage_offset());
  }
  std::vector<std::int64_t> perm;
  if (op.name == "permute") {
    for (auto d : int_list_arg(n, "dims")) perm.push_back(normalize_dim(d, r, n.describe()));
  } else if (op.name == "t" || op.name == "transpose") {
    for (std::int64_t i = 0; i < r; ++i) perm.push_back(i);
    if (r >= 2) {
      const auto d0 = op.name == "t" ? 0 : normalize_dim(int_arg(n, "dim0"), r, n.describe());
      const auto d1 = op.name == "t" ? 1 : normalize_dim(int_arg(n, "dim1"), r, n.describe());
      std::swap(perm[static_cast<std::size_t>(d0)], perm[static_cast<std::size_t>(d1)]);
    }
  }
  if (!perm.empty() || (r == 0 && (op.name == "permute" || op.name == "t" || op.name == "transpose"))) {
    std::vector<std::int64_t> sizes, strides;
    for (auto d : perm) {
      sizes.push_back(x.sizes()[static_cast<std::size_t>(d)]);
      strides.push_back(x.strides()[static_cast<std::size_t>(d)]);
    }
    return restride(x, sizes, strides, x.storage_offset());
  }
  if (op.name == "slice") {
    const auto d = static_cast<std::size_t>(normalize_dim(int_arg(n, "dim"), r, n.describe()));
    const std::int64_t size = x.sizes()[d];
    std::int64_t start = opt_int_arg(n, "start").value_or(0);
    if (start < 0) start += size;
    start = std::clamp<std::int64_t>(start, 0, size);
    auto strides = x.strides();
    const std::int64_t step = int_arg(n, "step");
    const auto offset = x.storage_offset() + (out_sizes[d] == 0 ? 0 : start * strides[d]);
    strides[d] *= step;
    return restride(x, out_sizes, strides, offset);
  }
  return std::nullopt;
}

double scalar_as(double v, DType compute) {
  return compute == DType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
}

}  // namespace

bool const_evaluable(const ir::Node& node) {
  const auto key = node.target.str();
  return view_ops().contains(key) || arith_ops().contains(key) || compare_ops().contains(key);
}

std::optional<Tensor> const_evaluate(const ir::Node& n, const ir::TensorMeta& out, const ConstLookup& lookup) {
  if (!out.dtype || !out.is_static() || !supported_dtype(*out.dtype)) return std::nullopt;
  const auto sizes = out.static_sizes();
  const DType ot = *out.dtype;
  const auto key = n.target.str();
  auto input = [&](const char* name) -> const Tensor* {
    const ir::Argument* a = n.input(name);
    if (!a) return nullptr;
    if (auto* t = a->get_if<ir::TensorRef>()) return lookup(t->name);
    return nullptr;
  };
  if (view_ops().contains(key)) {
    const Tensor* x = input("self");
    if (!x || !supported_dtype(x->dtype()) || x->dtype() != ot) return std::nullopt;
    auto v = eval_view(n, *x, sizes);
    if (!v || v->sizes() != sizes) return std::nullopt;
    return v->contiguous();
  }
  const std::int64_t count = numel_of(sizes);
  if (key == "aten.arange.start_step") {
    const double start = scalar_arg(n, "start"), step = scalar_arg(n, "step");
    std::vector<double> v(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = scalar_as(start + static_cast<double>(i) * step, ot);
    if (is_floating(ot)) return std::nullopt;  // float arange rounding differs by kernel: keep it exact, fold ints only
    return from_values(v, ot, sizes);
  }
  if (key == "aten.full.default" || key == "aten.zeros.default" || key == "aten.ones.default") {
    const ir::Argument* f = n.input("fill_value");
    const auto given = f ? ir::literal_number(*f) : std::nullopt;  // a symbolic value: not now
    if (key == "aten.full.default" && !given) return std::nullopt;
    const double fill = key == "aten.full.default" ? *given : key == "aten.ones.default" ? 1.0 : 0.0;
    return from_values(std::vector<double>(static_cast<std::size_t>(count), fill), ot, sizes);
  }
  if (key == "aten.scalar_tensor.default") {
    const ir::Argument* v = n.input("s");
    const auto number = v ? ir::literal_number(*v) : std::nullopt;  // a symbolic value: not now
    if (count != 1 || !number) return std::nullopt;
    return from_values({*number}, ot, sizes);
  }
  if (key == "aten._to_copy.default" || key == "aten.neg.default") {
    const Tensor* x = input("self");
    if (!x || !supported_dtype(x->dtype())) return std::nullopt;
    auto v = broadcast_values(*x, sizes);
    if (key == "aten.neg.default") {
      for (auto& e : v) e = -e;
    } else if (is_integral(ot) && is_floating(x->dtype())) {
      for (auto& e : v) e = std::trunc(e);
    }
    return from_values(v, ot, sizes);
  }
  // Binary arithmetic: operands are tensors or numbers; computed in double,
  // rounded once to the output dtype (comparisons: compared as they are).
  const bool compare = compare_ops().contains(key);
  if (compare && ot != DType::Bool) return std::nullopt;
  const ir::Argument& a = arg(n, "self");
  const ir::Argument& b = arg(n, "other");
  auto operand = [&](const ir::Argument& x) -> std::optional<std::vector<double>> {
    if (auto* t = x.get_if<ir::TensorRef>()) {
      const Tensor* v = lookup(t->name);
      if (!v || !supported_dtype(v->dtype())) return std::nullopt;
      return broadcast_values(*v, sizes);
    }
    if (x.is<double>() || x.is<std::int64_t>() || x.is<bool>()) {
      const double s = x.is<double>() ? *x.get_if<double>() : x.is<bool>() ? (*x.get_if<bool>() ? 1.0 : 0.0)
                                                                              : static_cast<double>(*x.get_if<std::int64_t>());
      return std::vector<double>(static_cast<std::size_t>(count), compare ? s : scalar_as(s, ot));
    }
    return std::nullopt;
  };
  auto va = operand(a), vb = operand(b);
  if (!va || !vb) return std::nullopt;
  if (compare) {
    const std::string& op = n.target.name;
    std::vector<double> r(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < r.size(); ++i) {
      const double x = (*va)[i], y = (*vb)[i];
      if (std::abs(x) > 9007199254740992.0 || std::abs(y) > 9007199254740992.0) return std::nullopt;
      const bool v = op == "lt" ? x < y : op == "le" ? x <= y : op == "gt" ? x > y : op == "ge" ? x >= y
                   : op == "eq" ? x == y : x != y;
      r[i] = v ? 1.0 : 0.0;
    }
    return from_values(r, ot, sizes);
  }
  double alpha = 1.0;
  if (n.input("alpha")) alpha = scalar_as(scalar_arg(n, "alpha"), ot);
  // Integer division and alpha scaling round differently: fold floats only there.
  if ((key == "aten.div.Tensor" || alpha != 1.0) && !is_floating(ot)) return std::nullopt;
  std::vector<double> r(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < r.size(); ++i) {
    const double x = (*va)[i], y = (*vb)[i];
    if (key == "aten.add.Tensor") r[i] = alpha == 1.0 ? x + y : x + scalar_as(alpha * y, ot);
    else if (key == "aten.sub.Tensor") r[i] = alpha == 1.0 ? x - y : x - scalar_as(alpha * y, ot);
    else if (key == "aten.mul.Tensor") r[i] = x * y;
    else r[i] = x / y;
    if (is_integral(ot) && std::abs(r[i]) > 9007199254740992.0) return std::nullopt;  // beyond exact doubles
  }
  return from_values(r, ot, sizes);
}

}  // namespace atenrt::lowering
