// The libtorch fallback plugin on its own: operators called by name through
// the dispatcher, the allowlist, schema differences with torch 2.x graphs.
#include "runtime/torch_plugin.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "atenrt/dtype.h"

namespace atenrt::runtime {
namespace {

using torch_abi::Arg;
using torch_abi::ArgKind;

const torch_abi::Api& plugin() {
  std::string why;
  const auto* api = torch_plugin(&why);
  if (!api) throw std::runtime_error(why);
  return *api;
}

#define REQUIRE_PLUGIN()                                                       \
  if (!torch_fallback_built()) GTEST_SKIP() << "built without ATENRT_WITH_TORCH"

Arg tensor_arg(const std::string& name, std::int64_t index) {
  Arg a;
  a.name = name;
  a.kind = ArgKind::Tensor;
  a.ints = {index};
  return a;
}
Arg int_arg(const std::string& name, std::int64_t v, bool at_default = false) {
  Arg a;
  a.name = name;
  a.kind = ArgKind::Int;
  a.i = v;
  a.at_default = at_default;
  return a;
}
Arg none_arg(const std::string& name) {
  Arg a;
  a.name = name;
  a.at_default = true;
  return a;
}

torch_abi::OpCall call(const std::string& op, const std::string& overload, std::vector<Arg> args,
                       std::size_t tensors, std::size_t outputs) {
  return {"node 'n' (" + op + ")", op, overload, std::move(args), tensors, outputs};
}

torch_abi::TensorView view(const std::vector<float>& data, std::vector<std::int64_t> sizes) {
  std::vector<std::int64_t> strides(sizes.size(), 1);
  for (int d = static_cast<int>(sizes.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * sizes[d + 1];
  return {static_cast<int>(DType::Float32), data.data(), std::move(sizes), std::move(strides), nullptr};
}

std::string refusal(const torch_abi::OpCall& c) {
  try {
    plugin().prepare(c);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(TorchPlugin, Loads) {
  REQUIRE_PLUGIN();
  EXPECT_EQ(std::string(plugin().torch_version).substr(0, 5), "1.13.");
  EXPECT_GE(plugin().num_threads(), 1);
}

TEST(TorchPlugin, CreationOpWithScalarType) {
  REQUIRE_PLUGIN();
  Arg dtype;
  dtype.name = "dtype";
  dtype.kind = ArgKind::ScalarType;
  dtype.i = static_cast<int>(DType::Float32);
  Arg device;
  device.name = "device";
  device.kind = ArgKind::Device;
  device.s = "cpu";
  auto op = plugin().prepare(call("aten::eye", "", {int_arg("n", 3), dtype, none_arg("layout"), device,
                                                    none_arg("pin_memory")}, 0, 1));
  auto out = op->run({});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].view.sizes, (std::vector<std::int64_t>{3, 3}));
  const auto* p = static_cast<const float*>(out[0].view.data);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(p[i], i % 4 == 0 ? 1.0f : 0.0f);
}

TEST(TorchPlugin, TensorsGoInWithoutCopiesAndOutputsOwnTheirStorage) {
  REQUIRE_PLUGIN();
  std::vector<float> x = {2.0f, 3.0f};
  std::vector<float> q = {1.0f, 1.0f};
  auto op = plugin().prepare(call("aten::special_zeta", "", {tensor_arg("self", 0), tensor_arg("other", 1)}, 2, 1));
  auto out = op->run({view(x, {2}), view(q, {2})});
  const auto* p = static_cast<const float*>(out[0].view.data);
  EXPECT_NEAR(p[0], std::numbers::pi * std::numbers::pi / 6, 1e-5);
  EXPECT_NEAR(p[1], 1.2020569, 1e-5);
  // A view of an input comes back as a copy: our buffers are reused.
  Arg size;
  size.name = "size";
  size.kind = ArgKind::IntList;
  size.ints = {1, 2};
  auto v = plugin().prepare(call("aten::view", "", {tensor_arg("self", 0), size}, 1, 1))->run({view(x, {2})});
  EXPECT_NE(v[0].view.data, static_cast<const void*>(x.data()));
  EXPECT_EQ(static_cast<const float*>(v[0].view.data)[1], 3.0f);
}

// An optional tensor left out is None, not a wrapped zero (which changed
// weighted losses and made searchsorted refuse its sorter).
TEST(TorchPlugin, NoneInAnOptionalTensorSlotStaysNone) {
  REQUIRE_PLUGIN();
  std::vector<float> seq = {1.0f, 2.0f, 3.0f};
  std::vector<float> x = {2.5f};
  auto op = plugin().prepare(call("aten::searchsorted", "Tensor",
                                  {tensor_arg("sorted_sequence", 0), tensor_arg("self", 1), none_arg("sorter")}, 2, 1));
  auto out = op->run({view(seq, {3}), view(x, {1})});
  EXPECT_EQ(out[0].view.dtype, static_cast<int>(DType::Int64));
  EXPECT_EQ(static_cast<const std::int64_t*>(out[0].view.data)[0], 2);
}

TEST(TorchPlugin, MultipleOutputs) {
  REQUIRE_PLUGIN();
  std::vector<float> a = {4.0f, 0.0f, 0.0f, 2.0f};
  Arg check;
  check.name = "check_errors";
  check.kind = ArgKind::Bool;
  check.at_default = true;
  auto out = plugin().prepare(call("aten::linalg_inv_ex", "", {tensor_arg("A", 0), check}, 1, 2))->run({view(a, {2, 2})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(static_cast<const float*>(out[0].view.data)[0], 0.25f);
  EXPECT_EQ(static_cast<const float*>(out[0].view.data)[3], 0.5f);
  EXPECT_EQ(out[1].view.dtype, static_cast<int>(DType::Int32));
}

TEST(TorchPlugin, AllowlistRefusesImpureOperators) {
  REQUIRE_PLUGIN();
  EXPECT_NE(refusal(call("aten::from_file", "", {}, 0, 1)).find("allowlist"), std::string::npos);
  EXPECT_NE(refusal(call("aten::relu_", "", {tensor_arg("self", 0)}, 1, 1)).find("in-place"), std::string::npos);
  EXPECT_NE(refusal(call("aten::as_strided", "", {}, 1, 1)).find("allowlist"), std::string::npos);
  EXPECT_NE(refusal(call("aten::bernoulli", "", {}, 1, 1)).find("allowlist"), std::string::npos);
  EXPECT_NE(refusal(call("aten::add", "out", {}, 1, 1)).find("out="), std::string::npos);
  EXPECT_NE(refusal(call("prims::add", "", {}, 1, 1)).find("only aten"), std::string::npos);
  // Schema-based: an argument the operator writes to.
  const auto written = refusal(call("aten::_cummax_helper", "", {}, 1, 1));
  EXPECT_NE(written.find("written"), std::string::npos) << written;
}

TEST(TorchPlugin, SchemaDifferencesWithNewerTorch) {
  REQUIRE_PLUGIN();
  // An operator 1.13 lacks: named, with the libtorch version.
  const auto missing = refusal(call("aten::_scaled_dot_product_flash_attention_for_cpu", "", {}, 0, 1));
  EXPECT_NE(missing.find(" has no operator aten::_scaled_dot_product_flash_attention_for_cpu"), std::string::npos)
      << missing;
  // An argument added in 2.x: dropped at its default, refused otherwise.
  std::vector<float> x = {1.0f, -2.0f};
  Arg approx;
  approx.name = "approximate";
  approx.kind = ArgKind::String;
  approx.s = "none";
  auto gelu = plugin().prepare(call("aten::gelu", "", {tensor_arg("self", 0), approx, int_arg("future_arg", 0, true)}, 1, 1));
  EXPECT_NEAR(static_cast<const float*>(gelu->run({view(x, {2})})[0].view.data)[0], 0.8413447f, 1e-6);
  const auto added = refusal(call("aten::gelu", "", {tensor_arg("self", 0), int_arg("future_arg", 3)}, 1, 1));
  EXPECT_NE(added.find("argument 'future_arg' is not in libtorch 1.13"), std::string::npos) << added;
  // A type the schema does not take.
  Arg wrong;
  wrong.name = "approximate";
  wrong.kind = ArgKind::Double;
  const auto type = refusal(call("aten::gelu", "", {tensor_arg("self", 0), wrong}, 1, 1));
  EXPECT_NE(type.find("argument 'approximate' does not fit"), std::string::npos) << type;
  // A required argument the graph does not give.
  EXPECT_NE(refusal(call("aten::gelu", "", {}, 0, 1)).find("needs argument 'self'"), std::string::npos);
}

TEST(TorchPlugin, BadCallsAreErrorsNotCrashes) {
  REQUIRE_PLUGIN();
  std::vector<float> a = {1.0f, 2.0f, 3.0f};
  auto op = plugin().prepare(call("aten::linalg_inv_ex", "", {tensor_arg("A", 0)}, 1, 2));
  try {
    op->run({view(a, {3})});  // not a matrix
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("node 'n'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(op->run({}), std::runtime_error);
  EXPECT_NE(refusal(call("aten::linalg_inv_ex", "", {tensor_arg("A", 5)}, 1, 2)).find("names tensor 5"), std::string::npos);
}

}  // namespace
}  // namespace atenrt::runtime
