#include "conversion/impl/random.h"

#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include "conversion/host_tensor.h"
#include "conversion/impl/creation.h"

namespace atenrt::conversion::impl::random {
namespace {

std::mt19937_64 generator(const Scope& s) { return std::mt19937_64(std::hash<std::string>{}(s.node_name())); }

template <typename Distribution>
Tensor draw(const Scope& s, const std::vector<std::int64_t>& size, DType dtype, Distribution dist) {
  if (auto why = creation::size_problem(size)) check(false, *why);
  Tensor t(dtype, size);
  auto gen = generator(s);
  for (std::int64_t i = 0; i < t.numel(); ++i) set_element(t, i, dist(gen));
  return t;
}

}  // namespace

Tensor uniform(const Scope& s, const std::vector<std::int64_t>& size, DType dtype) {
  return draw(s, size, dtype, std::uniform_real_distribution<double>(0.0, 1.0));
}

Tensor normal(const Scope& s, const std::vector<std::int64_t>& size, DType dtype) {
  return draw(s, size, dtype, std::normal_distribution<double>(0.0, 1.0));
}

Tensor permutation(const Scope& s, std::int64_t n, DType dtype) {
  check(n >= 0, "randperm n must be non-negative");
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  auto gen = generator(s);
  std::shuffle(v.begin(), v.end(), gen);
  Tensor t(dtype, {n});
  for (std::int64_t i = 0; i < n; ++i) set_element_int(t, i, v[static_cast<std::size_t>(i)]);
  return t;
}

}  // namespace atenrt::conversion::impl::random
