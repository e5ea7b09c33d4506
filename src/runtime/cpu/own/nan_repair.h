// NaN-exact repairs: our own passes that run after a oneDNN primitive and redo
// the rare cases where oneDNN 2.6 parts from PyTorch on NaN and ±inf. Each
// first checks, with one read of the input, whether anything needs redoing.
#pragma once

#include <cstdint>

#include "atenrt/dtype.h"
#include "network/layers.h"

namespace atenrt::runtime::cpu::own {

using network::Dims;

// Logical index → element offset in a buffer of a blocked (or plain) layout:
// outer strides per dim, then inner blocks (row-major, outermost first).
class BlockedIndex {
 public:
  static constexpr int kMaxRank = 12;
  struct Block {
    int dim = 0;
    std::int64_t size = 1;
  };
  BlockedIndex(int rank, std::int64_t offset0, const std::int64_t* strides, int nblocks, const Block* blocks);
  std::int64_t operator()(const std::int64_t* idx) const;

 private:
  int rank_ = 0, nblks_ = 0;
  std::int64_t offset0_ = 0;
  std::int64_t strides_[kMaxRank] = {}, block_[kMaxRank] = {}, blks_[kMaxRank] = {};
  int idxs_[kMaxRank] = {};
};

// The windows of a max pooling as oneDNN got them (dilation as oneDNN's d-1).
struct MaxPoolWindows {
  Dims in, out, kernel, stride, pre, dil;
};

// oneDNN's max pooling drops NaN and starts from -FLT_MAX: exact unless the
// input (n floats) holds NaN or -inf; then every window is redone as torch
// (the first NaN in a window wins, else the largest; padding never counts).
void repair_max_pool(const MaxPoolWindows& w, const float* x, const BlockedIndex& xi, std::int64_t n, float* y,
                     const BlockedIndex& yi);
// The same over bf16 values (a max pooling passing bf16 activations through).
void repair_max_pool_bf16(const MaxPoolWindows& w, const std::uint16_t* x, const BlockedIndex& xi, std::int64_t n,
                          std::uint16_t* y, const BlockedIndex& yi);

// oneDNN's softmax keeps a row's other entries when the row holds NaN or
// +inf; torch makes such a row (its max NaN or +inf) all NaN. x, y: [outer,
// len, inner] around the softmax axis.
void repair_softmax(const float* x, float* y, std::int64_t outer, std::int64_t len, std::int64_t inner);

}  // namespace atenrt::runtime::cpu::own
