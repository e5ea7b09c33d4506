#include "cli_tensors.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace atenrt::cli {
namespace {

template <typename T>
std::vector<double> values_as(const Tensor& t) {
  const Tensor c = t.contiguous();
  const T* p = c.data<T>();
  return std::vector<double>(p, p + c.numel());
}

std::optional<std::vector<double>> values(const Tensor& t) {
  switch (t.dtype()) {
    case DType::Float32: return values_as<float>(t);
    case DType::Float64: return values_as<double>(t);
    case DType::Int64: return values_as<std::int64_t>(t);
    case DType::Int32: return values_as<std::int32_t>(t);
    case DType::Int16: return values_as<std::int16_t>(t);
    case DType::Int8: return values_as<std::int8_t>(t);
    case DType::UInt8: return values_as<std::uint8_t>(t);
    case DType::Bool: return values_as<bool>(t);
    default: return std::nullopt;
  }
}

}  // namespace

std::string describe_tensor(const Tensor& t) { return std::string(dtype_name(t.dtype())) + shape_to_string(t.sizes()); }

std::optional<TensorStats> tensor_stats(const Tensor& t) {
  const auto v = values(t);
  if (!v) return std::nullopt;
  TensorStats s;
  double sum = 0;
  std::int64_t counted = 0;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  for (double x : *v) {
    if (std::isnan(x)) {
      ++s.nan;
      continue;
    }
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
    sum += x;
    ++counted;
  }
  if (!counted) s.min = s.max = 0;
  s.mean = counted ? sum / static_cast<double>(counted) : 0.0;
  return s;
}

Comparison compare_tensors(const std::string& name, const Tensor& got, const Tensor& want, double rtol, double atol) {
  Comparison c;
  c.name = name;
  if (got.sizes() != want.sizes()) {
    c.problem = "shape " + describe_tensor(got) + ", reference " + describe_tensor(want);
    return c;
  }
  const auto g = values(got);
  const auto w = values(want);
  if (!g || !w) {
    c.problem = "cannot compare " + describe_tensor(got) + " with " + describe_tensor(want);
    return c;
  }
  c.total = static_cast<std::int64_t>(g->size());
  for (std::size_t i = 0; i < g->size(); ++i) {
    const double a = (*g)[i], b = (*w)[i];
    if ((std::isnan(a) && std::isnan(b)) || a == b) continue;  // equal infinities too (their difference is NaN)
    const double diff = std::abs(a - b);
    if (std::isnan(diff) || (std::isinf(diff) && a != b)) {
      ++c.mismatched;
      c.max_abs = std::numeric_limits<double>::infinity();
      continue;
    }
    c.max_abs = std::max(c.max_abs, diff);
    if (b != 0) c.max_rel = std::max(c.max_rel, diff / std::abs(b));
    if (diff > atol + rtol * std::abs(b)) ++c.mismatched;
  }
  return c;
}

}  // namespace atenrt::cli
