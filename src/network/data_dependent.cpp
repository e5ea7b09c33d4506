// Shape inference of the data-dependent layers (layers.h, DataDependentOp):
// their sizes when the input values are known, -1 otherwise.
#include "network/data_dependent.h"

#include <array>

#include "ir/element.h"
#include "network/infer.h"

namespace atenrt::network {

std::string_view data_dependent_op_name(DataDependentOp op) {
  static constexpr std::array<std::string_view, kDataDependentOpCount> kNames = {"NonZero"};
  const auto i = static_cast<std::size_t>(op);
  return i < kNames.size() ? kNames[i] : "?";
}

std::int64_t count_nonzero(const Tensor& t) {
  const Tensor c = t.contiguous();
  const std::byte* p = c.raw_data();
  const std::size_t size = element_size(c.dtype());
  std::int64_t n = 0;
  // As torch: NaN is non-zero, -0.0 is zero.
  for (std::int64_t i = 0; i < c.numel(); ++i) n += ir::read_f64(p + static_cast<std::size_t>(i) * size, c.dtype()) != 0.0;
  return n;
}

namespace detail {

Descs infer(const InferContext& ctx, const DataDependentParams& p) {
  switch (p.op) {
    case DataDependentOp::NonZero: {
      ctx.expect_inputs(1, 1);
      const TensorDesc& x = ctx.in(0);
      const Tensor* value = ctx.value(0);
      const std::int64_t n = value ? count_nonzero(*value) : kDynamicDim;
      return {{DType::Int64, {n, static_cast<std::int64_t>(x.dims.size())}}};
    }
  }
  ctx.fail("data-dependent op " + std::to_string(static_cast<int>(p.op)) + " out of range");
}

}  // namespace detail
}  // namespace atenrt::network
