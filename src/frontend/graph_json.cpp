#include "frontend/graph_json.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "atenrt/errors.h"
#include "frontend/signature_json.h"
#include "frontend/weights.h"
#include "ir/op_schema.h"

namespace atenrt::frontend {

namespace {

using ir::Argument;

// Enum values are integers; older writers used member names (pt2_format.md §3.1).
struct EnumName {
  const char* name;
  std::int64_t code;
};
constexpr EnumName kScalarTypes[] = {
    {"UNKNOWN", 0}, {"BYTE", 1}, {"CHAR", 2}, {"SHORT", 3}, {"INT", 4}, {"LONG", 5},
    {"HALF", 6}, {"FLOAT", 7}, {"DOUBLE", 8}, {"COMPLEXHALF", 9}, {"COMPLEXFLOAT", 10},
    {"COMPLEXDOUBLE", 11}, {"BOOL", 12}, {"BFLOAT16", 13}, {"UINT16", 28},
    {"FLOAT8E4M3FN", 29}, {"FLOAT8E5M2", 30}, {"FLOAT8E4M3FNUZ", 31}, {"FLOAT8E5M2FNUZ", 32},
    {"FLOAT8E8M0FNU", 33}, {"UINT32", 34}, {"UINT64", 35}};
constexpr EnumName kLayouts[] = {{"Unknown", 0}, {"SparseCoo", 1}, {"SparseCsr", 2},
                                 {"SparseCsc", 3}, {"SparseBsr", 4}, {"SparseBsc", 5},
                                 {"_mkldnn", 6}, {"Strided", 7}};
constexpr EnumName kArgumentKinds[] = {{"UNKNOWN", 0}, {"POSITIONAL", 1}, {"KEYWORD", 2}};
constexpr EnumName kMemoryFormats[] = {{"Unknown", 0}, {"ContiguousFormat", 1},
                                       {"ChannelsLast", 2}, {"ChannelsLast3d", 3},
                                       {"PreserveFormat", 4}};

template <std::size_t N>
std::int64_t enum_code(const json& j, const EnumName (&table)[N], const JsonReader& r,
                       const std::string& path) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    for (const auto& e : table) {
      if (s == e.name) return e.code;
    }
    r.fail(path, "unknown enum name " + preview(j));
  }
  return r.integer(j, path);
}

std::string tensor_name(const json& j, const JsonReader& r, const std::string& path) {
  return r.string(r.at(j, "name", path), path + ".name");
}

// SymIntArgument / SymBoolArgument / SymFloatArgument: {"as_name": n} | {"as_<value>": v}.
ir::SymInt sym_int_argument(const json& j, const JsonReader& r, const std::string& path) {
  auto [key, v] = r.union_member(j, path);
  if (key == "as_name") return ir::SymInt::named(r.string(*v, path + ".as_name"));
  if (key == "as_int") return ir::SymInt::of(r.integer(*v, path + ".as_int"));
  r.fail(path, "unknown SymIntArgument member '" + key + "'");
}

ir::TensorRef optional_tensor(const json& j, const JsonReader& r, const std::string& path,
                              bool& is_none) {
  auto [key, v] = r.union_member(j, path);
  is_none = false;
  if (key == "as_tensor") {
    // Schemas 1 and 2 wrote the bare name, later ones a TensorArgument.
    if (v->is_string()) return ir::TensorRef{v->get<std::string>()};
    return ir::TensorRef{tensor_name(*v, r, path + ".as_tensor")};
  }
  if (key == "as_none") {
    is_none = true;
    return {};
  }
  r.fail(path, "unknown OptionalTensorArgument member '" + key + "'");
}

template <typename T, typename F>
std::vector<T> list_of(const json& j, const JsonReader& r, const std::string& path, F item) {
  r.array(j, path);
  std::vector<T> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    out.push_back(item(j[i], path + "[" + std::to_string(i) + "]"));
  }
  return out;
}

void read_subgraph(const json& gj, const JsonReader& r, const std::string& path, ir::Graph& g);

}  // namespace

Argument read_argument(const json& j, const JsonReader& r, const std::string& path) {
  auto [key, vp] = r.union_member(j, path);
  const json& v = *vp;
  const std::string p = path + "." + key;
  auto as_int = [&](const json& x, const std::string& q) { return r.integer(x, q); };
  auto as_float = [&](const json& x, const std::string& q) { return r.number(x, q); };
  auto as_str = [&](const json& x, const std::string& q) { return r.string(x, q); };

  if (key == "as_none") return Argument(ir::None{});  // true in ≥8.3, [] in 8.1
  if (key == "as_tensor") return Argument(ir::TensorRef{tensor_name(v, r, p)});
  if (key == "as_tensors") {
    return Argument(list_of<ir::TensorRef>(v, r, p, [&](const json& x, const std::string& q) {
      return ir::TensorRef{tensor_name(x, r, q)};
    }));
  }
  if (key == "as_optional_tensors") {
    return Argument(list_of<ir::OptionalTensorRef>(v, r, p, [&](const json& x, const std::string& q) {
      bool none = false;
      auto t = optional_tensor(x, r, q, none);
      return none ? ir::OptionalTensorRef{} : ir::OptionalTensorRef{t};
    }));
  }
  if (key == "as_optional_tensor") {
    bool none = false;
    auto t = optional_tensor(v, r, p, none);
    return none ? Argument(ir::None{}) : Argument(t);
  }
  if (key == "as_int") return Argument(as_int(v, p));
  if (key == "as_ints") return Argument(list_of<std::int64_t>(v, r, p, as_int));
  if (key == "as_float") return Argument(as_float(v, p));
  if (key == "as_floats") return Argument(list_of<double>(v, r, p, as_float));
  if (key == "as_string") return Argument(as_str(v, p));
  if (key == "as_strings") return Argument(list_of<std::string>(v, r, p, as_str));
  if (key == "as_bool") return Argument(r.boolean(v, p));
  if (key == "as_bools") {
    auto bools = list_of<bool>(v, r, p, [&](const json& x, const std::string& q) {
      return r.boolean(x, q);
    });
    return Argument(ir::BoolList(bools.begin(), bools.end()));
  }
  if (key == "as_sym_int") return Argument(sym_int_argument(v, r, p));
  if (key == "as_sym_ints") {
    return Argument(list_of<ir::SymInt>(v, r, p, [&](const json& x, const std::string& q) {
      return sym_int_argument(x, r, q);
    }));
  }
  if (key == "as_sym_float" || key == "as_sym_bool") {
    // A constant reads as a plain float/bool; a symbolic one names its graph value.
    const bool is_bool = key == "as_sym_bool";
    auto [k2, v2] = r.union_member(v, p);
    if (k2 == "as_name") {
      std::string name = r.string(*v2, p + ".as_name");
      return is_bool ? Argument(ir::SymBoolRef{std::move(name)}) : Argument(ir::SymFloatRef{std::move(name)});
    }
    if (!is_bool && k2 == "as_float") return Argument(r.number(*v2, p + ".as_float"));
    if (is_bool && k2 == "as_bool") return Argument(r.boolean(*v2, p + ".as_bool"));
    r.fail(p, "unknown member '" + k2 + "'");
  }
  if (key == "as_sym_bools" || key == "as_sym_floats") {
    // Lists of constants read as bool[] / float[]. No ATen op atenrt knows
    // takes a list holding symbolic bools or floats, so such a list is refused.
    const bool bools = key == "as_sym_bools";
    r.array(v, p);
    ir::BoolList bl;
    ir::FloatList fl;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string q = p + "[" + std::to_string(i) + "]";
      auto [k2, v2] = r.union_member(v[i], q);
      if (bools && k2 == "as_bool") bl.push_back(r.boolean(*v2, q + ".as_bool"));
      else if (!bools && k2 == "as_float") fl.push_back(r.number(*v2, q + ".as_float"));
      else if (k2 == "as_name") r.unsupported(q, "a list holding symbolic values is not supported");
      else r.fail(q, "unknown member '" + k2 + "'");
    }
    return bools ? Argument(std::move(bl)) : Argument(std::move(fl));
  }
  if (key == "as_scalar_type") {
    const std::int64_t code = enum_code(v, kScalarTypes, r, p);
    return Argument(ir::ScalarTypeArg{dtype_from_serde(code), code});
  }
  if (key == "as_memory_format") return Argument(ir::MemoryFormatArg{enum_code(v, kMemoryFormats, r, p)});
  if (key == "as_layout") return Argument(ir::LayoutArg{enum_code(v, kLayouts, r, p)});
  if (key == "as_device") {
    ir::DeviceArg d;
    d.type = r.string(r.at(v, "type", p), p + ".type");
    if (const json* idx = r.find(v, "index", p)) d.index = r.integer(*idx, p + ".index");
    return Argument(d);
  }
  if (key == "as_graph") {
    // A higher-order op's subgraph (cond's branches, a wrapper's body).
    auto sub = std::make_shared<ir::Graph>();
    r.object(v, p);
    std::string name = r.string(r.at(v, "name", p), p + ".name");
    read_subgraph(r.at(v, "graph", p), r, p + ".graph", *sub);
    return Argument(ir::GraphArg{std::move(name), std::move(sub)});
  }
  if (key == "as_custom_obj") r.unsupported(p, "custom (torchbind) objects are not supported");
  if (key == "as_operator") return Argument(ir::OperatorArg{r.string(v, p)});  // auto_functionalized's op
  if (key == "as_complex" ||
      key == "as_nested_tensors" || key == "as_int_lists" || key == "as_string_to_argument") {
    r.unsupported(p, "argument kind '" + key + "' is not supported");
  }
  r.unsupported(path, "unknown argument kind '" + key + "'");
}

namespace {

std::vector<ir::SymInt> sym_int_list(const json& j, const JsonReader& r, const std::string& path) {
  return list_of<ir::SymInt>(j, r, path, [&](const json& x, const std::string& q) {
    return read_serde_sym_int(x, r, q);
  });
}

ir::Node read_node(const json& j, const JsonReader& r, const std::string& path, std::size_t index) {
  r.object(j, path);
  ir::Node node;
  const std::string target = r.string(r.at(j, "target", path), path + ".target");
  const json& outputs = r.array(r.at(j, "outputs", path), path + ".outputs");
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string q = path + ".outputs[" + std::to_string(i) + "]";
    Argument a = read_argument(outputs[i], r, q);
    if (!a.is<ir::TensorRef>() && !a.is<ir::TensorList>() && !a.is<ir::SymInt>() && !a.is<ir::SymBoolRef>() &&
        !a.is<ir::SymFloatRef>() && !a.is_none()) {
      r.fail(q, "a node output must be a tensor, tensor list, symbolic int, bool or float, or none, got " +
                    a.kind_name());
    }
    node.outputs.push_back(std::move(a));
  }
  if (const json* n = r.find(j, "name", path)) {
    node.name = r.string(*n, path + ".name");
  } else if (!node.outputs.empty() && node.outputs[0].is<ir::TensorRef>()) {
    node.name = node.outputs[0].get_if<ir::TensorRef>()->name;  // name is "None for BC"
  } else {
    node.name = "node" + std::to_string(index);
  }
  const std::string where = path + " (node '" + node.name + "', " + target + ")";
  if (target.empty()) r.fail(where, "empty target");
  if (target.starts_with("#")) r.unsupported(where, "custom extension op " + target + " is not supported");
  node.target = ir::OpName::parse(target);

  const json& inputs = r.array(r.at(j, "inputs", path), path + ".inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string q = where + ".inputs[" + std::to_string(i) + "]";
    const json& in = r.object(inputs[i], q);
    ir::NamedArgument na;
    na.name = r.string(r.at(in, "name", q), q + ".name");
    const std::string aq = q + " ('" + na.name + "')";
    na.arg = read_argument(r.at(in, "arg", q), r, aq + ".arg");
    if (const json* k = r.find(in, "kind", q)) {
      const std::int64_t kind = enum_code(*k, kArgumentKinds, r, q + ".kind");
      if (kind < 0 || kind > 2) r.fail(q + ".kind", "unknown ArgumentKind " + std::to_string(kind));
      na.kind = kind == 2 ? ir::ArgumentKind::Keyword : ir::ArgumentKind::Positional;
    }
    node.inputs.push_back(std::move(na));
  }
  if (const json* md = r.find(j, "metadata", path)) {
    r.object(*md, path + ".metadata");
    for (auto it = md->begin(); it != md->end(); ++it) {
      node.metadata[it.key()] = r.string(it.value(), path + ".metadata." + it.key());
    }
  }
  if (node.target.ns == "aten") {
    try {
      ir::fill_schema_defaults(node.name, node.target.str(), node.inputs);
    } catch (const FormatError& e) {
      r.fail(path, e.what());
    }
  }
  return node;
}

// sym_bool_values / sym_float_values: {name: SymBool | SymFloat}, each a union
// of an expression and a constant; kept as text, for inspect and messages.
void read_sym_values(const json& gj, const char* field, const char* constant_member, const JsonReader& r,
                     const std::string& path, std::map<std::string, std::string>& out) {
  const json* values = r.find(gj, field, path);
  if (!values) return;
  const std::string fp = path + "." + field;
  r.object(*values, fp);
  for (auto it = values->begin(); it != values->end(); ++it) {
    const std::string q = fp + "." + it.key();
    auto [key, v] = r.union_member(it.value(), q);
    if (key == "as_expr") {
      out[it.key()] = v->is_string() ? v->get<std::string>()
                                     : r.string(r.at(*v, "expr_str", q + ".as_expr"), q + ".as_expr.expr_str");
    } else if (key == constant_member && key == std::string("as_bool")) {
      out[it.key()] = r.boolean(*v, q + ".as_bool") ? "True" : "False";
    } else if (key == constant_member) {
      out[it.key()] = preview(json(r.number(*v, q + "." + key)));
    } else {
      r.fail(q, "unknown member '" + key + "'");
    }
  }
}

void read_graph(const json& gj, const JsonReader& r, const std::string& path, ir::Graph& g) {
  r.object(gj, path);
  if (const json* c = r.find(gj, "constants", path); c && !c->empty()) {
    r.unsupported(path + ".constants", "inline base64 constants (an old schema) are not supported");
  }
  const json& inputs = r.array(r.at(gj, "inputs", path), path + ".inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    g.inputs.push_back(read_argument(inputs[i], r, path + ".inputs[" + std::to_string(i) + "]"));
  }
  const json& outputs = r.array(r.at(gj, "outputs", path), path + ".outputs");
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    g.outputs.push_back(read_argument(outputs[i], r, path + ".outputs[" + std::to_string(i) + "]"));
  }
  if (const json* tv = r.find(gj, "tensor_values", path)) {
    r.object(*tv, path + ".tensor_values");
    for (auto it = tv->begin(); it != tv->end(); ++it) {
      const std::string q = path + ".tensor_values." + it.key();
      // Schema 1 wrapped each TensorMeta in a TensorValue {"meta": ...}.
      const json& v = r.object(it.value(), q);
      const bool wrapped = v.contains("meta") && !v.contains("dtype");
      g.tensor_values[it.key()] =
          wrapped ? read_tensor_meta(v.at("meta"), r, q + ".meta") : read_tensor_meta(v, r, q);
    }
  }
  if (const json* sv = r.find(gj, "sym_int_values", path)) {
    r.object(*sv, path + ".sym_int_values");
    for (auto it = sv->begin(); it != sv->end(); ++it) {
      g.sym_int_values[it.key()] =
          read_serde_sym_int(it.value(), r, path + ".sym_int_values." + it.key());
    }
  }
  read_sym_values(gj, "sym_bool_values", "as_bool", r, path, g.sym_bool_values);
  read_sym_values(gj, "sym_float_values", "as_float", r, path, g.sym_float_values);
  if (const json* co = r.find(gj, "custom_obj_values", path); co && !co->empty()) {
    r.unsupported(path + ".custom_obj_values", "custom (torchbind) objects are not supported");
  }
  const json& nodes = r.array(r.at(gj, "nodes", path), path + ".nodes");
  g.nodes.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    g.nodes.push_back(read_node(nodes[i], r, path + ".nodes[" + std::to_string(i) + "]", i));
  }
}

// A subgraph has no signature; it is checked on its own (every value defined before use).
void read_subgraph(const json& gj, const JsonReader& r, const std::string& path, ir::Graph& g) {
  read_graph(gj, r, path, g);
  try {
    g.validate_body();
  } catch (const FormatError& e) {
    r.fail(path, e.what());
  }
}

}  // namespace

ir::SymInt read_serde_sym_int(const json& j, const JsonReader& r, const std::string& path) {
  if (j.is_number_integer()) return ir::SymInt::of(r.integer(j, path));  // lenient: a bare int
  auto [key, v] = r.union_member(j, path);
  if (key == "as_int") return ir::SymInt::of(r.integer(*v, path + ".as_int"));
  if (key != "as_expr") r.fail(path, "unknown SymInt member '" + key + "'");
  const std::string p = path + ".as_expr";
  // Schema 1 wrote the expression as a bare string; later a SymExpr with its
  // example value (hint: an int in schema 1, a SymExprHint union later).
  const std::string text = v->is_string() ? v->get<std::string>() : r.string(r.at(*v, "expr_str", p), p + ".expr_str");
  std::optional<std::int64_t> hint;
  if (const json* h = v->is_object() ? r.find(*v, "hint", p) : nullptr; h && !h->is_null()) {
    if (h->is_number_integer()) {
      hint = r.integer(*h, p + ".hint");
    } else {
      auto [hk, hv] = r.union_member(*h, p + ".hint");
      if (hk == "as_int") hint = r.integer(*hv, p + ".hint.as_int");
      else if (hk == "as_float") r.number(*hv, p + ".hint.as_float");
      else if (hk == "as_bool") r.boolean(*hv, p + ".hint.as_bool");
      else r.fail(p + ".hint", "unknown SymExprHint member '" + hk + "'");
    }
  }
  ir::SymExpr expr;
  try {
    expr = ir::SymExpr::parse(text);
  } catch (const FormatError& e) {
    r.fail(p + ".expr_str", e.what());
  }
  // A constant expression ("Integer(3)") is a static size.
  if (expr.is_int()) return ir::SymInt::of(expr.value);
  ir::SymInt s = ir::SymInt::named(expr.to_string());
  s.hint = hint;
  return s;
}

ir::TensorMeta read_tensor_meta(const json& j, const JsonReader& r, const std::string& path) {
  r.object(j, path);
  ir::TensorMeta m;
  m.dtype_code = enum_code(r.at(j, "dtype", path), kScalarTypes, r, path + ".dtype");
  m.dtype = dtype_from_serde(m.dtype_code);
  m.sizes = sym_int_list(r.at(j, "sizes", path), r, path + ".sizes");
  if (const json* s = r.find(j, "strides", path)) {
    m.strides = sym_int_list(*s, r, path + ".strides");
    if (m.strides.size() != m.sizes.size()) {
      r.fail(path + ".strides", std::to_string(m.strides.size()) + " strides for " +
                                    std::to_string(m.sizes.size()) + " sizes");
    }
  } else {
    std::vector<std::int64_t> static_sizes;
    bool all_static = true;
    for (const auto& s : m.sizes) {
      all_static = all_static && s.is_static();
      static_sizes.push_back(s.is_static() ? *s.value : 1);
    }
    if (all_static) {
      for (auto st : contiguous_strides(static_sizes)) m.strides.push_back(ir::SymInt::of(st));
    }
  }
  for (std::size_t i = 0; i < m.sizes.size(); ++i) {
    if (m.sizes[i].is_static() && *m.sizes[i].value < 0) {
      r.fail(path + ".sizes[" + std::to_string(i) + "]",
             "negative size " + std::to_string(*m.sizes[i].value));
    }
  }
  // A shape whose byte size overflows int64 would break every consumer.
  if (m.dtype && m.is_static()) {
    try {
      checked_nbytes(m.static_sizes(), *m.dtype, "sizes");
    } catch (const FormatError& e) {
      r.fail(path + ".sizes", e.what());
    }
  }
  if (const json* o = r.find(j, "storage_offset", path)) {
    m.storage_offset = read_serde_sym_int(*o, r, path + ".storage_offset");
  }
  if (const json* g = r.find(j, "requires_grad", path)) m.requires_grad = r.boolean(*g, path + ".requires_grad");
  if (const json* d = r.find(j, "device", path)) {
    m.device = r.string(r.at(*d, "type", path + ".device"), path + ".device.type");
  }
  if (const json* l = r.find(j, "layout", path)) {
    const std::int64_t layout = enum_code(*l, kLayouts, r, path + ".layout");
    if (layout != 7 && layout != 0) {
      r.unsupported(path + ".layout", "only strided tensors are supported (layout " +
                                          std::to_string(layout) + ")");
    }
  }
  return m;
}

namespace {

// Schema majors this reader knows (pt2_schema_history.md): 1 (torch 2.1),
// 2 (2.2), 3-4 (nightlies), 5 (2.3-2.4), 6-7 (2.5), 8 (2.6 onward). Any minor
// of a known major reads: minor bumps only add optional fields.
constexpr std::int64_t kNewestMajor = 8;

void read_schema_version(const json& root, const JsonReader& r, ir::ArchiveInfo& info) {
  std::int64_t major = 0, minor = 0;
  if (const json* sv = r.find(root, "schema_version", "$")) {
    if (sv->is_number_integer()) {
      major = r.integer(*sv, "$.schema_version");  // 1 and 2 were bare ints
    } else {
      major = r.integer(r.at(*sv, "major", "$.schema_version"), "$.schema_version.major");
      if (const json* mi = r.find(*sv, "minor", "$.schema_version")) {
        minor = r.integer(*mi, "$.schema_version.minor");
      }
    }
  }
  if (const json* tv = r.find(root, "torch_version", "$")) {
    info.torch_version = r.string(*tv, "$.torch_version");
  }
  // 0.0 or absent is accepted, as the Python loader does.
  if (major < 0 || major > kNewestMajor || (major == 0 && minor != 0)) {
    const std::string producer =
        info.torch_version.empty() ? "a torch version that does not say which"
                                   : "torch " + info.torch_version.substr(0, 40);
    r.unsupported("$.schema_version",
                  "schema version " + std::to_string(major) + "." + std::to_string(minor) +
                      " (written by " + producer + ") is not supported: atenrt reads majors 1 to " +
                      std::to_string(kNewestMajor) + " (torch 2.1 onward)");
  }
  info.schema_major = major;
  info.schema_minor = minor;
}

// range_constraints: {"s0": {"min_val": 2, "max_val": 64}}; a null, missing
// or huge max (int_oo, sys.maxsize - 1 in older torch) is unbounded.
void read_range_constraints(const json& rc, const JsonReader& r, ir::Graph& g) {
  r.object(rc, "$.range_constraints");
  constexpr std::int64_t kUnbounded = std::int64_t{1} << 62;
  for (auto it = rc.begin(); it != rc.end(); ++it) {
    const std::string p = "$.range_constraints." + it.key().substr(0, 64);
    r.object(it.value(), p);
    ir::SymRange range;
    if (const json* lo = r.find(it.value(), "min_val", p); lo && !lo->is_null()) {
      range.min = std::max<std::int64_t>(0, r.integer(*lo, p + ".min_val"));
    }
    if (const json* hi = r.find(it.value(), "max_val", p); hi && !hi->is_null()) {
      const std::int64_t max = r.integer(*hi, p + ".max_val");
      if (max < kUnbounded) range.max = max;
    }
    if (range.max && *range.max < range.min) {
      r.fail(p, "range " + range.to_string() + " is empty (min_val > max_val)");
    }
    // The key is str(symbol); an expression key is not a symbol atenrt can bind.
    ir::SymExpr key;
    try {
      key = ir::SymExpr::parse(it.key());
    } catch (const FormatError& e) {
      r.fail(p, e.what());
    }
    if (!key.is_symbol()) r.fail(p, "the key is not a symbol name");
    g.range_constraints[key.symbol] = range;
  }
}

}  // namespace

void read_exported_program(const json& root, const JsonReader& r, ir::ExportedProgram& out) {
  r.object(root, "$");
  read_schema_version(root, r, out.info);
  if (const json* v = r.find(root, "verifiers", "$")) {
    r.array(*v, "$.verifiers");
    for (std::size_t i = 0; i < v->size(); ++i) {
      out.info.verifiers.push_back(r.string((*v)[i], "$.verifiers[" + std::to_string(i) + "]"));
    }
  } else if (const json* d = r.find(root, "dialect", "$")) {
    out.info.verifiers.push_back(r.string(*d, "$.dialect"));
  }

  if (const json* rc = r.find(root, "range_constraints", "$")) read_range_constraints(*rc, r, out.graph);
  const json& gm = r.at(root, "graph_module", "$");
  read_graph(r.at(gm, "graph", "$.graph_module"), r, "$.graph_module.graph", out.graph);
  read_signature(r.at(gm, "signature", "$.graph_module"), r, "$.graph_module.signature",
                 out.graph);
}

}  // namespace atenrt::frontend
