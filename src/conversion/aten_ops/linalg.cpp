// Linear algebra (impl/linalg): torch.linalg's ATen ops as LinearAlgebra
// layers on LAPACK, real dtypes, batched. The composite ops (norms, cond,
// matrix_rank, tensorinv/tensorsolve, pinverse, logdet) export to these.
#include "conversion/aten_ops/linalg_common.h"

namespace atenrt::conversion::aten_ops {

Validator linalg::real_static(std::initializer_list<std::pair<const char*, int>> args) {
  std::vector<std::pair<std::string, int>> list(args.begin(), args.end());
  return [list](const NodeView& node, const ConversionSettings&) {
    for (const auto& [name, rank] : list) {
      const ir::TensorMeta* m = node.meta(name);
      if (!m) continue;
      if (m->dtype != DType::Float32 && m->dtype != DType::Float64) {
        return Capability::no("argument '" + name + "' must be float32 or float64 (LAPACK's real types)");
      }
      if (!m->is_static()) return Capability::no("argument '" + name + "' must have a static shape");
      if (static_cast<int>(m->sizes.size()) < rank) {
        return Capability::no("argument '" + name + "' must have at least " + std::to_string(rank) + " dims");
      }
    }
    return Capability::yes();
  };
}

namespace {
namespace la = impl::linalg;
using namespace linalg;  // NOLINT: the family's helpers
constexpr Family kFamily{.name = "linalg"};
Operand pivots(NetworkTensor* x) { return {x, 1, DType::Int32}; }

// ---------------------------------------------------------------- inverse, solve, LU
ATENRT_CONVERTER(kFamily, "aten.linalg_inv_ex.default", .validator = real_static({{"A", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Inverse);
  p.check_errors = args.b("check_errors");
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}

// B is a vector (or a batch of vectors) when PyTorch's linalg.solve says so.
bool vector_rhs(const NetworkTensor* a, const NetworkTensor* b) {
  if (b->rank() == 1) return true;
  return b->rank() + 1 == a->rank() && std::equal(b->dims.begin(), b->dims.end(), a->dims.begin());
}

ATENRT_CONVERTER(kFamily, "aten._linalg_solve_ex.default", .validator = real_static({{"A", 2}, {"B", 1}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("A");
  NetworkTensor* b = args.tensor("B");
  auto p = op(LinalgOp::Solve);
  p.left = args.b("left");
  p.check_errors = args.b("check_errors");
  const bool vec = vector_rhs(a, b);
  const std::int64_t axis = p.left ? -1 : -2;
  if (vec) b = impl::unsqueeze(s.child("rhs"), b, axis);
  Dims batch;
  auto ys = la::layer(s, p, {mat(a, a->dtype), mat(b, a->dtype)}, &batch);
  if (vec) {
    Dims d = ys[0]->dims;
    d.erase(d.end() + axis);
    ys[0] = impl::reshape(s.child("result"), ys[0], d);
  }
  // LU, pivots and info are over A's own batch, as PyTorch's.
  const Dims a_batch = la::batch_of(a, 2);
  ys[1] = la::unbroadcast(s.child("LU"), ys[1], batch, a_batch);
  ys[2] = la::unbroadcast(s.child("pivots"), ys[2], batch, a_batch);
  ys[3] = la::unbroadcast(s.child("info"), ys[3], batch, a_batch);
  return all(ys);
}

Capability pivoting(const NodeView& node, const ConversionSettings&) {
  if (node.literal_bool("pivot") == false) return Capability::no("LU without pivoting (PyTorch's CPU refuses it too)");
  return Capability::yes();
}

ATENRT_CONVERTER(kFamily, "aten.linalg_lu_factor_ex.default", .validator = all_of({real_static({{"A", 2}}), pivoting}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::LuFactor);
  p.check_errors = args.b("check_errors");
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}

ATENRT_CONVERTER(kFamily, "aten.linalg_lu.default", .validator = all_of({real_static({{"A", 2}}), pivoting}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, op(LinalgOp::Lu), {mat(a, a->dtype)}));
}

ATENRT_CONVERTER(kFamily, "aten.lu_unpack.default", .validator = real_static({{"LU_data", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::LuUnpack);
  p.vectors = args.b("unpack_data");
  p.pivots = args.b("unpack_pivots");
  NetworkTensor* lu = args.tensor("LU_data");
  return all(la::layer(s, p, {mat(lu, lu->dtype), pivots(args.tensor("LU_pivots"))}));
}

ATENRT_CONVERTER(kFamily, "aten.linalg_lu_solve.default", .validator = real_static({{"LU", 2}, {"B", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::LuSolve);
  p.left = args.b("left");
  p.transpose = args.b("adjoint");
  NetworkTensor* lu = args.tensor("LU");
  return all(la::layer(s, p, {mat(lu, lu->dtype), pivots(args.tensor("pivots")), mat(args.tensor("B"), lu->dtype)}));
}

ATENRT_CONVERTER(kFamily, "aten._linalg_det.default", .validator = real_static({{"A", 2}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, op(LinalgOp::Det), {mat(a, a->dtype)}));
}

ATENRT_CONVERTER(kFamily, "aten._linalg_slogdet.default", .validator = real_static({{"A", 2}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, op(LinalgOp::Slogdet), {mat(a, a->dtype)}));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
