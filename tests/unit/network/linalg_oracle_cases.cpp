// LinearAlgebra layers against PyTorch (reference_oracle_test.cpp runs them):
// every LinalgOp, float64 and float32, batched, with the flags PyTorch's
// functions take. Factorizations with a sign or order choice (QR, SVD, eigh,
// LDL) are compared as they are: the layers call PyTorch's LAPACK drivers.
#include <cstring>

#include "torch_oracle.h"

namespace atenrt::testing {

using namespace atenrt::network;
using Ins = std::vector<NetworkTensor*>;

namespace {

InputSpec F64(Dims d) { return {DType::Float64, std::move(d), Gen::Normal, 0}; }
InputSpec F32(Dims d) { return {DType::Float32, std::move(d), Gen::Normal, 0}; }

LinalgParams lp(LinalgOp op) {
  LinalgParams p;
  p.op = op;
  return p;
}

// x x^T + n I: symmetric positive definite, well conditioned.
NetworkTensor* spd(Network& n, NetworkTensor* x) {
  const std::int64_t size = x->dims.back();
  Tensor eye(x->dtype, {size, size});
  std::memset(eye.raw_mutable_data(), 0, eye.nbytes());
  for (std::int64_t i = 0; i < size; ++i) {
    if (x->dtype == DType::Float64) {
      eye.mutable_data<double>()[i * size + i] = static_cast<double>(size);
    } else {
      eye.mutable_data<float>()[i * size + i] = static_cast<float>(size);
    }
  }
  NetworkTensor* xx = n.add_matmul("xxT", x, x, false, true);
  return n.add_elementwise("spd", xx, n.add_constant("nI", eye), ElementwiseOp::Add);
}
const char* kSpd = "(x0 @ x0.mT + x0.shape[-1] * torch.eye(x0.shape[-1], dtype=x0.dtype))";

}  // namespace

std::vector<OracleCase> linalg_cases() {
  std::vector<OracleCase> cases;
  auto one = [&](std::string name, std::vector<InputSpec> ins, LinalgParams p, std::string expr, double tol = 1e-9) {
    const double rtol = ins[0].dtype == DType::Float32 ? 1e-4 : tol;
    cases.push_back({"linalg_" + name, std::move(ins), std::move(expr),
                     [p](Network& n, const Ins& x) -> Ins { return n.add_layer("y", x, p)->outputs; }, rtol, rtol});
  };
  one("inv", {F64({2, 4, 4})}, lp(LinalgOp::Inverse), "torch.linalg.inv_ex(x0)");
  one("inv_f32", {F32({3, 3})}, lp(LinalgOp::Inverse), "torch.linalg.inv_ex(x0)");
  one("inv_singular", {F64({3, 3})}, lp(LinalgOp::Inverse), "torch.linalg.inv_ex(x0)");
  cases.back().build = [](Network& n, const Ins& x) -> Ins {
    // Two equal rows: info = 3 and non-finite values where PyTorch has them.
    Ins rows{n.add_slice("r01", x[0], {0}, {0}, {2}, {1}), n.add_slice("r1", x[0], {0}, {1}, {2}, {1})};
    return n.add_layer("y", {n.add_concatenation("a", rows, 0)}, lp(LinalgOp::Inverse))->outputs;
  };
  cases.back().expr = "torch.linalg.inv_ex(torch.cat([x0[:2], x0[1:2]]))";
  one("solve", {F64({2, 3, 3}), F64({2, 3, 2})}, lp(LinalgOp::Solve), "torch.ops.aten._linalg_solve_ex(x0, x1)");
  auto right = lp(LinalgOp::Solve);
  right.left = false;
  one("solve_right", {F64({3, 3}), F64({4, 3})}, right, "torch.ops.aten._linalg_solve_ex(x0, x1, left=False)");
  one("lu_factor", {F64({2, 4, 3})}, lp(LinalgOp::LuFactor), "torch.linalg.lu_factor_ex(x0)");
  one("lu_factor_wide", {F32({3, 5})}, lp(LinalgOp::LuFactor), "torch.linalg.lu_factor_ex(x0)");
  one("lu", {F64({2, 3, 4})}, lp(LinalgOp::Lu), "torch.linalg.lu(x0)");
  for (const bool data : {true, false}) {
    auto p = lp(LinalgOp::LuUnpack);
    p.vectors = data;
    p.pivots = !data;
    cases.push_back({std::string("linalg_lu_unpack_") + (data ? "data" : "pivots"), {F64({2, 4, 3})},
                     std::string("torch.lu_unpack(*torch.linalg.lu_factor(x0), unpack_data=") + (data ? "True" : "False") +
                         ", unpack_pivots=" + (data ? "False" : "True") + ")",
                     [p](Network& n, const Ins& x) -> Ins {
                       auto* f = n.add_layer("f", x, lp(LinalgOp::LuFactor));
                       return n.add_layer("y", {f->output(0), f->output(1)}, p)->outputs;
                     },
                     1e-9, 1e-9});
  }
  for (const bool left : {true, false})
    for (const bool adjoint : {true, false}) {
      auto p = lp(LinalgOp::LuSolve);
      p.left = left;
      p.transpose = adjoint;
      const std::string flags = std::string("left=") + (left ? "True" : "False") + ", adjoint=" + (adjoint ? "True" : "False");
      cases.push_back({"linalg_lu_solve_" + std::to_string(left) + std::to_string(adjoint), {F64({2, 3, 3}), F64(left ? Dims{2, 3, 2} : Dims{2, 2, 3})},
                       "torch.linalg.lu_solve(*torch.linalg.lu_factor(x0), x1, " + flags + ")",
                       [p](Network& n, const Ins& x) -> Ins {
                         auto* f = n.add_layer("f", {x[0]}, lp(LinalgOp::LuFactor));
                         return n.add_layer("y", {f->output(0), f->output(1), x[1]}, p)->outputs;
                       },
                       1e-9, 1e-9});
    }
  one("det", {F64({3, 4, 4})}, lp(LinalgOp::Det), "torch.ops.aten._linalg_det(x0)");
  one("slogdet", {F32({2, 3, 3})}, lp(LinalgOp::Slogdet), "torch.ops.aten._linalg_slogdet(x0)");
  // Cholesky family on x x^T + n I.
  auto spd_case = [&](std::string name, std::vector<InputSpec> ins, LinalgParams p, std::string expr, bool b_first) {
    cases.push_back({"linalg_" + name, std::move(ins), std::move(expr),
                     [p, b_first](Network& n, const Ins& x) -> Ins {
                       NetworkTensor* a = spd(n, x[0]);
                       if (p.op == LinalgOp::CholeskySolve || p.op == LinalgOp::CholeskyInverse) {
                         auto c = lp(LinalgOp::Cholesky);
                         c.upper = p.upper;
                         a = n.add_layer("chol", {a}, c)->output(0);
                       }
                       Ins in{a};
                       if (x.size() > 1) in = b_first ? Ins{x[1], a} : Ins{a, x[1]};
                       return n.add_layer("y", in, p)->outputs;
                     },
                     1e-9, 1e-9});
  };
  for (const bool upper : {false, true}) {
    const std::string u = upper ? "True" : "False", suffix = upper ? "_upper" : "";
    auto c = lp(LinalgOp::Cholesky);
    c.upper = upper;
    spd_case("cholesky" + suffix, {F64({2, 4, 4})}, c, std::string("torch.linalg.cholesky_ex(") + kSpd + ", upper=" + u + ")", false);
    auto cs = lp(LinalgOp::CholeskySolve);
    cs.upper = upper;
    spd_case("cholesky_solve" + suffix, {F64({2, 3, 3}), F64({2, 3, 2})}, cs,
             std::string("torch.cholesky_solve(x1, torch.linalg.cholesky(") + kSpd + ", upper=" + u + "), upper=" + u + ")", true);
    auto ci = lp(LinalgOp::CholeskyInverse);
    ci.upper = upper;
    spd_case("cholesky_inverse" + suffix, {F64({3, 3})}, ci,
             std::string("torch.cholesky_inverse(torch.linalg.cholesky(") + kSpd + ", upper=" + u + "), upper=" + u + ")", false);
  }
  auto ldl = lp(LinalgOp::LdlFactor);
  spd_case("ldl_factor", {F64({2, 4, 4})}, ldl, std::string("torch.linalg.ldl_factor_ex(") + kSpd + ")", false);
  cases.push_back({"linalg_ldl_solve", {F64({2, 4, 4}), F64({2, 4, 3})},
                   "torch.linalg.ldl_solve(*torch.linalg.ldl_factor(x0 + x0.mT), x1)",
                   [](Network& n, const Ins& x) -> Ins {
                     NetworkTensor* sym = n.add_elementwise("sym", x[0], n.add_permute("t", x[0], {0, 2, 1}), ElementwiseOp::Add);
                     auto* f = n.add_layer("f", {sym}, lp(LinalgOp::LdlFactor));
                     return n.add_layer("y", {f->output(0), f->output(1), x[1]}, lp(LinalgOp::LdlSolve))->outputs;
                   },
                   1e-9, 1e-9});
  for (const bool upper : {true, false})
    for (const bool left : {true, false})
      for (const bool unit : {false, true}) {
        auto p = lp(LinalgOp::TriangularSolve);
        p.upper = upper;
        p.left = left;
        p.unit_diagonal = unit;
        auto b = [](bool v) { return v ? std::string("True") : std::string("False"); };
        one("trsm_" + std::to_string(upper) + std::to_string(left) + std::to_string(unit),
            {F64({2, 3, 3}), F64(left ? Dims{2, 3, 4} : Dims{2, 4, 3})}, p,
            "torch.linalg.solve_triangular(x0 + 3 * torch.eye(3, dtype=x0.dtype), x1, upper=" + b(upper) +
                ", left=" + b(left) + ", unitriangular=" + b(unit) + ")");
        cases.back().build = [p](Network& n, const Ins& x) -> Ins {
          Tensor eye(DType::Float64, {3, 3});
          std::memset(eye.raw_mutable_data(), 0, eye.nbytes());
          for (int i = 0; i < 3; ++i) eye.mutable_data<double>()[i * 4] = 3.0;
          NetworkTensor* a = n.add_elementwise("a", x[0], n.add_constant("e", eye), ElementwiseOp::Add);
          return n.add_layer("y", {a, x[1]}, p)->outputs;
        };
      }
  auto trans = lp(LinalgOp::TriangularSolve);
  trans.transpose = true;
  one("trsm_transpose", {F64({3, 3}), F64({3, 2})}, trans, "(torch.triangular_solve(x1, x0 + 0, upper=False, transpose=True)[0],)");
  for (const char* mode : {"reduced", "complete", "r"}) {
    auto p = lp(LinalgOp::Qr);
    p.full = std::string(mode) == "complete";
    p.vectors = std::string(mode) != "r";
    one(std::string("qr_") + mode, {F64({2, 5, 3})}, p, std::string("torch.linalg.qr(x0, mode='") + mode + "')");
    one(std::string("qr_wide_") + mode, {F32({3, 5})}, p, std::string("torch.linalg.qr(x0, mode='") + mode + "')");
  }
  one("geqrf", {F64({2, 4, 3})}, lp(LinalgOp::Geqrf), "torch.geqrf(x0)");
  cases.push_back({"linalg_householder_product", {F64({2, 5, 3})}, "(torch.linalg.householder_product(*torch.geqrf(x0)),)",
                   [](Network& n, const Ins& x) -> Ins {
                     auto* g = n.add_layer("g", x, lp(LinalgOp::Geqrf));
                     return n.add_layer("y", {g->output(0), g->output(1)}, lp(LinalgOp::HouseholderProduct))->outputs;
                   },
                   1e-9, 1e-9});
  for (const bool left : {true, false})
    for (const bool transpose : {false, true}) {
      auto p = lp(LinalgOp::Ormqr);
      p.left = left;
      p.transpose = transpose;
      const std::string flags = std::string(left ? "True" : "False") + ", " + (transpose ? "True" : "False");
      cases.push_back({"linalg_ormqr_" + std::to_string(left) + std::to_string(transpose),
                       {F64({2, 4, 3}), F64(left ? Dims{2, 4, 2} : Dims{2, 2, 4})},
                       "(torch.ormqr(*torch.geqrf(x0), x1, " + flags + "),)",
                       [p](Network& n, const Ins& x) -> Ins {
                         auto* g = n.add_layer("g", {x[0]}, lp(LinalgOp::Geqrf));
                         return n.add_layer("y", {g->output(0), g->output(1), x[1]}, p)->outputs;
                       },
                       1e-9, 1e-9});
    }
  for (const bool full : {false, true}) {
    auto p = lp(LinalgOp::Svd);
    p.full = full;
    const std::string f = full ? "True" : "False";
    one("svd_" + f, {F64({2, 5, 3})}, p, "torch.linalg.svd(x0, full_matrices=" + f + ")");
    one("svd_wide_" + f, {F32({3, 4})}, p, "torch.linalg.svd(x0, full_matrices=" + f + ")");
  }
  auto svals = lp(LinalgOp::Svd);
  svals.vectors = false;
  one("svdvals", {F64({2, 3, 4})}, svals, "torch.ops.aten._linalg_svd(x0, compute_uv=False)");
  for (const bool upper : {false, true}) {
    auto p = lp(LinalgOp::Eigh);
    p.upper = upper;
    one(std::string("eigh_") + (upper ? "U" : "L"), {F64({2, 4, 4})}, p,
        std::string("torch.linalg.eigh(x0, UPLO='") + (upper ? "U" : "L") + "')");
  }
  auto evals = lp(LinalgOp::Eigh);
  evals.vectors = false;
  one("eigvalsh", {F32({3, 3})}, evals, "torch.ops.aten._linalg_eigh(x0, compute_v=False)");
  for (const bool herm : {false, true}) {
    auto p = lp(LinalgOp::Pinv);
    p.hermitian = herm;
    cases.push_back({std::string("linalg_pinv") + (herm ? "_hermitian" : ""), {F64({2, 4, herm ? 4 : 3})},
                     std::string("(torch.linalg.pinv(") + (herm ? "x0 + x0.mT" : "x0") + ", rtol=0.05, hermitian=" +
                         (herm ? "True" : "False") + "),)",
                     [p, herm](Network& n, const Ins& x) -> Ins {
                       NetworkTensor* a = herm ? n.add_elementwise("sym", x[0], n.add_permute("t", x[0], {0, 2, 1}), ElementwiseOp::Add) : x[0];
                       Tensor atol(DType::Float64, {2}), rtol(DType::Float64, {2});
                       for (int i = 0; i < 2; ++i) {
                         atol.mutable_data<double>()[i] = 0.0;
                         rtol.mutable_data<double>()[i] = 0.05;
                       }
                       return n.add_layer("y", {a, n.add_constant("atol", atol), n.add_constant("rtol", rtol)}, p)->outputs;
                     },
                     1e-9, 1e-9});
  }
  one("matrix_exp", {F64({2, 4, 4})}, lp(LinalgOp::MatrixExp), "(torch.linalg.matrix_exp(x0),)", 1e-7);
  one("matrix_exp_f32", {F32({3, 3})}, lp(LinalgOp::MatrixExp), "(torch.linalg.matrix_exp(x0),)");
  return cases;
}

}  // namespace atenrt::testing
