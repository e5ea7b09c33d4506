// Kernels of the data-dependent layers (layers.h, DataDependentOp). At run
// time the stage runner (builder/stages.h) calls them on the host, with the
// output sizes shape inference found from the input values.
#include <cstring>

#include "ir/element.h"
#include "network/data_dependent.h"
#include "reference/kernels.h"

namespace atenrt::reference::detail {

namespace {

Outs nonzero(const KernelContext& ctx) {
  const Tensor x = ctx.in(0).contiguous();
  const Dims& dims = x.sizes();
  const auto rank = dims.size();
  Tensor out(DType::Int64, ctx.out().dims);
  std::int64_t* o = out.mutable_data<std::int64_t>();
  const std::byte* p = x.raw_data();
  const std::size_t size = element_size(x.dtype());
  Dims index(rank, 0);  // row-major position of element i
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    if (ir::read_f64(p + static_cast<std::size_t>(i) * size, x.dtype()) != 0.0) {
      for (std::size_t d = 0; d < rank; ++d) *o++ = index[d];
    }
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
  return {out};
}

Outs unique(const KernelContext& ctx, const DataDependentParams& p, bool consecutive) {
  const Tensor x = ctx.in(0).contiguous();
  const auto rank = static_cast<std::int64_t>(x.sizes().size());
  const std::int64_t axis = p.has_axis ? (p.axis < 0 ? p.axis + rank : p.axis) : 0;
  const network::UniqueGroups g = network::unique_groups(x, p.has_axis, axis, consecutive, p.sorted);
  Tensor values(x.dtype(), ctx.out(0).dims), inverse(DType::Int64, ctx.out(1).dims), counts(DType::Int64, ctx.out(2).dims);
  // A slice is `inner` elements in each of `outer` blocks.
  std::int64_t outer = 1, inner = 1, count = x.numel();
  if (p.has_axis) {
    count = x.sizes()[static_cast<std::size_t>(axis)];
    for (std::int64_t i = 0; i < axis; ++i) outer *= x.sizes()[static_cast<std::size_t>(i)];
    for (std::int64_t i = axis + 1; i < rank; ++i) inner *= x.sizes()[static_cast<std::size_t>(i)];
  }
  const auto groups = static_cast<std::int64_t>(g.first.size());
  const std::size_t row = static_cast<std::size_t>(inner) * element_size(x.dtype());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t k = 0; k < groups; ++k) {
      std::memcpy(values.raw_mutable_data() + static_cast<std::size_t>(o * groups + k) * row,
                  x.raw_data() + static_cast<std::size_t>(o * count + g.first[static_cast<std::size_t>(k)]) * row, row);
    }
  }
  // memcpy of nothing would still need valid pointers.
  if (p.return_inverse && !g.group_of.empty()) std::memcpy(inverse.raw_mutable_data(), g.group_of.data(), g.group_of.size() * sizeof(std::int64_t));
  if (p.return_counts && !g.counts.empty()) std::memcpy(counts.raw_mutable_data(), g.counts.data(), g.counts.size() * sizeof(std::int64_t));
  return {values, inverse, counts};
}

Outs bincount(const KernelContext& ctx) {
  const std::vector<std::int64_t> x = load_i64(ctx.in(0));
  const auto n = static_cast<std::size_t>(ctx.out().dims[0]);
  if (ctx.inputs.size() == 1) {
    std::vector<std::int64_t> bins(n, 0);
    for (auto v : x) ++bins[static_cast<std::size_t>(v)];
    return {make_i64(DType::Int64, ctx.out().dims, bins)};
  }
  // Summed in input order in the output's dtype (float32 or float64), as
  // torch; a float32 sum through double rounds as float32 addition does.
  const std::vector<double> w = load_f64(ctx.in(1));
  const DType dt = ctx.out().dtype;
  Tensor out(dt, ctx.out().dims);
  std::byte* o = out.raw_mutable_data();
  for (std::size_t i = 0; i < n; ++i) ir::write_f64(o + i * element_size(dt), dt, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::byte* bin = o + static_cast<std::size_t>(x[i]) * element_size(dt);
    ir::write_f64(bin, dt, ir::read_f64(bin, dt) + w[i]);
  }
  return {out};
}

Outs repeat_interleave(const KernelContext& ctx) {
  const std::vector<std::int64_t> repeats = load_i64(ctx.in(0));
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(ctx.out().dims[0]));
  for (std::size_t i = 0; i < repeats.size(); ++i) out.insert(out.end(), static_cast<std::size_t>(repeats[i]), static_cast<std::int64_t>(i));
  return {make_i64(ctx.out().dtype, ctx.out().dims, out)};
}

}  // namespace

Outs kernel(const KernelContext& ctx, const DataDependentParams& p) {
  switch (p.op) {
    case DataDependentOp::NonZero: return nonzero(ctx);
    case DataDependentOp::Unique: return unique(ctx, p, false);
    case DataDependentOp::UniqueConsecutive: return unique(ctx, p, true);
    case DataDependentOp::BinCount: return bincount(ctx);
    case DataDependentOp::RepeatInterleave: return repeat_interleave(ctx);
  }
  ctx.fail("data-dependent op out of range");
}

}  // namespace atenrt::reference::detail
