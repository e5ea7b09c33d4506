#include "lowering/graph_builder.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <utility>

#include "atenrt/errors.h"
#include "ir/op_schema.h"
#include "lowering/node_args.h"

namespace atenrt::lowering {

// ---------------------------------------------------------------- names

NameSet::NameSet(const ir::Graph& graph) {
  for (const auto& [name, meta] : graph.tensor_values) used_.insert(name);
  for (const auto& [name, sym] : graph.sym_int_values) used_.insert(name);
  for (const auto& [name, sym] : graph.sym_bool_values) used_.insert(name);
  for (const auto& [name, sym] : graph.sym_float_values) used_.insert(name);
  for (const auto& node : graph.nodes) {
    used_.insert(node.name);
    for (const auto& v : output_values(node)) used_.insert(v);
  }
  for (const auto& spec : graph.signature.inputs) used_.insert(spec.value_name);
}

std::string NameSet::fresh(const std::string& base) {
  if (used_.insert(base).second) return base;
  for (std::size_t n = 1;; ++n) {
    std::string candidate = base + "_" + std::to_string(n);
    if (used_.insert(candidate).second) return candidate;
  }
}

// ---------------------------------------------------------------- inference helpers

namespace {

using ir::SymInt;
using Sizes = std::vector<SymInt>;

int category(DType t) { return t == DType::Bool ? 0 : is_integral(t) ? 1 : 2; }

ir::TensorMeta make_meta(DType dtype, Sizes sizes) {
  ir::TensorMeta m;
  m.dtype = dtype;
  m.dtype_code = dtype_to_serde(dtype);
  bool all_static = std::all_of(sizes.begin(), sizes.end(), [](const SymInt& s) { return s.is_static(); });
  if (all_static) {
    std::vector<std::int64_t> st(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) st[i] = *sizes[i].value;
    for (auto s : contiguous_strides(st)) m.strides.push_back(SymInt::of(s));
  }
  m.sizes = std::move(sizes);
  return m;
}

const ir::TensorMeta& meta_of(const ir::Graph& g, const ir::Node& node, const std::string& value) {
  const ir::TensorMeta* m = g.meta(value);
  if (!m) throw FormatError(node.describe() + ": value '" + value + "' has no tensor metadata");
  if (!m->dtype) {
    throw UnsupportedError(node.describe() + ": value '" + value + "' has an unsupported dtype (code " +
                           std::to_string(m->dtype_code) + ")");
  }
  return *m;
}

Sizes broadcast(const Sizes& a, const Sizes& b, const std::string& where) {
  const std::size_t n = std::max(a.size(), b.size());
  Sizes out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const SymInt* x = i + a.size() >= n ? &a[i + a.size() - n] : nullptr;
    const SymInt* y = i + b.size() >= n ? &b[i + b.size() - n] : nullptr;
    if (!x) { out[i] = *y; continue; }
    if (!y) { out[i] = *x; continue; }
    if (*x == *y || (y->is_static() && *y->value == 1)) { out[i] = *x; continue; }
    if (x->is_static() && *x->value == 1) { out[i] = *y; continue; }
    if (!x->is_static()) { out[i] = *y; continue; }
    if (!y->is_static()) { out[i] = *x; continue; }
    throw FormatError(where + ": shapes cannot broadcast at dim " + std::to_string(i) + " (" +
                      std::to_string(*x->value) + " vs " + std::to_string(*y->value) + ")");
  }
  return out;
}

DType operand_dtype_promote(std::optional<DType> a, std::optional<DType> b, int scalar_cat_a, int scalar_cat_b) {
  // Tensors decide; numbers only lift the category.
  if (a && b) {
    if (category(*a) != category(*b)) return category(*a) > category(*b) ? *a : *b;
    if (*a == *b) return *a;
    if (category(*a) == 2 && element_size(*a) == element_size(*b)) return DType::Float32;  // f16 + bf16
    return element_size(*a) >= element_size(*b) ? *a : *b;
  }
  const DType t = a ? *a : *b;
  const int scalar_cat = a ? scalar_cat_b : scalar_cat_a;
  if (scalar_cat > category(t)) return scalar_cat == 2 ? DType::Float32 : DType::Int64;
  return t;
}

int scalar_category(const ir::Argument& a) {
  if (a.is<double>()) return 2;
  if (a.is<bool>()) return 0;
  return 1;
}

std::vector<std::int64_t> reduce_dims(const ir::Node& node, const std::string& name, std::size_t rank) {
  std::vector<std::int64_t> dims;
  if (auto d = opt_int_list_arg(node, name)) dims = *d;
  if (dims.empty()) {
    for (std::size_t i = 0; i < rank; ++i) dims.push_back(static_cast<std::int64_t>(i));
  }
  for (auto& d : dims) d = normalize_dim(d, static_cast<std::int64_t>(rank), node.describe());
  return dims;
}

Sizes reduced_sizes(const Sizes& in, const std::vector<std::int64_t>& dims, bool keepdim) {
  Sizes out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const bool reduced = std::find(dims.begin(), dims.end(), static_cast<std::int64_t>(i)) != dims.end();
    if (!reduced) out.push_back(in[i]);
    else if (keepdim) out.push_back(SymInt::of(1));
  }
  return out;
}

// Resolves one -1 in a view/reshape size against the input's element count.
Sizes view_sizes(const ir::Node& node, const Sizes& in, const std::string& arg_name) {
  const ir::Argument& a = arg(node, arg_name);
  Sizes req;
  if (auto* l = a.get_if<ir::IntList>()) {
    for (auto v : *l) req.push_back(SymInt::of(v));
  } else if (auto* l = a.get_if<ir::SymIntList>()) {
    req = *l;
  } else {
    throw FormatError(node.describe() + ", argument '" + arg_name + "': expected a list of sizes");
  }
  int infer_at = -1;
  std::int64_t known = 1;
  bool all_static = true;
  for (std::size_t i = 0; i < req.size(); ++i) {
    if (req[i].is_static() && *req[i].value == -1) {
      if (infer_at >= 0) throw FormatError(node.describe() + ": more than one -1 in the view size");
      infer_at = static_cast<int>(i);
    } else if (req[i].is_static()) {
      known *= *req[i].value;
    } else {
      all_static = false;
    }
  }
  if (infer_at >= 0) {
    std::int64_t total = 1;
    for (const auto& s : in) {
      if (!s.is_static()) all_static = false;
      else total *= *s.value;
    }
    if (!all_static) throw Decline{"view size with -1 over a dynamic shape"};
    if (known == 0 || total % known != 0) {
      throw FormatError(node.describe() + ": view size does not fit " + std::to_string(total) + " elements");
    }
    req[static_cast<std::size_t>(infer_at)] = SymInt::of(total / known);
  }
  return req;
}

using InferFn = std::function<std::vector<ir::TensorMeta>(const ir::Graph&, const ir::Node&)>;

std::vector<ir::TensorMeta> infer_binary(const ir::Graph& g, const ir::Node& node, const char* a_name,
                                         const char* b_name, bool to_float, bool to_bool) {
  const ir::Argument& a = arg(node, a_name);
  const ir::Argument& b = arg(node, b_name);
  Sizes sa, sb;
  std::optional<DType> ta, tb;
  if (auto* t = a.get_if<ir::TensorRef>()) {
    const auto& m = meta_of(g, node, t->name);
    sa = m.sizes;
    ta = m.dtype;
  }
  if (auto* t = b.get_if<ir::TensorRef>()) {
    const auto& m = meta_of(g, node, t->name);
    sb = m.sizes;
    tb = m.dtype;
  }
  if (!ta && !tb) throw FormatError(node.describe() + ": no tensor operand");
  DType out = operand_dtype_promote(ta, tb, scalar_category(a), scalar_category(b));
  if (to_float && category(out) < 2) out = DType::Float32;
  if (to_bool) out = DType::Bool;
  return {make_meta(out, broadcast(sa, sb, node.describe()))};
}

std::vector<ir::TensorMeta> infer_unary(const ir::Graph& g, const ir::Node& node, bool to_float, bool to_bool) {
  const auto& m = meta_of(g, node, tensor_arg(node, "self"));
  DType out = *m.dtype;
  if (to_float && category(out) < 2) out = DType::Float32;
  if (to_bool) out = DType::Bool;
  return {make_meta(out, m.sizes)};
}

std::vector<ir::TensorMeta> infer_reduce(const ir::Graph& g, const ir::Node& node, bool sum_like,
                                         bool mean_like) {
  const auto& m = meta_of(g, node, tensor_arg(node, "self"));
  const auto dims = reduce_dims(node, "dim", m.sizes.size());
  DType out = *m.dtype;
  if (auto d = opt_dtype_arg(node, "dtype")) out = *d;
  else if (sum_like && category(out) < 2) out = DType::Int64;
  if (mean_like && category(out) < 2) throw FormatError(node.describe() + ": mean of an integer tensor");
  return {make_meta(out, reduced_sizes(m.sizes, dims, bool_arg(node, "keepdim")))};
}

const std::unordered_map<std::string, InferFn>& infer_table() {
  static const std::unordered_map<std::string, InferFn> table = [] {
    std::unordered_map<std::string, InferFn> t;
    auto binary = [](bool to_float, bool to_bool) {
      return [=](const ir::Graph& g, const ir::Node& n) { return infer_binary(g, n, "self", "other", to_float, to_bool); };
    };
    for (const char* op : {"add.Tensor", "sub.Tensor", "mul.Tensor", "maximum.default", "minimum.default",
                           "pow.Tensor_Tensor"}) {
      t[std::string("aten.") + op] = binary(false, false);
    }
    t["aten.div.Tensor"] = binary(true, false);
    for (const char* op : {"gt", "lt", "ge", "le", "eq", "ne"}) {
      t[std::string("aten.") + op + ".Tensor"] = binary(false, true);
      t[std::string("aten.") + op + ".Scalar"] = binary(false, true);
    }
    t["aten.pow.Tensor_Scalar"] = [](const ir::Graph& g, const ir::Node& n) {
      return infer_binary(g, n, "self", "exponent", false, false);
    };
    t["aten.where.self"] = [](const ir::Graph& g, const ir::Node& n) {
      auto v = infer_binary(g, n, "self", "other", false, false);
      const auto& c = meta_of(g, n, tensor_arg(n, "condition"));
      v[0].sizes = broadcast(c.sizes, v[0].sizes, n.describe());
      return std::vector<ir::TensorMeta>{make_meta(*v[0].dtype, v[0].sizes)};
    };
    t["aten.clamp.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      DType out = *m.dtype;
      for (const char* bound : {"min", "max"}) {
        const ir::Argument& b = arg(n, bound);
        if (!b.is_none() && scalar_category(b) > category(out)) out = DType::Float32;
      }
      return std::vector<ir::TensorMeta>{make_meta(out, m.sizes)};
    };
    for (const char* op : {"exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sigmoid", "tanh", "erf",
                           "reciprocal", "sin", "cos"}) {
      t[std::string("aten.") + op + ".default"] = [](const ir::Graph& g, const ir::Node& n) {
        return infer_unary(g, n, true, false);
      };
    }
    for (const char* op : {"neg", "abs", "relu", "clone", "alias", "detach"}) {
      t[std::string("aten.") + op + ".default"] = [](const ir::Graph& g, const ir::Node& n) {
        return infer_unary(g, n, false, false);
      };
    }
    for (const char* op : {"isinf", "isnan", "logical_not"}) {
      t[std::string("aten.") + op + ".default"] = [](const ir::Graph& g, const ir::Node& n) {
        return infer_unary(g, n, false, true);
      };
    }
    t["aten.mm.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& a = meta_of(g, n, tensor_arg(n, "self"));
      const auto& b = meta_of(g, n, tensor_arg(n, "mat2"));
      if (a.sizes.size() != 2 || b.sizes.size() != 2) throw FormatError(n.describe() + ": mm needs 2-D operands");
      return std::vector<ir::TensorMeta>{make_meta(*a.dtype, {a.sizes[0], b.sizes[1]})};
    };
    t["aten.bmm.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& a = meta_of(g, n, tensor_arg(n, "self"));
      const auto& b = meta_of(g, n, tensor_arg(n, "mat2"));
      if (a.sizes.size() != 3 || b.sizes.size() != 3) throw FormatError(n.describe() + ": bmm needs 3-D operands");
      return std::vector<ir::TensorMeta>{make_meta(*a.dtype, {a.sizes[0], a.sizes[1], b.sizes[2]})};
    };
    t["aten.sum.dim_IntList"] = [](const ir::Graph& g, const ir::Node& n) { return infer_reduce(g, n, true, false); };
    t["aten.mean.dim"] = [](const ir::Graph& g, const ir::Node& n) { return infer_reduce(g, n, false, true); };
    t["aten.amax.default"] = [](const ir::Graph& g, const ir::Node& n) { return infer_reduce(g, n, false, false); };
    t["aten.amin.default"] = t["aten.amax.default"];
    auto view_like = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      const char* size_arg = n.input("size") ? "size" : "shape";
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, view_sizes(n, m.sizes, size_arg))};
    };
    t["aten.view.default"] = view_like;
    t["aten.reshape.default"] = view_like;
    t["aten._unsafe_view.default"] = view_like;
    t["aten.permute.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      const auto dims = int_list_arg(n, "dims");
      if (dims.size() != m.sizes.size()) throw FormatError(n.describe() + ": permutation rank mismatch");
      Sizes out;
      for (auto d : dims) out.push_back(m.sizes[normalize_dim(d, static_cast<std::int64_t>(dims.size()), n.describe())]);
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, out)};
    };
    t["aten.expand.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      const auto req = int_list_arg(n, "size");
      if (req.size() < m.sizes.size()) throw FormatError(n.describe() + ": expand to fewer dims");
      Sizes out;
      const std::size_t lead = req.size() - m.sizes.size();
      for (std::size_t i = 0; i < req.size(); ++i) {
        if (req[i] == -1 && i >= lead) out.push_back(m.sizes[i - lead]);
        else out.push_back(SymInt::of(req[i]));
      }
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, out)};
    };
    t["aten.unsqueeze.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      Sizes out = m.sizes;
      const auto d = normalize_dim(int_arg(n, "dim"), static_cast<std::int64_t>(out.size()) + 1, n.describe());
      out.insert(out.begin() + d, SymInt::of(1));
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, out)};
    };
    t["aten.squeeze.dims"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      std::vector<std::int64_t> dims = int_list_arg(n, "dim");
      for (auto& d : dims) d = normalize_dim(d, static_cast<std::int64_t>(m.sizes.size()), n.describe());
      Sizes out;
      for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        const bool listed = std::find(dims.begin(), dims.end(), static_cast<std::int64_t>(i)) != dims.end();
        if (listed && m.sizes[i] == SymInt::of(1)) continue;
        out.push_back(m.sizes[i]);
      }
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, out)};
    };
    t["aten.slice.Tensor"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      Sizes out = m.sizes;
      const auto d = normalize_dim(int_arg(n, "dim"), static_cast<std::int64_t>(out.size()), n.describe());
      if (!out[d].is_static()) throw Decline{"slice of a dynamic dim"};
      const std::int64_t size = *out[d].value;
      std::int64_t start = opt_int_arg(n, "start").value_or(0);
      std::int64_t end = opt_int_arg(n, "end").value_or(size);
      const std::int64_t step = int_arg(n, "step");
      if (step <= 0) throw FormatError(n.describe() + ": slice step must be positive");
      if (start < 0) start += size;
      if (end < 0) end += size;
      start = std::clamp<std::int64_t>(start, 0, size);
      end = std::clamp<std::int64_t>(end, start, size);
      out[d] = SymInt::of((end - start + step - 1) / step);
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, out)};
    };
    t["aten.cat.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto* list = arg(n, "tensors").get_if<ir::TensorList>();
      if (!list || list->empty()) throw FormatError(n.describe() + ": cat needs a non-empty tensor list");
      const auto& first = meta_of(g, n, (*list)[0].name);
      Sizes out = first.sizes;
      const auto d = normalize_dim(int_arg(n, "dim"), static_cast<std::int64_t>(out.size()), n.describe());
      std::int64_t total = 0;
      for (const auto& t : *list) {
        const auto& m = meta_of(g, n, t.name);
        if (!m.sizes[d].is_static()) throw Decline{"cat along a dynamic dim"};
        total += *m.sizes[d].value;
      }
      out[d] = SymInt::of(total);
      return std::vector<ir::TensorMeta>{make_meta(*first.dtype, out)};
    };
    t["aten.index_select.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      const auto& idx = meta_of(g, n, tensor_arg(n, "index"));
      Sizes out = m.sizes;
      const auto d = normalize_dim(int_arg(n, "dim"), static_cast<std::int64_t>(out.size()), n.describe());
      out[d] = idx.sizes.empty() ? SymInt::of(1) : idx.sizes[0];
      return std::vector<ir::TensorMeta>{make_meta(*m.dtype, out)};
    };
    t["aten.arange.start_step"] = [](const ir::Graph&, const ir::Node& n) {
      const double start = scalar_arg(n, "start"), end = scalar_arg(n, "end"), step = scalar_arg(n, "step");
      if (step == 0) throw FormatError(n.describe() + ": arange step is zero");
      const auto len = static_cast<std::int64_t>(std::max(0.0, std::ceil((end - start) / step)));
      return std::vector<ir::TensorMeta>{make_meta(opt_dtype_arg(n, "dtype").value_or(DType::Int64), {SymInt::of(len)})};
    };
    t["aten.full.default"] = [](const ir::Graph&, const ir::Node& n) {
      Sizes out;
      for (auto v : int_list_arg(n, "size")) out.push_back(SymInt::of(v));
      return std::vector<ir::TensorMeta>{make_meta(opt_dtype_arg(n, "dtype").value_or(DType::Float32), out)};
    };
    t["aten._to_copy.default"] = [](const ir::Graph& g, const ir::Node& n) {
      const auto& m = meta_of(g, n, tensor_arg(n, "self"));
      return std::vector<ir::TensorMeta>{make_meta(opt_dtype_arg(n, "dtype").value_or(*m.dtype), m.sizes)};
    };
    return t;
  }();
  return table;
}

}  // namespace

std::int64_t normalize_dim(std::int64_t dim, std::int64_t rank, const std::string& where) {
  const std::int64_t r = std::max<std::int64_t>(rank, 1);  // a 0-d tensor takes dim 0 / -1
  if (dim < -r || dim >= r) {
    throw FormatError(where + ": dim " + std::to_string(dim) + " is out of range for rank " + std::to_string(rank));
  }
  return dim < 0 ? dim + r : dim;
}

std::optional<std::vector<ir::TensorMeta>> infer_meta(const ir::Graph& graph, const ir::Node& node) {
  const auto& table = infer_table();
  auto it = table.find(node.target.str());
  if (it == table.end()) return std::nullopt;
  return it->second(graph, node);
}

DType promote(const ir::Graph& graph, const ir::Argument& a, const ir::Argument& b) {
  std::optional<DType> ta, tb;
  if (auto* t = a.get_if<ir::TensorRef>()) ta = graph.meta(t->name) ? graph.meta(t->name)->dtype : std::nullopt;
  if (auto* t = b.get_if<ir::TensorRef>()) tb = graph.meta(t->name) ? graph.meta(t->name)->dtype : std::nullopt;
  if (!ta && !tb) return scalar_category(a) == 2 || scalar_category(b) == 2 ? DType::Float32 : DType::Int64;
  return operand_dtype_promote(ta, tb, scalar_category(a), scalar_category(b));
}

// ---------------------------------------------------------------- builder

GraphBuilder::GraphBuilder(ir::Graph& graph, NameSet& names, std::string prefix,
                           std::map<std::string, std::string> metadata)
    : graph_(graph), names_(names), prefix_(std::move(prefix)), metadata_(std::move(metadata)) {}

GraphBuilder::~GraphBuilder() { abandon(); }

std::vector<std::string> GraphBuilder::emit_multi(const std::string& target, std::vector<ir::NamedArgument> args) {
  ir::Node node;
  node.target = ir::OpName::parse(target);
  if (!ir::find_schema(node.target.schema_name())) {
    throw UnsupportedError("graph builder: no ATen schema for '" + target + "'");
  }
  node.name = names_.fresh(prefix_ + "_" + node.target.name);
  ir::fill_schema_defaults(node.name, target, args);
  node.inputs = std::move(args);
  node.metadata = metadata_;
  auto metas = infer_meta(graph_, node);
  if (!metas) throw UnsupportedError("graph builder: no shape inference for '" + target + "'");
  std::vector<std::string> outs;
  for (std::size_t i = 0; i < metas->size(); ++i) {
    std::string value = i == 0 ? node.name : names_.fresh(node.name + "_" + std::to_string(i));
    graph_.tensor_values[value] = (*metas)[i];
    created_values_.push_back(value);
    node.outputs.emplace_back(ir::TensorRef{value});
    outs.push_back(value);
  }
  nodes_.push_back(std::move(node));
  return outs;
}

std::string GraphBuilder::emit(const std::string& target, std::vector<ir::NamedArgument> args) {
  return emit_multi(target, std::move(args)).at(0);
}

const ir::TensorMeta& GraphBuilder::meta(const std::string& value) const {
  const ir::TensorMeta* m = graph_.meta(value);
  if (!m) throw FormatError("value '" + value + "' has no tensor metadata");
  return *m;
}

DType GraphBuilder::dtype(const std::string& value) const {
  const auto& m = meta(value);
  if (!m.dtype) throw Decline{"value '" + value + "' has an unsupported dtype"};
  return *m.dtype;
}

int GraphBuilder::rank(const std::string& value) const { return static_cast<int>(meta(value).sizes.size()); }

std::vector<std::int64_t> GraphBuilder::static_sizes(const std::string& value, const char* why) const {
  std::vector<std::int64_t> out;
  for (const auto& s : meta(value).sizes) {
    if (!s.is_static()) throw Decline{std::string(why) + " needs a static shape; '" + value + "' has dim " + s.name};
    out.push_back(*s.value);
  }
  return out;
}

std::int64_t GraphBuilder::static_dim(const std::string& value, int dim, const char* why) const {
  const auto& sizes = meta(value).sizes;
  const auto d = normalize_dim(dim, static_cast<std::int64_t>(sizes.size()), "value '" + value + "'");
  if (!sizes[d].is_static()) {
    throw Decline{std::string(why) + " needs dim " + std::to_string(d) + " of '" + value + "' to be static"};
  }
  return *sizes[d].value;
}

namespace {
ir::NamedArgument na(const char* name, ir::Argument a) { return ir::NamedArgument{name, std::move(a)}; }
ir::Argument tref(const std::string& v) { return ir::TensorRef{v}; }
ir::Argument ints(std::vector<std::int64_t> v) { return ir::IntList(std::move(v)); }
// A number argument: integral values that are exact stay ints (as torch writes them).
ir::Argument number(double v) { return v; }
}  // namespace

std::string GraphBuilder::add(const ir::Argument& a, const ir::Argument& b) {
  return emit("aten.add.Tensor", {na("self", a), na("other", b)});
}
std::string GraphBuilder::sub(const ir::Argument& a, const ir::Argument& b) {
  return emit("aten.sub.Tensor", {na("self", a), na("other", b)});
}
std::string GraphBuilder::mul(const ir::Argument& a, const ir::Argument& b) {
  return emit("aten.mul.Tensor", {na("self", a), na("other", b)});
}
std::string GraphBuilder::div(const ir::Argument& a, const ir::Argument& b) {
  return emit("aten.div.Tensor", {na("self", a), na("other", b)});
}
std::string GraphBuilder::pow(const std::string& a, double exponent) {
  return emit("aten.pow.Tensor_Scalar", {na("self", tref(a)), na("exponent", number(exponent))});
}
std::string GraphBuilder::where(const std::string& cond, const std::string& a, const std::string& b) {
  return emit("aten.where.self", {na("condition", tref(cond)), na("self", tref(a)), na("other", tref(b))});
}
std::string GraphBuilder::clamp(const std::string& x, std::optional<double> lo, std::optional<double> hi) {
  return emit("aten.clamp.default", {na("self", tref(x)), na("min", lo ? number(*lo) : ir::Argument()),
                                     na("max", hi ? number(*hi) : ir::Argument())});
}
std::string GraphBuilder::compare(const std::string& op, const std::string& x, const ir::Argument& other) {
  const bool tensor = other.is<ir::TensorRef>();
  return emit("aten." + op + (tensor ? ".Tensor" : ".Scalar"), {na("self", tref(x)), na("other", other)});
}
std::string GraphBuilder::unary(const std::string& op, const std::string& x) {
  return emit("aten." + op + ".default", {na("self", tref(x))});
}
std::string GraphBuilder::mm(const std::string& a, const std::string& b) {
  return emit("aten.mm.default", {na("self", tref(a)), na("mat2", tref(b))});
}
std::string GraphBuilder::bmm(const std::string& a, const std::string& b) {
  return emit("aten.bmm.default", {na("self", tref(a)), na("mat2", tref(b))});
}
std::string GraphBuilder::sum(const std::string& x, std::vector<std::int64_t> dims, bool keepdim) {
  return emit("aten.sum.dim_IntList", {na("self", tref(x)), na("dim", ints(std::move(dims))), na("keepdim", keepdim)});
}
std::string GraphBuilder::mean(const std::string& x, std::vector<std::int64_t> dims, bool keepdim) {
  return emit("aten.mean.dim", {na("self", tref(x)), na("dim", ints(std::move(dims))), na("keepdim", keepdim)});
}
std::string GraphBuilder::amax(const std::string& x, std::vector<std::int64_t> dims, bool keepdim) {
  return emit("aten.amax.default", {na("self", tref(x)), na("dim", ints(std::move(dims))), na("keepdim", keepdim)});
}
std::string GraphBuilder::amin(const std::string& x, std::vector<std::int64_t> dims, bool keepdim) {
  return emit("aten.amin.default", {na("self", tref(x)), na("dim", ints(std::move(dims))), na("keepdim", keepdim)});
}
std::string GraphBuilder::view(const std::string& x, std::vector<std::int64_t> sizes) {
  return emit("aten.view.default", {na("self", tref(x)), na("size", ints(std::move(sizes)))});
}
std::string GraphBuilder::reshape(const std::string& x, std::vector<std::int64_t> sizes) {
  return emit("aten.reshape.default", {na("self", tref(x)), na("shape", ints(std::move(sizes)))});
}
std::string GraphBuilder::permute(const std::string& x, std::vector<std::int64_t> dims) {
  return emit("aten.permute.default", {na("self", tref(x)), na("dims", ints(std::move(dims)))});
}
std::string GraphBuilder::expand(const std::string& x, std::vector<std::int64_t> sizes) {
  return emit("aten.expand.default", {na("self", tref(x)), na("size", ints(std::move(sizes)))});
}
std::string GraphBuilder::unsqueeze(const std::string& x, std::int64_t dim) {
  return emit("aten.unsqueeze.default", {na("self", tref(x)), na("dim", dim)});
}
std::string GraphBuilder::squeeze(const std::string& x, std::vector<std::int64_t> dims) {
  return emit("aten.squeeze.dims", {na("self", tref(x)), na("dim", ints(std::move(dims)))});
}
std::string GraphBuilder::slice(const std::string& x, std::int64_t dim, std::int64_t start, std::int64_t end,
                                std::int64_t step) {
  return emit("aten.slice.Tensor",
              {na("self", tref(x)), na("dim", dim), na("start", start), na("end", end), na("step", step)});
}
std::string GraphBuilder::cat(const std::vector<std::string>& xs, std::int64_t dim) {
  ir::TensorList list;
  for (const auto& x : xs) list.push_back(ir::TensorRef{x});
  return emit("aten.cat.default", {na("tensors", list), na("dim", dim)});
}
std::string GraphBuilder::index_select(const std::string& x, std::int64_t dim, const std::string& index) {
  return emit("aten.index_select.default", {na("self", tref(x)), na("dim", dim), na("index", tref(index))});
}
std::string GraphBuilder::arange(double start, double end, double step, DType dtype) {
  auto n = [&](double v) -> ir::Argument {
    if (is_integral(dtype) && v == std::floor(v) && std::fabs(v) < 0x1p63) return static_cast<std::int64_t>(v);
    return v;
  };
  return emit("aten.arange.start_step", {na("start", n(start)), na("end", n(end)), na("step", n(step)),
                                         na("dtype", ir::ScalarTypeArg{dtype, dtype_to_serde(dtype)})});
}
std::string GraphBuilder::full(std::vector<std::int64_t> sizes, double value, DType dtype) {
  ir::Argument fill = value;
  if (!is_floating(dtype) && value == std::floor(value)) fill = static_cast<std::int64_t>(value);
  return emit("aten.full.default", {na("size", ints(std::move(sizes))), na("fill_value", fill),
                                    na("dtype", ir::ScalarTypeArg{dtype, dtype_to_serde(dtype)})});
}
std::string GraphBuilder::cast(const std::string& x, DType dtype) {
  return emit("aten._to_copy.default", {na("self", tref(x)), na("dtype", ir::ScalarTypeArg{dtype, dtype_to_serde(dtype)})});
}

std::vector<ir::Node> GraphBuilder::take_nodes() {
  created_values_.clear();
  return std::exchange(nodes_, {});
}

void GraphBuilder::abandon() {
  for (const auto& v : created_values_) graph_.tensor_values.erase(v);
  created_values_.clear();
  nodes_.clear();
}

}  // namespace atenrt::lowering
