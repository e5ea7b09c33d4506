// Program checks (run on every engine, and on every loaded file).
#include "runtime/program.h"

#include <cmath>
#include <set>

#include "atenrt/errors.h"
#include "ir/checked_math.h"
#include "network/network.h"

namespace atenrt::runtime {

std::size_t tensor_bytes(const ProgramTensor& t) {
  const std::string what = "tensor '" + t.name + "' " + std::string(dtype_name(t.dtype)) + shape_to_string(t.dims);
  return static_cast<std::size_t>(checked::nbytes<Error>(t.dims, element_size(t.dtype), what));
}

std::size_t Step::layer_input_count() const {
  std::size_t extra = 0;
  for (const auto& op : post_ops) {
    if (op.kind == PostOpKind::Add) ++extra;
  }
  return extra > inputs.size() ? 0 : inputs.size() - extra;
}

namespace {

bool fusable_kind(network::LayerKind k) {
  return k == network::LayerKind::Convolution || k == network::LayerKind::Deconvolution ||
         k == network::LayerKind::MatMul;
}

// Batch norm takes activations only (the CPU backend's own pass applies them).
bool takes_post_op(const Step& step, PostOpKind op) {
  return fusable_kind(step.kind()) || (op == PostOpKind::Activation && step.is_batch_norm());
}

}  // namespace

void Program::normalize() {
  for (auto& step : steps) {
    std::vector<network::TensorDesc> descs;
    for (std::size_t i = 0; i < step.layer_input_count(); ++i) {
      const int id = step.inputs[i];
      if (id < 0 || id >= static_cast<int>(tensors.size())) return;  // validate() reports it
      descs.push_back({tensors[id].dtype, tensors[id].dims});
    }
    network::fill_param_defaults(step.params, descs);
  }
}

bool Step::is_batch_norm() const {
  const auto* norm = std::get_if<network::NormalizationParams>(&params);
  return norm && norm->op == network::NormalizationOp::Batch;
}

std::size_t quantized_channels(const Step& step, const Dims& weight_dims) {
  if (step.kind() == network::LayerKind::MatMul) {
    const auto& p = std::get<network::MatMulParams>(step.params);
    return static_cast<std::size_t>(weight_dims[p.transpose_b ? 0 : 1]);
  }
  return static_cast<std::size_t>(weight_dims[0]);
}

namespace {

// An Int8 step (program.h): a convolution or a matmul whose second input is
// a constant int8 matrix, with one positive finite scale per output channel.
void check_quantization(const Step& step, const std::vector<network::TensorDesc>& descs, const std::string& where) {
  auto fail = [&](const std::string& what) { throw FormatError("engine program: " + where + ": " + what); };
  const auto k = step.kind();
  if (k != network::LayerKind::Convolution && k != network::LayerKind::MatMul) {
    fail("int8 precision on a " + std::string(network::layer_kind_name(k)) + " step (only convolution and matmul)");
  }
  if (descs.size() < 2 || descs[1].dtype != DType::Int8 || descs[0].dtype != DType::Float32) {
    fail("an int8 step takes a float32 input and an int8 weight");
  }
  if (k == network::LayerKind::MatMul && descs[1].dims.size() != 2) fail("an int8 matmul's weight must be a matrix");
  if (descs[1].dims.empty()) fail("an int8 convolution's weight has no dims");
  auto good = [](float v) { return std::isfinite(v) && v > 0.0f; };
  if (!good(step.quant.input_scale)) fail("input scale " + std::to_string(step.quant.input_scale) + " is not positive and finite");
  if (step.quant.weight_scales.size() != quantized_channels(step, descs[1].dims)) {
    fail(std::to_string(step.quant.weight_scales.size()) + " weight scales for " +
         std::to_string(quantized_channels(step, descs[1].dims)) + " output channels");
  }
  for (float v : step.quant.weight_scales) {
    if (!good(v)) fail("a weight scale is not positive and finite");
  }
  if (step.quant.output_scale != 0.0f && !good(step.quant.output_scale)) {
    fail("output scale " + std::to_string(step.quant.output_scale) + " is neither 0 (none) nor positive and finite");
  }
}

}  // namespace

void Program::validate() const {
  const auto n = static_cast<int>(tensors.size());
  auto fail = [](const std::string& what) { throw FormatError("engine program: " + what); };
  auto check_id = [&](int id, const std::string& where) {
    if (id < 0 || id >= n) fail(where + ": tensor id " + std::to_string(id) + " out of range");
  };
  std::set<std::string> names;
  for (const auto& t : tensors) {
    if (t.name.empty() || !names.insert(t.name).second) {
      fail("tensor name '" + t.name + "' is empty or repeated");
    }
    for (auto d : t.dims) {
      if (d < 0) fail("tensor '" + t.name + "' has a dynamic or negative dim");
    }
    if (t.stored_packed && (t.role != TensorRole::Constant || t.value.defined() ||
                            (t.dtype != DType::Float32 && t.dtype != DType::Int8))) {
      fail("tensor '" + t.name + "' is marked stored-packed but is not a float32 or int8 constant without a plain value");
    }
    if (t.role == TensorRole::Constant && !t.stored_packed) {
      if (!t.value.defined() || t.value.dtype() != t.dtype || t.value.sizes() != t.dims ||
          !t.value.is_contiguous()) {
        fail("constant '" + t.name + "' value does not match its dtype/dims");
      }
    }
  }
  std::vector<bool> ready(tensors.size(), false);
  std::set<int> input_set;
  for (int id : inputs) {
    check_id(id, "input");
    if (tensors[id].role != TensorRole::Input || !input_set.insert(id).second) {
      fail("input '" + tensors[id].name + "' is not an input tensor or is listed twice");
    }
    ready[id] = true;
  }
  for (int i = 0; i < n; ++i) {
    if (tensors[i].role == TensorRole::Constant) ready[i] = true;
    if (tensors[i].role == TensorRole::Input && !input_set.count(i)) {
      fail("input tensor '" + tensors[i].name + "' is not bound");
    }
  }
  std::set<std::string> step_names;
  for (const auto& step : steps) {
    const std::string where = "step '" + step.name + "'";
    if (!step_names.insert(step.name).second) fail(where + ": name repeated");
    if (step.kind() == network::LayerKind::Constant) fail(where + ": constants are tensors, not steps");
    std::size_t adds = 0;
    for (const auto& op : step.post_ops) {
      if (!takes_post_op(step, op.kind)) fail(where + ": post-ops on a kind that takes none");
      if (op.kind == PostOpKind::Add) ++adds;
    }
    if (adds > step.inputs.size()) fail(where + ": more post-op operands than inputs");
    const std::size_t layer_inputs = step.inputs.size() - adds;
    for (const auto& op : step.post_ops) {
      if (op.kind == PostOpKind::Add &&
          (op.operand < static_cast<int>(layer_inputs) || op.operand >= static_cast<int>(step.inputs.size()))) {
        fail(where + ": post-op operand index out of range");
      }
    }
    std::vector<network::TensorDesc> descs;
    std::vector<const Tensor*> values;
    for (std::size_t i = 0; i < step.inputs.size(); ++i) {
      const int id = step.inputs[i];
      check_id(id, where);
      if (!ready[id]) fail(where + ": reads '" + tensors[id].name + "' before it is produced");
      if (i < layer_inputs) {
        descs.push_back({tensors[id].dtype, tensors[id].dims});
        values.push_back(tensors[id].role == TensorRole::Constant && tensors[id].value.defined() ? &tensors[id].value
                                                                                               : nullptr);
      }
    }
    if (step.precision == Precision::Int8) {
      check_quantization(step, descs, where);
      descs[1].dtype = DType::Float32;  // the layer sees the dequantized weight
      values[1] = nullptr;
    } else if (step.quant.input_scale != 0.0f || !step.quant.weight_scales.empty()) {
      fail(where + ": quantization scales on a step that is not int8");
    }
    std::vector<network::TensorDesc> out;
    try {
      out = network::infer_outputs(step.name, step.params, descs, values);
    } catch (const Error& e) {
      fail(where + ": " + e.what());
    }
    if (out.size() != step.outputs.size()) fail(where + ": wrong number of outputs");
    for (std::size_t i = 0; i < out.size(); ++i) {
      const int id = step.outputs[i];
      check_id(id, where);
      const auto& t = tensors[id];
      if (t.role != TensorRole::Activation || ready[id]) {
        fail(where + ": output '" + t.name + "' is not a fresh activation");
      }
      if (t.dtype != out[i].dtype || t.dims != out[i].dims) {
        fail(where + ": output '" + t.name + "' is " + network::desc_to_string({t.dtype, t.dims}) +
             " but the layer gives " + network::desc_to_string(out[i]));
      }
      ready[id] = true;
    }
    for (const auto& op : step.post_ops) {
      if (op.kind == PostOpKind::Add) {
        const auto& a = tensors[step.inputs[op.operand]];
        const auto& y = tensors[step.outputs[0]];
        auto b = network::broadcast_dims(a.dims, y.dims);
        if (!b || *b != y.dims || a.dtype != y.dtype) {
          fail(where + ": post-op add operand '" + a.name + "' does not broadcast to the output");
        }
      }
    }
  }
  for (int id : outputs) {
    check_id(id, "output");
    if (!ready[id]) fail("output '" + tensors[id].name + "' is never produced");
  }
}

}  // namespace atenrt::runtime
