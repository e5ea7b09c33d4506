"""Linear-algebra converter cases (family "linalg"; LinearAlgebra layers on LAPACK), imported by cases.py.

Inputs are random normal matrices, made well conditioned where an op needs it (a x a^T + n I for the
positive definite ones); the layers call the LAPACK drivers PyTorch calls, so factorizations with a
sign or order choice (QR, SVD, eigh, LDL) are compared as they are."""
import torch

from cases import T, aten, case, opcase

F64 = torch.float64


def spd(a):
    return a @ a.mT + a.shape[-1] * torch.eye(a.shape[-1], dtype=a.dtype)


def sym(a):
    return a + a.mT


# ---------------------------------------------------------------- inverse, solve, LU, det
case("linalg_inv", "linalg", torch.linalg.inv, T(2, 4, 4))
case("linalg_inv_f64", "linalg", torch.linalg.inv, T(3, 3, dtype=F64))
# Two equal rows: info = 3 and the non-finite values PyTorch's getrs leaves.
case("linalg_inv_ex_singular", "linalg", lambda a: torch.linalg.inv_ex(torch.cat([a[:2], a[1:2]])), T(3, 3))
case("linalg_solve", "linalg", torch.linalg.solve, T(2, 3, 3), T(3, 2))
case("linalg_solve_vector", "linalg", torch.linalg.solve, T(2, 3, 3), T(2, 3))
case("linalg_solve_right", "linalg", lambda a, b: torch.linalg.solve(a, b, left=False), T(3, 3), T(2, 4, 3))
case("linalg_solve_ex_outputs", "linalg", lambda a, b: aten._linalg_solve_ex(a, b), T(3, 3), T(2, 3, 2),
     trivial="info is 0 for an invertible A; result, LU and pivots (over A's own batch) are the point")
case("linalg_lu_factor", "linalg", torch.linalg.lu_factor_ex, T(2, 4, 3),
     trivial="info is 0 for a full-rank A; LU and pivots are the point")
case("linalg_lu_factor_wide", "linalg", torch.linalg.lu_factor, T(3, 5, dtype=F64))
case("linalg_lu", "linalg", torch.linalg.lu, T(2, 3, 5))
# PyTorch's CPU has no LU without pivoting either (it raises): one node, refused.
opcase("o_linalg_lu_no_pivot", "linalg", aten.linalg_lu.default, T(3, 3), pivot=False, refused="without pivoting",
       node_outputs=3)
case("linalg_lu_unpack", "linalg", lambda a: torch.lu_unpack(*torch.linalg.lu_factor(a)), T(2, 4, 3))
case("linalg_lu_unpack_pivots_only", "linalg",
     lambda a: torch.lu_unpack(*torch.linalg.lu_factor(a), unpack_data=False)[0], T(3, 3))
case("linalg_lu_solve", "linalg", lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b), T(3, 3), T(2, 3, 2))
case("linalg_lu_solve_right_adjoint", "linalg",
     lambda a, b: torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b, left=False, adjoint=True), T(3, 3), T(2, 3))
case("linalg_det", "linalg", torch.linalg.det, T(3, 4, 4))
case("linalg_slogdet", "linalg", torch.linalg.slogdet, T(2, 3, 3))
case("linalg_logdet", "linalg", lambda a: torch.logdet(spd(a)), T(2, 3, 3))
case("linalg_tensorinv", "linalg", lambda a: torch.linalg.tensorinv(a, ind=2), T(4, 2, 2, 4))
case("linalg_tensorsolve", "linalg", torch.linalg.tensorsolve, T(2, 3, 6), T(2, 3))
case("linalg_matrix_power", "linalg", lambda a: (torch.linalg.matrix_power(a, 3), torch.linalg.matrix_power(a, 0),
                                                   torch.linalg.matrix_power(a, -2)), T(2, 3, 3))
opcase("o_linalg_eye_m", "linalg", aten.eye.m, 3, 4, dtype=torch.float64)

# ---------------------------------------------------------------- Cholesky, triangular, LDL
case("linalg_cholesky", "linalg", lambda a: torch.linalg.cholesky(spd(a)), T(2, 3, 3))
case("linalg_cholesky_upper_f64", "linalg", lambda a: torch.linalg.cholesky(spd(a), upper=True), T(4, 4, dtype=F64))
# Not positive definite: info = 1 (the first minor), as PyTorch.
case("linalg_cholesky_ex_info", "linalg", lambda a: torch.linalg.cholesky_ex(-spd(a))[1], T(2, 3, 3),
     trivial="every matrix fails at its first minor: info = 1 (PyTorch's value, not a crash) is the point")
# torch.cholesky and cholesky_inverse check their input while tracing: one node over fixed values.
opcase("o_linalg_cholesky_old", "linalg", aten.cholesky.default,
       T(values=[[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]], dtype=F64), True)
case("linalg_cholesky_solve", "linalg", lambda a, b: torch.cholesky_solve(b, torch.linalg.cholesky(spd(a))),
     T(2, 3, 3), T(3, 2))
opcase("o_linalg_cholesky_inverse", "linalg", aten.cholesky_inverse.default,
       T(values=[[2.0, 0.5, -1.0], [0.0, 1.5, 0.25], [0.0, 0.0, 3.0]]), True)
case("linalg_solve_triangular", "linalg",
     lambda a, b: torch.linalg.solve_triangular(a + 3 * torch.eye(3), b, upper=True), T(2, 3, 3), T(3, 4))
case("linalg_solve_triangular_right_unit", "linalg",
     lambda a, b: torch.linalg.solve_triangular(a, b, upper=False, left=False, unitriangular=True), T(3, 3), T(2, 4, 3))
case("linalg_triangular_solve", "linalg",
     lambda b, a: torch.triangular_solve(b, a + 3 * torch.eye(3), upper=False, transpose=True), T(2, 3, 2), T(3, 3))
case("linalg_ldl_factor", "linalg", lambda a: torch.linalg.ldl_factor_ex(sym(a)), T(2, 4, 4),
     trivial="info is 0 for a non-singular A; LD and pivots are the point")
case("linalg_ldl_solve", "linalg", lambda a, b: torch.linalg.ldl_solve(*torch.linalg.ldl_factor(sym(a)), b),
     T(4, 4), T(4, 2))

# ---------------------------------------------------------------- QR, Householder
for mode in ("reduced", "complete", "r"):
    empty_q = "mode 'r' returns an empty Q; R is the point" if mode == "r" else None
    case(f"linalg_qr_{mode}", "linalg", lambda a, mode=mode: torch.linalg.qr(a, mode=mode), T(2, 5, 3), trivial=empty_q)
    case(f"linalg_qr_wide_{mode}", "linalg", lambda a, mode=mode: torch.linalg.qr(a, mode=mode), T(3, 4),
         trivial=empty_q)
case("linalg_geqrf", "linalg", torch.geqrf, T(2, 4, 3))
case("linalg_householder_product", "linalg", lambda a: torch.linalg.householder_product(*torch.geqrf(a)), T(5, 3))
case("linalg_ormqr", "linalg", lambda a, c: torch.ormqr(*torch.geqrf(a), c, left=False, transpose=True),
     T(4, 3), T(2, 4))

# ---------------------------------------------------------------- SVD, eigh, and what exports to them
case("linalg_svd", "linalg", lambda a: torch.linalg.svd(a, full_matrices=False), T(2, 5, 3))
case("linalg_svd_full", "linalg", torch.linalg.svd, T(3, 4, dtype=F64))
case("linalg_svdvals", "linalg", torch.linalg.svdvals, T(2, 3, 4))
case("linalg_eigh", "linalg", lambda a: torch.linalg.eigh(sym(a), UPLO="U"), T(2, 4, 4))
case("linalg_symeig", "linalg", lambda a: torch.symeig(sym(a), eigenvectors=True), T(2, 4, 4))
case("linalg_eigvalsh", "linalg", lambda a: torch.linalg.eigvalsh(sym(a)), T(3, 3))
case("linalg_matrix_norm_nuc", "linalg", lambda a: torch.linalg.matrix_norm(a, "nuc"), T(2, 3, 4))
case("linalg_matrix_norm_2", "linalg", lambda a: (torch.linalg.matrix_norm(a, 2), torch.linalg.matrix_norm(a, -2)),
     T(3, 4))
case("linalg_norm_nuc", "linalg", lambda a: torch.linalg.norm(a, "nuc"), T(4, 3))
case("linalg_cond", "linalg", torch.linalg.cond, T(2, 3, 3))
case("linalg_matrix_rank", "linalg", torch.linalg.matrix_rank,
     T(values=[[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 2.0, 3.0]], [[1.0, 0.5, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]],
               [[1.0, 2.0, 3.0], [0.0, 1.0, 1.0], [1.0, 3.0, 4.0]]]))
case("linalg_matrix_rank_hermitian", "linalg", lambda a: torch.linalg.matrix_rank(sym(a), hermitian=True), T(3, 3))
case("linalg_pinv", "linalg", torch.linalg.pinv, T(2, 4, 3))
case("linalg_pinv_hermitian_atol", "linalg", lambda a: torch.linalg.pinv(sym(a), atol=0.5, hermitian=True), T(4, 4))
case("linalg_pinv_rtol_tensor", "linalg", lambda a, r: torch.linalg.pinv(a, rtol=r), T(2, 3, 4),
     T(values=[0.3, 0.01]))
case("linalg_pinverse", "linalg", lambda a: torch.pinverse(a, rcond=0.1), T(3, 4))
case("linalg_matrix_exp", "linalg", torch.linalg.matrix_exp, T(2, 3, 3))
case("linalg_matrix_exp_scaled_f64", "linalg", lambda a: torch.linalg.matrix_exp(4 * a), T(4, 4, dtype=F64))
# PyTorch's CPU takes no driver either (it raises): one node, refused.
opcase("o_linalg_svd_driver_refused", "linalg", aten._linalg_svd.default, T(3, 3), driver="gesvd",
       refused="driver", node_outputs=3)
# A negative size: PyTorch raises; refused at compile time.
opcase("o_linalg_eye_negative_refused", "linalg", aten.eye.default, -1, refused="non-negative", node_outputs=1)
