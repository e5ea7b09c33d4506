#include "ref_eval.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "lowering/graph_builder.h"
#include "lowering/node_args.h"

namespace atenrt::lowering::testing {
namespace {

using Sizes = std::vector<std::int64_t>;
using Env = std::map<std::string, RefTensor>;

std::int64_t numel(const Sizes& s) { return numel_of(s); }

Sizes strides_of(const Sizes& s) { return contiguous_strides(s); }

// Index of element `flat` of `out` in a tensor of sizes `in` broadcast to `out`.
std::int64_t broadcast_index(std::int64_t flat, const Sizes& out, const Sizes& in) {
  std::int64_t idx = 0, stride = 1;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::size_t i = in.size() - 1 - k;
    const std::size_t o = out.size() - 1 - k;
    std::int64_t ostride = 1;
    for (std::size_t j = o + 1; j < out.size(); ++j) ostride *= out[j];
    const std::int64_t coord = (flat / ostride) % out[o];
    if (in[i] != 1) idx += coord * stride;
    stride *= in[i];
  }
  return idx;
}

Sizes bcast(const Sizes& a, const Sizes& b) {
  Sizes out(std::max(a.size(), b.size()), 1);
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
    const std::int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (x != y && x != 1 && y != 1) throw std::runtime_error("ref_eval: shapes do not broadcast");
    out[out.size() - 1 - k] = x == 1 ? y : x;
  }
  return out;
}

RefTensor scalar(double v, DType t) { return RefTensor{t, {}, {v}}; }

double round_to(double v, DType t) {
  if (t == DType::Float32) return static_cast<float>(v);
  if (is_integral(t)) return std::trunc(v);
  if (t == DType::Bool) return v != 0;
  return v;
}

RefTensor finish(RefTensor r, const ir::Graph& g, const ir::Node& n) {
  const auto outs = output_values(n);
  if (!outs.empty()) {
    if (const ir::TensorMeta* m = g.meta(outs[0]); m && m->dtype) r.dtype = *m->dtype;
  }
  for (auto& v : r.data) v = round_to(v, r.dtype);
  return r;
}

}  // namespace

RefTensor ref_from_tensor(const Tensor& t) {
  RefTensor r;
  r.dtype = t.dtype();
  r.sizes = t.sizes();
  const auto bytes = t.to_bytes();
  const std::size_t es = element_size(t.dtype());
  r.data.resize(bytes.size() / es);
  for (std::size_t i = 0; i < r.data.size(); ++i) {
    const std::byte* p = bytes.data() + i * es;
    switch (t.dtype()) {
      case DType::Float32: { float v; std::memcpy(&v, p, 4); r.data[i] = v; break; }
      case DType::Float64: { double v; std::memcpy(&v, p, 8); r.data[i] = v; break; }
      case DType::Int64: { std::int64_t v; std::memcpy(&v, p, 8); r.data[i] = static_cast<double>(v); break; }
      case DType::Int32: { std::int32_t v; std::memcpy(&v, p, 4); r.data[i] = v; break; }
      case DType::Bool: r.data[i] = static_cast<double>(*reinterpret_cast<const std::uint8_t*>(p) != 0); break;
      default: throw std::runtime_error("ref_eval: unsupported weight dtype");
    }
  }
  return r;
}

namespace {

RefTensor operand(const Env& env, const ir::Argument& a) {
  if (auto* t = a.get_if<ir::TensorRef>()) {
    auto it = env.find(t->name);
    if (it == env.end()) throw std::runtime_error("ref_eval: value '" + t->name + "' is not computed");
    return it->second;
  }
  if (auto* d = a.get_if<double>()) return scalar(*d, DType::Float32);
  if (auto* i = a.get_if<std::int64_t>()) return scalar(static_cast<double>(*i), DType::Int64);
  if (auto* b = a.get_if<bool>()) return scalar(*b ? 1 : 0, DType::Bool);
  throw std::runtime_error("ref_eval: operand is not a tensor or number: " + a.to_string());
}

RefTensor binary(const RefTensor& a, const RefTensor& b, const std::function<double(double, double)>& f) {
  RefTensor r;
  r.sizes = bcast(a.sizes, b.sizes);
  r.data.resize(static_cast<std::size_t>(numel(r.sizes)));
  for (std::int64_t i = 0; i < numel(r.sizes); ++i) {
    r.data[static_cast<std::size_t>(i)] = f(a.data[static_cast<std::size_t>(broadcast_index(i, r.sizes, a.sizes))],
                                            b.data[static_cast<std::size_t>(broadcast_index(i, r.sizes, b.sizes))]);
  }
  return r;
}

RefTensor unary(RefTensor x, const std::function<double(double)>& f) {
  for (auto& v : x.data) v = f(v);
  return x;
}

RefTensor reduce(const RefTensor& x, std::vector<std::int64_t> dims, bool keepdim, const std::string& kind) {
  const auto r = static_cast<std::int64_t>(x.sizes.size());
  if (dims.empty()) {
    for (std::int64_t i = 0; i < r; ++i) dims.push_back(i);
  }
  for (auto& d : dims) d = d < 0 ? d + r : d;
  Sizes keep = x.sizes;
  for (auto d : dims) keep[static_cast<std::size_t>(d)] = 1;
  RefTensor out;
  out.sizes = keep;
  const auto n = numel(keep);
  const double init = kind == "amax" ? -INFINITY : kind == "amin" ? INFINITY : 0.0;
  out.data.assign(static_cast<std::size_t>(n), init);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(n), 0);
  const auto xs = strides_of(x.sizes), ks = strides_of(keep);
  for (std::int64_t i = 0; i < numel(x.sizes); ++i) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < x.sizes.size(); ++d) {
      const std::int64_t c = (i / xs[d]) % x.sizes[d];
      if (keep[d] != 1 || x.sizes[d] == 1) o += (keep[d] == 1 ? 0 : c) * ks[d];
    }
    double& acc = out.data[static_cast<std::size_t>(o)];
    const double v = x.data[static_cast<std::size_t>(i)];
    if (kind == "amax") acc = std::isnan(v) || std::isnan(acc) ? NAN : std::max(acc, v);
    else if (kind == "amin") acc = std::isnan(v) || std::isnan(acc) ? NAN : std::min(acc, v);
    else acc += v;
    ++counts[static_cast<std::size_t>(o)];
  }
  if (kind == "mean") {
    for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] /= static_cast<double>(counts[i]);
  }
  if (!keepdim) {
    Sizes s;
    for (std::int64_t d = 0; d < r; ++d) {
      if (std::find(dims.begin(), dims.end(), d) == dims.end()) s.push_back(x.sizes[static_cast<std::size_t>(d)]);
    }
    out.sizes = s;
  }
  return out;
}

RefTensor permute(const RefTensor& x, const std::vector<std::int64_t>& perm) {
  RefTensor r;
  for (auto p : perm) r.sizes.push_back(x.sizes[static_cast<std::size_t>(p)]);
  r.data.resize(x.data.size());
  const auto xs = strides_of(x.sizes), rs = strides_of(r.sizes);
  for (std::int64_t i = 0; i < numel(r.sizes); ++i) {
    std::int64_t src = 0;
    for (std::size_t d = 0; d < perm.size(); ++d) src += ((i / rs[d]) % r.sizes[d]) * xs[static_cast<std::size_t>(perm[d])];
    r.data[static_cast<std::size_t>(i)] = x.data[static_cast<std::size_t>(src)];
  }
  return r;
}

// Applies `f(outer, k, inner)` over a dim split: [outer, size(dim), inner].
void split_dim(const Sizes& s, std::int64_t d, std::int64_t& outer, std::int64_t& inner) {
  outer = 1;
  inner = 1;
  for (std::int64_t i = 0; i < d; ++i) outer *= s[static_cast<std::size_t>(i)];
  for (std::size_t i = static_cast<std::size_t>(d) + 1; i < s.size(); ++i) inner *= s[i];
}

Sizes output_sizes(const ir::Graph& g, const ir::Node& n) {
  const ir::TensorMeta* m = g.meta(output_values(n).at(0));
  if (!m || !m->is_static()) throw std::runtime_error("ref_eval: output of " + n.describe() + " has no static shape");
  return m->static_sizes();
}

RefTensor eval_node(const ir::Graph& g, const ir::Node& n, const Env& env) {
  const std::string key = n.target.str();
  auto in = [&](const char* name) { return operand(env, arg(n, name)); };
  auto f = [&](const std::function<double(double)>& fn) { return unary(in("self"), fn); };
  auto b = [&](const char* x, const char* y, const std::function<double(double, double)>& fn) {
    return binary(in(x), in(y), fn);
  };
  if (key == "aten.add.Tensor" || key == "aten.sub.Tensor") {
    const double alpha = n.input("alpha") ? scalar_arg(n, "alpha") : 1.0;
    const double sign = key == "aten.add.Tensor" ? 1 : -1;
    return b("self", "other", [&](double x, double y) { return x + sign * alpha * y; });
  }
  if (key == "aten.mul.Tensor") return b("self", "other", [](double x, double y) { return x * y; });
  if (key == "aten.div.Tensor") return b("self", "other", [](double x, double y) { return x / y; });
  if (key == "aten.maximum.default") return b("self", "other", [](double x, double y) { return std::max(x, y); });
  if (key == "aten.minimum.default") return b("self", "other", [](double x, double y) { return std::min(x, y); });
  if (key == "aten.pow.Tensor_Scalar") return b("self", "exponent", [](double x, double y) { return std::pow(x, y); });
  static const std::map<std::string, std::function<bool(double, double)>> cmps = {
      {"gt", std::greater<>()}, {"lt", std::less<>()},     {"ge", std::greater_equal<>()},
      {"le", std::less_equal<>()}, {"eq", std::equal_to<>()}, {"ne", std::not_equal_to<>()}};
  if (auto it = cmps.find(n.target.name); it != cmps.end() && n.target.ns == "aten") {
    return b("self", "other", [&](double x, double y) { return it->second(x, y) ? 1.0 : 0.0; });
  }
  if (key == "aten.where.self") {
    const auto c = in("condition"), x = in("self"), y = in("other");
    RefTensor r;
    r.sizes = bcast(c.sizes, bcast(x.sizes, y.sizes));
    for (std::int64_t i = 0; i < numel(r.sizes); ++i) {
      const bool take = c.data[static_cast<std::size_t>(broadcast_index(i, r.sizes, c.sizes))] != 0;
      r.data.push_back(take ? x.data[static_cast<std::size_t>(broadcast_index(i, r.sizes, x.sizes))]
                            : y.data[static_cast<std::size_t>(broadcast_index(i, r.sizes, y.sizes))]);
    }
    return r;
  }
  if (key == "aten.clamp.default") {
    const auto lo = opt_scalar_arg(n, "min"), hi = opt_scalar_arg(n, "max");
    return f([&](double v) {
      if (std::isnan(v)) return v;
      if (lo) v = std::max(v, *lo);
      if (hi) v = std::min(v, *hi);
      return v;
    });
  }
  static const std::map<std::string, double (*)(double)> unaries = {
      {"exp", [](double v) { return std::exp(v); }},     {"log", [](double v) { return std::log(v); }},
      {"log1p", [](double v) { return std::log1p(v); }}, {"expm1", [](double v) { return std::expm1(v); }},
      {"sqrt", [](double v) { return std::sqrt(v); }},   {"rsqrt", [](double v) { return 1 / std::sqrt(v); }},
      {"sigmoid", [](double v) { return 1 / (1 + std::exp(-v)); }},
      {"tanh", [](double v) { return std::tanh(v); }},   {"erf", [](double v) { return std::erf(v); }},
      {"neg", [](double v) { return -v; }},              {"abs", [](double v) { return std::abs(v); }},
      {"relu", [](double v) { return v > 0 ? v : 0.0; }}, {"reciprocal", [](double v) { return 1 / v; }},
      {"isinf", [](double v) { return std::isinf(v) ? 1.0 : 0.0; }},
      {"clone", [](double v) { return v; }},             {"_to_copy", [](double v) { return v; }}};
  if (auto it = unaries.find(n.target.name); it != unaries.end() && n.target.overload == "default") return f(it->second);
  if (key == "aten.mm.default" || key == "aten.bmm.default") {
    const auto x = in("self"), y = in("mat2");
    const bool batched = key == "aten.bmm.default";
    const std::int64_t B = batched ? x.sizes[0] : 1;
    const std::int64_t M = x.sizes[batched ? 1 : 0], K = x.sizes[batched ? 2 : 1], N = y.sizes[batched ? 2 : 1];
    RefTensor r;
    r.sizes = batched ? Sizes{B, M, N} : Sizes{M, N};
    r.data.assign(static_cast<std::size_t>(B * M * N), 0.0);
    for (std::int64_t bb = 0; bb < B; ++bb)
      for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j) {
          double acc = 0;
          for (std::int64_t k = 0; k < K; ++k) {
            acc += x.data[static_cast<std::size_t>(bb * M * K + i * K + k)] * y.data[static_cast<std::size_t>(bb * K * N + k * N + j)];
          }
          r.data[static_cast<std::size_t>(bb * M * N + i * N + j)] = acc;
        }
    return r;
  }
  if (key == "aten.sum.dim_IntList" || key == "aten.mean.dim" || key == "aten.amax.default" || key == "aten.amin.default") {
    const auto dims = opt_int_list_arg(n, "dim").value_or(std::vector<std::int64_t>{});
    const std::string kind = n.target.name == "sum" ? "sum" : n.target.name;
    return reduce(in("self"), dims, bool_arg(n, "keepdim"), kind);
  }
  if (key == "aten.view.default" || key == "aten.reshape.default" || key == "aten._unsafe_view.default" ||
      key == "aten.unsqueeze.default" || key == "aten.squeeze.dims" || key == "aten.squeeze.dim") {
    auto x = in("self");
    x.sizes = output_sizes(g, n);
    if (numel(x.sizes) != static_cast<std::int64_t>(x.data.size())) throw std::runtime_error("ref_eval: bad view in " + n.describe());
    return x;
  }
  if (key == "aten.permute.default") {
    auto x = in("self");
    auto dims = int_list_arg(n, "dims");
    for (auto& d : dims) d = d < 0 ? d + static_cast<std::int64_t>(dims.size()) : d;
    return permute(x, dims);
  }
  if (key == "aten.expand.default") {
    const auto x = in("self");
    RefTensor r;
    r.sizes = output_sizes(g, n);
    for (std::int64_t i = 0; i < numel(r.sizes); ++i) r.data.push_back(x.data[static_cast<std::size_t>(broadcast_index(i, r.sizes, x.sizes))]);
    return r;
  }
  if (key == "aten.slice.Tensor" || key == "aten.index_select.default") {
    const auto x = in("self");
    const auto d = normalize_dim(int_arg(n, "dim"), static_cast<std::int64_t>(x.sizes.size()), n.describe());
    std::vector<std::int64_t> idx;
    if (key == "aten.index_select.default") {
      for (double v : in("index").data) idx.push_back(static_cast<std::int64_t>(v));
    } else {
      const std::int64_t size = x.sizes[static_cast<std::size_t>(d)];
      std::int64_t start = opt_int_arg(n, "start").value_or(0), end = opt_int_arg(n, "end").value_or(size);
      if (start < 0) start += size;
      if (end < 0) end += size;
      start = std::clamp<std::int64_t>(start, 0, size);
      end = std::clamp<std::int64_t>(end, start, size);
      for (std::int64_t i = start; i < end; i += int_arg(n, "step")) idx.push_back(i);
    }
    std::int64_t outer, inner;
    split_dim(x.sizes, d, outer, inner);
    RefTensor r;
    r.sizes = x.sizes;
    r.sizes[static_cast<std::size_t>(d)] = static_cast<std::int64_t>(idx.size());
    const std::int64_t size = x.sizes[static_cast<std::size_t>(d)];
    for (std::int64_t o = 0; o < outer; ++o)
      for (auto k : idx)
        for (std::int64_t i = 0; i < inner; ++i) r.data.push_back(x.data[static_cast<std::size_t>((o * size + k) * inner + i)]);
    return r;
  }
  if (key == "aten.cat.default") {
    const auto* list = arg(n, "tensors").get_if<ir::TensorList>();
    std::vector<RefTensor> xs;
    for (const auto& t : *list) xs.push_back(operand(env, ir::TensorRef{t.name}));
    const auto d = normalize_dim(int_arg(n, "dim"), static_cast<std::int64_t>(xs[0].sizes.size()), n.describe());
    RefTensor r;
    r.sizes = output_sizes(g, n);
    std::int64_t outer, inner;
    split_dim(r.sizes, d, outer, inner);
    for (std::int64_t o = 0; o < outer; ++o)
      for (const auto& x : xs) {
        const std::int64_t chunk = x.sizes[static_cast<std::size_t>(d)] * inner;
        for (std::int64_t i = 0; i < chunk; ++i) r.data.push_back(x.data[static_cast<std::size_t>(o * chunk + i)]);
      }
    return r;
  }
  if (key == "aten.arange.start_step") {
    RefTensor r;
    r.sizes = output_sizes(g, n);
    for (std::int64_t i = 0; i < r.sizes[0]; ++i) r.data.push_back(scalar_arg(n, "start") + static_cast<double>(i) * scalar_arg(n, "step"));
    return r;
  }
  if (key == "aten.full.default") {
    RefTensor r;
    r.sizes = output_sizes(g, n);
    r.data.assign(static_cast<std::size_t>(numel(r.sizes)), scalar_arg(n, "fill_value"));
    return r;
  }
  throw std::runtime_error("ref_eval: no reference for " + n.describe());
}

}  // namespace

std::vector<RefTensor> ref_evaluate(const ir::Graph& graph, const std::map<std::string, RefTensor>& inputs) {
  Env env;
  for (const auto& spec : graph.signature.inputs) {
    if (spec.kind == ir::InputKind::UserInput) {
      auto it = inputs.find(spec.value_name);
      if (it == inputs.end()) throw std::runtime_error("ref_eval: no value for input '" + spec.value_name + "'");
      env[spec.value_name] = it->second;
    } else if (const Tensor* w = graph.weight_for_value(spec.value_name)) {
      env[spec.value_name] = ref_from_tensor(*w);
    }
  }
  for (const auto& node : graph.nodes) {
    RefTensor r = finish(eval_node(graph, node, env), graph, node);
    const auto outs = output_values(node);
    if (outs.size() != 1) throw std::runtime_error("ref_eval: multi-output node " + node.describe());
    env[outs[0]] = std::move(r);
  }
  std::vector<RefTensor> out;
  for (const auto& o : graph.outputs) {
    const auto* t = o.get_if<ir::TensorRef>();
    if (!t || !env.contains(t->name)) throw std::runtime_error("ref_eval: graph output " + o.to_string() + " not computed");
    out.push_back(env.at(t->name));
  }
  return out;
}

}  // namespace atenrt::lowering::testing
