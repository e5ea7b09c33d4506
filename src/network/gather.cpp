// Gather (index_select / torch.gather) and scatter.
#include "network/infer.h"

namespace atenrt::network::detail {

namespace {
void check_indices_dtype(const InferContext& ctx, std::size_t i) {
  const DType dt = ctx.in(i).dtype;
  if (dt != DType::Int64 && dt != DType::Int32) {
    ctx.fail("indices must be int64 or int32, got " + std::string(dtype_name(dt)));
  }
}
}  // namespace

Descs infer(const InferContext& ctx, const GatherParams& p) {
  ctx.expect_inputs(2, 2);
  const TensorDesc& data = ctx.in(0);
  const TensorDesc& idx = ctx.in(1);
  check_indices_dtype(ctx, 1);
  const auto rank = static_cast<std::int64_t>(data.dims.size());
  if (rank == 0) ctx.fail("data must have at least 1 dim");
  const std::int64_t axis = ctx.axis(p.axis, rank, "axis");
  if (p.mode == GatherMode::Axis) {
    Dims out(data.dims.begin(), data.dims.begin() + axis);
    out.insert(out.end(), idx.dims.begin(), idx.dims.end());
    out.insert(out.end(), data.dims.begin() + axis + 1, data.dims.end());
    if (data.dims[axis] == 0) ctx.fail("gather from an empty dim");
    return {{data.dtype, out}};
  }
  if (idx.dims.size() != data.dims.size()) {
    ctx.fail("indices " + dims_to_string(idx.dims) + " must have data's rank " + std::to_string(rank));
  }
  for (std::int64_t d = 0; d < rank; ++d) {
    // torch.gather: index.size(d) <= input.size(d) for d != dim.
    if (d != axis && idx.dims[d] >= 0 && data.dims[d] >= 0 && idx.dims[d] > data.dims[d]) {
      ctx.fail("indices " + dims_to_string(idx.dims) + " larger than data " + dims_to_string(data.dims) +
               " in dim " + std::to_string(d));
    }
  }
  return {{data.dtype, idx.dims}};
}

Descs infer(const InferContext& ctx, const ScatterParams& p) {
  ctx.expect_inputs(3, 3);
  const TensorDesc& data = ctx.in(0);
  const TensorDesc& idx = ctx.in(1);
  const TensorDesc& upd = ctx.in(2);
  check_indices_dtype(ctx, 1);
  const auto rank = static_cast<std::int64_t>(data.dims.size());
  if (rank == 0) ctx.fail("data must have at least 1 dim");
  const std::int64_t axis = ctx.axis(p.axis, rank, "axis");
  if (upd.dtype != data.dtype) {
    ctx.fail("updates are " + std::string(dtype_name(upd.dtype)) + " but data is " +
             std::string(dtype_name(data.dtype)));
  }
  if (idx.dims.size() != data.dims.size() || upd.dims.size() != data.dims.size()) {
    ctx.fail("indices " + dims_to_string(idx.dims) + " and updates " + dims_to_string(upd.dims) +
             " must have data's rank " + std::to_string(rank));
  }
  for (std::int64_t d = 0; d < rank; ++d) {
    if (idx.dims[d] < 0 || upd.dims[d] < 0) continue;
    if (idx.dims[d] > upd.dims[d] || (d != axis && data.dims[d] >= 0 && idx.dims[d] > data.dims[d])) {
      ctx.fail("indices " + dims_to_string(idx.dims) + " do not fit updates " + dims_to_string(upd.dims) +
               " and data " + dims_to_string(data.dims));
    }
  }
  if (p.reduce != ScatterReduce::None && data.dtype == DType::Bool) ctx.fail("reducing scatter does not take bool");
  return {data};
}

}  // namespace atenrt::network::detail
