// Pieces shared by the decomposition families.
#pragma once

#include <string>
#include <vector>

#include "atenrt/errors.h"
#include "lowering/graph_builder.h"
#include "lowering/node_args.h"
#include "lowering/registry.h"

namespace atenrt::lowering::decomp {

using Values = std::vector<std::string>;

// v * s, or v itself when s == 1.
inline std::string scaled(GraphBuilder& b, const std::string& v, double s) {
  return s == 1.0 ? v : b.mul(ir::TensorRef{v}, num(s));
}

// beta * self + alpha * product, the tail of addmm/addmv/baddbmm/addbmm.
// beta == 0 ignores self entirely (PyTorch does not propagate its NaNs).
inline std::string beta_alpha(GraphBuilder& b, const std::string& self, const std::string& product, double beta,
                              double alpha) {
  const std::string p = scaled(b, product, alpha);
  if (beta == 0.0) return p;
  return b.add(ir::TensorRef{scaled(b, self, beta)}, ir::TensorRef{p});
}

inline ir::Argument tv(const std::string& v) { return ir::TensorRef{v}; }

// Floating dtype required (integer inputs change PyTorch's arithmetic).
inline void require_floating(GraphBuilder& b, const std::string& v, const char* what) {
  if (!is_floating(b.dtype(v))) throw Decline{std::string(what) + " is decomposed for floating tensors only"};
}

// Normalised reduction dims; empty/None means all dims.
inline std::vector<std::int64_t> dims_or_all(const std::optional<std::vector<std::int64_t>>& dims, int rank,
                                             const std::string& where) {
  std::vector<std::int64_t> out;
  if (dims && !dims->empty()) {
    for (auto d : *dims) out.push_back(normalize_dim(d, rank, where));
  } else {
    for (int i = 0; i < rank; ++i) out.push_back(i);
  }
  return out;
}

// Product of the sizes of `dims` (static, or Decline).
inline std::int64_t count_over(GraphBuilder& b, const std::string& v, const std::vector<std::int64_t>& dims,
                               const char* why) {
  std::int64_t n = 1;
  for (auto d : dims) n *= b.static_dim(v, static_cast<int>(d), why);
  return n;
}

}  // namespace atenrt::lowering::decomp
