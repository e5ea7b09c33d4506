// The table of kernel providers: the one place where a new kernel joins.
#include "runtime/cpu/providers.h"

#include "runtime/cpu/onednn/makers.h"
#include "runtime/cpu/own/util.h"

namespace atenrt::runtime::cpu {

using network::LayerKind;

namespace {

// A maker of whole kernels (plain outputs) as a provider maker.
template <std::unique_ptr<Kernel> (*F)(const KernelRequest&)>
KernelChoice plain_outputs(const KernelRequest& r) {
  KernelChoice c;
  c.kernel = F(r);
  c.output_layouts.resize(r.outputs.size());
  return c;
}

KernelChoice call_directly(MakeKernel make, const KernelRequest& r) { return make(r); }

std::vector<KindMaker> every_kind(MakeKernel make) {
  std::vector<KindMaker> out;
  for (int k = 0; k < network::kLayerKindCount; ++k) out.push_back({static_cast<LayerKind>(k), make});
  return out;
}

std::vector<KernelProvider> make_table() {
  std::vector<KernelProvider> table;
  table.push_back({
      "onednn",
      "non-f32 tensors (bf16 only as conv/matmul compute and f32<->bf16 casts); zero-size tensors; "
      "what oneDNN 2.6 gets wrong on NaN (max/min binary and reductions, relu with slope 0, clip, "
      "hardsigmoid, softplus); what it computes less exactly than PyTorch (mish below -10, log-softmax: "
      "its log(1) is not 0); group/instance norm; layer norm of one-element rows (PyTorch's rounding); "
      "cases it has no primitive for",
      /*takes_blocked=*/true,
      /*last_resort=*/false,
      {
          {LayerKind::Convolution, onednn::make_convolution},
          {LayerKind::Deconvolution, onednn::make_deconvolution},
          {LayerKind::MatMul, onednn::make_matmul},
          {LayerKind::Pooling, onednn::make_pooling},
          {LayerKind::Activation, onednn::make_activation},
          {LayerKind::Elementwise, onednn::make_binary},
          {LayerKind::Softmax, onednn::make_softmax},
          {LayerKind::Normalization, onednn::make_normalization},
          {LayerKind::Reduce, onednn::make_reduction},
          {LayerKind::Cast, onednn::make_cast},
          {LayerKind::Concatenation, onednn::make_concatenation},
      },
      onednn::call,
  });
  table.push_back({
      "own",
      "steps with fused post-ops; float16/bfloat16 data; conv, deconv, matmul, pooling, softmax (not log), "
      "scatter; integer division and pow; gather in Elements mode (torch.gather)",
      /*takes_blocked=*/false,
      /*last_resort=*/false,
      {
          {LayerKind::Reduce, plain_outputs<own::make_reduce_kernel>},
          {LayerKind::Normalization, plain_outputs<own::make_layer_kernel>},
          {LayerKind::Resize, plain_outputs<own::make_layer_kernel>},
          {LayerKind::Cumulative, plain_outputs<own::make_layer_kernel>},
          {LayerKind::TopK, plain_outputs<own::make_layer_kernel>},
          {LayerKind::Softmax, plain_outputs<own::make_layer_kernel>},
          {LayerKind::LinearAlgebra, plain_outputs<own::make_linalg_kernel>},
          {LayerKind::Elementwise, plain_outputs<own::make_math_kernel>},
          {LayerKind::Unary, plain_outputs<own::make_math_kernel>},
          {LayerKind::Activation, plain_outputs<own::make_math_kernel>},
          {LayerKind::Select, plain_outputs<own::make_math_kernel>},
          {LayerKind::Shuffle, own::make_shuffle},
          {LayerKind::Slice, plain_outputs<own::make_data_kernel>},
          {LayerKind::Concatenation, plain_outputs<own::make_data_kernel>},
          {LayerKind::Gather, plain_outputs<own::make_data_kernel>},
          {LayerKind::Cast, plain_outputs<own::make_data_kernel>},
          {LayerKind::Shape, plain_outputs<own::make_data_kernel>},
          {LayerKind::Fill, plain_outputs<own::make_data_kernel>},
          {LayerKind::Padding, plain_outputs<own::make_data_kernel>},
          {LayerKind::Check, plain_outputs<own::make_data_kernel>},
      },
      own::call,
  });
  table.push_back({
      "plugin",
      "steps with post-ops (never fused into a plugin layer; only a hand-made file has them)",
      /*takes_blocked=*/false,
      /*last_resort=*/false,
      {{LayerKind::Plugin, make_plugin_kernel}},
      call_directly,
  });
  table.push_back({
      "reference",
      "nothing: every layer kind, every dtype, every post-op; it allocates on every run, so an "
      "engine built with allow_reference_kernels off refuses a step that needs it",
      /*takes_blocked=*/false,
      /*last_resort=*/true,
      every_kind(make_reference_kernel),
      call_directly,
  });
  return table;
}

}  // namespace

MakeKernel KernelProvider::maker_for(LayerKind kind) const {
  for (const auto& m : makers) {
    if (m.kind == kind) return m.make;
  }
  return nullptr;
}

KernelChoice KernelProvider::make(const KernelRequest& r) const {
  const MakeKernel m = maker_for(r.step->kind());
  if (!m) return {};
  return call(m, r);
}

std::span<const KernelProvider> kernel_providers() {
  static const std::vector<KernelProvider> table = make_table();
  return table;
}

bool may_produce_blocked(const Step& step, const Program& program) {
  return onednn::may_produce_blocked(step, program);
}

bool accepts_blocked(const Step& step, std::size_t input, const Program& program) {
  return onednn::accepts_blocked(step, input, program);
}

bool computes_in_bf16(const Step& step) {
  return step.kind() == network::LayerKind::Convolution && step.precision == Precision::BFloat16;
}

bool max_pooling(const Step& step) {
  return step.kind() == network::LayerKind::Pooling &&
         std::get<network::PoolingParams>(step.params).op == network::PoolingOp::Max;
}

bool reads_bf16_only_to_write_it(const Step& step) {
  return step.kind() == network::LayerKind::Elementwise || max_pooling(step);
}

bool may_produce_bf16(const Step& step) {
  return computes_in_bf16(step) || onednn::binary_in_layout(step) || max_pooling(step);
}

bool accepts_bf16(const Step& step, std::size_t input, const Program& program) {
  if (!onednn::accepts_blocked(step, input, program)) return false;
  // A bf16 convolution's source or residual; oneDNN's binary and reduction
  // read any data type they are given; a max pooling passes bf16 through.
  return computes_in_bf16(step) || step.kind() == network::LayerKind::Elementwise ||
         step.kind() == network::LayerKind::Reduce || (max_pooling(step) && input == 0);
}

}  // namespace atenrt::runtime::cpu
