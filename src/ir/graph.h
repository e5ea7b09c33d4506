// The ATen graph IR: what a .pt2 archive holds, read into C++.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "atenrt/tensor.h"
#include "ir/argument.h"
#include "ir/sym_expr.h"

namespace atenrt::ir {

// Static view of a tensor value's metadata. Dims that are symbolic keep
// their SymInt (name); `sizes_hint` gives -1 for them.
struct TensorMeta {
  std::optional<DType> dtype;  // nullopt: a type atenrt cannot hold
  std::int64_t dtype_code = 0;  // raw serde ScalarType, for messages
  std::vector<SymInt> sizes;
  std::vector<SymInt> strides;
  SymInt storage_offset = SymInt::of(0);
  bool requires_grad = false;
  std::string device = "cpu";

  // Sizes with -1 for dynamic dims.
  std::vector<std::int64_t> static_sizes() const;
  bool is_static() const;
  std::string to_string() const;  // "float32[1, 3, 224, 224]"
};

// An op overload name in torch's spelling without "torch.ops.":
// "aten.add.Tensor", "operator.getitem", "prims.sum.default".
struct OpName {
  std::string ns;        // "aten", "prims", "operator", "torch", "math", ...
  std::string name;      // "add"
  std::string overload;  // "Tensor", "default"; empty for Python operators
  static OpName parse(const std::string& target);  // accepts with or without "torch.ops."
  std::string str() const;                          // "aten.add.Tensor"
  // Name in the ATen schema file: "aten::add.Tensor", "aten::convolution".
  std::string schema_name() const;
  bool operator==(const OpName&) const = default;
};

struct Node {
  std::string name;
  OpName target;
  std::vector<NamedArgument> inputs;  // full: schema defaults filled in
  std::vector<Argument> outputs;      // TensorRef / TensorList / SymInt / None
  std::map<std::string, std::string> metadata;

  // The argument named `name`, or nullptr.
  const Argument* input(const std::string& name) const;
  // "node 'addmm' (aten.addmm.default)": how every message names a node.
  std::string describe() const { return describe_node(name, target.str()); }
  static std::string describe_node(const std::string& name, const std::string& target) {
    return "node '" + name + "' (" + target + ")";
  }
};

enum class InputKind : std::uint8_t { UserInput, Parameter, Buffer, TensorConstant, ConstantInput };
const char* input_kind_name(InputKind kind);

struct InputSpec {
  InputKind kind = InputKind::UserInput;
  std::string value_name;   // name of the graph value (placeholder)
  std::string target;       // fqn of the parameter/buffer/constant; empty for user inputs
  bool persistent = true;   // buffers only
  Argument constant_value;  // ConstantInput only
};

// What a graph output is for (pt2_format.md §3.5). Mutations are the new value
// of a buffer, parameter or user input that the program updates in place.
enum class OutputKind : std::uint8_t {
  UserOutput, BufferMutation, UserInputMutation, ParameterMutation, LossOutput
};
const char* output_kind_name(OutputKind kind);

struct OutputSpec {
  Argument value;  // TensorRef, SymInt, None, or a constant
  OutputKind kind = OutputKind::UserOutput;
  std::string target{};  // mutations: the fqn or user input name updated; empty otherwise
  // The engine output's name (Graph::name_outputs); empty: the value's own name.
  std::string name{};
};

struct GraphSignature {
  std::vector<InputSpec> inputs;
  std::vector<OutputSpec> outputs;
};

class Graph {
 public:
  std::vector<Argument> inputs;   // 1:1 with signature.inputs
  std::vector<Argument> outputs;  // 1:1 with signature.outputs
  std::vector<Node> nodes;        // topological order
  std::map<std::string, TensorMeta> tensor_values;
  std::map<std::string, SymInt> sym_int_values;
  // Symbolic bool / float values: their expression ("Eq(s0, 4)") or constant ("True", "0.5"), as written.
  std::map<std::string, std::string> sym_bool_values;
  std::map<std::string, std::string> sym_float_values;
  GraphSignature signature;
  // Weights, buffers and lifted constants, by their fqn (signature target).
  std::map<std::string, Tensor> weights;
  // torch.export's range_constraints: the range of each size symbol ("s0").
  std::map<std::string, SymRange> range_constraints;

  // Whether any user input has a symbolic dim.
  bool has_dynamic_inputs() const;

  const TensorMeta* meta(const std::string& value_name) const;
  // The weight bound to a placeholder (parameter/buffer/constant), or nullptr.
  const Tensor* weight_for_value(const std::string& value_name) const;
  std::vector<const InputSpec*> user_inputs() const;
  // Checks that every value used is defined before use and names are unique;
  // throws FormatError naming the node and argument otherwise.
  void validate() const;
  // The same without the signature: for subgraphs of higher-order ops.
  void validate_body() const;
  // Names every output after what it is (docs/torch-versions.md): a user output
  // by its value; a buffer or parameter mutation by the fqn it updates
  // ("bn.running_mean"); a user-input mutation "<input>.mutated". A name that
  // an input, a node value or an earlier output already has gets ".mutated"
  // appended until it is free, so outputs never share a name with each other
  // or with the inputs. Set once when the program is read; passes keep it.
  void name_outputs();
  // The engine output's name of output k (signature name, else the value's).
  std::string output_name(std::size_t k) const;
};

// What the archive says about itself, for `inspect`.
struct ArchiveInfo {
  std::string layout;          // "pt2-archive (raw weights)", "pt2-archive (pickled weights)", "legacy zip"
  std::string root;            // root folder inside the zip ("" for legacy)
  std::string torch_version;   // producer
  std::int64_t schema_major = 0;
  std::int64_t schema_minor = 0;
  std::vector<std::string> verifiers;
};

// The example inputs an archive carries (data/sample_inputs/<model>.pt in
// torch >= 2.8, serialized_example_inputs.pt before): the tensor leaves of the
// `(args, kwargs)` torch.export was called with, in the order of the graph's
// tensor user inputs. A convenience for `run`/`bench`, never needed to compile.
struct SampleInputs {
  std::string entry;          // the zip entry they came from; empty when there is none
  std::vector<Tensor> tensors;
  std::string unavailable;    // why they cannot be used, naming the file and entry (empty when usable)
  bool usable() const { return !entry.empty() && unavailable.empty(); }
};

struct ExportedProgram {
  ArchiveInfo info;
  Graph graph;
  SampleInputs sample_inputs;
};

}  // namespace atenrt::ir
