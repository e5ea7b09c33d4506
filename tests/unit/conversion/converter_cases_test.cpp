// The converter case table (tests/converters/cases.py) run differentially
// against PyTorch: each case's .pt2 is converted with lowering off, run by
// the reference executor and compared with PyTorch eager's outputs (rel/abs
// tolerance per case for floats, exact for integers and bool). Results are
// counted per family as pass / wrong / not supported / error; validator
// cases must be refused with their reason.
//
// Needs ATENRT_CONVERTER_CASES_DIR (written by
// `/usr/bin/python3 tests/converters/make_cases.py DIR`); skipped otherwise,
// a failure with ATENRT_REQUIRE_FIXTURES=1.
// With ATENRT_CONVERTER_CASES_ENGINE=1 each passing case is also built into
// an Engine (builder + CPU kernels) and its outputs compared the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "atenrt/errors.h"
#include "builder/builder.h"
#include "builder/dynamic_engine.h"
#include "conversion/context.h"
#include "conversion/host_tensor.h"
#include "conversion/registry.h"
#include "evaluator_chain.h"
#include "frontend/pt2_reader.h"
#include "ir/npz.h"
#include "ir/op_schema.h"
#include "reference/reference.h"
#include "support/compare.h"
#include "support/fixtures.h"

namespace atenrt::conversion {
namespace {

enum class Outcome { Pass, Wrong, Unsupported, Error, ExportFailed };
const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Wrong: return "WRONG";
    case Outcome::Unsupported: return "NOT SUPPORTED";
    case Outcome::Error: return "ERROR";
    case Outcome::ExportFailed: return "export failed";
  }
  return "?";
}

// Empty when equal; otherwise what differs (support/compare.h; only dtype
// and shape for a "shape" case: random or uninitialised values).
std::string compare(const Tensor& got, const Tensor& want, double rtol, double atol, bool shape_only) {
  if (shape_only) {
    if (got.sizes() != want.sizes() || got.dtype() != want.dtype()) return testing::compare_tensors(got, want, 0, 0);
    return "";
  }
  return testing::compare_tensors(got, want, rtol, atol);
}

struct Result {
  Outcome outcome;
  std::string detail;
  std::string engine = {};  // empty: engine matched (or not run); else what failed
};

bool engine_enabled() {
  const char* e = std::getenv("ATENRT_CONVERTER_CASES_ENGINE");
  return e && std::string(e) == "1";
}

// A single-op case: one node with the recorded schema-named arguments, its
// inputs as user inputs and its outputs typed as PyTorch returned them.
ir::Graph one_node_graph(const nlohmann::json& op, const std::vector<Tensor>& inputs) {
  ir::Graph g;
  auto add_meta = [&](const std::string& name, DType dtype, const std::vector<std::int64_t>& sizes) {
    ir::TensorMeta m;
    m.dtype = dtype;
    for (auto s : sizes) m.sizes.push_back(ir::SymInt::of(s));
    g.tensor_values[name] = m;
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "in" + std::to_string(i);
    add_meta(name, inputs[i].dtype(), inputs[i].sizes());
    g.inputs.push_back(ir::TensorRef{name});
    ir::InputSpec spec;
    spec.value_name = name;
    g.signature.inputs.push_back(spec);
  }
  ir::Node n;
  n.name = "op";
  n.target = ir::OpName::parse(op["target"]);
  for (const auto& a : op["args"]) {
    const std::string kind = a["kind"];
    ir::Argument v;
    if (kind == "tensor") v = ir::TensorRef{"in" + std::to_string(a["input"].get<int>())};
    else if (kind == "tensors") {
      ir::TensorList l;
      for (const auto& i : a["inputs"]) l.push_back(ir::TensorRef{"in" + std::to_string(i.get<int>())});
      v = l;
    } else if (kind == "none") v = ir::None{};
    else if (kind == "bool") v = a["value"].get<bool>();
    else if (kind == "int") v = a["value"].get<std::int64_t>();
    else if (kind == "float") v = a["value"].get<double>();
    else if (kind == "str") v = a["value"].get<std::string>();
    else if (kind == "ints") v = a["value"].get<ir::IntList>();
    else if (kind == "floats") v = a["value"].get<ir::FloatList>();
    else if (kind == "dtype") v = ir::ScalarTypeArg{dtype_from_name(a["value"].get<std::string>()), 0};
    else throw std::runtime_error("unknown argument kind " + kind);
    n.inputs.push_back(ir::NamedArgument{a["name"], v, ir::ArgumentKind::Positional});
  }
  ir::fill_schema_defaults(n.name, n.target.str(), n.inputs);
  const auto& outs = op["outputs"];
  ir::TensorList list;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const std::string name = "out" + std::to_string(i);
    add_meta(name, *dtype_from_name(outs[i]["dtype"].get<std::string>()), outs[i]["shape"].get<std::vector<std::int64_t>>());
    if (op["returns"] == "list") list.push_back(ir::TensorRef{name});
    else n.outputs.push_back(ir::TensorRef{name});
    g.outputs.push_back(ir::TensorRef{name});
    g.signature.outputs.push_back(ir::OutputSpec{ir::TensorRef{name}});
  }
  if (op["returns"] == "list") n.outputs.push_back(list);
  // Outputs the case does not read (attention's logsumexp, pooling indices): named, never used.
  for (std::size_t i = outs.size(); i < op.value("node_outputs", outs.size()); ++i) {
    n.outputs.push_back(ir::TensorRef{"unused" + std::to_string(i)});
  }
  g.nodes.push_back(n);
  return g;
}

Result run_case(const std::string& dir, const nlohmann::json& entry) {
  const std::string name = entry["name"];
  if (entry.contains("export_error")) return {Outcome::ExportFailed, entry["export_error"]};
  const bool expect_refusal = !entry["refused"].is_null();
  const std::string path = dir + "/" + name;
  ConvertedGraph converted;
  try {
    if (entry.contains("op")) {
      converted = convert_graph(one_node_graph(entry["op"], io::read_npz(path + "/inputs.npz")));
    } else {
      ir::ExportedProgram program = frontend::load_pt2(path + "/model.pt2");
      converted = convert_graph(program.graph);
    }
  } catch (const UnsupportedError& e) {
    const std::string msg = e.what();
    if (expect_refusal) {
      const std::string reason = entry["refused"];
      if (msg.find("not supported:") != std::string::npos && msg.find(reason) != std::string::npos) {
        return {Outcome::Pass, ""};
      }
      return {Outcome::Wrong, "refused, but not with '" + reason + "': " + msg};
    }
    if (msg.find(": not supported: ") != std::string::npos) return {Outcome::Unsupported, msg};
    return {Outcome::Error, msg};
  } catch (const std::exception& e) {
    return {Outcome::Error, e.what()};
  }
  if (expect_refusal) return {Outcome::Wrong, "expected a refusal ('" + std::string(entry["refused"]) + "')"};
  try {
    const auto inputs = io::read_npz(path + "/inputs.npz");
    const auto expected = io::read_npz(path + "/outputs.npz");
    if (inputs.size() != converted.inputs.size()) {
      return {Outcome::Error, std::to_string(inputs.size()) + " inputs for " + std::to_string(converted.inputs.size()) +
                                  " network inputs"};
    }
    reference::TensorMap feed;
    for (std::size_t i = 0; i < inputs.size(); ++i) feed[converted.inputs[i]->name] = inputs[i];
    const auto outs = reference::run(converted.network, feed);
    if (expected.size() != converted.outputs.size()) {
      return {Outcome::Wrong, std::to_string(converted.outputs.size()) + " outputs, expected " +
                                  std::to_string(expected.size())};
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const std::string diff = compare(outs.at(converted.outputs[i]->name), expected[i], entry["rtol"], entry["atol"],
                                       entry["check"] == "shape");
      if (!diff.empty()) return {Outcome::Wrong, "output " + std::to_string(i) + ": " + diff};
    }
  } catch (const std::exception& e) {
    return {Outcome::Error, std::string("running: ") + e.what()};
  }
  if (!engine_enabled()) return {Outcome::Pass, ""};
  try {
    const auto inputs = io::read_npz(path + "/inputs.npz");
    const auto expected = io::read_npz(path + "/outputs.npz");
    std::vector<std::string> out_names;
    for (auto* t : converted.outputs) out_names.push_back(t->name);
    std::vector<Tensor> outs;
    if (builder::has_data_dependent_layers(converted.network)) {
      // Data-dependent output shapes run in stages (builder/stages.h), with
      // the inputs' ranges fixed at their static dims.
      std::vector<builder::InputRange> ranges;
      std::vector<network::Dims> dims;
      for (const auto* in : converted.network.inputs()) {
        builder::InputRange r{in->name, in->dtype, {}};
        for (auto d : in->dims) r.dims.push_back({d, d, d, ""});
        ranges.push_back(std::move(r));
        dims.push_back(in->dims);
      }
      const builder::DynamicEngine engine(std::move(converted.network), builder::BuilderConfig{}, ranges);
      builder::StagedContext context(0);
      outs = context.run(*engine.plan_for(dims), inputs);
    } else {
      runtime::Engine engine = builder::build(std::move(converted.network));
      auto context = engine.create_context();
      outs = context.run(inputs);
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const std::string diff = compare(outs.at(i), expected[i], entry["rtol"], entry["atol"], entry["check"] == "shape");
      if (!diff.empty()) return {Outcome::Pass, "", "engine output " + std::to_string(i) + ": " + diff};
    }
  } catch (const std::exception& e) {
    return {Outcome::Pass, "", std::string("engine: ") + e.what()};
  }
  return {Outcome::Pass, ""};
}

// The case manifest of $ATENRT_CONVERTER_CASES_DIR; fails the test (through
// ASSERTs in the caller) when it is missing, empty, or shorter than the table.
class ConverterCases : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* d = std::getenv("ATENRT_CONVERTER_CASES_DIR");
    if (!d || !*d) {
      ATENRT_FIXTURE_MISSING("ATENRT_CONVERTER_CASES_DIR is not set; write the cases with "
                             "`/usr/bin/python3 tests/converters/make_cases.py DIR` and set it to DIR");
    }
    dir = d;
    std::ifstream in(dir + "/cases.json");
    ASSERT_TRUE(in) << "no cases.json in " << dir;
    const auto doc = nlohmann::json::parse(in);
    if (doc.is_array()) {  // written by an older make_cases.py: no table size to check against
      if (::atenrt::testing::fixtures_required()) FAIL() << dir << "/cases.json is in the old format: write it again with make_cases.py";
      manifest = doc;
      ASSERT_FALSE(manifest.empty()) << dir << "/cases.json lists no case";
      return;
    }
    manifest = doc.at("cases");
    ASSERT_FALSE(manifest.empty()) << dir << "/cases.json lists no case";
    if (doc.at("filter").is_null()) {
      ASSERT_EQ(manifest.size(), doc.at("table_size").get<std::size_t>()) << "cases.json is shorter than the table";
    } else if (::atenrt::testing::fixtures_required()) {
      FAIL() << "cases.json holds only the cases matching '" << doc.at("filter").get<std::string>()
             << "' (ATENRT_REQUIRE_FIXTURES=1 wants the whole table)";
    }
  }
  std::string dir;
  nlohmann::json manifest;
};

TEST_F(ConverterCases, MatchPyTorch) {
  std::map<std::string, std::map<Outcome, int>> per_family;
  std::map<Outcome, int> total;
  std::vector<std::string> failures;
  int engine_failures = 0, vacuous = 0;
  for (const auto& entry : manifest) {
    if (entry.value("vacuous", std::string()) != "" && entry.value("trivial", nlohmann::json()).is_null()) {
      failures.push_back("VACUOUS  " + std::string(entry["name"]) + ": " + std::string(entry["vacuous"]));
      ++vacuous;
    }
    const Result r = run_case(dir, entry);
    if (!r.engine.empty()) {
      ++engine_failures;
      failures.push_back("ENGINE  " + std::string(entry["name"]) + ": " + r.engine);
    }
    per_family[entry["family"]][r.outcome]++;
    total[r.outcome]++;
    if (r.outcome != Outcome::Pass) {
      failures.push_back(std::string(outcome_name(r.outcome)) + "  " + std::string(entry["name"]) + ": " + r.detail);
    }
  }
  std::cout << "family          pass  wrong  unsupported  error  export_failed\n";
  for (const auto& [family, counts] : per_family) {
    auto get = [&](Outcome o) { auto it = counts.find(o); return it == counts.end() ? 0 : it->second; };
    std::printf("%-14s %5d %6d %12d %6d %14d\n", family.c_str(), get(Outcome::Pass), get(Outcome::Wrong),
                get(Outcome::Unsupported), get(Outcome::Error), get(Outcome::ExportFailed));
  }
  std::printf("total cases %zu: pass %d, wrong %d, not supported %d, error %d, export failed %d\n", manifest.size(),
              total[Outcome::Pass], total[Outcome::Wrong], total[Outcome::Unsupported], total[Outcome::Error],
              total[Outcome::ExportFailed]);
  if (engine_enabled()) std::printf("engine: %d of the passing cases differ or fail\n", engine_failures);
  for (const auto& f : failures) std::cout << "  " << f << "\n";
  EXPECT_EQ(engine_failures, 0);
  EXPECT_EQ(vacuous, 0) << "make_cases.py refuses these; the manifest is stale";
  EXPECT_EQ(total[Outcome::Wrong], 0);
  EXPECT_EQ(total[Outcome::Unsupported], 0);
  EXPECT_EQ(total[Outcome::Error], 0);
  EXPECT_EQ(total[Outcome::ExportFailed], 0);
}

// Every converter registration is reached by a case: its converter is the one
// select() picks for a node of a case, or its validator gives a refusal case
// its refusal. A new registration without a case fails here, as an unreached
// decomposition fails the lowering tests.
TEST_F(ConverterCases, EveryRegistrationIsReached) {
  const auto& registry = ConverterRegistry::global();
  std::set<const ConverterRegistration*> reached;
  auto visit = [&](const ir::Graph& g, bool refused) {
    for (const auto& node : g.nodes) {
      const Selection sel = registry.select(NodeView(g, node), ConversionSettings{});
      if (sel.chosen) reached.insert(sel.chosen);
      if (!refused) continue;
      for (const auto& key : lookup_keys(node.target)) {
        for (const auto* reg : registry.candidates(key)) reached.insert(reg);
      }
    }
  };
  for (const auto& entry : manifest) {
    if (entry.contains("export_error")) continue;  // MatchPyTorch fails for these
    const std::string path = dir + "/" + std::string(entry["name"]);
    const bool refused = !entry["refused"].is_null();
    if (entry.contains("op")) visit(one_node_graph(entry["op"], io::read_npz(path + "/inputs.npz")), refused);
    else visit(frontend::load_pt2(path + "/model.pt2").graph, refused);
  }
  visit(testing::evaluator_chain().graph, false);
  std::vector<std::string> missing;
  for (const auto* reg : registry.all()) {
    if (reg->source.find("/tests/") != std::string::npos) continue;  // registered by a test
    if (!reached.contains(reg)) missing.push_back(reg->key + " (" + reg->family + ", " + reg->source + ")");
  }
  std::printf("%zu of %zu registrations reached by a case\n", registry.all().size() - missing.size(), registry.all().size());
  for (const auto& m : missing) ADD_FAILURE() << m << " has no case that reaches it (tests/converters/cases.py)";
}

}  // namespace
}  // namespace atenrt::conversion
