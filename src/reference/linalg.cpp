// Dispatch of the linear-algebra layers by op and dtype; the sizing pass and
// the run go through the same op function (linalg_job.h).
#include "reference/linalg.h"

#include <stdexcept>

#include "reference/linalg_job.h"

namespace atenrt::reference::linalg {
namespace {

template <typename T>
void dispatch(Job<T>& j) {
  using O = network::LinalgOp;
  switch (j.p.op) {
    case O::Inverse: return inverse(j);
    case O::Solve: return solve(j);
    case O::LuFactor: return lu_factor(j);
    case O::Lu: return lu(j);
    case O::LuUnpack: return lu_unpack(j);
    case O::LuSolve: return lu_solve(j);
    case O::Cholesky: return cholesky(j);
    case O::CholeskySolve: return cholesky_solve(j);
    case O::CholeskyInverse: return cholesky_inverse(j);
    case O::Qr: return qr(j);
    case O::Svd: return svd(j);
    case O::Eigh: return eigh(j);
    case O::Det:
    case O::Slogdet: return det(j);
    case O::TriangularSolve: return triangular_solve(j);
    case O::LdlFactor: return ldl_factor(j);
    case O::LdlSolve: return ldl_solve(j);
    case O::Geqrf: return geqrf(j);
    case O::HouseholderProduct: return householder_product(j);
    case O::Ormqr: return ormqr(j);
    case O::Pinv: return pinv(j);
    case O::MatrixExp: return matrix_exp(j);
  }
  j.unsupported("unknown op");
}

template <typename F>
void by_dtype(std::string_view layer, const network::LinalgParams& p, std::span<const network::TensorDesc> inputs,
              F&& f) {
  if (!inputs.empty() && inputs[0].dtype == DType::Float32) return f(float{});
  if (!inputs.empty() && inputs[0].dtype == DType::Float64) return f(double{});
  throw UnsupportedError("layer '" + std::string(layer) + "' (LinearAlgebra " +
                         std::string(network::linalg_op_name(p.op)) + "): takes float32 or float64 only");
}

}  // namespace

std::size_t scratch_bytes(std::string_view layer, const network::LinalgParams& p,
                          std::span<const network::TensorDesc> inputs, std::span<const network::TensorDesc> outputs) {
  std::size_t bytes = 0;
  by_dtype(layer, p, inputs, [&](auto zero) {
    using T = decltype(zero);
    Job<T> j{layer, p, inputs, outputs, {}, {}};
    dispatch(j);
    bytes = j.used;
  });
  return bytes;
}

void run(std::string_view layer, const network::LinalgParams& p, std::span<const network::TensorDesc> inputs,
         std::span<const network::TensorDesc> outputs, std::span<const void* const> in, std::span<void* const> out,
         void* scratch, std::size_t scratch_size) {
  by_dtype(layer, p, inputs, [&](auto zero) {
    using T = decltype(zero);
    Job<T> j{layer, p, inputs, outputs, in, out};
    j.sizing = false;
    j.scratch = static_cast<std::byte*>(scratch);
    j.capacity = scratch_size;
    dispatch(j);
  });
}

}  // namespace atenrt::reference::linalg
