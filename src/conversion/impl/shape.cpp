#include "conversion/impl/shape.h"

#include <algorithm>

#include "conversion/host_tensor.h"

namespace atenrt::conversion::impl::shape {

std::optional<std::string> reshape_size_problem(const std::vector<std::int64_t>& size) {
  if (std::count(size.begin(), size.end(), -1) <= 1) return std::nullopt;
  return "reshape size " + shape_to_string(size) + " has more than one -1";
}

std::optional<std::string> permute_problem(const std::vector<std::int64_t>& dims, std::int64_t rank) {
  if (rank < 0) return std::nullopt;
  if (static_cast<std::int64_t>(dims.size()) != rank) {
    return "permute dims " + shape_to_string(dims) + " do not match rank " + std::to_string(rank);
  }
  return rank == 0 ? std::nullopt : dims_problem(dims, rank);
}

std::optional<std::string> flatten_problem(std::int64_t start_dim, std::int64_t end_dim, std::int64_t rank) {
  if (rank <= 0) return std::nullopt;
  if (auto why = dim_problem(start_dim, rank)) return why;
  if (auto why = dim_problem(end_dim, rank)) return why;
  const auto first = start_dim < 0 ? start_dim + rank : start_dim;
  const auto last = end_dim < 0 ? end_dim + rank : end_dim;
  if (first <= last) return std::nullopt;
  return "flatten start_dim " + std::to_string(start_dim) + " is after end_dim " + std::to_string(end_dim);
}

std::optional<std::string> pixel_shuffle_problem(const std::vector<std::int64_t>& d, std::int64_t r, bool inverse) {
  const char* op = inverse ? "pixel_unshuffle" : "pixel_shuffle";
  if (d.size() < 3) return std::string(op) + " needs at least 3 dims";
  if (r < 1) return std::string(op) + " factor must be positive";
  const std::size_t b = d.size() - 3;
  const auto c = d[b], h = d[b + 1], w = d[b + 2];
  if (!inverse && (r > 3037000499 || c % (r * r) != 0)) {  // r * r past int64: no dim is that large
    return "pixel_shuffle channels " + std::to_string(c) + " not divisible by " + std::to_string(r) + "^2";
  }
  if (inverse && (h % r != 0 || w % r != 0)) {
    return "pixel_unshuffle spatial dims not divisible by " + std::to_string(r);
  }
  return std::nullopt;
}

NetworkTensor* reshape(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> size) {
  if (auto why = reshape_size_problem(size)) check(false, *why);
  if (x->dims == size) return x;
  return s.add_reshape("", x, std::move(size));
}

namespace {
// A size element known only at run time (a 0-d integer network tensor) as int64 [1].
NetworkTensor* run_time_size(const Scope& s, const Value& e, std::size_t k, const char* op) {
  const std::string what = std::string(op) + " size element " + std::to_string(k) + " is " + e.describe();
  check(e.is_network_tensor(), what + ", not an int");
  NetworkTensor* t = e.network_tensor();
  check(t->rank() == 0 && is_integral(t->dtype), what + ", not an integer scalar");
  if (t->dtype != DType::Int64) t = s.add_cast("size_cast_" + std::to_string(k), t, DType::Int64);
  return s.add_reshape("size_" + std::to_string(k), t, {1});
}
}  // namespace

NetworkTensor* reshape_dynamic(const Scope& s, NetworkTensor* x, const std::vector<Value>& size) {
  std::vector<NetworkTensor*> pieces;
  std::int64_t inferred = 0;
  // The sizes given as ints are known now: layers downstream (unbind, split, matmul) may need them.
  network::ShuffleParams params;
  for (std::size_t k = 0; k < size.size(); ++k) {
    const Value& e = size[k];
    params.reshape_dims.push_back(e.is_int() && e.as_int() >= 0 ? e.as_int() : -1);
    if (e.is_int()) {
      inferred += e.as_int() == -1;
      pieces.push_back(s.constant(int64_tensor({1}, {e.as_int()}), "size_" + std::to_string(k)));
      continue;
    }
    pieces.push_back(run_time_size(s, e, k, "reshape"));
  }
  check(inferred <= 1, "reshape size has more than one -1");
  NetworkTensor* shape = pieces.size() == 1 ? pieces[0] : s.add_concatenation("size", pieces, 0);
  return s.add_shuffle("", x, params, shape);
}

NetworkTensor* permute(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims) {
  if (auto why = permute_problem(dims, x->rank())) check(false, *why);
  if (x->rank() == 0) return x;
  return s.add_permute("", x, normalize_dims(dims, x->rank()));
}

NetworkTensor* transpose(const Scope& s, NetworkTensor* x, std::int64_t dim0, std::int64_t dim1) {
  if (x->rank() == 0) {
    normalize_dim(dim0, 0);
    normalize_dim(dim1, 0);
    return x;
  }
  std::vector<std::int64_t> perm(static_cast<std::size_t>(x->rank()));
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
  std::swap(perm[static_cast<std::size_t>(normalize_dim(dim0, x->rank()))],
            perm[static_cast<std::size_t>(normalize_dim(dim1, x->rank()))]);
  return permute(s, x, perm);
}

namespace {
// A reshape whose dim k is x's dim from[k] (1 where from[k] is -1): squeeze and unsqueeze. With
// more than one dynamic dim a plain reshape cannot say which is which, so the dynamic dims are
// read from x's shape at run time.
NetworkTensor* keep_dims(const Scope& s, NetworkTensor* x, const std::vector<std::int64_t>& from) {
  std::vector<std::int64_t> dims;
  for (auto f : from) dims.push_back(f < 0 ? 1 : x->dims[static_cast<std::size_t>(f)]);
  if (std::count(dims.begin(), dims.end(), -1) <= 1) return reshape(s, x, dims);
  NetworkTensor* x_shape = s.add_shape("x_shape", x);
  std::vector<Value> size;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] >= 0) {
      size.emplace_back(dims[k]);
      continue;
    }
    auto* at = s.constant(int64_tensor({}, {from[k]}), "dim_" + std::to_string(k));
    size.emplace_back(s.add_gather("dim_" + std::to_string(k), x_shape, at, network::GatherMode::Axis, 0));
  }
  return reshape_dynamic(s, x, size);
}
}  // namespace

NetworkTensor* unsqueeze(const Scope& s, NetworkTensor* x, std::int64_t dim) {
  const auto d = normalize_dim(dim, x->rank() + 1);
  std::vector<std::int64_t> from(static_cast<std::size_t>(x->rank()));
  for (std::size_t k = 0; k < from.size(); ++k) from[k] = static_cast<std::int64_t>(k);
  from.insert(from.begin() + d, -1);
  return keep_dims(s, x, from);
}

NetworkTensor* squeeze(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims, bool all) {
  std::vector<bool> drop(static_cast<std::size_t>(x->rank()), false);
  if (all) {
    for (std::size_t d = 0; d < drop.size(); ++d) drop[d] = x->dims[d] == 1;
  } else if (x->rank() > 0) {
    for (auto d : normalize_dims(dims, x->rank())) drop[static_cast<std::size_t>(d)] = x->dims[static_cast<std::size_t>(d)] == 1;
  } else {
    for (auto d : dims) normalize_dim(d, 0);
  }
  std::vector<std::int64_t> from;
  for (std::size_t d = 0; d < drop.size(); ++d) {
    if (!drop[d]) from.push_back(static_cast<std::int64_t>(d));
  }
  return keep_dims(s, x, from);
}

NetworkTensor* flatten(const Scope& s, NetworkTensor* x, std::int64_t start_dim, std::int64_t end_dim) {
  if (x->rank() == 0) return reshape(s, x, {1});
  if (auto why = flatten_problem(start_dim, end_dim, x->rank())) check(false, *why);
  const auto first = normalize_dim(start_dim, x->rank());
  const auto e = normalize_dim(end_dim, x->rank());
  std::vector<std::int64_t> out(x->dims.begin(), x->dims.begin() + first);
  std::int64_t n = 1;
  for (auto d = first; d <= e; ++d) {
    const auto v = x->dims[static_cast<std::size_t>(d)];
    n = (n < 0 || v < 0) ? -1 : n * v;
  }
  out.push_back(n);
  out.insert(out.end(), x->dims.begin() + e + 1, x->dims.end());
  return reshape(s, x, out);
}

NetworkTensor* unflatten(const Scope& s, NetworkTensor* x,
                         std::int64_t dim, std::vector<std::int64_t> sizes) {
  const auto d = normalize_dim(dim, x->rank());
  std::vector<std::int64_t> out(x->dims.begin(), x->dims.begin() + d);
  out.insert(out.end(), sizes.begin(), sizes.end());
  out.insert(out.end(), x->dims.begin() + d + 1, x->dims.end());
  return reshape(s, x, out);
}

NetworkTensor* expand(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> size) {
  auto* y = impl::expand(s, x, size);
  return y;
}

NetworkTensor* expand_dynamic(const Scope& s, NetworkTensor* x, const std::vector<Value>& size) {
  check(size.size() >= x->dims.size(), "expand: target rank " + std::to_string(size.size()) +
                                           " is below the input rank " + std::to_string(x->rank()));
  const std::size_t lead = size.size() - x->dims.size();
  NetworkTensor* x_shape = nullptr;
  std::vector<NetworkTensor*> pieces;
  for (std::size_t k = 0; k < size.size(); ++k) {
    const Value& e = size[k];
    const std::string name = "size_" + std::to_string(k);
    if (!e.is_int()) {
      pieces.push_back(run_time_size(s, e, k, "expand"));
      continue;
    }
    std::int64_t n = e.as_int();
    if (n == -1) {
      check(k >= lead, "expand: a new leading dim cannot be -1");
      n = x->dims[k - lead];
      if (n < 0) {  // x's own dim, known at run time
        if (!x_shape) x_shape = s.add_shape("x_shape", x);
        auto* at = s.constant(int64_tensor({1}, {static_cast<std::int64_t>(k - lead)}), name + "_dim");
        pieces.push_back(s.add_gather(name, x_shape, at, network::GatherMode::Axis, 0));
        continue;
      }
    }
    check(n >= 0, "expand: size element " + std::to_string(k) + " is negative (" + std::to_string(n) + ")");
    pieces.push_back(s.constant(int64_tensor({1}, {n}), name));
  }
  network::FillParams p;
  p.dtype = DType::Bool;
  p.value = 1.0;
  auto* cond = s.add_fill("cond", p, pieces.size() == 1 ? pieces[0] : s.add_concatenation("size", pieces, 0));
  // where(true[size], x, x) broadcasts x (the shapes are checked when the engine is specialized).
  return s.add_select("expand", cond, x, x);
}

NetworkTensor* repeat(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> repeats) {
  check(repeats.size() >= static_cast<std::size_t>(x->rank()),
        "repeat needs at least as many repeats as dims (" + std::to_string(x->rank()) + ")");
  std::vector<std::int64_t> dims(repeats.size() - static_cast<std::size_t>(x->rank()), 1);
  const Dims& xd = static_dims(x, "repeat");
  dims.insert(dims.end(), xd.begin(), xd.end());
  // [1, d0, 1, d1, ...] → expand to [r0, d0, r1, d1, ...] → [r0*d0, r1*d1, ...]
  std::vector<std::int64_t> inter, target, out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    inter.push_back(1);
    inter.push_back(dims[i]);
    target.push_back(repeats[i]);
    target.push_back(dims[i]);
    out.push_back(repeats[i] * dims[i]);
  }
  if (out.empty()) return x;
  auto* r = impl::reshape(s, x, inter);
  auto* e = impl::expand(s, r, target);
  return reshape(s, e, out);
}

NetworkTensor* tile(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> dims) {
  while (dims.size() < static_cast<std::size_t>(x->rank())) dims.insert(dims.begin(), 1);
  return repeat(s, x, dims);
}

NetworkTensor* pixel_shuffle(const Scope& s, NetworkTensor* x, std::int64_t r, bool inverse) {
  check(x->rank() >= 3, "pixel_shuffle needs at least 3 dims");
  const Dims& d = static_dims(x, "pixel_shuffle");
  if (auto why = pixel_shuffle_problem(d, r, inverse)) check(false, *why);
  const std::size_t b = d.size() - 3;
  const Dims batch(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(b));
  const auto c = d[b], h = d[b + 1], w = d[b + 2];
  auto with_batch = [&](std::vector<std::int64_t> tail) {
    std::vector<std::int64_t> v = batch;
    v.insert(v.end(), tail.begin(), tail.end());
    return v;
  };
  auto perm_with_batch = [&](std::vector<std::int64_t> tail) {
    std::vector<std::int64_t> v;
    for (std::size_t i = 0; i < b; ++i) v.push_back(static_cast<std::int64_t>(i));
    for (auto t : tail) v.push_back(t + static_cast<std::int64_t>(b));
    return v;
  };
  if (!inverse) {
    const auto oc = c / (r * r);
    auto* a = impl::reshape(s, x, with_batch({oc, r, r, h, w}));
    auto* p = impl::permute(s, a, perm_with_batch({0, 3, 1, 4, 2}));
    return reshape(s, p, with_batch({oc, h * r, w * r}));
  }
  auto* a = impl::reshape(s, x, with_batch({c, h / r, r, w / r, r}));
  auto* p = impl::permute(s, a, perm_with_batch({0, 2, 4, 1, 3}));
  return reshape(s, p, with_batch({c * r * r, h / r, w / r}));
}

NetworkTensor* broadcast_in_dim(const Scope& s, NetworkTensor* x,
                                std::vector<std::int64_t> shape, std::vector<std::int64_t> bdims) {
  check(bdims.size() == static_cast<std::size_t>(x->rank()),
        "broadcast_in_dim needs one broadcast dimension per input dim");
  std::vector<std::int64_t> inter(shape.size(), 1);
  for (std::size_t i = 0; i < bdims.size(); ++i) {
    const auto d = normalize_dim(bdims[i], static_cast<std::int64_t>(shape.size()));
    inter[static_cast<std::size_t>(d)] = x->dims[i];
  }
  auto* r = impl::reshape(s, x, inter);
  return expand(s, r, shape);
}

NetworkTensor* resize(const Scope& s, NetworkTensor* x, std::vector<std::int64_t> size) {
  const auto have = numel(static_dims(x, "resize_"));
  const auto want = numel(size);
  auto* flat = impl::reshape(s, x, {have});
  if (want < have) {
    flat = slice_axis(s, flat, 0, 0, want);
  } else if (want > have) {
    network::PaddingParams p;
    p.mode = network::PaddingMode::Constant;
    p.pre = {0};
    p.post = {want - have};
    flat = s.add_padding("pad", flat, p);
  }
  return reshape(s, flat, size);
}

}  // namespace atenrt::conversion::impl::shape
