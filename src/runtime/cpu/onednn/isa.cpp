// The CPU as oneDNN sees it: engine files record and check it (bf16 compute
// needs avx512_core; weights are packed for one ISA), and the builder asks
// which reduced precisions have fast kernels here.
#include "runtime/cpu/isa.h"
#include "runtime/cpu/onednn/compat.h"

namespace atenrt::runtime::cpu {

std::string cpu_isa_name() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx: return "avx";
    case dnnl::cpu_isa::sse41: return "sse41";
    default: return "other";
  }
}

namespace {

using dt = dnnl::memory::data_type;

// The implementation oneDNN picks for a ResNet-like 3x3 convolution and a
// linear layer with these operand types ("" when it makes none): a `ref`
// implementation is the slow loop nest, not a kernel worth choosing.
bool has_fast_kernels(dt src, dt weights) {
  using tag = dnnl::memory::format_tag;
  const dnnl::primitive_attr attr;
  const auto conv = onednn::compat::convolution(
      false, onednn::compat::md_t({1, 64, 14, 14}, src, tag::any), onednn::compat::md_t({64, 64, 3, 3}, weights, tag::any),
      nullptr, onednn::compat::md_t({1, 64, 14, 14}, dt::f32, tag::any), {1, 1}, {0, 0}, {1, 1}, {1, 1}, attr);
  const auto mm = onednn::compat::matmul(onednn::compat::md_t({16, 256}, src, tag::ab),
                                         onednn::compat::md_t({256, 256}, weights, tag::any),
                                         onednn::compat::md_t({16, 256}, dt::f32, tag::ab), attr);
  auto fast = [](const onednn::compat::Primitive& p) { return p.ok && p.impl.find("ref") == std::string::npos; };
  return fast(conv) && fast(mm);
}

std::string no_kernels(const char* precision) {
  return std::string(precision) + " requested but this CPU (" + cpu_isa_name() + ") has no native " + precision +
         " kernels: layers stay fp32";
}

}  // namespace

std::string precision_unavailable(Precision precision) {
  // oneDNN reads its ISA limit once per process: so can we.
  static const std::string bf16 = [] {
    // oneDNN 2.6 makes no bf16 primitive below avx512_core, and on
    // avx512_core emulates the bf16 dot product (slower than f32): only
    // CPUs with bf16 instructions (avx512_bf16, AMX) gain from it.
    const auto isa = dnnl::get_effective_cpu_isa();
    const bool instructions = isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
    return instructions && has_fast_kernels(dt::bf16, dt::bf16) ? std::string() : no_kernels("bf16");
  }();
  // u8·s8 has jit kernels from sse41 up (avx2: vpmaddubsw; VNNI and AMX faster).
  static const std::string int8 = has_fast_kernels(dt::u8, dt::s8) ? std::string() : no_kernels("int8");
  switch (precision) {
    case Precision::BFloat16: return bf16;
    case Precision::Int8: return int8;
    case Precision::Float32: break;
  }
  return {};
}

namespace {
std::optional<bool> int8_override;
}  // namespace

bool cpu_has_int8_dot_product() {
  if (int8_override) return *int8_override;
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::avx512_core_amx:
    case dnnl::cpu_isa::avx512_core_bf16:
    case dnnl::cpu_isa::avx512_core_vnni:
    case dnnl::cpu_isa::avx2_vnni:
      return true;
    default:
      return false;
  }
}

Int8Exactness int8_exactness() {
  if (cpu_has_int8_dot_product()) return {};
  return {kInt8WeightLimitWithoutDotProduct, false};
}

void override_int8_dot_product_for_tests(std::optional<bool> has) { int8_override = has; }

}  // namespace atenrt::runtime::cpu
