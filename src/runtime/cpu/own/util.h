// Helpers shared by our own kernels: element access by dtype and strided copies.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "atenrt/dtype.h"
#include "ir/element.h"
#include "runtime/cpu/kernel.h"

namespace atenrt::runtime::cpu::own {

// Whether our kernels can read/write this dtype as numbers (not f16/bf16).
bool numeric(DType d);
// Element i of a buffer of dtype d, through the ground floor's conversion
// (ir/element.h: float -> int as torch does on x86).
inline double load_f(DType d, const void* base, std::int64_t i) {
  return ir::read_f64(static_cast<const std::byte*>(base) + i * static_cast<std::int64_t>(element_size(d)), d);
}
inline std::int64_t load_i(DType d, const void* base, std::int64_t i) {
  return ir::read_i64(static_cast<const std::byte*>(base) + i * static_cast<std::int64_t>(element_size(d)), d);
}
inline void store_f(DType d, void* base, std::int64_t i, double v) {
  ir::write_f64(static_cast<std::byte*>(base) + i * static_cast<std::int64_t>(element_size(d)), d, v);
}
inline void store_i(DType d, void* base, std::int64_t i, std::int64_t v) {
  ir::write_i64(static_cast<std::byte*>(base) + i * static_cast<std::int64_t>(element_size(d)), d, v);
}

// Copies an N-d view (dims, src strides in elements, may be negative) into a
// contiguous destination, element by element of `elem` bytes.
void strided_copy(void* dst, const void* src, const Dims& dims, const Dims& src_strides,
                  std::size_t elem);
Dims contiguous(const Dims& dims);
// Strides of `dims` (right-aligned into `out_dims`) with 0 where broadcast.
Dims broadcast_strides(const Dims& dims, const Dims& out_dims);

// A kernel made of one function over the step's buffers.
// `scratch` bytes of the context's scratch are the function's (a.scratch).
template <typename F>
class FnKernel final : public Kernel {
 public:
  FnKernel(F f, std::size_t scratch) : f_(std::move(f)), scratch_(scratch) {}
  void run(KernelState*, const KernelArgs& a) const override { f_(a); }
  std::size_t scratch_bytes() const override { return scratch_; }
  std::string implementation() const override { return "own"; }

 private:
  F f_;
  std::size_t scratch_;
};
template <typename F>
std::unique_ptr<Kernel> fn_kernel(F f, std::size_t scratch = 0) {
  return std::make_unique<FnKernel<F>>(std::move(f), scratch);
}

// y = act(x) over n floats with torch semantics (NaN kept by relu/clip);
// x may equal y. Also the tail of conv/matmul post-ops oneDNN gets wrong.
// Runs on the engine's threads (own/parallel.h).
void apply_activation(const network::ActivationParams& p, const float* x, float* y, std::int64_t n);
// The same on the calling thread, for callers that split the work themselves.
void apply_activation_here(const network::ActivationParams& p, const float* x, float* y, std::int64_t n);
// Elements per thread worth a parallel region for this activation.
std::int64_t activation_grain(const network::ActivationParams& p);

// Inference batch norm of x [N, C, *spatial] (inputs: x, gamma, beta, mean,
// var) as torch computes it, y = x * s + t per channel with s = gamma /
// sqrt(var + eps) and t = beta - mean * s, then the step's fused activations
// (post-ops), applied to each run of the result while it is in cache. x is
// in channel blocks of in_block (1: plain NCHW), y in blocks of out_block
// (in_block or 1); padded channels of a blocked y are written zero. A
// channels-last x is one block of all C channels.
// (layers.cpp)
std::unique_ptr<Kernel> make_batch_norm(const KernelRequest& r, std::int64_t in_block, std::int64_t out_block);

// Family makers (math.cpp, data.cpp); null when not covered.
std::unique_ptr<Kernel> make_math_kernel(const KernelRequest& r);
std::unique_ptr<Kernel> make_data_kernel(const KernelRequest& r);
// A concatenation as runs of bytes: per index of the dims before the axis,
// each input's run in turn, whatever the layouts say. The caller vouches that
// this is the concatenation: plain tensors (make_data_kernel), or channel-
// blocked ones of whole blocks along channels (onednn/concat.cpp). With
// channels_last (axis 1 of tensors stored [N, *spatial, C]) the runs are per
// pixel.
std::unique_ptr<Kernel> make_concatenation_runs(const KernelRequest& r, bool channels_last = false);
// A Shuffle step; a reshape (no permutation) offers its input's buffer as its
// output's (KernelChoice::in_place_input): where the engine takes the offer,
// the copy is skipped, e.g. the views around a transformer's linear layers.
KernelChoice make_shuffle(const KernelRequest& r);
std::unique_ptr<Kernel> make_reduce_kernel(const KernelRequest& r);  // reduce.cpp
std::unique_ptr<Kernel> make_layer_kernel(const KernelRequest& r);   // layers.cpp
std::unique_ptr<Kernel> make_linalg_kernel(const KernelRequest& r);  // linalg.cpp: LAPACK

}  // namespace atenrt::runtime::cpu::own
