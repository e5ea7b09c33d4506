#include "conversion/impl/converter_utils.h"

#include <algorithm>

#include "atenrt/errors.h"
#include "conversion/host_tensor.h"

namespace atenrt::conversion::impl {

namespace {
int float_rank(DType d) {
  switch (d) {
    case DType::Float16:
    case DType::BFloat16: return 1;
    case DType::Float32: return 2;
    default: return 3;  // Float64
  }
}
}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const bool fa = is_floating(a), fb = is_floating(b);
  if (fa && fb) {
    if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16)) {
      return DType::Float32;
    }
    return float_rank(a) >= float_rank(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integers.
  if (a == DType::UInt8 || b == DType::UInt8) {
    const DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return element_size(a) >= element_size(b) ? a : b;
}

DType scalar_dtype(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return DType::Bool;
    case Scalar::Kind::Int: return DType::Int64;
    case Scalar::Kind::Float: return DType::Float32;
  }
  return DType::Float32;
}

namespace {
std::optional<DType> promote_opt(std::optional<DType> a, DType b) {
  return a ? promote_types(*a, b) : b;
}
// c10's combine_categories: a lower-priority group only matters when it is
// of a higher category (bool < integer < floating).
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_floating(*higher)) return higher;
  if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
  return higher;
}
}  // namespace

DType result_type(std::span<const Operand> operands) {
  std::optional<DType> dim, zero, wrapped;
  for (const auto& o : operands) {
    if (o.is_scalar()) {
      wrapped = promote_opt(wrapped, scalar_dtype(*o.scalar));
    } else if (o.tensor->rank() == 0) {
      zero = promote_opt(zero, o.tensor->dtype);
    } else {
      dim = promote_opt(dim, o.tensor->dtype);
    }
  }
  auto r = combine(dim, combine(zero, wrapped));
  return r.value_or(DType::Float32);
}

DType result_type(const Operand& a, const Operand& b) {
  const Operand ops[2] = {a, b};
  return result_type(ops);
}

NetworkTensor* cast(const Scope& s, NetworkTensor* x, DType to) {
  if (x->dtype == to) return x;
  return s.add_cast("cast", x, to);
}

NetworkTensor* identity(const Scope& s, NetworkTensor* x) {
  return s.add_cast("", x, x->dtype);
}

NetworkTensor* scalar_constant(const Scope& s, double v, DType dtype, int rank) {
  Tensor t = scalar_tensor(dtype, v);
  if (rank > 0) {
    Tensor r(dtype, Dims(static_cast<std::size_t>(rank), 1));
    set_element(r, 0, v);
    t = r;
  }
  return s.add_constant("const", t);
}

NetworkTensor* scalar_constant(const Scope& s, const Scalar& v, DType dtype, int rank) {
  if (!is_floating(dtype) && dtype != DType::Bool) {
    Tensor t(dtype, Dims(static_cast<std::size_t>(rank), 1));
    if (v.is_float()) set_element(t, 0, v.f);
    else set_element_int(t, 0, v.i);
    return s.add_constant("const", t);
  }
  return scalar_constant(s, v.f, dtype, rank);
}

NetworkTensor* as_tensor(const Scope& s, const Operand& x, DType dtype) {
  if (x.is_scalar()) return scalar_constant(s, *x.scalar, dtype);
  return cast(s, x.tensor, dtype);
}

std::optional<std::string> dim_problem(std::int64_t dim, std::int64_t rank) {
  const std::int64_t r = std::max<std::int64_t>(rank, 1);
  if (dim >= -r && dim < r) return std::nullopt;
  return "dim " + std::to_string(dim) + " is out of range for a tensor of rank " + std::to_string(rank);
}

std::int64_t normalize_dim(std::int64_t dim, std::int64_t rank) {
  if (auto why = dim_problem(dim, rank)) throw UnsupportedError(*why);
  const std::int64_t r = std::max<std::int64_t>(rank, 1);
  return dim < 0 ? dim + r : dim;
}

std::optional<std::string> dims_problem(const std::vector<std::int64_t>& dims, std::int64_t rank) {
  const std::int64_t r = std::max<std::int64_t>(rank, 1);
  std::vector<std::int64_t> seen;
  for (auto d : dims) {
    if (auto why = dim_problem(d, rank)) return why;
    const auto n = d < 0 ? d + r : d;
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) {
      return "dim " + std::to_string(d) + " appears twice in " + shape_to_string(dims);
    }
    seen.push_back(n);
  }
  return std::nullopt;
}

Dims normalize_dims(const std::vector<std::int64_t>& dims, std::int64_t rank) {
  if (auto why = dims_problem(dims, rank)) throw UnsupportedError(*why);
  Dims out;
  for (auto d : dims) out.push_back(normalize_dim(d, rank));
  return out;
}

const Dims& static_dims(const NetworkTensor* x, std::string_view why) {
  if (!x->is_static()) {
    throw UnsupportedError(std::string(why) + " needs static dims, got " + network::desc_to_string(x->desc()));
  }
  return x->dims;
}

std::optional<Dims> per_spatial(std::vector<std::int64_t> v, std::size_t n) {
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  if (v.size() != n) return std::nullopt;
  return v;
}

std::int64_t numel(const Dims& dims) {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  return n;
}

NetworkTensor* reshape(const Scope& s, NetworkTensor* x, Dims dims) {
  if (x->dims == dims) return x;
  return s.add_reshape("reshape", x, std::move(dims));
}

NetworkTensor* permute(const Scope& s, NetworkTensor* x, Dims perm) {
  bool id = true;
  for (std::size_t i = 0; i < perm.size(); ++i) id = id && perm[i] == static_cast<std::int64_t>(i);
  if (id) return x;
  return s.add_permute("permute", x, std::move(perm));
}

NetworkTensor* unsqueeze(const Scope& s, NetworkTensor* x, std::int64_t dim) {
  const auto d = normalize_dim(dim, x->rank() + 1);
  Dims dims = x->dims;
  check(std::count(dims.begin(), dims.end(), network::kDynamicDim) <= 1, "unsqueeze needs at most one dynamic dim");
  dims.insert(dims.begin() + d, 1);
  return reshape(s, x, dims);
}

NetworkTensor* fill(const Scope& s, const Dims& dims, double value, DType dtype) {
  network::FillParams p;
  p.op = network::FillOp::Constant;
  p.dtype = dtype;
  p.dims = dims;
  p.value = value;
  return s.add_fill("fill", p);
}

NetworkTensor* expand(const Scope& s, NetworkTensor* x, const Dims& dims) {
  check(dims.size() >= x->dims.size(), "expand: target rank " + std::to_string(dims.size()) +
                                           " is below the input rank " + std::to_string(x->rank()));
  const std::size_t lead = dims.size() - x->dims.size();
  Dims target = dims;
  for (std::size_t i = 0; i < x->dims.size(); ++i) {
    const auto want = dims[lead + i];
    const auto have = x->dims[i];
    if (want == -1) {
      target[lead + i] = have;
    } else {
      check(have == want || have == 1, "expand: cannot expand dim " + std::to_string(i) + " of size " +
                                           std::to_string(have) + " to " + std::to_string(want));
    }
  }
  for (std::size_t i = 0; i < lead; ++i) check(target[i] >= 0, "expand: a new leading dim cannot be -1");
  if (target == x->dims) return x;
  // where(true[target], x, x) broadcasts x in any dtype without an extra kind.
  auto* cond = fill(s, target, 1.0, DType::Bool);
  return s.add_select("expand", cond, x, x);
}

NetworkTensor* slice_axis(const Scope& s, NetworkTensor* x, std::int64_t axis,
                     std::int64_t start, std::int64_t end, std::int64_t step) {
  return s.add_slice("slice", x, {axis}, {start}, {end}, {step});
}

NetworkTensor* concat(const Scope& s, std::vector<NetworkTensor*> xs, std::int64_t axis) {
  if (xs.size() == 1) return xs[0];
  return s.add_concatenation("concat", std::move(xs), axis);
}

NetworkTensor* ew(const Scope& s, NetworkTensor* a, NetworkTensor* b, network::ElementwiseOp op) {
  return s.add_elementwise(network::elementwise_op_name(op), a, b, op);
}

NetworkTensor* ew_scalar(const Scope& s, NetworkTensor* a, double value, network::ElementwiseOp op) {
  return ew(s, a, scalar_constant(s, value, a->dtype), op);
}

void check(bool ok, const std::string& message) {
  if (!ok) throw UnsupportedError(message);
}

}  // namespace atenrt::conversion::impl
