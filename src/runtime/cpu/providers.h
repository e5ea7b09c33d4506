// The kernel providers of the CPU runtime, in the order the engine asks them
// (src/runtime/cpu/README.md). For each step the engine walks the table: the
// first provider with a maker for the step's layer kind whose maker returns
// a kernel wins. A provider that reads plain layouts only gets blocked inputs
// reordered to plain first (one extra ToPlain step per such input).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "runtime/cpu/kernel.h"

namespace atenrt::runtime::cpu {

// A maker: a kernel for the step, or no kernel when the case is not covered.
using MakeKernel = KernelChoice (*)(const KernelRequest&);

struct KindMaker {
  network::LayerKind kind;
  MakeKernel make;
};

struct KernelProvider {
  std::string_view name;  // "onednn", "own", "reference" (Kernel::implementation starts so)
  // What it leaves to the providers after it, and why.
  std::string_view declines;
  // Reads blocked inputs (oneDNN formats); false: plain row-major only.
  bool takes_blocked = false;
  // Used only when EngineOptions::allow_reference_kernels holds.
  bool last_resort = false;
  // One maker per layer kind it takes (several kinds may share one).
  std::vector<KindMaker> makers;
  // Calls a maker with the provider's common refusals (oneDNN: zero-size
  // tensors, and a case oneDNN throws on).
  KernelChoice (*call)(MakeKernel, const KernelRequest&) = nullptr;

  MakeKernel maker_for(network::LayerKind kind) const;
  KernelChoice make(const KernelRequest& r) const;  // no kernel: no maker, or it declined
};

std::span<const KernelProvider> kernel_providers();

// Blocked layouts between steps: whether a step's kernel may write its output
// blocked, and whether it reads input `input` blocked (oneDNN's formats; the
// engine keeps a tensor blocked only when its producer and every consumer
// agree).
bool may_produce_blocked(const Step& step, const Program& program);
bool accepts_blocked(const Step& step, std::size_t input, const Program& program);
// bf16 activations between steps. A blocked tensor is stored in bf16 when
// its producer may write bf16 (may_produce_bf16) and every reader reads it
// as it reads float32 (accepts_bf16), and either side computes in bf16
// anyway (computes_in_bf16): a bf16 convolution's result is only ~8 bits
// good already, and a reader that is one rounds its source to bf16. So an
// elementwise gate between two bf16 convolutions (EfficientNet's
// squeeze-excitation x * sigmoid(s)) reads and writes bf16, while two float32
// steps never trade through bf16 (and an elementwise step reads bf16 only
// where it writes bf16: Engine::Impl::output_forms). A reorder to plain
// float32 serves any other reader.
bool computes_in_bf16(const Step& step);
bool max_pooling(const Step& step);  // passes bf16 and int8 activations through
// An elementwise step or a max pooling: bf16 in only with bf16 out (oneDNN's
// jit binary wants src0 and dst of one type; a max pooling passes it through).
bool reads_bf16_only_to_write_it(const Step& step);
bool may_produce_bf16(const Step& step);
bool accepts_bf16(const Step& step, std::size_t input, const Program& program);
// A reorder of a blocked tensor into plain row-major (the ToPlain step).
std::unique_ptr<Kernel> make_to_plain_kernel(const Layout& from, const ProgramTensor& tensor);

// The providers' entry points (onednn/provider.cpp, own/provider.cpp, plugin_kernel.cpp,
// reference_kernel.cpp).
namespace onednn {
KernelChoice call(MakeKernel make, const KernelRequest& r);
bool may_produce_blocked(const Step& step, const Program& program);
bool accepts_blocked(const Step& step, std::size_t input, const Program& program);
// Elementwise steps make_binary runs through oneDNN's binary, in any layout.
bool binary_in_layout(const Step& step);
}  // namespace onednn
namespace own {
KernelChoice call(MakeKernel make, const KernelRequest& r);
}  // namespace own
KernelChoice make_reference_kernel(const KernelRequest& r);
KernelChoice make_plugin_kernel(const KernelRequest& r);  // plugin_kernel.cpp

}  // namespace atenrt::runtime::cpu
