// Shape inference of the linear-algebra layers (layers.h, LinalgOp): which
// inputs each op takes and the dims of its outputs, as PyTorch returns them.
#include <array>
#include <limits>

#include "network/infer.h"

namespace atenrt::network {

std::string_view linalg_op_name(LinalgOp op) {
  static constexpr std::array<std::string_view, kLinalgOpCount> kNames = {
      "Inverse",  "Solve",   "LuFactor", "Lu",        "LuUnpack",        "LuSolve",       "Cholesky",
      "CholeskySolve", "CholeskyInverse", "Qr", "Svd", "Eigh",           "Det",           "Slogdet",
      "TriangularSolve", "LdlFactor", "LdlSolve", "Geqrf", "HouseholderProduct", "Ormqr", "Pinv",
      "MatrixExp"};
  const auto i = static_cast<std::size_t>(op);
  return i < kNames.size() ? kNames[i] : "?";
}

namespace detail {
namespace {

constexpr std::int64_t kD = kDynamicDim;
constexpr std::int64_t kLapackMax = std::numeric_limits<std::int32_t>::max();

// The op's inputs: names for messages; the first is the matrix whose batch
// dims every other input repeats.
struct Checker {
  const InferContext& ctx;
  const LinalgParams& p;
  Dims batch;

  std::string what() const { return "linear-algebra op " + std::string(linalg_op_name(p.op)) + ": "; }
  [[noreturn]] void fail(const std::string& m) const { ctx.fail(what() + m); }

  // Input i is a [*batch, rows, cols] matrix of a floating dtype; returns
  // {rows, cols}. The first input's leading dims are the batch.
  std::pair<std::int64_t, std::int64_t> matrix(std::size_t i, const char* name) {
    const TensorDesc& t = ctx.in(i);
    if (t.dtype != DType::Float32 && t.dtype != DType::Float64) {
      fail(std::string(name) + " must be float32 or float64, not " + std::string(dtype_name(t.dtype)));
    }
    if (t.dims.size() < 2) fail(std::string(name) + " must have at least 2 dims, has " + dims_to_string(t.dims));
    if (i > 0 && t.dtype != ctx.in(0).dtype) fail(std::string(name) + " must have the dtype of the first input");
    Dims lead(t.dims.begin(), t.dims.end() - 2);
    same_batch(lead, name);
    const std::int64_t r = t.dims[t.dims.size() - 2], c = t.dims[t.dims.size() - 1];
    if (r >= 0 && c >= 0 && static_cast<__int128>(r) * c > kLapackMax) {
      fail(std::string(name) + " is " + std::to_string(r) + " x " + std::to_string(c) +
           ": more than 2^31-1 elements, beyond LAPACK's 32-bit sizes");
    }
    return {r, c};
  }
  // Input i is [*batch, len] of `dtype`; returns len.
  std::int64_t vector(std::size_t i, const char* name, DType dtype) {
    const TensorDesc& t = ctx.in(i);
    if (t.dtype != dtype) fail(std::string(name) + " must be " + std::string(dtype_name(dtype)));
    if (t.dims.empty()) fail(std::string(name) + " must have at least 1 dim");
    same_batch(Dims(t.dims.begin(), t.dims.end() - 1), name);
    return t.dims.back();
  }
  // Input i is [*batch] of `dtype`.
  void batch_scalar(std::size_t i, const char* name, DType dtype) {
    const TensorDesc& t = ctx.in(i);
    if (t.dtype != dtype) fail(std::string(name) + " must be " + std::string(dtype_name(dtype)));
    same_batch(t.dims, name);
  }
  void same_batch(const Dims& lead, const char* name) {
    if (lead.size() != batch.size()) fail(std::string(name) + " has batch dims " + dims_to_string(lead) + ", not " + dims_to_string(batch));
    for (std::size_t d = 0; d < lead.size(); ++d) {
      if (lead[d] >= 0 && batch[d] >= 0 && lead[d] != batch[d]) {
        fail(std::string(name) + " has batch dims " + dims_to_string(lead) + ", not " + dims_to_string(batch));
      }
    }
  }
  // Matching known sizes (either may be dynamic).
  void equal(std::int64_t a, std::int64_t b, const std::string& m) const {
    if (a >= 0 && b >= 0 && a != b) fail(m);
  }
  Dims with(std::initializer_list<std::int64_t> tail) const {
    Dims d = batch;
    d.insert(d.end(), tail);
    return d;
  }
};

std::int64_t min_dim(std::int64_t a, std::int64_t b) { return a < 0 || b < 0 ? kD : std::min(a, b); }

}  // namespace

Descs infer(const InferContext& ctx, const LinalgParams& p) {
  using O = LinalgOp;
  Checker c{ctx, p, {}};
  auto count = [&](std::size_t n) { ctx.expect_inputs(n, n); };
  auto first = [&](const char* name) {
    const TensorDesc& t = ctx.in(0);
    if (t.dims.size() >= 2) c.batch = Dims(t.dims.begin(), t.dims.end() - 2);
    return c.matrix(0, name);
  };
  auto square = [&](std::pair<std::int64_t, std::int64_t> rc, const char* name) {
    c.equal(rc.first, rc.second, std::string(name) + " must be square, is " + std::to_string(rc.first) + " x " +
                                     std::to_string(rc.second));
    return rc.first >= 0 ? rc.first : rc.second;
  };
  const DType t = ctx.inputs.empty() ? DType::Float32 : ctx.in(0).dtype;
  const DType i32 = DType::Int32;
  const Dims empty{0};
  switch (p.op) {
    case O::Inverse: {
      count(1);
      const auto n = square(first("A"), "A");
      return {{t, c.with({n, n})}, {i32, c.batch}};
    }
    case O::Solve: {
      count(2);
      const auto n = square(first("A"), "A");
      const auto [br, bc] = c.matrix(1, "B");
      c.equal(p.left ? br : bc, n, "B does not match A's size " + std::to_string(n));
      return {{t, ctx.in(1).dims}, {t, c.with({n, n})}, {i32, c.with({n})}, {i32, c.batch}};
    }
    case O::LuFactor: {
      count(1);
      const auto [m, n] = first("A");
      return {{t, c.with({m, n})}, {i32, c.with({min_dim(m, n)})}, {i32, c.batch}};
    }
    case O::Lu: {
      count(1);
      const auto [m, n] = first("A");
      const auto k = min_dim(m, n);
      return {{t, c.with({m, m})}, {t, c.with({m, k})}, {t, c.with({k, n})}};
    }
    case O::LuUnpack: {
      count(2);
      const auto [m, n] = first("LU");
      const auto k = min_dim(m, n);
      c.equal(c.vector(1, "pivots", i32), k, "pivots must have min(m, n) entries");
      return {{t, p.pivots ? c.with({m, m}) : empty}, {t, p.vectors ? c.with({m, k}) : empty},
              {t, p.vectors ? c.with({k, n}) : empty}};
    }
    case O::LuSolve: {
      count(3);
      const auto n = square(first("LU"), "LU");
      c.equal(c.vector(1, "pivots", i32), n, "pivots must have n entries");
      const auto [br, bc] = c.matrix(2, "B");
      c.equal(p.left ? br : bc, n, "B does not match LU's size " + std::to_string(n));
      return {{t, ctx.in(2).dims}};
    }
    case O::Cholesky: {
      count(1);
      const auto n = square(first("A"), "A");
      return {{t, c.with({n, n})}, {i32, c.batch}};
    }
    case O::CholeskySolve: {
      count(2);
      const auto [br, bc] = first("B");
      const auto n = square(c.matrix(1, "L"), "L");
      c.equal(br, n, "B does not match L's size " + std::to_string(n));
      return {{t, c.with({br, bc})}};
    }
    case O::CholeskyInverse: {
      count(1);
      const auto n = square(first("L"), "L");
      return {{t, c.with({n, n})}};
    }
    case O::Qr: {
      count(1);
      const auto [m, n] = first("A");
      const auto k = p.full ? m : min_dim(m, n);
      return {{t, p.vectors ? c.with({m, k}) : empty}, {t, c.with({k, n})}};
    }
    case O::Svd: {
      count(1);
      const auto [m, n] = first("A");
      const auto k = min_dim(m, n);
      if (!p.vectors) return {{t, empty}, {t, c.with({k})}, {t, empty}};
      return {{t, c.with({m, p.full ? m : k})}, {t, c.with({k})}, {t, c.with({p.full ? n : k, n})}};
    }
    case O::Eigh: {
      count(1);
      const auto n = square(first("A"), "A");
      return {{t, c.with({n})}, {t, p.vectors ? c.with({n, n}) : empty}};
    }
    case O::Det:
    case O::Slogdet: {
      count(1);
      const auto n = square(first("A"), "A");
      Descs out{{t, c.batch}};
      if (p.op == O::Slogdet) out.push_back({t, c.batch});
      out.push_back({t, c.with({n, n})});
      out.push_back({i32, c.with({n})});
      return out;
    }
    case O::TriangularSolve: {
      count(2);
      const auto n = square(first("A"), "A");
      const auto [br, bc] = c.matrix(1, "B");
      c.equal(p.left ? br : bc, n, "B does not match A's size " + std::to_string(n));
      return {{t, ctx.in(1).dims}};
    }
    case O::LdlFactor: {
      count(1);
      const auto n = square(first("A"), "A");
      return {{t, c.with({n, n})}, {i32, c.with({n})}, {i32, c.batch}};
    }
    case O::LdlSolve: {
      count(3);
      const auto n = square(first("LD"), "LD");
      c.equal(c.vector(1, "pivots", i32), n, "pivots must have n entries");
      const auto [br, bc] = c.matrix(2, "B");
      c.equal(br, n, "B does not match LD's size " + std::to_string(n));
      return {{t, ctx.in(2).dims}};
    }
    case O::Geqrf: {
      count(1);
      const auto [m, n] = first("A");
      return {{t, c.with({m, n})}, {t, c.with({min_dim(m, n)})}};
    }
    case O::HouseholderProduct: {
      count(2);
      const auto [m, n] = first("A");
      const auto k = c.vector(1, "tau", t);
      if (m >= 0 && n >= 0 && m < n) c.fail("A must have at least as many rows as columns");
      if (n >= 0 && k >= 0 && k > n) c.fail("tau must have at most as many entries as A has columns");
      return {{t, c.with({m, n})}};
    }
    case O::Ormqr: {
      count(3);
      const auto [ar, ak] = first("A");
      const auto k = c.vector(1, "tau", t);
      const auto [m, n] = c.matrix(2, "C");
      const auto mn = p.left ? m : n;
      c.equal(ar, mn, "A must have as many rows as C has " + std::string(p.left ? "rows" : "columns"));
      if (k >= 0 && ak >= 0 && k > ak) c.fail("tau must have at most as many entries as A has columns");
      if (k >= 0 && mn >= 0 && k > mn) c.fail("tau has more reflectors than Q has rows");
      return {{t, c.with({m, n})}};
    }
    case O::Pinv: {
      count(3);
      const auto [m, n] = first("A");
      c.batch_scalar(1, "atol", DType::Float64);
      c.batch_scalar(2, "rtol", DType::Float64);
      if (p.hermitian) c.equal(m, n, "A must be square for hermitian=True");
      return {{t, c.with({n, m})}};
    }
    case O::MatrixExp: {
      count(1);
      const auto n = square(first("A"), "A");
      return {{t, c.with({n, n})}};
    }
  }
  c.fail("unknown op " + std::to_string(static_cast<int>(p.op)));
}

}  // namespace detail
}  // namespace atenrt::network
