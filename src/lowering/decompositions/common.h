// Pieces shared by the decomposition families.
#pragma once

#include <cmath>
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

// A number operand that keeps integer tensors integer (torch writes 2, not 2.0).
inline ir::Argument number_for(GraphBuilder& b, const std::string& like, double v) {
  if (!is_floating(b.dtype(like)) && v == std::floor(v) && std::fabs(v) < 0x1p63) {
    return ir::Argument(static_cast<std::int64_t>(v));
  }
  return num(v);
}

// A Python number as PyTorch's kernels take it for a tensor of dtype `dt` (Scalar::to<scalar_t>):
// an integer tensor truncates it, so addbmm(beta=0.6, alpha=0.2) on int64 is 0 * self + 0 * sum.
// A number an int64 cannot hold makes PyTorch raise; the decomposition declines it.
inline double kernel_scalar(DType dt, double v) {
  if (is_floating(dt)) return v;
  if (!(std::fabs(v) < 0x1p63)) throw Decline{"a scalar an integer tensor cannot hold"};
  return std::trunc(v);
}

// beta * self + alpha * product, the tail of addmm/addmv/baddbmm/addbmm, with beta and alpha as
// the kernels take them (kernel_scalar). beta == 0 ignores self entirely (PyTorch does not
// propagate its NaNs).
inline std::string beta_alpha(GraphBuilder& b, const std::string& self, const std::string& product, double beta,
                              double alpha) {
  const DType dt = b.dtype(product);
  beta = kernel_scalar(dt, beta);
  alpha = kernel_scalar(dt, alpha);
  auto times = [&b](const std::string& v, double s) {
    return s == 1.0 ? v : b.mul(ir::TensorRef{v}, number_for(b, v, s));
  };
  const std::string p = times(product, alpha);
  if (beta == 0.0) return p;
  return b.add(ir::TensorRef{times(self, beta)}, ir::TensorRef{p});
}

inline ir::Argument tv(const std::string& v) { return ir::TensorRef{v}; }

// ---- validator pieces: a decomposition refuses a node before it runs.

using ir::Capability;

// Yes when every named tensor argument has a floating dtype (integer inputs
// change PyTorch's arithmetic). `what` names the decomposition in the
// reason; empty: the op's name. Arguments without metadata are left to the
// decomposition itself, which reports them as malformed.
inline Capability floating_tensors(const ir::NodeView& n, const std::vector<std::string>& args,
                                   const std::string& what = {}) {
  for (const auto& a : args) {
    const ir::Argument* arg = n.find(a);
    const auto* t = arg ? arg->get_if<ir::TensorRef>() : nullptr;
    const ir::TensorMeta* m = t ? n.graph().meta(t->name) : nullptr;
    if (!m) continue;
    if (!m->dtype) return Capability::no("value '" + t->name + "' has an unsupported dtype");
    if (!is_floating(*m->dtype)) {
      return Capability::no((what.empty() ? n.node().target.name : what) + " is decomposed for floating tensors only");
    }
  }
  return Capability::yes();
}

inline DecompositionValidator floating(std::vector<std::string> args, std::string what = {}) {
  return [args = std::move(args), what = std::move(what)](const ir::NodeView& n) {
    return floating_tensors(n, args, what);
  };
}

// The dtype a softmax-like op computes in: its `dtype` argument, else the input's.
inline std::optional<DType> dtype_after_cast(const ir::NodeView& n, const std::string& input) {
  if (const ir::Argument* d = n.find("dtype")) {
    if (const auto* s = d->get_if<ir::ScalarTypeArg>()) return s->dtype;
  }
  return n.dtype_of(input);
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
