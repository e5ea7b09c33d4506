#include "conversion/impl/slice.h"

#include "conversion/impl/select.h"

#include <algorithm>
#include <limits>

#include "conversion/host_tensor.h"
#include "conversion/impl/shape.h"

namespace atenrt::conversion::impl::slice {

std::optional<std::string> step_problem(std::int64_t step) {
  if (step > 0) return std::nullopt;
  return "slice step must be positive, got " + std::to_string(step);
}

std::optional<std::string> pad_problem(const std::vector<std::int64_t>& pad, std::int64_t rank) {
  if (pad.size() % 2 != 0) return "pad list " + shape_to_string(pad) + " must have an even length";
  if (rank >= 0 && pad.size() / 2 > static_cast<std::size_t>(rank)) {
    return "pad list " + shape_to_string(pad) + " is longer than twice the rank " + std::to_string(rank);
  }
  return std::nullopt;
}

std::optional<std::string> roll_problem(const std::vector<std::int64_t>& shifts, const std::vector<std::int64_t>& dims) {
  if (dims.empty() && shifts.size() != 1) return "roll without dims takes one shift";
  if (!dims.empty() && shifts.size() != dims.size()) return "roll needs one shift per dim";
  return std::nullopt;
}

std::optional<std::string> split_size_problem(std::int64_t split_size, std::int64_t dim_size) {
  if (split_size > 0 || (split_size == 0 && dim_size == 0)) return std::nullopt;
  return "split size must be positive";
}

std::optional<std::string> chunks_problem(std::int64_t chunks) {
  if (chunks > 0) return std::nullopt;
  return "chunk count must be positive";
}

std::optional<std::string> split_sizes_problem(const std::vector<std::int64_t>& sizes, std::int64_t dim_size) {
  std::int64_t total = 0;
  for (auto size : sizes) {
    if (size < 0) return "split sizes must be non-negative";
    total += size;
  }
  if (dim_size >= 0 && total != dim_size) {
    return "split sizes " + shape_to_string(sizes) + " do not add up to dim size " + std::to_string(dim_size);
  }
  return std::nullopt;
}

namespace {
void refuse_if(const std::optional<std::string>& why) {
  if (why) check(false, *why);
}
}  // namespace

namespace {
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max() / 4;
}

NetworkTensor* slice(const Scope& s, NetworkTensor* x, std::int64_t dim,
                     std::optional<std::int64_t> start, std::optional<std::int64_t> end, std::int64_t step) {
  refuse_if(step_problem(step));
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  const auto b = start.value_or(0);
  const auto e = std::min(end.value_or(kMax), kMax);
  if (n >= 0 && step == 1) {
    // A whole-dim slice is the tensor itself.
    const auto nb = b < 0 ? std::max<std::int64_t>(b + n, 0) : std::min(b, n);
    const auto ne = e < 0 ? std::max<std::int64_t>(e + n, 0) : std::min(e, n);
    if (nb == 0 && ne == n) return x;
  }
  return s.add_slice("", x, {d}, {b}, {e}, {step});
}

NetworkTensor* slice_dynamic(const Scope& s, NetworkTensor* x, std::int64_t dim, const Value& start, const Value& end,
                             std::int64_t step) {
  using Op = network::ElementwiseOp;
  refuse_if(step_problem(step));
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  NetworkTensor* size = nullptr;
  if (n >= 0) {
    size = scalar_constant(s, static_cast<double>(n), DType::Int64);
  } else {
    Tensor at(DType::Int64, {1});
    at.mutable_data<std::int64_t>()[0] = d;
    size = s.add_reshape("size", select::index_select(s, s.add_shape("shape", x), 0, s.constant(at, "dim")), {});
  }
  auto bound = [&](const Value& v, const char* what, bool is_end) -> NetworkTensor* {
    if (v.is_none()) return is_end ? size : scalar_constant(s, 0.0, DType::Int64);
    NetworkTensor* b = nullptr;
    if (v.is_int()) {
      b = scalar_constant(s, static_cast<double>(v.as_int()), DType::Int64);
    } else {
      check(v.is_network_tensor() && v.network_tensor()->rank() == 0 && is_integral(v.network_tensor()->dtype),
            std::string("slice ") + what + " is " + v.describe() + ", not an integer");
      b = cast(s, v.network_tensor(), DType::Int64);
    }
    // Python: a negative bound counts from the end; then clamped to [0, size].
    auto* negative = cast(s, ew_scalar(s, b, 0.0, Op::Less), DType::Int64);
    b = ew(s, b, ew(s, negative, size, Op::Mul), Op::Add);
    return ew(s, ew_scalar(s, b, 0.0, Op::Max), size, Op::Min);
  };
  NetworkTensor* b = bound(start, "start", false);
  NetworkTensor* e = bound(end, "end", true);
  // max(ceil((e - b) / step), 0) = max(-floor((b - e) / step), 0).
  auto* count = ew_scalar(s, ew_scalar(s, ew(s, b, e, Op::Sub), static_cast<double>(step), Op::FloorDiv), -1.0, Op::Mul);
  count = ew_scalar(s, count, 0.0, Op::Max);
  network::FillParams p;
  p.op = network::FillOp::Iota;
  p.dtype = DType::Int64;
  p.value = 0.0;
  p.delta = static_cast<double>(step);
  auto* index = ew(s, s.add_fill("index", p, s.add_reshape("count", count, {1})), b, Op::Add);
  return select::index_select(s, x, d, index);
}

std::vector<NetworkTensor*> split_with_sizes(const Scope& s,
                                             NetworkTensor* x, std::vector<std::int64_t> sizes, std::int64_t dim) {
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  refuse_if(split_sizes_problem(sizes, n));
  std::vector<NetworkTensor*> out;
  std::int64_t at = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    out.push_back(slice(s.child(std::to_string(i)), x, d, at, at + sizes[i], 1));
    at += sizes[i];
  }
  return out;
}

std::vector<NetworkTensor*> split(const Scope& s, NetworkTensor* x, std::int64_t size, std::int64_t dim) {
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  check(n >= 0, "split needs a static size on the split dim");
  refuse_if(split_size_problem(size, n));
  std::vector<std::int64_t> sizes;
  if (n == 0) sizes.push_back(0);
  for (std::int64_t at = 0; at < n; at += size) sizes.push_back(std::min(size, n - at));
  return split_with_sizes(s, x, sizes, d);
}

std::vector<NetworkTensor*> chunk(const Scope& s, NetworkTensor* x, std::int64_t chunks, std::int64_t dim) {
  refuse_if(chunks_problem(chunks));
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  check(n >= 0, "chunk needs a static size on the split dim");
  const auto size = std::max<std::int64_t>(1, (n + chunks - 1) / chunks);
  return split(s, x, size, d);
}

std::vector<NetworkTensor*> unbind(const Scope& s, NetworkTensor* x, std::int64_t dim) {
  const auto d = normalize_dim(dim, x->rank());
  const auto n = x->dims[static_cast<std::size_t>(d)];
  check(n >= 0, "unbind needs a static size on the dim");
  std::vector<NetworkTensor*> out;
  for (std::int64_t i = 0; i < n; ++i) {
    const Scope part = s.child(std::to_string(i));
    auto* row = slice(part, x, d, i, i + 1, 1);
    out.push_back(shape::squeeze(part, row, {d}, false));
  }
  return out;
}

NetworkTensor* cat(const Scope& s, std::vector<NetworkTensor*> xs, std::int64_t dim) {
  check(!xs.empty(), "cat of an empty list");
  std::vector<Operand> ops;
  for (auto* x : xs) ops.push_back({x, std::nullopt});
  const DType dt = result_type(ops);
  std::vector<NetworkTensor*> kept;
  for (auto* x : xs) {
    // torch.cat skips 1-d empty tensors (legacy behaviour).
    if (x->rank() == 1 && x->dims[0] == 0 && xs.size() > 1) continue;
    kept.push_back(cast(s, x, dt));
  }
  if (kept.empty()) kept.push_back(cast(s, xs[0], dt));
  const auto d = normalize_dim(dim, kept[0]->rank());
  if (kept.size() == 1) return kept[0] == xs[0] ? identity(s, kept[0]) : kept[0];
  return s.add_concatenation("", kept, d);
}

NetworkTensor* stack(const Scope& s, std::vector<NetworkTensor*> xs, std::int64_t dim) {
  check(!xs.empty(), "stack of an empty list");
  const auto d = normalize_dim(dim, xs[0]->rank() + 1);
  std::vector<NetworkTensor*> parts;
  for (auto* x : xs) parts.push_back(shape::unsqueeze(s.child("unsqueeze"), x, d));
  return cat(s, parts, d);
}

NetworkTensor* pad(const Scope& s, NetworkTensor* x,
                   std::vector<std::int64_t> pad, network::PaddingMode mode, double value) {
  refuse_if(pad_problem(pad, x->rank()));
  network::PaddingParams p;
  p.mode = mode;
  p.value = value;
  p.pre.assign(static_cast<std::size_t>(x->rank()), 0);
  p.post.assign(static_cast<std::size_t>(x->rank()), 0);
  for (std::size_t i = 0; i < pad.size() / 2; ++i) {
    const std::size_t d = static_cast<std::size_t>(x->rank()) - 1 - i;
    p.pre[d] = pad[2 * i];
    p.post[d] = pad[2 * i + 1];
  }
  if (x->dtype == DType::Bool) p.value = value != 0.0 ? 1.0 : 0.0;
  return s.add_padding("", x, p);
}

NetworkTensor* flip(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims) {
  if (x->rank() == 0) return identity(s, x);
  const Dims axes = normalize_dims(dims, x->rank());
  if (axes.empty()) return identity(s, x);
  Dims starts(axes.size(), -1), ends(axes.size(), -kMax), steps(axes.size(), -1);
  return s.add_slice("", x, axes, starts, ends, steps);
}

NetworkTensor* roll(const Scope& s, NetworkTensor* x,
                    std::vector<std::int64_t> shifts, std::vector<std::int64_t> dims) {
  if (dims.empty()) {
    refuse_if(roll_problem(shifts, dims));
    const Dims& d = static_dims(x, "roll");
    auto* flat = reshape(s, x, {numel(d)});
    auto* r = roll(s.child("flat"), flat, shifts, {0});
    return s.add_reshape("", r, d);
  }
  refuse_if(roll_problem(shifts, dims));
  NetworkTensor* y = x;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const auto d = normalize_dim(dims[i], x->rank());
    const auto n = x->dims[static_cast<std::size_t>(d)];
    check(n >= 0, "roll needs a static size on the rolled dim");
    if (n == 0) continue;
    const auto shift = ((shifts[i] % n) + n) % n;
    if (shift == 0) continue;
    const Scope part = s.child(std::to_string(i));
    auto* tail = slice(part.child("tail"), y, d, n - shift, n, 1);
    auto* head = slice(part.child("head"), y, d, 0, n - shift, 1);
    y = (i + 1 == dims.size() ? s : part).add_concatenation("", {tail, head}, d);
  }
  return y == x ? identity(s, x) : y;
}

NetworkTensor* slice_scatter(const Scope& s, NetworkTensor* x,
                             NetworkTensor* src, std::int64_t dim, std::optional<std::int64_t> start,
                             std::optional<std::int64_t> end, std::int64_t step) {
  refuse_if(step_problem(step));
  const Dims& xd = static_dims(x, "slice_scatter");
  const Dims& sd = static_dims(src, "slice_scatter");
  const auto d = normalize_dim(dim, x->rank());
  const auto n = xd[static_cast<std::size_t>(d)];
  auto first = start.value_or(0);
  if (first < 0) first += n;
  first = std::clamp<std::int64_t>(first, 0, n);
  // indices[p] = start + p[d] * step, shaped like src.
  const auto total = numel(sd);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(total));
  std::int64_t inner = 1;
  for (auto k = d + 1; k < src->rank(); ++k) inner *= sd[static_cast<std::size_t>(k)];
  const auto len = sd[static_cast<std::size_t>(d)];
  for (std::int64_t f = 0; f < total; ++f) idx[static_cast<std::size_t>(f)] = first + ((f / inner) % len) * step;
  (void)end;
  auto* indices = s.add_constant("indices", int64_tensor(sd, idx));
  return s.add_scatter("", x, indices, cast(s, src, x->dtype), d);
}

namespace {
// Gathers x's row-major elements at `flat` (a host int64 tensor of the output shape).
NetworkTensor* gather_flat(const Scope& s, NetworkTensor* x, const Tensor& flat) {
  const Dims& d = static_dims(x, "strided view");
  auto* data = reshape(s, x, {numel(d)});
  auto* idx = s.add_constant("indices", flat);
  return s.add_gather("", data, idx, network::GatherMode::Axis, 0);
}
}  // namespace

NetworkTensor* diagonal(const Scope& s, NetworkTensor* x, std::int64_t offset,
                        std::int64_t dim1, std::int64_t dim2) {
  const auto d1 = normalize_dim(dim1, x->rank());
  const auto d2 = normalize_dim(dim2, x->rank());
  check(d1 != d2, "diagonal dims must differ");
  const Dims& xd = static_dims(x, "diagonal");
  const auto a = xd[static_cast<std::size_t>(d1)], b = xd[static_cast<std::size_t>(d2)];
  const std::int64_t len = offset >= 0 ? std::max<std::int64_t>(0, std::min(a, b - offset))
                                       : std::max<std::int64_t>(0, std::min(a + offset, b));
  // Output dims: x's other dims in order, then the diagonal.
  Dims out;
  std::vector<std::int64_t> others;
  for (std::int64_t k = 0; k < x->rank(); ++k) {
    if (k != d1 && k != d2) {
      others.push_back(k);
      out.push_back(xd[static_cast<std::size_t>(k)]);
    }
  }
  out.push_back(len);
  const Dims strides = contiguous_strides(xd);
  std::vector<std::int64_t> flat(static_cast<std::size_t>(numel(out)));
  const auto rows_start = offset >= 0 ? 0 : -offset;
  const auto cols_start = offset >= 0 ? offset : 0;
  for (std::int64_t f = 0; f < static_cast<std::int64_t>(flat.size()); ++f) {
    std::int64_t rem = f, pos = 0;
    const auto i = rem % std::max<std::int64_t>(len, 1);
    rem /= std::max<std::int64_t>(len, 1);
    for (auto k = static_cast<std::int64_t>(others.size()) - 1; k >= 0; --k) {
      const auto od = xd[static_cast<std::size_t>(others[static_cast<std::size_t>(k)])];
      pos += (rem % od) * strides[static_cast<std::size_t>(others[static_cast<std::size_t>(k)])];
      rem /= od;
    }
    pos += (rows_start + i) * strides[static_cast<std::size_t>(d1)] + (cols_start + i) * strides[static_cast<std::size_t>(d2)];
    flat[static_cast<std::size_t>(f)] = pos;
  }
  check(numel(out) > 0, "diagonal with an empty result is not supported");
  return gather_flat(s, x, int64_tensor(out, flat));
}

NetworkTensor* as_strided(const Scope& s, NetworkTensor* x,
                          std::vector<std::int64_t> size, std::vector<std::int64_t> stride, std::int64_t offset) {
  check(size.size() == stride.size(), "as_strided size and stride lengths differ");
  const auto total = numel(static_dims(x, "as_strided"));
  const auto n = numel(size);
  check(n > 0, "as_strided with an empty result is not supported");
  std::vector<std::int64_t> flat(static_cast<std::size_t>(n));
  for (std::int64_t f = 0; f < n; ++f) {
    std::int64_t rem = f, pos = offset;
    for (auto k = static_cast<std::int64_t>(size.size()) - 1; k >= 0; --k) {
      pos += (rem % size[static_cast<std::size_t>(k)]) * stride[static_cast<std::size_t>(k)];
      rem /= size[static_cast<std::size_t>(k)];
    }
    check(pos >= 0 && pos < total, "as_strided reaches element " + std::to_string(pos) + " of a tensor of " +
                                       std::to_string(total));
    flat[static_cast<std::size_t>(f)] = pos;
  }
  return gather_flat(s, x, int64_tensor(size, flat));
}

}  // namespace atenrt::conversion::impl::slice
