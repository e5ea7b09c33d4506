// Kernels of the data-dependent layers (layers.h, DataDependentOp). At run
// time the stage runner (builder/stages.h) calls them on the host, with the
// output sizes shape inference found from the input values.
#include "ir/element.h"
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

}  // namespace

Outs kernel(const KernelContext& ctx, const DataDependentParams& p) {
  switch (p.op) {
    case DataDependentOp::NonZero: return nonzero(ctx);
  }
  ctx.fail("data-dependent op out of range");
}

}  // namespace atenrt::reference::detail
