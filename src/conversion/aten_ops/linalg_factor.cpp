// Linear algebra, continued (impl/linalg): Cholesky, triangular solves, LDL,
// QR and Householder products, SVD, eigh, pinv, matrix_exp, and eye (which
// matrix_power exports to).
#include "conversion/aten_ops/linalg_common.h"

namespace atenrt::conversion::aten_ops {
namespace {
namespace la = impl::linalg;
using namespace linalg;  // NOLINT: the family's helpers
constexpr Family kFamily{.name = "linalg"};

// ---------------------------------------------------------------- Cholesky
ATENRT_CONVERTER(kFamily, "aten.linalg_cholesky_ex.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Cholesky);
  p.upper = args.b("upper");
  p.check_errors = args.b("check_errors");
  NetworkTensor* a = args.tensor("self");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}
// torch.cholesky raises when A is not positive definite: check_errors.
ATENRT_CONVERTER(kFamily, "aten.cholesky.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Cholesky);
  p.upper = args.b("upper");
  p.check_errors = true;
  NetworkTensor* a = args.tensor("self");
  return one(la::layer(s, p, {mat(a, a->dtype)})[0]);
}
ATENRT_CONVERTER(kFamily, "aten.cholesky_solve.default", .validator = real_static({{"self", 2}, {"input2", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::CholeskySolve);
  p.upper = args.b("upper");
  NetworkTensor* b = args.tensor("self");
  return one(la::layer(s, p, {mat(b, b->dtype), mat(args.tensor("input2"), b->dtype)})[0]);
}
ATENRT_CONVERTER(kFamily, "aten.cholesky_inverse.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::CholeskyInverse);
  p.upper = args.b("upper");
  NetworkTensor* l = args.tensor("self");
  return one(la::layer(s, p, {mat(l, l->dtype)})[0]);
}

// ---------------------------------------------------------------- triangular solves
ATENRT_CONVERTER(kFamily, "aten.linalg_solve_triangular.default", .validator = real_static({{"self", 2}, {"B", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::TriangularSolve);
  p.upper = args.b("upper");
  p.left = args.b("left");
  p.unit_diagonal = args.b("unitriangular");
  NetworkTensor* a = args.tensor("self");
  return one(la::layer(s, p, {mat(a, a->dtype), mat(args.tensor("B"), a->dtype)})[0]);
}
// triangular_solve(B, A) -> (X, A broadcast to X's batch).
ATENRT_CONVERTER(kFamily, "aten.triangular_solve.default", .validator = real_static({{"self", 2}, {"A", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::TriangularSolve);
  p.upper = args.b("upper");
  p.transpose = args.b("transpose");
  p.unit_diagonal = args.b("unitriangular");
  NetworkTensor* b = args.tensor("self");
  NetworkTensor* a = args.tensor("A");
  Dims batch;
  NetworkTensor* x = la::layer(s, p, {mat(a, b->dtype), mat(b, b->dtype)}, &batch)[0];
  Dims a_dims = batch;
  a_dims.insert(a_dims.end(), a->dims.end() - 2, a->dims.end());
  NetworkTensor* a_out = impl::cast(s.child("coefficient"), a, b->dtype);
  a_out = a_out->dims == a_dims ? impl::identity(s.child("coefficient"), a_out) : impl::expand(s.child("coefficient"), a_out, a_dims);
  return {x, a_out};
}

// ---------------------------------------------------------------- LDL^T
ATENRT_CONVERTER(kFamily, "aten.linalg_ldl_factor_ex.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::LdlFactor);
  p.check_errors = args.b("check_errors");
  NetworkTensor* a = args.tensor("self");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}
ATENRT_CONVERTER(kFamily, "aten.linalg_ldl_solve.default", .validator = real_static({{"LD", 2}, {"B", 2}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* ld = args.tensor("LD");
  return one(la::layer(s, op(LinalgOp::LdlSolve),
                       {mat(ld, ld->dtype), vec(args.tensor("pivots"), DType::Int32), mat(args.tensor("B"), ld->dtype)})[0]);
}

// ---------------------------------------------------------------- QR and Householder
Capability qr_mode(const NodeView& node, const ConversionSettings&) {
  const auto mode = node.literal_string("mode");
  if (mode && *mode != "reduced" && *mode != "complete" && *mode != "r") {
    return Capability::no("mode must be 'reduced', 'complete' or 'r'");
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.linalg_qr.default", .validator = all_of({real_static({{"A", 2}}), qr_mode}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Qr);
  const std::string mode = args.str("mode");
  p.full = mode == "complete";
  p.vectors = mode != "r";
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}
ATENRT_CONVERTER(kFamily, "aten.geqrf.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("self");
  return all(la::layer(s, op(LinalgOp::Geqrf), {mat(a, a->dtype)}));
}
ATENRT_CONVERTER(kFamily, "aten.linalg_householder_product.default", .validator = real_static({{"input", 2}, {"tau", 1}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("input");
  return one(la::layer(s, op(LinalgOp::HouseholderProduct), {mat(a, a->dtype), vec(args.tensor("tau"), a->dtype)})[0]);
}
ATENRT_CONVERTER(kFamily, "aten.ormqr.default", .validator = real_static({{"self", 2}, {"input2", 1}, {"input3", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Ormqr);
  p.left = args.b("left");
  p.transpose = args.b("transpose");
  NetworkTensor* a = args.tensor("self");
  return one(la::layer(s, p, {mat(a, a->dtype), vec(args.tensor("input2"), a->dtype), mat(args.tensor("input3"), a->dtype)})[0]);
}

// ---------------------------------------------------------------- SVD, eigh
Capability default_driver(const NodeView& node, const ConversionSettings&) {
  if (node.has("driver") && !node.is_none("driver")) return Capability::no("an SVD driver other than the default (gesdd)");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten._linalg_svd.default", .validator = all_of({real_static({{"A", 2}}), default_driver}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Svd);
  p.full = args.b("full_matrices");
  p.vectors = args.b("compute_uv");
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}
Capability uplo(const NodeView& node, const ConversionSettings&) {
  const auto u = node.literal_string("UPLO");
  if (u && *u != "L" && *u != "U") return Capability::no("UPLO must be 'L' or 'U'");
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten._linalg_eigh.default", .validator = all_of({real_static({{"A", 2}}), uplo}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Eigh);
  p.upper = args.str("UPLO") == "U";
  p.vectors = args.b("compute_v");
  NetworkTensor* a = args.tensor("A");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}

// The deprecated torch.symeig: eigh of the chosen triangle (PyTorch's
// eigenvectors agree with linalg.eigh's to rounding).
ATENRT_CONVERTER(kFamily, "aten.symeig.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  auto p = op(LinalgOp::Eigh);
  p.upper = args.b("upper");
  p.vectors = args.b("eigenvectors");
  NetworkTensor* a = args.tensor("self");
  return all(la::layer(s, p, {mat(a, a->dtype)}));
}

// ---------------------------------------------------------------- pinv
// (torch.linalg.pinv's float and rcond overloads are composite: they export
// to atol_rtol_tensor.)
// PyTorch's tolerances: atol defaults to 0; rtol to eps * max(m, n) when
// atol is absent, else to 0 where atol > 0 and that default elsewhere.
NetworkTensor* pinv(const Scope& s, NetworkTensor* a, NetworkTensor* atol, NetworkTensor* rtol, bool hermitian) {
  auto p = op(LinalgOp::Pinv);
  p.hermitian = hermitian;
  const auto m = a->dims[a->dims.size() - 2], n = a->dims.back();
  const double eps = a->dtype == DType::Float32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  const double fallback = eps * static_cast<double>(std::max(m, n));
  if (!rtol) {
    rtol = impl::scalar_constant(s.child("rtol"), fallback, DType::Float64);
    if (atol) {
      NetworkTensor* positive = impl::ew(s.child("rtol"), impl::cast(s.child("rtol"), atol, DType::Float64),
                                         impl::scalar_constant(s.child("zero"), 0.0, DType::Float64),
                                         network::ElementwiseOp::Greater);
      rtol = s.add_select("rtol", positive, impl::scalar_constant(s.child("zero"), 0.0, DType::Float64), rtol);
    }
  }
  if (!atol) atol = impl::scalar_constant(s.child("atol"), 0.0, DType::Float64);
  return la::layer(s, p, {mat(a, a->dtype), {atol, 0, DType::Float64}, {rtol, 0, DType::Float64}})[0];
}
Capability tolerances_fit(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* a = node.meta("self");
  if (!a) return Capability::yes();
  for (const char* t : {"atol", "rtol"}) {
    const ir::TensorMeta* m = node.meta(t);
    if (m && m->sizes.size() + 2 > a->sizes.size()) {
      return Capability::no(std::string(t) + " has more dims than A's batch (PyTorch broadcasts the result)");
    }
    if (m && (m->dtype == DType::Bool || !m->dtype)) return Capability::no(std::string(t) + " must be a real number tensor");
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, "aten.linalg_pinv.atol_rtol_tensor",
                 .validator = all_of({real_static({{"self", 2}, {"atol", 0}, {"rtol", 0}}), tolerances_fit}))
(const Scope& s, const NodeArgs& args) {
  return one(pinv(s, args.tensor("self"), args.opt_tensor("atol"), args.opt_tensor("rtol"), args.b("hermitian")));
}
// ---------------------------------------------------------------- matrix_exp, eye
ATENRT_CONVERTER(kFamily, "aten.linalg_matrix_exp.default", .validator = real_static({{"self", 2}}))
(const Scope& s, const NodeArgs& args) {
  NetworkTensor* a = args.tensor("self");
  return one(la::layer(s, op(LinalgOp::MatrixExp), {mat(a, a->dtype)})[0]);
}

Capability literal_sizes(const NodeView& node, const ConversionSettings&) {
  for (const char* arg : {"n", "m"}) {
    if (!node.has(arg)) continue;
    const auto v = node.literal_int(arg);
    if (!v) return Capability::no(std::string("eye's ") + arg + " must be a literal int (a static size)");
    if (*v < 0) return Capability::no(std::string("eye's ") + arg + " must be non-negative");
  }
  return Capability::yes();
}
ATENRT_CONVERTER(kFamily, keys("aten.eye.default", "aten.eye.m"), .validator = literal_sizes)
(const Scope& s, const NodeArgs& args) {
  const std::int64_t n = args.i("n");
  const std::int64_t m = args.has("m") ? args.i("m") : n;
  return one(la::eye(s, n, m, args.opt_dtype("dtype").value_or(DType::Float32)));
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
