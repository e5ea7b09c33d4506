// oneDNN as a kernel provider: its common refusals, which steps take or
// produce blocked layouts, and the reorder back to plain.
#include "runtime/cpu/onednn/post_ops.h"
#include "runtime/cpu/providers.h"

namespace atenrt::runtime::cpu {

using network::LayerKind;

namespace {

bool has_zero_dim(const KernelRequest& r) {
  for (const auto& op : r.inputs) {
    if (numel_of(op.tensor->dims) == 0) return true;
  }
  for (const auto* t : r.outputs) {
    if (numel_of(t->dims) == 0) return true;
  }
  return false;
}

bool activation_has_chain(const Step& step) {
  return onednn::eltwise_chain(std::get<network::ActivationParams>(step.params)).has_value();
}

// A concatenation along channels whose every input is a whole number of
// 16-channel blocks (the larger of oneDNN's AVX2 and AVX-512 blocks): the
// blocked result is the inputs' runs back to back (make_concatenation).
bool concat_of_whole_blocks(const Step& step, const Program& program) {
  const auto& out = program.tensors[step.outputs[0]];
  const auto rank = static_cast<std::int64_t>(out.dims.size());
  const auto axis = std::get<network::ConcatenationParams>(step.params).axis;
  if ((axis < 0 ? axis + rank : axis) != 1) return false;
  for (int in : step.inputs) {
    const auto& t = program.tensors[in];
    if (t.dtype != DType::Float32 || t.dims.size() != out.dims.size() || t.dims[1] % 16 != 0) return false;
  }
  return true;
}

// A copy to the same dtype (a one-input torch.cat): a reorder that keeps the layout.
bool same_dtype_cast(const Step& step, const Program& program) {
  return program.tensors[step.inputs[0]].dtype == program.tensors[step.outputs[0]].dtype;
}

}  // namespace

namespace onednn {

bool binary_in_layout(const Step& step) {
  if (step.kind() != LayerKind::Elementwise) return false;
  using E = network::ElementwiseOp;
  const auto op = std::get<network::ElementwiseParams>(step.params).op;
  return step.post_ops.empty() && (op == E::Add || op == E::Sub || op == E::Mul || op == E::Div);
}

KernelChoice call(MakeKernel make, const KernelRequest& r) {
  if (has_zero_dim(r)) return {};
  try {
    return make(r);
  } catch (const dnnl::error&) {
    // A case oneDNN refuses (e.g. an unsupported broadcast): the next provider takes it.
    return {};
  }
}

bool accepts_blocked(const Step& step, std::size_t input, const Program& program) {
  const auto& t = program.tensors[step.inputs[input]];
  if (t.dtype != DType::Float32 || t.dims.size() < 3 || t.dims.size() > 5) return false;
  switch (step.kind()) {
    case LayerKind::Convolution:
    case LayerKind::Deconvolution: {
      if (input == 0) return true;
      // residual operands copied into dst by a reorder (sum post-op)
      for (const auto& op : step.post_ops) {
        if (op.kind == PostOpKind::Add && op.operand == static_cast<int>(input)) {
          return t.dims == program.tensors[step.outputs[0]].dims;
        }
      }
      return false;
    }
    case LayerKind::Pooling: return input == 0;
    case LayerKind::Normalization: return input == 0 && step.is_batch_norm();
    case LayerKind::Concatenation: return concat_of_whole_blocks(step, program);
    case LayerKind::Cast: return same_dtype_cast(step, program);
    case LayerKind::Activation: return activation_has_chain(step);
    // A full-size operand of oneDNN's binary (make_binary): the result keeps
    // its layout, so a squeeze-excitation gate (x * sigmoid(...)) between two
    // convolutions costs no reorder to plain and back.
    case LayerKind::Elementwise: return binary_in_layout(step) && t.dims == program.tensors[step.outputs[0]].dims;
    case LayerKind::Reduce: {  // oneDNN's reduction (make_reduction) reads any layout
      using R = network::ReduceOp;
      const auto op = std::get<network::ReduceParams>(step.params).op;
      return op == R::Sum || op == R::Mean || op == R::Prod;
    }
    default: return false;
  }
}

bool may_produce_blocked(const Step& step, const Program& program) {
  const auto& t = program.tensors[step.outputs[0]];
  if (t.dtype != DType::Float32 || t.dims.size() < 3 || t.dims.size() > 5) return false;
  switch (step.kind()) {
    case LayerKind::Convolution:
    case LayerKind::Deconvolution:
    case LayerKind::Pooling: return true;
    case LayerKind::Normalization: return step.is_batch_norm();
    case LayerKind::Concatenation: return concat_of_whole_blocks(step, program);
    case LayerKind::Cast: return same_dtype_cast(step, program);
    case LayerKind::Activation: return activation_has_chain(step);
    case LayerKind::Elementwise: return binary_in_layout(step);
    default: return false;
  }
}

}  // namespace onednn

std::unique_ptr<Kernel> make_to_plain_kernel(const Layout& from, const ProgramTensor& tensor) {
  using namespace onednn;
  auto k = std::make_unique<PrimitiveKernel>();
  k->impl = "reorder";
  const int in = k->input(0, from.blocked->md), out = k->output(0, plain_md(tensor.dims, *to_dt(tensor.dtype)));
  if (const float scale = quant_scale(from); scale > 0.0f) {  // a quantized activation: q * scale
    k->dequantize(in, out, scale);
  } else {
    k->reorder(in, out);
  }
  return k;
}

}  // namespace atenrt::runtime::cpu
