// Run-time assertions: `_assert_scalar` on a symbolic value known only when
// the engine runs (a condition on a dynamic dim, or on item() of a computed
// tensor) and `_assert_async` on a one-element tensor. Each becomes a Check
// layer: a run whose condition is false stops with an InputError naming the
// node and the condition. Conditions known when the network is built are
// checked here (lowering's symbolic_values pass checks and removes those it
// can compute first) and add no layer.
#include <string>

#include "atenrt/errors.h"
#include "conversion/aten_ops/common.h"
#include "conversion/impl/converter_utils.h"
#include "conversion/impl/elementwise.h"

namespace atenrt::conversion::aten_ops {
namespace {
constexpr Family kFamily{.name = "assertion", .supports_dynamic_shapes = true};
using network::ElementwiseOp;

// Messages come from the archive: bounded, so an engine file's Check stays small.
std::string quoted(const std::string& text) {
  constexpr std::size_t kMax = 1000;
  return "'" + (text.size() > kMax ? text.substr(0, kMax) + "..." : text) + "'";
}

// Python's truth of the value: a bool as it is, a number non-zero.
NetworkTensor* truth(const Scope& s, NetworkTensor* x) {
  if (x->dtype == DType::Bool) return x;
  return impl::elementwise::compare(s, {x, std::nullopt}, {nullptr, Scalar::of_int(0)}, ElementwiseOp::NotEqual);
}

void add_check(const Scope& s, NetworkTensor* cond, const std::string& message) {
  s.add_layer("check", {truth(s, cond)}, network::CheckParams{message});
}

ATENRT_CONVERTER(kFamily, "aten._assert_scalar.default")(const Scope& s, const NodeArgs& args) {
  const std::string msg = args.opt_str("assert_msg").value_or("");
  const Value v = args.value("self");
  if (auto known = NodeArgs::as_scalar(v); known && !v.is_host_tensor()) {
    const bool holds = known->is_float() ? known->f != 0.0 : known->i != 0;
    if (!holds) throw UnsupportedError(s.where() + ": the assertion " + quoted(msg) + " is false for the archive's own shapes");
    return {};
  }
  NetworkTensor* t = args.tensor("self");
  if (t->rank() != 0) throw UnsupportedError(s.where() + ": argument 'self' must be a number, got " + v.describe());
  add_check(s, t, s.where() + ": the assertion " + quoted(msg) + " is false for these inputs");
  return {};
}

// torch takes the truth of a one-element tensor and raises for any other.
Capability one_element(const NodeView& node, const ConversionSettings&) {
  const ir::TensorMeta* m = node.meta("self");
  if (!m) return Capability::yes();
  for (const auto& d : m->sizes) {
    if (!d.is_static() || *d.value != 1) {
      return Capability::no("_assert_async of a tensor that may not hold exactly one element (" + m->to_string() +
                            "); torch raises for it");
    }
  }
  return Capability::yes();
}

Outputs assert_async(const Scope& s, const NodeArgs& args, const std::string& what) {
  NetworkTensor* t = args.tensor("self");
  if (impl::numel(impl::static_dims(t, "_assert_async")) != 1) {
    throw UnsupportedError(s.where() + ": the condition must hold exactly one element");
  }
  if (auto host = args.host_tensor("self")) {
    // Python's bool() of the element: non-zero (nan included); -0.0 is false.
    auto bytes = host->contiguous().to_bytes();
    if (is_floating(host->dtype())) bytes.back() &= std::byte{0x7f};  // little-endian: the sign bit
    bool holds = false;
    for (std::byte b : bytes) holds = holds || b != std::byte{0};
    if (!holds) throw UnsupportedError(s.where() + ": " + what + " (its condition is a constant)");
    return {};
  }
  add_check(s, t, s.where() + ": " + what);
  return {};
}

ATENRT_CONVERTER(kFamily, "aten._assert_async.default", .validator = one_element)
(const Scope& s, const NodeArgs& args) {
  return assert_async(s, args, "Expected Tensor with single nonzero value, but got zero");
}
ATENRT_CONVERTER(kFamily, "aten._assert_async.msg", .validator = one_element)
(const Scope& s, const NodeArgs& args) {
  return assert_async(s, args, "the assertion " + quoted(args.opt_str("assert_msg").value_or("")) + " is false");
}

}  // namespace
}  // namespace atenrt::conversion::aten_ops
