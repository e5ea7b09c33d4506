// The reader on hand-written JSON in every schema torch has written, taken
// from the format notes' own examples (shared/reference/pt2_format.md §3.8,
// pt2_schema_history.md), not from atenrt's exporter: writer and reader must
// not agree on a mistake. Each program is the same small graph
// (linear → relu, weight and bias lifted) spelled in one schema's shape.
#include <gtest/gtest.h>

#include "atenrt/errors.h"
#include "frontend/graph_json.h"

using namespace atenrt;
using frontend::json;

namespace {

ir::ExportedProgram read(const std::string& text) {
  const frontend::JsonReader r("test.pt2: model.json");
  ir::ExportedProgram ep;
  frontend::read_exported_program(frontend::parse_json(text, r.where(), 64), r, ep);
  ep.graph.validate();
  return ep;
}

// `text` with the first `from` replaced by `to`; `from` must be there.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("test bug: no '" + from + "' in the text");
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// pt2_format.md §3.8 (torch 2.14, schema 8.20), with the elided tensor_values
// ("...") written out.
const char* kSchema8 = R"J({"graph_module": {
   "graph": {
     "inputs": [{"as_tensor": {"name": "p_fc_weight"}}, {"as_tensor": {"name": "p_fc_bias"}}, {"as_tensor": {"name": "x"}}],
     "outputs": [{"as_tensor": {"name": "linear"}}],
     "nodes": [{"target": "torch.ops.aten.linear.default",
                "inputs": [{"name": "input",  "arg": {"as_tensor": {"name": "x"}}, "kind": 1},
                           {"name": "weight", "arg": {"as_tensor": {"name": "p_fc_weight"}}, "kind": 1},
                           {"name": "bias",   "arg": {"as_tensor": {"name": "p_fc_bias"}}, "kind": 1}],
                "outputs": [{"as_tensor": {"name": "linear"}}],
                "metadata": {"nn_module_stack": "L__self__,,__main__.M;L__self__fc,fc,torch.nn.modules.linear.Linear"},
                "is_hop_single_tensor_return": null, "name": "linear"}],
     "tensor_values": {"x": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "Symbol('s17', positive=True, integer=True)", "hint": {"as_int": 2}}}, {"as_int": 4}],
                             "requires_grad": false, "device": {"type": "cpu", "index": null},
                             "strides": [{"as_int": 4}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7},
                       "p_fc_weight": {"dtype": 7, "sizes": [{"as_int": 3}, {"as_int": 4}], "requires_grad": true,
                             "device": {"type": "cpu", "index": null}, "strides": [{"as_int": 4}, {"as_int": 1}],
                             "storage_offset": {"as_int": 0}, "layout": 7},
                       "p_fc_bias": {"dtype": 7, "sizes": [{"as_int": 3}], "requires_grad": true,
                             "device": {"type": "cpu", "index": null}, "strides": [{"as_int": 1}],
                             "storage_offset": {"as_int": 0}, "layout": 7},
                       "linear": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "Symbol('s17', positive=True, integer=True)", "hint": {"as_int": 2}}}, {"as_int": 3}],
                             "requires_grad": false, "device": {"type": "cpu", "index": null},
                             "strides": [{"as_int": 3}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7}},
     "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false,
     "custom_obj_values": {}, "sym_float_values": {}},
   "signature": {"input_specs": [{"parameter": {"arg": {"name": "p_fc_weight"}, "parameter_name": "fc.weight"}},
                                 {"parameter": {"arg": {"name": "p_fc_bias"}, "parameter_name": "fc.bias"}},
                                 {"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
                 "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "linear"}}}}]},
   "module_call_graph": [{"fqn": "", "signature": {"inputs": [], "outputs": [], "in_spec": "...", "out_spec": "...", "forward_arg_names": ["x"]}}],
   "metadata": {}, "treespec_namedtuple_fields": {}},
 "opset_version": {"aten": 10}, "range_constraints": {"s17": {"min_val": 1, "max_val": 64}},
 "schema_version": {"major": 8, "minor": 20}, "verifiers": ["TRAINING"], "torch_version": "2.14.0", "guards_code": []})J";

void expect_linear_program(const ir::ExportedProgram& ep) {
  const ir::Graph& g = ep.graph;
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].target.str(), "aten.linear.default");
  EXPECT_EQ(g.nodes[0].input("weight")->get_if<ir::TensorRef>()->name, "p_fc_weight");
  EXPECT_EQ(g.nodes[0].input("bias")->get_if<ir::TensorRef>()->name, "p_fc_bias");
  ASSERT_EQ(g.signature.inputs.size(), 3u);
  EXPECT_EQ(g.signature.inputs[0].kind, ir::InputKind::Parameter);
  EXPECT_EQ(g.signature.inputs[0].target, "fc.weight");
  EXPECT_EQ(g.signature.inputs[1].target, "fc.bias");
  EXPECT_EQ(g.signature.inputs[2].kind, ir::InputKind::UserInput);
  EXPECT_EQ(g.signature.inputs[2].value_name, "x");
  ASSERT_EQ(g.signature.outputs.size(), 1u);
  EXPECT_EQ(g.signature.outputs[0].kind, ir::OutputKind::UserOutput);
  EXPECT_EQ(g.meta("p_fc_weight")->static_sizes(), (std::vector<std::int64_t>{3, 4}));
}

TEST(SchemaVersions, Schema8FromTheFormatNotes) {
  const auto ep = read(kSchema8);
  expect_linear_program(ep);
  EXPECT_EQ(ep.info.schema_major, 8);
  EXPECT_EQ(ep.info.schema_minor, 20);
  EXPECT_EQ(ep.info.torch_version, "2.14.0");
  EXPECT_EQ(ep.graph.meta("x")->sizes[0], ir::SymInt::named("s17"));
}

// pt2_schema_history.md, schema 2 (torch 2.2, checked against a real file):
// unions carry every member with the unused ones null, storage_offset is a
// bare int, OptionalTensorArgument.as_tensor a bare name, `dialect` not
// `verifiers`, no Node.name, no NamedArgument.kind, no buffer `persistent`.
const char* kSchema2 = R"J({"graph_module": {"graph": {
  "inputs": [{"as_none": null, "as_tensor": {"name": "arg0_1"}, "as_tensors": null, "as_int": null, "as_bool": null},
             {"as_none": null, "as_tensor": {"name": "arg1_1"}, "as_tensors": null, "as_int": null, "as_bool": null},
             {"as_none": null, "as_tensor": {"name": "arg2_1"}, "as_tensors": null, "as_int": null, "as_bool": null},
             {"as_none": null, "as_tensor": {"name": "l_x_"}, "as_tensors": null, "as_int": null, "as_bool": null}],
  "outputs": [{"as_none": null, "as_tensor": {"name": "index"}, "as_int": null}],
  "nodes": [{"target": "torch.ops.aten.index.Tensor",
             "inputs": [{"name": "self", "arg": {"as_none": null, "as_tensor": {"name": "l_x_"}, "as_optional_tensors": null}},
                        {"name": "indices", "arg": {"as_none": null, "as_tensor": null,
                          "as_optional_tensors": [{"as_tensor": null, "as_none": []}, {"as_tensor": "arg2_1", "as_none": null}]}}],
             "outputs": [{"as_none": null, "as_tensor": {"name": "index"}}], "metadata": {}}],
  "tensor_values": {
    "arg0_1": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 256}], "requires_grad": true,
               "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7},
    "arg1_1": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 256}], "requires_grad": false,
               "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7},
    "arg2_1": {"dtype": 5, "sizes": [{"as_expr": null, "as_int": 2}], "requires_grad": false,
               "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7},
    "l_x_": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "s0", "hint": {"as_int": 4, "as_float": null, "as_bool": null}}, "as_int": null},
                                   {"as_expr": null, "as_int": 3}], "requires_grad": false,
             "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 3}, {"as_expr": null, "as_int": 1}],
             "storage_offset": 0, "layout": 7},
    "index": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 2}, {"as_expr": null, "as_int": 3}], "requires_grad": false,
              "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 3}, {"as_expr": null, "as_int": 1}],
              "storage_offset": 0, "layout": 7}},
  "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false},
  "signature": {"input_specs": [
      {"user_input": null, "parameter": {"arg": {"name": "arg0_1"}, "parameter_name": "w"}, "buffer": null, "tensor_constant": null},
      {"user_input": null, "parameter": null, "buffer": {"arg": {"name": "arg1_1"}, "buffer_name": "running"}, "tensor_constant": null},
      {"user_input": null, "parameter": null, "buffer": null, "tensor_constant": {"arg": {"name": "arg2_1"}, "tensor_constant_name": "_tensor_constant0"}},
      {"user_input": {"arg": {"as_none": null, "as_tensor": {"name": "l_x_"}}}, "parameter": null, "buffer": null, "tensor_constant": null}],
    "output_specs": [{"user_output": {"arg": {"as_none": null, "as_tensor": {"name": "index"}}}, "loss_output": null,
                      "buffer_mutation": null, "gradient_to_parameter": null, "gradient_to_user_input": null}]},
  "module_call_graph": [{"fqn": "", "signature": null}]},
 "opset_version": {"aten": 10}, "range_constraints": {"s0": {"min_val": 2, "max_val": 9223372036854775806}},
 "schema_version": 2, "dialect": "ATEN"})J";

TEST(SchemaVersions, Schema2AllMembersUnions) {
  const auto ep = read(kSchema2);
  const ir::Graph& g = ep.graph;
  EXPECT_EQ(ep.info.schema_major, 2);
  EXPECT_EQ(ep.info.verifiers, std::vector<std::string>{"ATEN"});
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].name, "index");  // no Node.name: named after its output
  const auto* idx = g.nodes[0].input("indices")->get_if<ir::OptionalTensorList>();
  ASSERT_NE(idx, nullptr);
  ASSERT_EQ(idx->size(), 2u);
  EXPECT_FALSE((*idx)[0].has_value());
  EXPECT_EQ((*idx)[1]->name, "arg2_1");
  EXPECT_EQ(g.meta("l_x_")->sizes[0], ir::SymInt::named("s0"));
  EXPECT_EQ(g.meta("arg0_1")->storage_offset, ir::SymInt::of(0));
  EXPECT_EQ(g.signature.inputs[0].kind, ir::InputKind::Parameter);
  EXPECT_EQ(g.signature.inputs[1].kind, ir::InputKind::Buffer);
  EXPECT_TRUE(g.signature.inputs[1].persistent);
  EXPECT_EQ(g.signature.inputs[2].kind, ir::InputKind::TensorConstant);
  EXPECT_EQ(g.signature.inputs[2].target, "_tensor_constant0");
  EXPECT_EQ(g.signature.inputs[3].value_name, "l_x_");
}

// Schema 1 (torch 2.1): the flat signature, TensorValue {"meta": ...}, a bare
// int SymExpr hint; mutated buffers' new values come first among the outputs.
const char* kSchema1 = R"J({"graph_module": {"graph": {
  "inputs": [{"as_none": null, "as_tensor": {"name": "arg0_1"}}, {"as_none": null, "as_tensor": {"name": "arg1_1"}},
             {"as_none": null, "as_tensor": {"name": "arg2_1"}}],
  "outputs": [{"as_none": null, "as_tensor": {"name": "add"}}, {"as_none": null, "as_tensor": {"name": "mul"}}],
  "nodes": [{"target": "torch.ops.aten.add.Tensor", "inputs": [
               {"name": "self", "arg": {"as_none": null, "as_tensor": {"name": "arg1_1"}, "as_int": null}},
               {"name": "other", "arg": {"as_none": null, "as_tensor": {"name": "arg2_1"}, "as_int": null}}],
             "outputs": [{"as_none": null, "as_tensor": {"name": "add"}}], "metadata": {}},
            {"target": "torch.ops.aten.mul.Tensor", "inputs": [
               {"name": "self", "arg": {"as_none": null, "as_tensor": {"name": "add"}, "as_int": null}},
               {"name": "other", "arg": {"as_none": null, "as_tensor": {"name": "arg0_1"}, "as_int": null}}],
             "outputs": [{"as_none": null, "as_tensor": {"name": "mul"}}], "metadata": {}}],
  "tensor_values": {
    "arg0_1": {"meta": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 3}], "requires_grad": true,
               "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7}},
    "arg1_1": {"meta": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 3}], "requires_grad": false,
               "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7}},
    "arg2_1": {"meta": {"dtype": 7, "sizes": [{"as_expr": {"expr_str": "s0", "hint": 3}, "as_int": null}], "requires_grad": false,
               "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7}},
    "add": {"meta": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 3}], "requires_grad": false,
            "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7}},
    "mul": {"meta": {"dtype": 7, "sizes": [{"as_expr": null, "as_int": 3}], "requires_grad": false,
            "device": {"type": "cpu", "index": null}, "strides": [{"as_expr": null, "as_int": 1}], "storage_offset": 0, "layout": 7}}},
  "sym_int_values": {}, "sym_bool_values": {}},
  "signature": {"inputs_to_parameters": {"arg0_1": "w"}, "inputs_to_buffers": {"arg1_1": "count"},
                "user_inputs": ["arg2_1"], "user_outputs": ["mul"], "buffers_to_mutate": {"add": "count"},
                "backward_signature": null},
  "call_spec": {"in_spec": null, "out_spec": null}, "module_call_graph": [{"fqn": "", "signature": null}]},
 "opset_version": {"aten": 10}, "range_constraints": {}, "equality_constraints": [], "schema_version": 1, "example_inputs": null})J";

TEST(SchemaVersions, Schema1FlatSignature) {
  const auto ep = read(kSchema1);
  const ir::Graph& g = ep.graph;
  EXPECT_EQ(ep.info.schema_major, 1);
  ASSERT_EQ(g.signature.inputs.size(), 3u);
  EXPECT_EQ(g.signature.inputs[0].kind, ir::InputKind::Parameter);
  EXPECT_EQ(g.signature.inputs[0].target, "w");
  EXPECT_EQ(g.signature.inputs[1].kind, ir::InputKind::Buffer);
  EXPECT_EQ(g.signature.inputs[1].target, "count");
  EXPECT_EQ(g.signature.inputs[2].kind, ir::InputKind::UserInput);
  ASSERT_EQ(g.signature.outputs.size(), 2u);
  EXPECT_EQ(g.signature.outputs[0].kind, ir::OutputKind::BufferMutation);
  EXPECT_EQ(g.signature.outputs[0].target, "count");
  EXPECT_EQ(g.signature.outputs[1].kind, ir::OutputKind::UserOutput);
  EXPECT_EQ(g.meta("arg2_1")->sizes[0], ir::SymInt::named("s0"));
  EXPECT_EQ(g.meta("add")->static_sizes(), std::vector<std::int64_t>{3});
}

TEST(SchemaVersions, Schema1SignatureMustMatchTheGraph) {
  std::string text = kSchema1;
  text.replace(text.find(R"J("user_outputs": ["mul"])J"), 23, R"J("user_outputs": ["add"])J");
  EXPECT_NE(error_of(text).find("names 'add' but graph output 1 is 'mul'"), std::string::npos) << error_of(text);
  text = kSchema1;
  text.replace(text.find(R"J("buffers_to_mutate": {"add": "count"})J"), 37, R"J("buffers_to_mutate": {})J");
  EXPECT_NE(error_of(text).find("0 buffer mutations and 1 user outputs for 2 graph outputs"), std::string::npos)
      << error_of(text);
}

// Schemas 3-4 (nightlies, Dec 2023 - Mar 2024): {"$type", "$value"} unions.
TEST(SchemaVersions, TypeValueUnions) {
  std::string text = kSchema8;
  auto swap = [&](const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  };
  swap(R"J({"as_tensor": {"name": "x"}})J", R"J({"$type": "as_tensor", "$value": {"name": "x"}})J");
  swap(R"J({"as_int": 4})J", R"J({"$type": "as_int", "$value": 4})J");
  swap(R"J({"parameter": {"arg": {"name": "p_fc_bias"}, "parameter_name": "fc.bias"}})J",
       R"J({"$type": "parameter", "$value": {"arg": {"name": "p_fc_bias"}, "parameter_name": "fc.bias"}})J");
  swap(R"J("schema_version": {"major": 8, "minor": 20})J", R"J("schema_version": {"major": 4, "minor": 1})J");
  ASSERT_NE(text.find("$type"), std::string::npos);
  const auto ep = read(text);
  expect_linear_program(ep);
  EXPECT_EQ(ep.info.schema_major, 4);
  EXPECT_EQ(ep.graph.meta("p_fc_weight")->strides[0], ir::SymInt::of(4));
}

// Single-key unions whose values are falsy are still the chosen member, and
// so is the one non-null member of an all-members union.
TEST(SchemaVersions, UnionPicksThePresentMemberNotTheTruthyOne) {
  const frontend::JsonReader r("t");
  auto arg = [&](const char* text) {
    return frontend::read_argument(frontend::parse_json(text, "t", 16), r, "$");
  };
  EXPECT_TRUE(arg(R"J({"as_none": []})J").is_none());                 // 2.1-8.2
  EXPECT_TRUE(arg(R"J({"as_none": true})J").is_none());               // 8.3+
  EXPECT_TRUE(arg(R"J({"as_none": [], "as_int": null, "as_bool": null})J").is_none());
  EXPECT_EQ(arg(R"J({"as_none": null, "as_bool": false, "as_int": null})J"), ir::Argument(false));
  EXPECT_EQ(arg(R"J({"as_none": null, "as_int": 0})J"), ir::Argument(std::int64_t{0}));
  EXPECT_EQ(arg(R"J({"as_ints": [], "as_none": null})J"), ir::Argument(ir::IntList{}));
  EXPECT_EQ(arg(R"J({"$type": "as_bool", "$value": false})J"), ir::Argument(false));
  EXPECT_EQ(arg(R"J({"as_bool": false})J"), ir::Argument(false));
  EXPECT_EQ(arg(R"J({"as_scalar_type": "FLOAT"})J").get_if<ir::ScalarTypeArg>()->code, 7);  // enum by name
  auto error = [&](const char* text) {
    try {
      arg(text);
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(R"J({"as_none": null, "as_int": null})J").find("all null"), std::string::npos);
  EXPECT_NE(error(R"J({"as_int": 1, "as_bool": false})J").find("are both set"), std::string::npos);
  EXPECT_NE(error(R"J({"$type": "as_int"})J").find("$type"), std::string::npos);
}

// Schema 5 (torch 2.3-2.4): single-key unions, None-default fields omitted,
// as_none [], storage_offset a SymInt, `dialect`; enums may also be names,
// unknown fields are ignored.
TEST(SchemaVersions, Schema5OmittedFieldsEnumNamesUnknownFields) {
  std::string text = kSchema8;
  auto swap = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  swap(R"J("schema_version": {"major": 8, "minor": 20}, "verifiers": ["TRAINING"], "torch_version": "2.14.0", "guards_code": []})J",
       R"J("schema_version": {"major": 5, "minor": 3}, "dialect": "ATEN", "a_future_field": {"x": 1}})J");
  swap(R"J(, "kind": 1},)J", R"J(},)J");  // NamedArgument.kind absent before 8.6
  swap(R"J("metadata": {"nn_module_stack")J", R"J("unknown_node_field": [1, 2], "metadata": {"nn_module_stack")J");
  swap(R"J("is_hop_single_tensor_return": null, "name": "linear"})J", R"J("is_hop_single_tensor_return": null})J");
  swap(R"J("dtype": 7, "sizes": [{"as_int": 3}, {"as_int": 4}], "requires_grad": true,
                             "device": {"type": "cpu", "index": null})J",
       R"J("dtype": "FLOAT", "sizes": [{"as_int": 3}, {"as_int": 4}], "requires_grad": true,
                             "device": {"type": "cpu"})J");
  swap(R"J("storage_offset": {"as_int": 0}, "layout": 7},
                       "p_fc_bias")J", R"J("storage_offset": {"as_int": 0}, "layout": "Strided"},
                       "p_fc_bias")J");
  const auto ep = read(text);
  expect_linear_program(ep);
  EXPECT_EQ(ep.info.schema_major, 5);
  EXPECT_EQ(ep.info.verifiers, std::vector<std::string>{"ATEN"});
  EXPECT_EQ(ep.graph.nodes[0].name, "linear");
}

TEST(SchemaVersions, SignatureKindsAndRefusals) {
  auto with_outputs = [](const std::string& graph_outputs, const std::string& specs) {
    std::string text = replaced(kSchema8, R"J("outputs": [{"as_tensor": {"name": "linear"}}],
     "nodes")J", R"J("outputs": )J" + graph_outputs + R"J(, "nodes")J");
    return replaced(text, R"J("output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "linear"}}}}])J",
                    R"J("output_specs": )J" + specs);
  };
  const auto ep = read(with_outputs(
      R"J([{"as_tensor": {"name": "linear"}}, {"as_tensor": {"name": "linear"}}, {"as_tensor": {"name": "linear"}}, {"as_tensor": {"name": "linear"}}, {"as_tensor": {"name": "linear"}}])J",
      R"J([{"buffer_mutation": {"arg": {"name": "linear"}, "buffer_name": "fc.running"}},
          {"user_input_mutation": {"arg": {"name": "linear"}, "user_input_name": "x"}},
          {"parameter_mutation": {"arg": {"name": "linear"}, "parameter_name": "fc.weight"}},
          {"loss_output": {"arg": {"name": "linear"}}},
          {"user_output": {"arg": {"as_tensor": {"name": "linear"}}}}])J"));
  const auto& outs = ep.graph.signature.outputs;
  ASSERT_EQ(outs.size(), 5u);
  EXPECT_EQ(outs[0].kind, ir::OutputKind::BufferMutation);
  EXPECT_EQ(outs[0].target, "fc.running");
  EXPECT_EQ(outs[1].kind, ir::OutputKind::UserInputMutation);
  EXPECT_EQ(outs[1].target, "x");
  EXPECT_EQ(outs[2].kind, ir::OutputKind::ParameterMutation);
  EXPECT_EQ(outs[3].kind, ir::OutputKind::LossOutput);
  EXPECT_EQ(outs[4].kind, ir::OutputKind::UserOutput);
  EXPECT_EQ(outs[0].value, ir::Argument(ir::TensorRef{"linear"}));

  const std::string wrong = with_outputs(R"J([{"as_tensor": {"name": "x"}}])J",
                                         R"J([{"buffer_mutation": {"arg": {"name": "linear"}, "buffer_name": "b"}}])J");
  EXPECT_NE(error_of(wrong).find("names 'linear' but graph output 0 is 'x'"), std::string::npos) << error_of(wrong);
  const std::string grad = with_outputs(R"J([{"as_tensor": {"name": "linear"}}])J",
                                        R"J([{"gradient_to_parameter": {"arg": {"name": "linear"}, "parameter_name": "w"}}])J");
  EXPECT_NE(error_of(grad).find("joint forward-backward graphs (gradient_to_parameter)"), std::string::npos);
  const std::string token = with_outputs(R"J([{"as_tensor": {"name": "linear"}}])J",
                                         R"J([{"token": {"arg": {"name": "linear"}}}])J");
  EXPECT_NE(error_of(token).find("effect-token outputs"), std::string::npos);
}

TEST(SchemaVersions, UnknownMajorNamesTheProducer) {
  const std::string v8 = R"J({"major": 8, "minor": 20})J";
  std::string text = replaced(replaced(kSchema8, v8, R"J({"major": 9, "minor": 0})J"), R"J("2.14.0")J",
                              R"J("2.99.0")J");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("schema version 9.0 (written by torch 2.99.0) is not supported"), std::string::npos) << e;
  text = replaced(text, R"J(, "torch_version": "2.99.0")J", "");
  EXPECT_NE(error_of(text).find("written by a torch version that does not say which"), std::string::npos)
      << error_of(text);
  // Any minor of a known major reads.
  EXPECT_EQ(read(replaced(kSchema8, v8, R"J({"major": 8, "minor": 999})J")).info.schema_minor, 999);
}

}  // namespace
