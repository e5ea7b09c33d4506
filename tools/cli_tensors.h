// Tensor statistics for the CLI: the one-line summary `run` prints per output
// and the per-output error table of `run --compare`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atenrt/tensor.h"

namespace atenrt::cli {

struct TensorStats {
  double min = 0, max = 0, mean = 0;
  std::int64_t nan = 0;
};
// nullopt for dtypes without a host representation here (fp16, bf16).
std::optional<TensorStats> tensor_stats(const Tensor& t);

// One row of the comparison table. Elementwise, as numpy.allclose:
// |got - want| <= atol + rtol * |want|; NaN matches NaN.
struct Comparison {
  std::string name;
  std::string problem;  // non-empty: dtype/shape differ or not comparable
  double max_abs = 0, max_rel = 0;
  std::int64_t mismatched = 0, total = 0;
  bool ok() const { return problem.empty() && mismatched == 0; }
};
Comparison compare_tensors(const std::string& name, const Tensor& got, const Tensor& want, double rtol, double atol);

std::string describe_tensor(const Tensor& t);  // "float32[1, 10]"

}  // namespace atenrt::cli
