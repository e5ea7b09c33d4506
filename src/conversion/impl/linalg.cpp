#include "conversion/impl/linalg.h"

namespace atenrt::conversion::impl::linalg {

Dims batch_of(const NetworkTensor* x, int core) {
  const auto rank = static_cast<std::int64_t>(x->dims.size());
  check(rank >= core, "linear algebra: an input of rank " + std::to_string(rank) + " has fewer than " +
                          std::to_string(core) + " matrix dims");
  return Dims(x->dims.begin(), x->dims.end() - core);
}

std::vector<NetworkTensor*> layer(const Scope& s, const network::LinalgParams& p, std::vector<Operand> inputs,
                                  Dims* batch_out) {
  Dims batch;
  for (const auto& in : inputs) {
    static_dims(in.x, "linear algebra needs static shapes");
    const auto b = network::broadcast_dims(batch, batch_of(in.x, in.core));
    check(b.has_value(), "linear algebra: batch dims " + shape_to_string(batch_of(in.x, in.core)) +
                             " do not broadcast with " + shape_to_string(batch));
    batch = *b;
  }
  std::vector<NetworkTensor*> xs;
  int i = 0;
  for (const auto& in : inputs) {
    const Scope c = s.child("in" + std::to_string(i++));
    NetworkTensor* x = cast(c, in.x, in.dtype);
    Dims want = batch;
    want.insert(want.end(), in.x->dims.end() - in.core, in.x->dims.end());
    if (x->dims != want) x = expand(c, x, want);
    xs.push_back(x);
  }
  if (batch_out) *batch_out = batch;
  return s.add_layer("", std::move(xs), p)->outputs;
}

NetworkTensor* unbroadcast(const Scope& s, NetworkTensor* y, const Dims& batch, const Dims& target) {
  if (batch == target) return y;
  const std::size_t extra = batch.size() - target.size();
  NetworkTensor* x = y;
  for (std::size_t d = 0; d < batch.size(); ++d) {
    const bool dropped = d < extra;
    if ((dropped || target[d - extra] == 1) && batch[d] != 1) {
      x = slice_axis(s.child("unbroadcast"), x, static_cast<std::int64_t>(d), 0, 1);
    }
  }
  Dims dims = target;
  dims.insert(dims.end(), y->dims.begin() + static_cast<std::ptrdiff_t>(batch.size()), y->dims.end());
  return reshape(s.child("unbroadcast"), x, dims);
}

NetworkTensor* eye(const Scope& s, std::int64_t n, std::int64_t m, DType dtype) {
  check(n >= 0 && m >= 0, "eye: negative size");
  // Row index == column index, from two iotas: no host-sized constant.
  network::FillParams rows{network::FillOp::Iota, DType::Int64, {n, 1}, 0.0, 1.0, 0};
  network::FillParams cols{network::FillOp::Iota, DType::Int64, {1, m}, 0.0, 1.0, 1};
  NetworkTensor* same = s.add_elementwise("diagonal", s.add_fill("rows", rows), s.add_fill("cols", cols),
                                          network::ElementwiseOp::Equal);
  return s.add_cast("", same, dtype);
}

}  // namespace atenrt::conversion::impl::linalg
