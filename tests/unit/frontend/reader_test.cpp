// The valid corpus files hold one program in four layouts (see
// tests/corpus/make_corpus.py); each must read into the same IR and weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include "atenrt/errors.h"
#include "frontend/pt2_reader.h"
#include "test_paths.h"

using namespace atenrt;
using frontend::load_pt2;

namespace {

std::string valid(const std::string& name) { return std::string(ATENRT_CORPUS_DIR) + "/valid/" + name; }

template <typename T>
std::vector<T> values(const Tensor& t) {
  const auto bytes = t.to_bytes();
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

const ir::Node& node(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes) {
    if (n.name == name) return n;
  }
  throw std::runtime_error("no node " + name);
}

double scalar(const ir::Argument* a) {
  if (!a) throw std::runtime_error("missing argument");
  if (auto* i = a->get_if<std::int64_t>()) return static_cast<double>(*i);
  if (auto* d = a->get_if<double>()) return *d;
  throw std::runtime_error("not a scalar: " + a->kind_name());
}

struct Layout {
  const char* file;
  const char* layout;
  const char* root;
};

class ValidArchive : public ::testing::TestWithParam<Layout> {};

TEST_P(ValidArchive, ReadsTheProgram) {
  const auto p = GetParam();
  const ir::ExportedProgram ep = load_pt2(valid(p.file));
  EXPECT_EQ(ep.info.layout, p.layout);
  EXPECT_EQ(ep.info.root, p.root);
  EXPECT_EQ(ep.info.torch_version, "1.13.1");
  EXPECT_EQ(ep.info.schema_major, 8);
  EXPECT_EQ(ep.info.schema_minor, 17);
  ASSERT_EQ(ep.info.verifiers, std::vector<std::string>{"ATEN"});

  const ir::Graph& g = ep.graph;
  std::vector<std::string> targets;
  for (const auto& n : g.nodes) targets.push_back(n.target.str());
  EXPECT_EQ(targets, (std::vector<std::string>{"aten.linear.default", "aten.add.Tensor", "aten.clamp.default",
                                               "aten.view.default", "aten.sum.dim_IntList",
                                               "aten._to_copy.default", "aten.add.Tensor",
                                               "aten.index.Tensor"}));
  // Edges: inputs name the producing values.
  EXPECT_EQ(node(g, "linear").input("input")->get_if<ir::TensorRef>()->name, "x");
  EXPECT_EQ(node(g, "linear").input("weight")->get_if<ir::TensorRef>()->name, "p_fc_weight");
  EXPECT_EQ(node(g, "add").input("other")->get_if<ir::TensorRef>()->name, "b_scale");
  EXPECT_EQ(node(g, "add").outputs.at(0).get_if<ir::TensorRef>()->name, "add");
  // Defaults filled from the schema; written values kept.
  EXPECT_EQ(scalar(node(g, "add").input("alpha")), 1.0);
  EXPECT_EQ(scalar(node(g, "add_1").input("alpha")), 2.0);
  ASSERT_EQ(node(g, "add").inputs.size(), 3u);
  EXPECT_EQ(scalar(node(g, "clamp").input("min")), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(scalar(node(g, "clamp").input("max")), 6.0);
  EXPECT_EQ(*node(g, "view").input("size")->get_if<ir::SymIntList>(),
            (ir::SymIntList{ir::SymInt::of(3), ir::SymInt::of(2)}));
  const auto& sum = node(g, "sum_1");
  EXPECT_EQ(*sum.input("dim")->get_if<ir::IntList>(), ir::IntList{0});
  EXPECT_EQ(*sum.input("keepdim")->get_if<bool>(), false);
  EXPECT_TRUE(sum.input("dtype")->is_none());
  const auto& to = node(g, "_to_copy");
  EXPECT_EQ(to.input("dtype")->get_if<ir::ScalarTypeArg>()->dtype, DType::Float32);
  EXPECT_EQ(to.input("layout")->get_if<ir::LayoutArg>()->code, 7);
  EXPECT_EQ(to.input("device")->get_if<ir::DeviceArg>()->type, "cpu");
  EXPECT_EQ(to.input("memory_format")->get_if<ir::MemoryFormatArg>()->code, 1);
  EXPECT_EQ(*to.input("non_blocking")->get_if<bool>(), false);
  const auto* idx = node(g, "index").input("indices")->get_if<ir::OptionalTensorList>();
  ASSERT_NE(idx, nullptr);
  ASSERT_EQ(idx->size(), 2u);
  EXPECT_FALSE((*idx)[0].has_value());
  EXPECT_EQ((*idx)[1]->name, "b_idx");
  EXPECT_EQ(node(g, "linear").metadata.at("stack_trace"), "model.py:1");

  // Signature.
  ASSERT_EQ(g.signature.inputs.size(), 7u);
  EXPECT_EQ(g.signature.inputs[0].kind, ir::InputKind::Parameter);
  EXPECT_EQ(g.signature.inputs[0].target, "fc.weight");
  EXPECT_EQ(g.signature.inputs[2].kind, ir::InputKind::Buffer);
  EXPECT_TRUE(g.signature.inputs[2].persistent);
  EXPECT_FALSE(g.signature.inputs[3].persistent);
  EXPECT_EQ(g.signature.inputs[4].kind, ir::InputKind::TensorConstant);
  EXPECT_EQ(g.signature.inputs[6].kind, ir::InputKind::UserInput);
  EXPECT_EQ(g.signature.inputs[6].value_name, "x");
  ASSERT_EQ(g.signature.outputs.size(), 2u);
  EXPECT_EQ(g.signature.outputs[1].value.get_if<ir::TensorRef>()->name, "index");
  EXPECT_EQ(g.meta("x")->to_string().find("float32"), 0u);

  // Weights, byte for byte.
  ASSERT_EQ(g.weights.size(), 6u);
  std::vector<float> w(12);
  for (int i = 0; i < 12; ++i) w[i] = 0.5f * static_cast<float>(i);
  EXPECT_EQ(values<float>(g.weights.at("fc.weight")), w);
  EXPECT_EQ(g.weights.at("fc.weight").sizes(), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(values<float>(g.weights.at("fc.bias")), (std::vector<float>{103, 104, 105}));
  EXPECT_EQ(values<float>(g.weights.at("scale")), (std::vector<float>{100, 101, 102}));
  // Views of one storage share it.
  EXPECT_EQ(g.weights.at("fc.bias").storage(), g.weights.at("scale").storage());
  EXPECT_EQ(g.weights.at("fc.bias").storage_offset(), 3);
  EXPECT_EQ(values<float>(g.weights.at("const0")), (std::vector<float>{11, 13}));
  EXPECT_EQ(g.weights.at("idx").dtype(), DType::Int64);
  EXPECT_EQ(values<std::int64_t>(g.weights.at("idx")), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(values<float>(g.weights.at("zeros")), (std::vector<float>{0, 0, 0, 0}));
  ASSERT_NE(g.weight_for_value("p_fc_weight"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, ValidArchive,
    ::testing::Values(Layout{"program_raw.pt2", "pt2-archive (raw weights)", "program_raw"},
                      Layout{"program_pickled.pt2", "pt2-archive (pickled weights)", "program_pickled"},
                      Layout{"program_legacy.pt2", "legacy zip", ""},
                      Layout{"program_legacy21_deflated.pt2", "legacy zip", ""}));

TEST(Reader, MissingFileIsAFormatError) {
  try {
    load_pt2("/nonexistent/model.pt2");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.pt2"), std::string::npos);
  }
}

// The legacy fixture carries torch.save(((zeros(2, 4),), {})); the others none.
TEST(Reader, SampleInputsAreReadWithAndWithoutTheWeights) {
  for (const auto& ep : {load_pt2(valid("program_legacy.pt2")),
                         frontend::load_pt2_graph_and_sample_inputs(valid("program_legacy.pt2"))}) {
    const ir::SampleInputs& s = ep.sample_inputs;
    EXPECT_EQ(s.entry, "serialized_example_inputs.pt");
    EXPECT_TRUE(s.usable()) << s.unavailable;
    ASSERT_EQ(s.tensors.size(), 1u);
    EXPECT_EQ(s.tensors[0].dtype(), DType::Float32);
    EXPECT_EQ(s.tensors[0].sizes(), (std::vector<std::int64_t>{2, 4}));
    EXPECT_EQ(values<float>(s.tensors[0]), std::vector<float>(8, 0.0f));
  }
  EXPECT_TRUE(frontend::load_pt2_graph_and_sample_inputs(valid("program_legacy.pt2")).graph.weights.empty());
  const auto raw = load_pt2(valid("program_raw.pt2"));
  EXPECT_TRUE(raw.sample_inputs.entry.empty());
  EXPECT_FALSE(raw.sample_inputs.usable());
}

TEST(Reader, MemoryLimitIsEnforced) {
  frontend::ReadLimits tight;
  tight.max_total_bytes = 1000;  // the payloads alone exceed this
  EXPECT_THROW(load_pt2(valid("program_raw.pt2"), tight), FormatError);
  EXPECT_NO_THROW(load_pt2(valid("program_raw.pt2")));
}

}  // namespace

namespace {

TEST(Reader, SymbolicShapesAndConstantInputs) {
  const ir::ExportedProgram ep = load_pt2(valid("dynamic_raw.pt2"));
  const ir::Graph& g = ep.graph;
  EXPECT_EQ(ep.info.torch_version, "2.12.1");
  EXPECT_EQ(ep.info.schema_minor, 20);
  const ir::TensorMeta* x = g.meta("x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->sizes[0].name, "s0");
  EXPECT_EQ(x->sizes[0].hint, 3);
  EXPECT_EQ(x->static_sizes(), (std::vector<std::int64_t>{-1, 4}));
  EXPECT_FALSE(x->is_static());
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].target.str(), "aten.sym_size.int");
  EXPECT_EQ(g.nodes[0].outputs.at(0), ir::Argument(ir::SymInt::named("sym_size_int")));
  EXPECT_EQ(g.nodes[1].target.str(), "operator.mul");
  EXPECT_EQ(g.nodes[1].inputs.at(1).arg, ir::Argument(std::int64_t{4}));
  EXPECT_EQ(*g.nodes[2].input("size")->get_if<ir::SymIntList>(), ir::SymIntList{ir::SymInt::named("mul")});
  EXPECT_EQ(g.sym_int_values.at("sym_size_int").name, "s0");
  EXPECT_EQ(g.sym_int_values.at("mul").name, "4*s0");
  ASSERT_EQ(g.range_constraints.size(), 1u);
  EXPECT_EQ(g.range_constraints.at("s0").min, 2);
  EXPECT_EQ(g.range_constraints.at("s0").max, 64);
  EXPECT_TRUE(g.has_dynamic_inputs());
  ASSERT_EQ(g.signature.inputs.size(), 2u);
  EXPECT_EQ(g.signature.inputs[1].kind, ir::InputKind::ConstantInput);
  EXPECT_EQ(g.signature.inputs[1].value_name, "scale");
  EXPECT_EQ(g.signature.inputs[1].constant_value, ir::Argument(std::int64_t{3}));
  EXPECT_TRUE(g.weights.empty());
}

// Every form torch.export writes for symbolic sizes (make_corpus.py dynamic_forms_program).
TEST(Reader, EverySymbolicSizeForm) {
  const ir::Graph g = load_pt2(valid("dynamic_forms.pt2")).graph;
  const ir::TensorMeta* x = g.meta("x");
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(x->sizes.size(), 2u);
  EXPECT_EQ(x->sizes[0].name, "s0");  // srepr, SymExprHint union
  EXPECT_EQ(x->sizes[0].hint, 6);
  EXPECT_EQ(x->sizes[1].name, "s1");  // str(), bare-int hint
  EXPECT_EQ(x->sizes[1].hint, 10);
  EXPECT_EQ(g.meta("view")->sizes[0].name, "s0*s1");
  EXPECT_EQ(g.sym_int_values.at("mul").name, "s0*s1");
  EXPECT_EQ(g.sym_int_values.at("sym_max").name, "Max(s0, s1)");
  EXPECT_EQ(g.sym_int_values.at("sym_min").name, "Min(s0, s1)");
  EXPECT_EQ(g.sym_int_values.at("floordiv").name, "s1//2");
  EXPECT_EQ(g.sym_int_values.at("mod").name, "Mod(s1, 4)");
  EXPECT_EQ(g.sym_int_values.at("sub").name, "Max(s0, s1) + Min(s0, s1) + s1//2 + Mod(s1, 4) - s0");
  // Each recorded value is what its expression gives at the hints.
  const std::map<std::string, std::int64_t> hints{{"s0", 6}, {"s1", 10}};
  for (const auto& [name, value] : g.sym_int_values) {
    EXPECT_EQ(ir::SymExpr::parse(value.name).evaluate(hints), value.hint) << name;
  }
  EXPECT_EQ(g.range_constraints.at("s0").to_string(), "[2, 16]");
  EXPECT_EQ(g.range_constraints.at("s1").to_string(), "[2, inf]");  // null
  EXPECT_EQ(g.range_constraints.at("s2").to_string(), "[2, inf]");  // sys.maxsize - 1
  std::vector<std::string> targets;
  for (const auto& n : g.nodes) targets.push_back(n.target.str());
  for (const char* t : {"aten.sym_size.int", "operator.mul", "torch.sym_max", "torch.sym_min", "operator.floordiv",
                        "operator.mod", "operator.add", "operator.sub"}) {
    EXPECT_NE(std::find(targets.begin(), targets.end(), t), targets.end()) << t;
  }
}

}  // namespace

namespace {

// Symbolic bools and floats as torch 2.12-2.14 write them (make_corpus.py symbolic_program).
TEST(Reader, SymbolicBoolsAndFloats) {
  const ir::ExportedProgram ep = load_pt2(valid("symbolic_static.pt2"));
  const ir::Graph& g = ep.graph;
  EXPECT_EQ(ep.info.torch_version, "2.14.0");
  auto find = [&](const std::string& name) -> const ir::Node& {
    for (const auto& n : g.nodes) {
      if (n.name == name) return n;
    }
    throw std::runtime_error("no node " + name);
  };
  EXPECT_EQ(find("ge").target.str(), "operator.ge");
  EXPECT_EQ(find("ge").outputs.at(0), ir::Argument(ir::SymBoolRef{"ge"}));
  EXPECT_EQ(find("truediv").outputs.at(0), ir::Argument(ir::SymFloatRef{"truediv"}));
  EXPECT_EQ(*find("_assert_scalar_default").input("self"), ir::Argument(ir::SymBoolRef{"ge"}));
  EXPECT_TRUE(find("_assert_scalar_default").outputs.empty());
  EXPECT_EQ(*find("mul").input("other"), ir::Argument(ir::SymFloatRef{"truediv"}));
  EXPECT_EQ(*find("scalar_tensor").input("s"), ir::Argument(ir::SymBoolRef{"or_"}));
  EXPECT_EQ(find("trunc").target.str(), "math.trunc");
  EXPECT_EQ(find("sym_not").target.str(), "torch.sym_not");
  EXPECT_EQ(find("or_").target.str(), "operator.or_");
  // Defaults filled from the schemas newer than 1.13 (op_schema_extra.cpp).
  EXPECT_EQ(*find("sym_constrain_range_for_size_default").input("max"), ir::Argument(std::int64_t{64}));
  EXPECT_TRUE(find("_assert_tensor_metadata_default").input("size")->is_none());
  EXPECT_EQ(g.sym_bool_values.at("ge"), "2 <= s0");
  EXPECT_EQ(g.sym_bool_values.at("or_"), "True");
  EXPECT_EQ(g.sym_float_values.at("truediv"), "0.5");
  ASSERT_EQ(g.outputs.size(), 4u);
  EXPECT_EQ(g.outputs[3], ir::Argument(ir::SymBoolRef{"ge"}));
  EXPECT_EQ(g.signature.outputs[3].value, ir::Argument(ir::SymBoolRef{"ge"}));
  // Every value a SymBool/SymFloat argument names is defined before use (validate() ran).
  std::set<std::string> names;
  for (const auto& n : g.nodes) {
    for (const auto& in : n.inputs) ir::for_each_value(in.arg, [&](const std::string& v) { names.insert(v); });
  }
  for (const char* v : {"ge", "truediv", "or_", "sym_not", "sym_float"}) EXPECT_TRUE(names.contains(v)) << v;
}

}  // namespace

namespace {

// Higher-order ops (make_corpus.py hop_program): subgraphs read as GraphArg, checked on their own.
TEST(Reader, HigherOrderSubgraphs) {
  const ir::Graph g = load_pt2(valid("hop_static.pt2")).graph;
  ASSERT_EQ(g.nodes.size(), 5u);
  const ir::Node& cond = g.nodes[2];
  EXPECT_EQ(cond.target.str(), "higher_order.cond");
  ASSERT_EQ(cond.inputs.size(), 4u);
  EXPECT_EQ(cond.inputs[0].arg, ir::Argument(ir::SymBoolRef{"gt"}));
  const auto* branch = cond.inputs[1].arg.get_if<ir::GraphArg>();
  ASSERT_NE(branch, nullptr);
  EXPECT_EQ(branch->name, "true_graph_0");
  ASSERT_EQ(branch->graph->nodes.size(), 2u);
  EXPECT_EQ(branch->graph->outputs, std::vector<ir::Argument>{ir::TensorRef{"add"}});
  EXPECT_TRUE(branch->graph->tensor_values.contains("x_1"));
  EXPECT_EQ(cond.inputs[3].arg, ir::Argument(ir::TensorList{ir::TensorRef{"x"}, ir::TensorRef{"w"}}));
  EXPECT_EQ(cond.inputs[1].arg.to_string(), "graph(true_graph_0)");
  EXPECT_EQ(g.nodes[3].outputs.size(), 2u);  // the grad wrapper returns its body's two values
}

}  // namespace
