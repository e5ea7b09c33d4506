// Round trip against PyTorch: every `<name>.<variant>.pt2` in $ATENRT_FIXTURES_DIR
// (written by tests/tools/make_fixtures.py: every container and every JSON schema
// from 1 to 8) must read into exactly the graph
// and weights its `<name>.expected.json` records: targets, every argument with
// defaults filled, edges, signature, and each weight's bytes (FNV-1a 64 hash).
// The expected values are compared by this file's own decoder, not the reader's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "atenrt/errors.h"
#include "frontend/pt2_reader.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace atenrt;

namespace {

std::string hex_fnv1a64(const std::vector<std::byte>& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::byte b : bytes) {
    h ^= static_cast<std::uint8_t>(b);
    h *= 0x100000001b3ULL;
  }
  std::ostringstream out;
  out << std::hex << std::setw(16) << std::setfill('0') << h;
  return out.str();
}

double expected_float(const json& j) {
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "Infinity") return INFINITY;
    if (s == "-Infinity") return -INFINITY;
    return NAN;
  }
  return j.get<double>();
}

bool same_float(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool same_sym(const json& e, const ir::SymInt& s) {
  if (e.contains("as_int")) return s.is_static() && *s.value == e["as_int"].get<std::int64_t>();
  if (e.contains("as_name")) return !s.is_static() && s.name == e["as_name"].get<std::string>();
  return false;
}

// "" when `got` equals the expected union value, else a description of the difference.
std::string compare(const json& e, const ir::Argument& got) {
  const std::string want = e.dump();
  auto bad = [&] { return "expected " + want + ", got " + got.kind_name() + " " + got.to_string(); };
  if (!e.is_object() || e.size() != 1) return "malformed expectation " + want;
  const std::string key = e.begin().key();
  const json& v = e.begin().value();
  if (key == "as_none") return got.is_none() ? "" : bad();
  if (key == "as_tensor") {
    auto* t = got.get_if<ir::TensorRef>();
    return t && t->name == v["name"].get<std::string>() ? "" : bad();
  }
  if (key == "as_tensors") {
    auto* t = got.get_if<ir::TensorList>();
    if (!t || t->size() != v.size()) return bad();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if ((*t)[i].name != v[i]["name"].get<std::string>()) return bad();
    }
    return "";
  }
  if (key == "as_optional_tensors") {
    auto* t = got.get_if<ir::OptionalTensorList>();
    if (!t || t->size() != v.size()) return bad();
    for (std::size_t i = 0; i < v.size(); ++i) {
      const bool none = v[i].contains("as_none");
      if (none != !(*t)[i].has_value()) return bad();
      if (!none && (*t)[i]->name != v[i]["as_tensor"]["name"].get<std::string>()) return bad();
    }
    return "";
  }
  if (key == "as_int") {
    if (auto* i = got.get_if<std::int64_t>()) return *i == v.get<std::int64_t>() ? "" : bad();
    return bad();
  }
  if (key == "as_ints") {
    if (auto* l = got.get_if<ir::IntList>()) return *l == v.get<std::vector<std::int64_t>>() ? "" : bad();
    return bad();
  }
  if (key == "as_float") {
    auto* d = got.get_if<double>();
    return d && same_float(*d, expected_float(v)) ? "" : bad();
  }
  if (key == "as_floats") {
    auto* l = got.get_if<ir::FloatList>();
    if (!l || l->size() != v.size()) return bad();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!same_float((*l)[i], expected_float(v[i]))) return bad();
    }
    return "";
  }
  if (key == "as_bool") {
    auto* b = got.get_if<bool>();
    return b && *b == v.get<bool>() ? "" : bad();
  }
  if (key == "as_bools") {
    auto* l = got.get_if<ir::BoolList>();
    return l && *l == v.get<std::vector<bool>>() ? "" : bad();
  }
  if (key == "as_string") {
    auto* s = got.get_if<std::string>();
    return s && *s == v.get<std::string>() ? "" : bad();
  }
  if (key == "as_strings") {
    auto* s = got.get_if<ir::StringList>();
    return s && *s == v.get<std::vector<std::string>>() ? "" : bad();
  }
  if (key == "as_sym_int") {
    auto* s = got.get_if<ir::SymInt>();
    return s && same_sym(v, *s) ? "" : bad();
  }
  if (key == "as_sym_ints") {
    auto* l = got.get_if<ir::SymIntList>();
    if (!l || l->size() != v.size()) return bad();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!same_sym(v[i], (*l)[i])) return bad();
    }
    return "";
  }
  if (key == "as_scalar_type") {
    auto* s = got.get_if<ir::ScalarTypeArg>();
    return s && s->code == v.get<std::int64_t>() ? "" : bad();
  }
  if (key == "as_layout") {
    auto* s = got.get_if<ir::LayoutArg>();
    return s && s->code == v.get<std::int64_t>() ? "" : bad();
  }
  if (key == "as_memory_format") {
    auto* s = got.get_if<ir::MemoryFormatArg>();
    return s && s->code == v.get<std::int64_t>() ? "" : bad();
  }
  if (key == "as_device") {
    auto* d = got.get_if<ir::DeviceArg>();
    if (!d || d->type != v["type"].get<std::string>()) return bad();
    const bool has_index = v.contains("index") && !v["index"].is_null();
    if (has_index != d->index.has_value()) return bad();
    return !has_index || *d->index == v["index"].get<std::int64_t>() ? "" : bad();
  }
  return "unknown expected kind " + key;
}

std::string spec_kind(const ir::InputSpec& s) {
  switch (s.kind) {
    case ir::InputKind::UserInput: return "user_input";
    case ir::InputKind::Parameter: return "parameter";
    case ir::InputKind::Buffer: return "buffer";
    case ir::InputKind::TensorConstant: return "tensor_constant";
    case ir::InputKind::ConstantInput: return "constant_input";
  }
  return "?";
}

void check_archive(const fs::path& archive, const json& want) {
  const ir::ExportedProgram ep = frontend::load_pt2(archive.string());
  const ir::Graph& g = ep.graph;

  const auto& nodes = want.at("nodes");
  ASSERT_EQ(g.nodes.size(), nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    const json& wn = nodes[i];
    SCOPED_TRACE("node " + n.name + " (" + n.target.str() + ")");
    if (ep.info.schema_major >= 8) {
      EXPECT_EQ(n.name, wn.at("name").get<std::string>());
    } else if (!wn.at("outputs").empty() && wn["outputs"][0].contains("as_tensor")) {
      // Node.name is newer than these schemas: a node is named after its first output.
      EXPECT_EQ(n.name, wn["outputs"][0]["as_tensor"]["name"].get<std::string>());
    }
    EXPECT_EQ(n.target.str(), ir::OpName::parse(wn.at("target").get<std::string>()).str());
    const auto& ins = wn.at("inputs");
    ASSERT_EQ(n.inputs.size(), ins.size());
    for (std::size_t k = 0; k < ins.size(); ++k) {
      EXPECT_EQ(n.inputs[k].name, ins[k].at("name").get<std::string>());
      EXPECT_EQ(compare(ins[k].at("value"), n.inputs[k].arg), "") << "input " << n.inputs[k].name;
    }
    const auto& outs = wn.at("outputs");
    ASSERT_EQ(n.outputs.size(), outs.size());
    for (std::size_t k = 0; k < outs.size(); ++k) EXPECT_EQ(compare(outs[k], n.outputs[k]), "");
  }

  ASSERT_EQ(g.inputs.size(), want.at("inputs").size());
  for (std::size_t i = 0; i < g.inputs.size(); ++i) EXPECT_EQ(compare(want["inputs"][i], g.inputs[i]), "");
  ASSERT_EQ(g.outputs.size(), want.at("outputs").size());
  for (std::size_t i = 0; i < g.outputs.size(); ++i) EXPECT_EQ(compare(want["outputs"][i], g.outputs[i]), "");

  const auto& in_specs = want.at("signature").at("input_specs");
  ASSERT_EQ(g.signature.inputs.size(), in_specs.size());
  for (std::size_t i = 0; i < in_specs.size(); ++i) {
    const auto& spec = g.signature.inputs[i];
    const std::string kind = in_specs[i].begin().key();
    const json& v = in_specs[i].begin().value();
    SCOPED_TRACE("input spec " + std::to_string(i) + " " + in_specs[i].dump());
    // Schema 1 (torch 2.1) has no lifted tensor constants: its writer lists them as buffers.
    if (kind == "tensor_constant" && ep.info.schema_major == 1) {
      EXPECT_EQ(spec_kind(spec), "buffer");
      EXPECT_EQ(spec.target, v.at("tensor_constant_name").get<std::string>());
      continue;
    }
    EXPECT_EQ(spec_kind(spec), kind);
    if (kind == "parameter") {
      EXPECT_EQ(spec.target, v.at("parameter_name").get<std::string>());
    }
    if (kind == "buffer") {
      EXPECT_EQ(spec.target, v.at("buffer_name").get<std::string>());
      // `persistent` exists from schema 4 on; before, every buffer reads as persistent.
      EXPECT_EQ(spec.persistent, ep.info.schema_major < 4 || v.at("persistent").get<bool>());
    }
    if (kind == "tensor_constant") {
      EXPECT_EQ(spec.target, v.at("tensor_constant_name").get<std::string>());
    }
    if (kind != "user_input" && kind != "constant_input") {
      EXPECT_EQ(spec.value_name, v.at("arg").at("name").get<std::string>());
    }
  }
  const auto& out_specs = want.at("signature").at("output_specs");
  ASSERT_EQ(g.signature.outputs.size(), out_specs.size());
  for (std::size_t i = 0; i < out_specs.size(); ++i) {
    EXPECT_EQ(g.signature.outputs[i].kind, ir::OutputKind::UserOutput);
    EXPECT_EQ(compare(out_specs[i].at("user_output").at("arg"), g.signature.outputs[i].value), "");
  }

  const auto& weights = want.at("weights");
  EXPECT_EQ(g.weights.size(), weights.size());
  for (auto it = weights.begin(); it != weights.end(); ++it) {
    SCOPED_TRACE("weight " + it.key());
    auto w = g.weights.find(it.key());
    ASSERT_NE(w, g.weights.end());
    EXPECT_EQ(std::string(dtype_name(w->second.dtype())), it.value().at("dtype").get<std::string>());
    EXPECT_EQ(w->second.sizes(), it.value().at("sizes").get<std::vector<std::int64_t>>());
    EXPECT_EQ(hex_fnv1a64(w->second.to_bytes()), it.value().at("fnv1a64").get<std::string>());
  }
}

TEST(RoundTrip, FixturesMatchPyTorch) {
  const char* dir = std::getenv("ATENRT_FIXTURES_DIR");
  if (!dir || !*dir) {
    GTEST_SKIP() << "ATENRT_FIXTURES_DIR is not set; generate fixtures with "
                    "/usr/bin/python3 tests/tools/make_fixtures.py DIR and set it to DIR";
  }
  std::vector<fs::path> archives;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".pt2") archives.push_back(e.path());
  }
  std::sort(archives.begin(), archives.end());
  ASSERT_FALSE(archives.empty()) << "no .pt2 files in " << dir;
  for (const auto& archive : archives) {
    SCOPED_TRACE(archive.string());
    // <name>.<layout>.pt2 → <name>.expected.json
    const std::string stem = archive.stem().string();
    const auto dot = stem.rfind('.');
    ASSERT_NE(dot, std::string::npos) << "fixture name without a layout: " << archive;
    const fs::path expected = archive.parent_path() / (stem.substr(0, dot) + ".expected.json");
    std::ifstream in(expected);
    ASSERT_TRUE(in) << "missing " << expected;
    const json want = json::parse(in);
    try {
      check_archive(archive, want);
    } catch (const atenrt::Error& e) {
      ADD_FAILURE() << "load failed: " << e.what();
    }
  }
}

}  // namespace
