// Matrix multiply: torch.matmul semantics plus transposes.
#include "network/infer.h"

namespace atenrt::network::detail {

namespace {
bool same_or_dynamic(std::int64_t a, std::int64_t b) { return a == b || a < 0 || b < 0; }
}  // namespace

Descs infer(const InferContext& ctx, const MatMulParams& p) {
  ctx.expect_inputs(2, 2);
  const TensorDesc& a = ctx.in(0);
  const TensorDesc& b = ctx.in(1);
  if (a.dtype != b.dtype) {
    ctx.fail("inputs must have one dtype, got " + std::string(dtype_name(a.dtype)) + " and " +
             std::string(dtype_name(b.dtype)));
  }
  if (a.dtype == DType::Bool) ctx.fail("does not take bool inputs");
  if (a.dims.empty() || b.dims.empty()) ctx.fail("inputs must have at least 1 dim");
  if ((p.transpose_a && a.dims.size() < 2) || (p.transpose_b && b.dims.size() < 2)) {
    ctx.fail("a transposed operand must have at least 2 dims");
  }
  // View 1-d operands as matrices: a as [1, K], b as [K, 1].
  const Dims am = a.dims.size() == 1 ? Dims{1, a.dims[0]} : a.dims;
  const Dims bm = b.dims.size() == 1 ? Dims{b.dims[0], 1} : b.dims;
  const std::size_t ra = am.size(), rb = bm.size();
  const std::int64_t m = p.transpose_a ? am[ra - 1] : am[ra - 2];
  const std::int64_t ka = p.transpose_a ? am[ra - 2] : am[ra - 1];
  const std::int64_t kb = p.transpose_b ? bm[rb - 1] : bm[rb - 2];
  const std::int64_t n = p.transpose_b ? bm[rb - 2] : bm[rb - 1];
  if (!same_or_dynamic(ka, kb)) {
    ctx.fail("inner dims differ: " + dims_to_string(a.dims) + (p.transpose_a ? "ᵀ" : "") + " x " +
             dims_to_string(b.dims) + (p.transpose_b ? "ᵀ" : ""));
  }
  const Dims batch_a(am.begin(), am.end() - 2);
  const Dims batch_b(bm.begin(), bm.end() - 2);
  auto batch = broadcast_dims(batch_a, batch_b);
  if (!batch) {
    ctx.fail("batch dims " + dims_to_string(batch_a) + " and " + dims_to_string(batch_b) +
             " do not broadcast");
  }
  Dims out = *batch;
  if (a.dims.size() > 1) out.push_back(m);
  if (b.dims.size() > 1) out.push_back(n);
  return {{a.dtype, out}};
}

}  // namespace atenrt::network::detail
