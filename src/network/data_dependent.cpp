// Shape inference of the data-dependent layers (layers.h, DataDependentOp):
// their sizes when the input values are known, -1 otherwise.
#include "network/data_dependent.h"

#include <algorithm>
#include <array>

#include "ir/element.h"
#include "network/infer.h"

namespace atenrt::network {

std::string_view data_dependent_op_name(DataDependentOp op) {
  static constexpr std::array<std::string_view, kDataDependentOpCount> kNames = {
      "NonZero", "Unique", "UniqueConsecutive", "BinCount", "RepeatInterleave"};
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

namespace {

void expect_integral_1d(const InferContext& ctx, std::size_t i, const char* what) {
  const TensorDesc& t = ctx.in(i);
  if (t.dims.size() != 1 || is_floating(t.dtype) || t.dtype == DType::Bool) {
    ctx.fail(std::string(what) + " must be a 1-d integer tensor, got " + desc_to_string(t));
  }
}

// Values of a known 1-d integer input; negative ones are the caller's error.
std::vector<std::int64_t> integers(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<std::int64_t> v(static_cast<std::size_t>(c.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = ir::read_i64(c.raw_data() + i * element_size(c.dtype()), c.dtype());
  return v;
}

[[noreturn]] void input_error(const InferContext& ctx, const std::string& message) {
  throw InputError(layer_prefix(ctx.layer_name, ctx.kind) + message);
}

Descs unique(const InferContext& ctx, const DataDependentParams& p, bool consecutive) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& x = ctx.in(0);
  if (auto why = unique_dtype_problem(x.dtype)) ctx.fail(*why);
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  if (p.has_axis && rank == 0) ctx.fail("unique over a dim of a 0-d tensor");
  const std::int64_t axis = p.has_axis ? ctx.axis(p.axis, rank, "dim") : 0;
  if (p.has_axis && std::none_of(x.dims.begin(), x.dims.end(), [](std::int64_t d) { return d < 0; })) {
    // torch's checks on zero sizes over a dim (it raises at run time).
    const auto zeros = std::count(x.dims.begin(), x.dims.end(), 0);
    if (x.dims[static_cast<std::size_t>(axis)] == 0 && zeros > 1) {
      input_error(ctx, "unique over dim " + std::to_string(axis) + " of " + desc_to_string(x) +
                           ": more than one dim is 0 (torch raises)");
    }
    if (x.dims[static_cast<std::size_t>(axis)] != 0 && zeros > 0) {
      input_error(ctx, "unique over dim " + std::to_string(axis) + " of " + desc_to_string(x) +
                           ": another dim is 0 (torch raises)");
    }
  }
  std::int64_t n = kDynamicDim;
  if (const Tensor* v = ctx.value(0)) {
    n = static_cast<std::int64_t>(unique_groups(*v, p.has_axis, axis, consecutive, p.sorted).first.size());
  }
  Dims values{n};
  Dims inverse = x.dims;
  if (p.has_axis) {
    values = x.dims;
    values[static_cast<std::size_t>(axis)] = n;
    inverse = {x.dims[static_cast<std::size_t>(axis)]};
  }
  return {{x.dtype, values}, {DType::Int64, p.return_inverse ? inverse : Dims{0}}, {DType::Int64, p.return_counts ? Dims{n} : Dims{0}}};
}

// torch 1.13's bincount: int64 counts, or sums of the weights in float32 when
// they are float32 and in float64 otherwise (any weights dtype converted).
Descs bincount(const InferContext& ctx, const DataDependentParams& p) {
  ctx.expect_inputs(1, 2);
  expect_integral_1d(ctx, 0, "input");
  const TensorDesc& x = ctx.in(0);
  if (p.minlength < 0) ctx.fail("minlength " + std::to_string(p.minlength) + " is negative");
  DType out = DType::Int64;
  if (ctx.inputs.size() == 2) {
    const TensorDesc& w = ctx.in(1);
    if (w.dims.size() != 1) ctx.fail("weights must be 1-d, got " + desc_to_string(w));
    out = w.dtype == DType::Float32 ? DType::Float32 : DType::Float64;
    if (x.dims[0] == 0) {
      // The converter gives a static empty input no weights; this is a
      // dynamic one that came out empty.
      input_error(ctx, "bincount of an empty input with weights: torch 1.13 returns int64 zeros here, not the " +
                           std::string(dtype_name(out)) + " the engine was built for");
    }
    if (w.dims[0] >= 0 && x.dims[0] >= 0 && w.dims[0] != x.dims[0]) {
      input_error(ctx, "bincount weights " + desc_to_string(w) + " and input " + desc_to_string(x) + " differ in length");
    }
  }
  std::int64_t n = kDynamicDim;
  if (const Tensor* v = ctx.value(0)) {
    n = p.minlength;
    for (auto e : integers(*v)) {
      if (e < 0) input_error(ctx, "bincount of a negative value " + std::to_string(e) + " (torch needs non-negative inputs)");
      n = std::max(n, ctx.fit(__int128{e} + 1, "bincount size"));
    }
  }
  return {{out, {n}}};
}

// repeat_interleave(repeats): int32 or int64 repeats, the output in their dtype.
Descs repeat_interleave(const InferContext& ctx) {
  ctx.expect_inputs(1, 1);
  const TensorDesc& r = ctx.in(0);
  if (r.dims.size() != 1 || (r.dtype != DType::Int64 && r.dtype != DType::Int32)) {
    ctx.fail("repeats must be a 1-d int32 or int64 tensor, got " + desc_to_string(r));
  }
  std::int64_t n = kDynamicDim;
  if (const Tensor* v = ctx.value(0)) {
    __int128 sum = 0;
    for (auto e : integers(*v)) {
      if (e < 0) input_error(ctx, "repeat_interleave of a negative repeat " + std::to_string(e) + " (torch raises)");
      sum += e;
    }
    n = ctx.fit(sum, "repeat_interleave size");
  }
  return {{r.dtype, {n}}};
}

}  // namespace

Descs infer(const InferContext& ctx, const DataDependentParams& p) {
  switch (p.op) {
    case DataDependentOp::NonZero: {
      ctx.expect_inputs(1, 1);
      const TensorDesc& x = ctx.in(0);
      const Tensor* value = ctx.value(0);
      const std::int64_t n = value ? count_nonzero(*value) : kDynamicDim;
      return {{DType::Int64, {n, static_cast<std::int64_t>(x.dims.size())}}};
    }
    case DataDependentOp::Unique: return unique(ctx, p, false);
    case DataDependentOp::UniqueConsecutive: return unique(ctx, p, true);
    case DataDependentOp::BinCount: return bincount(ctx, p);
    case DataDependentOp::RepeatInterleave: return repeat_interleave(ctx);
  }
  ctx.fail("data-dependent op " + std::to_string(static_cast<int>(p.op)) + " out of range");
}

}  // namespace detail
}  // namespace atenrt::network
