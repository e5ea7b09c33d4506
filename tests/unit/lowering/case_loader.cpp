#include "case_loader.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "ir/op_schema.h"
#include "support/compare.h"
#include "test_paths.h"

namespace atenrt::lowering::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

DType dtype_of(const std::string& s) {
  auto d = dtype_from_name(s);
  if (!d) throw std::runtime_error("case: unknown dtype " + s);
  return *d;
}

Tensor read_tensor(const fs::path& dir, const json& spec) {
  Tensor t(dtype_of(spec.at("dtype")), spec.at("sizes").get<std::vector<std::int64_t>>());
  std::ifstream in(dir / spec.at("file").get<std::string>(), std::ios::binary);
  in.read(reinterpret_cast<char*>(t.raw_mutable_data()), static_cast<std::streamsize>(t.numel() * element_size(t.dtype())));
  if (!in) throw std::runtime_error("case: short tensor file in " + dir.string());
  return t;
}

ir::TensorMeta meta_of(const Tensor& t) {
  ir::TensorMeta m;
  m.dtype = t.dtype();
  m.dtype_code = dtype_to_serde(t.dtype());
  for (auto s : t.sizes()) m.sizes.push_back(ir::SymInt::of(s));
  for (auto s : contiguous_strides(t.sizes())) m.strides.push_back(ir::SymInt::of(s));
  return m;
}

ir::Argument to_argument(const json& a) {
  const std::string kind = a.at("kind");
  if (kind == "tensor") return ir::TensorRef{a.at("value").get<std::string>()};
  if (kind == "none") return ir::None{};
  if (kind == "bool") return a.at("value").get<bool>();
  if (kind == "int") return a.at("value").get<std::int64_t>();
  if (kind == "float") {
    if (a.at("value").is_string()) {
      const auto inf = std::numeric_limits<double>::infinity();
      return a.at("value").get<std::string>() == "inf" ? inf : -inf;
    }
    return a.at("value").get<double>();
  }
  if (kind == "str") return a.at("value").get<std::string>();
  if (kind == "dtype") {
    const DType d = dtype_of(a.at("value"));
    return ir::ScalarTypeArg{d, dtype_to_serde(d)};
  }
  if (kind == "ints") return ir::IntList(a.at("value").get<std::vector<std::int64_t>>());
  throw std::runtime_error("case: unknown argument kind " + kind);
}

}  // namespace

std::optional<std::string> cases_dir(std::string& why) {
  if (const char* env = std::getenv("ATENRT_LOWERING_CASES_DIR"); env && *env) return std::string(env);
  static std::optional<std::string> generated;
  static std::string generated_why;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const fs::path out = fs::path(ATENRT_BUILD_DIR) / "lowering_cases";
    const fs::path script = fs::path(ATENRT_SOURCE_DIR) / "tests/lowering/make_cases.py";
    if (!fs::exists("/usr/bin/python3")) {
      generated_why = "ATENRT_LOWERING_CASES_DIR is unset and /usr/bin/python3 is absent";
    } else {
      const std::string cmd = "/usr/bin/python3 '" + script.string() + "' '" + out.string() + "' > '" +
                              (fs::path(ATENRT_BUILD_DIR) / "lowering_cases.log").string() + "' 2>&1";
      if (std::system(cmd.c_str()) == 0) generated = out.string();
      else generated_why = "generating cases failed (no torch?): see " + (fs::path(ATENRT_BUILD_DIR) / "lowering_cases.log").string();
    }
  }
  why = generated_why;
  return generated;
}

std::vector<std::string> case_names(const std::string& dir) {
  std::ifstream in(fs::path(dir) / "index.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

LoweringCase load_case(const std::string& dir_name, const std::string& name) {
  const fs::path dir = fs::path(dir_name) / name;
  std::ifstream in(dir / "case.json");
  if (!in) throw std::runtime_error("case: cannot open " + (dir / "case.json").string());
  const json spec = json::parse(in);
  LoweringCase c;
  c.name = name;
  c.op = spec.at("op");
  c.expected_ops = spec.at("expected_ops").get<std::vector<std::string>>();
  c.unexpected_ops = spec.at("unexpected_ops").get<std::vector<std::string>>();
  ir::Graph& g = c.graph;
  for (const auto& i : spec.at("inputs")) {
    Tensor t = read_tensor(dir, i);
    const std::string v = i.at("name");
    g.inputs.emplace_back(ir::TensorRef{v});
    g.signature.inputs.push_back(ir::InputSpec{ir::InputKind::UserInput, v, "", true, {}});
    g.tensor_values[v] = meta_of(t);
    c.inputs[v] = std::move(t);
  }
  ir::Node node;
  node.name = "node";
  node.target = ir::OpName::parse(c.op);
  for (const auto& a : spec.at("args")) node.inputs.push_back(ir::NamedArgument{a.at("name"), to_argument(a)});
  ir::fill_schema_defaults(node.name, c.op, node.inputs);
  for (const auto& o : spec.at("outputs")) {
    Tensor t = read_tensor(dir, o);
    const std::string v = o.at("name");
    node.outputs.emplace_back(ir::TensorRef{v});
    g.outputs.emplace_back(ir::TensorRef{v});
    g.signature.outputs.push_back(ir::OutputSpec{ir::TensorRef{v}});
    g.tensor_values[v] = meta_of(t);
    c.expected.push_back(std::move(t));
  }
  g.nodes.push_back(std::move(node));
  g.validate();
  return c;
}

std::string compare_to_pytorch(const Tensor& got, const Tensor& want) {
  return atenrt::testing::compare_tensors(got, want, 1e-4, 1e-4);
}

}  // namespace atenrt::lowering::testing
