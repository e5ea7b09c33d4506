// Size arithmetic that cannot wrap. Shapes, strides and offsets come from
// untrusted files; a product that silently wraps becomes a tiny allocation
// followed by an out-of-bounds write, or a zero divisor (SIGFPE). Every size
// computation (elements, bytes, strides, offsets, memory plans, scratch) goes
// through these, and an overflow is an atenrt error naming the value.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "atenrt/errors.h"

namespace atenrt::checked {

// The largest size we accept: sizes also travel as int64 and ptrdiff_t.
constexpr std::uint64_t kMaxSize = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

template <class E = FormatError>
[[noreturn]] void overflow(std::string_view what, std::uint64_t a, char op, std::uint64_t b) {
  throw E(std::string(what) + ": " + std::to_string(a) + " " + op + " " + std::to_string(b) +
          " overflows (more than 2^63 - 1)");
}

template <class E = FormatError>
std::uint64_t mul(std::uint64_t a, std::uint64_t b, std::string_view what) {
  if (a != 0 && b > kMaxSize / a) overflow<E>(what, a, '*', b);
  return a * b;
}

template <class E = FormatError>
std::uint64_t add(std::uint64_t a, std::uint64_t b, std::string_view what) {
  if (a > kMaxSize || b > kMaxSize - a) overflow<E>(what, a, '+', b);
  return a + b;
}

// A dimension or count that must not be negative.
template <class E = FormatError>
std::uint64_t nonneg(std::int64_t v, std::string_view what) {
  if (v < 0) throw E(std::string(what) + ": negative size " + std::to_string(v));
  return static_cast<std::uint64_t>(v);
}

// Product of dims (elements); negative (dynamic) dims are refused.
template <class E = FormatError>
std::uint64_t numel(const std::vector<std::int64_t>& dims, std::string_view what) {
  std::uint64_t n = 1;
  for (std::int64_t d : dims) n = mul<E>(n, nonneg<E>(d, what), what);
  return n;
}

// Bytes of a dense tensor of `dims` with `element_size`-byte elements.
template <class E = FormatError>
std::uint64_t nbytes(const std::vector<std::int64_t>& dims, std::uint64_t element_size,
                     std::string_view what) {
  return mul<E>(numel<E>(dims, what), element_size, what);
}

// a rounded up to a multiple of `align` (> 0).
template <class E = FormatError>
std::uint64_t align_up(std::uint64_t a, std::uint64_t align, std::string_view what) {
  return add<E>(a, (align - a % align) % align, what);
}

// A size that a caller will hold in size_t / int64.
template <class E = FormatError>
std::int64_t to_i64(std::uint64_t v, std::string_view what) {
  if (v > kMaxSize) throw E(std::string(what) + ": " + std::to_string(v) + " does not fit in int64");
  return static_cast<std::int64_t>(v);
}

// A double as int64 without undefined behaviour: truncated toward zero,
// saturated at the int64 range, NaN as 0 (a plain cast of inf, NaN or 1e30 is UB).
inline std::int64_t saturating_i64(double v) {
  if (v != v) return 0;
  if (v >= 9223372036854775807.0) return std::numeric_limits<std::int64_t>::max();
  if (v <= -9223372036854775808.0) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v);
}

}  // namespace atenrt::checked
