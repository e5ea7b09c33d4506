// The Network API: shape inference, validation errors that name the layer,
// dynamic dims, rewriting, and the reference executor's input checks. Small
// hand-computed cases here run without PyTorch.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "network/network.h"
#include "reference/reference.h"

namespace atenrt::network {
namespace {

Tensor f32(Dims dims, std::vector<float> values) {
  Tensor t(DType::Float32, std::move(dims));
  std::memcpy(t.raw_mutable_data(), values.data(), values.size() * sizeof(float));
  return t;
}
Tensor i64(Dims dims, std::vector<std::int64_t> values) {
  Tensor t(DType::Int64, std::move(dims));
  std::memcpy(t.raw_mutable_data(), values.data(), values.size() * sizeof(std::int64_t));
  return t;
}
std::vector<float> floats(const Tensor& t) {
  const Tensor c = t.contiguous();
  return {c.data<float>(), c.data<float>() + c.numel()};
}
std::vector<std::int64_t> ints(const Tensor& t) {
  const Tensor c = t.contiguous();
  return {c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel()};
}

// Expects `f` to throw E whose message contains every fragment.
template <typename E, typename F>
void expect_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E& e) {
    for (const auto& frag : fragments) EXPECT_NE(std::string(e.what()).find(frag), std::string::npos) << e.what();
  }
}

TEST(Network, InfersDtypesAndDims) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {2, 3, 8, 8});
  auto* w = n.add_constant("w", Tensor(DType::Float32, {4, 3, 3, 3}));
  ConvolutionParams cp;
  cp.stride = {2, 2};
  cp.padding_pre = {1, 1};
  auto* y = n.add_convolution("conv", x, w, nullptr, cp);
  EXPECT_EQ(y->dims, (Dims{2, 4, 4, 4}));
  // Defaults were filled into the stored params.
  const auto& stored = n.find_layer("conv")->params_as<ConvolutionParams>();
  EXPECT_EQ(stored.padding_post, (Dims{1, 1}));
  EXPECT_EQ(stored.dilation, (Dims{1, 1}));
  auto* cmp = n.add_elementwise("gt", y, n.add_constant("zero", Tensor(DType::Float32, {})), ElementwiseOp::Greater);
  EXPECT_EQ(cmp->dtype, DType::Bool);
  auto* red = n.add_reduce("sum", cmp, ReduceOp::Sum, {1, -1}, false);
  EXPECT_EQ(red->dtype, DType::Int64);
  EXPECT_EQ(red->dims, (Dims{2, 4}));
  auto* topk = n.add_topk("topk", y, 2, 1, true);
  EXPECT_EQ(topk->output(0)->dims, (Dims{2, 2, 4, 4}));
  EXPECT_EQ(topk->output(1)->dtype, DType::Int64);
  EXPECT_EQ(topk->output(1)->name, "topk:1");
  auto* mm = n.add_matmul("mm", n.add_input("a", DType::Float32, {5, 1, 2, 3}),
                          n.add_input("b", DType::Float32, {4, 3, 7}));
  EXPECT_EQ(mm->dims, (Dims{5, 4, 2, 7}));
  auto* vec = n.add_matmul("mv", n.add_input("m", DType::Float32, {2, 3}), n.add_input("v", DType::Float32, {3}));
  EXPECT_EQ(vec->dims, (Dims{2}));
  auto* g = n.add_gather("emb", n.add_input("table", DType::Float32, {10, 4}),
                         n.add_input("ids", DType::Int64, {2, 5}), GatherMode::Axis, 0);
  EXPECT_EQ(g->dims, (Dims{2, 5, 4}));
  auto* sl = n.add_slice("sl", x, {3, 2}, {-3, 1}, {std::numeric_limits<std::int64_t>::max(), 7}, {1, 3});
  EXPECT_EQ(sl->dims, (Dims{2, 3, 2, 3}));
  PoolingParams pp;
  pp.kernel = {3, 3};
  pp.stride = {2, 2};
  pp.padding_pre = {1, 1};
  pp.ceil_mode = true;
  EXPECT_EQ(n.add_pooling("pool", x, pp)->dims, (Dims{2, 3, 5, 5}));  // torch: ceil((8+2-3)/2)+1
  pp.ceil_mode = false;
  EXPECT_EQ(n.add_pooling("pool_floor", x, pp)->dims, (Dims{2, 3, 4, 4}));
  n.validate();
}

TEST(Network, DynamicDimsPropagate) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {-1, 3, 4});
  auto* y = n.add_elementwise("add", x, n.add_input("b", DType::Float32, {4}), ElementwiseOp::Add);
  EXPECT_EQ(y->dims, (Dims{-1, 3, 4}));
  auto* r = n.add_reshape("flat", y, {-1, 12});
  EXPECT_EQ(r->dims, (Dims{-1, 12}));
  auto* c = n.add_concatenation("cat", {x, x}, 0);
  EXPECT_EQ(c->dims, (Dims{-1, 3, 4}));
  auto* s = n.add_shape("shape", x);
  EXPECT_EQ(s->dims, (Dims{3}));
  auto* f = n.add_fill("fill", FillParams{}, s);
  EXPECT_EQ(f->dims, (Dims{-1, -1, -1}));
  n.mark_output(r);
  n.mark_output(f);
  // At run time the dynamic dim takes the input's size.
  Tensor xv(DType::Float32, {2, 3, 4});
  Tensor bv = f32({4}, {1, 2, 3, 4});
  auto out = reference::run(n, {{"x", xv}, {"b", bv}});
  EXPECT_EQ(out.at("flat").sizes(), (Dims{2, 12}));
  EXPECT_EQ(floats(out.at("flat"))[13], 2.0f);
  EXPECT_EQ(out.at("fill").sizes(), (Dims{2, 3, 4}));
}

ShuffleParams known_dims(Dims dims) {
  ShuffleParams p;
  p.reshape_dims = std::move(dims);
  return p;
}

// A reshape by a shape tensor keeps the dims the converter knew ([s0, s1, 2, 3]: the heads), and a
// slice of a whole dim that was dynamic takes the size the run gives (the unbind of those heads).
TEST(Network, DynamicReshapeKeepsItsKnownDims) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {-1, -1, 6});
  auto* lead = n.add_slice("lead", n.add_shape("shape", x), {0}, {0}, {2}, {1});
  auto* target = n.add_concatenation("target", {lead, n.add_constant("tail", i64({2}, {2, 3}))}, 0);
  auto* y = n.add_shuffle("heads", x, known_dims({-1, -1, 2, 3}), target);
  EXPECT_EQ(y->dims, (Dims{-1, -1, 2, 3}));
  auto* second = n.add_slice("second", y, {2}, {1}, {2}, {1});
  EXPECT_EQ(second->dims, (Dims{-1, -1, 1, 3}));
  n.mark_output(second);
  auto out = reference::run(n, {{"x", f32({2, 1, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})}});
  EXPECT_EQ(out.at("second").sizes(), (Dims{2, 1, 1, 3}));
  EXPECT_EQ(floats(out.at("second")), (std::vector<float>{3, 4, 5, 9, 10, 11}));
  auto* fixed = n.add_constant("fixed", i64({4}, {2, 1, 2, 3}));
  expect_error<LayerError>([&] { n.add_shuffle("other", x, known_dims({-1, -1, 3, 2}), fixed); },
                           {"layer 'other'", "the shape input gives [2, 1, 2, 3]"});
  expect_error<LayerError>([&] { n.add_shuffle("short", x, known_dims({-1, 2, 3}), fixed); },
                           {"layer 'short'", "do not match the shape input"});
}

// A resize to sizes known at run time (F.interpolate(size=y.shape[-2:])): the second input.
TEST(Network, ResizeToARunTimeSize) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 1, -1, -1});
  auto* like = n.add_input("like", DType::Float32, {1, 1, -1, -1});
  auto* size = n.add_slice("hw", n.add_shape("shape", like), {0}, {2}, {4}, {1});
  ResizeParams p;
  p.mode = ResizeMode::Nearest;
  p.output_size = {-1, -1};
  auto* y = n.add_resize("up", x, p, size);
  EXPECT_EQ(y->dims, (Dims{1, 1, -1, -1}));
  n.mark_output(y);
  auto out = reference::run(n, {{"x", f32({1, 1, 2, 2}, {1, 2, 3, 4})}, {"like", Tensor(DType::Float32, {1, 1, 2, 4})}});
  EXPECT_EQ(out.at("up").sizes(), (Dims{1, 1, 2, 4}));
  EXPECT_EQ(floats(out.at("up")), (std::vector<float>{1, 1, 2, 2, 3, 3, 4, 4}));
  p.output_size = {2, 4};
  expect_error<LayerError>([&] { n.add_resize("fixed", x, p, size); }, {"layer 'fixed'", "must be -1s"});
}

TEST(Network, ErrorsNameTheLayer) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {2, 3});
  auto* i = n.add_input("i", DType::Int64, {3});
  expect_error<LayerError>([&] { n.add_elementwise("aten_add_1", x, i, ElementwiseOp::Add); },
                           {"layer 'aten_add_1' (Elementwise)", "float32", "int64"});
  expect_error<LayerError>([&] { n.add_elementwise("bad_bcast", x, n.add_input("z", DType::Float32, {4}), ElementwiseOp::Mul); },
                           {"layer 'bad_bcast'", "broadcast", "[2, 3]", "[4]"});
  expect_error<LayerError>([&] { n.add_matmul("mm", x, x); }, {"layer 'mm' (MatMul)", "inner dims"});
  expect_error<LayerError>([&] { n.add_softmax("sm", x, 2); }, {"layer 'sm' (Softmax)", "axis 2"});
  expect_error<LayerError>([&] { n.add_reshape("rs", x, {4, -1}); }, {"layer 'rs'", "cannot reshape 6"});
  expect_error<LayerError>([&] { n.add_permute("pm", x, {0, 0}); }, {"not a permutation"});
  expect_error<LayerError>([&] { n.add_unary("lg", i, UnaryOp::Log); }, {"layer 'lg' (Unary)", "floating"});
  expect_error<LayerError>([&] { n.add_elementwise("dv", i, i, ElementwiseOp::Div); }, {"true division"});
  expect_error<LayerError>([&] { n.add_reduce("am", x, ReduceOp::ArgMax, {0, 1}, false); }, {"exactly one axis"});
  expect_error<LayerError>([&] { n.add_topk("tk", x, 4, 1, true); }, {"layer 'tk' (TopK)", "k 4"});
  expect_error<LayerError>([&] { n.add_gather("g", x, x, GatherMode::Axis, 0); }, {"indices must be int64"});
  expect_error<LayerError>([&] { n.add_convolution("c", x, x, nullptr, {}); }, {"layer 'c' (Convolution)", "[N, C, spatial"});
  expect_error<LayerError>([&] { n.add_padding("p", x, {PaddingMode::Reflect, {0, 3}, {0, 0}, 0}); }, {"reflect padding 3"});
  expect_error<LayerError>([&] { n.add_activation("clip", x, ActivationOp::Clip, 2.0, 1.0); }, {"greater than max"});
  expect_error<LayerError>([&] { n.add_concatenation("cat", {x, i}, 0); }, {"layer 'cat' (Concatenation)", "int64"});
  expect_error<LayerError>([&] { n.add_select("w", x, x, x); }, {"condition must be bool"});
  expect_error<LayerError>([&] { n.add_activation("x", x, ActivationOp::Relu); }, {"already used"});
  n.add_activation("r", x, ActivationOp::Relu);
  expect_error<LayerError>([&] { n.add_activation("r", x, ActivationOp::Relu); }, {"layer 'r'", "exists"});
  expect_error<LayerError>([&] { n.add_activation("null", nullptr, ActivationOp::Relu); }, {"input 0 is null"});
  Network other;
  auto* foreign = other.add_input("f", DType::Float32, {1});
  expect_error<LayerError>([&] { n.add_activation("foreign", foreign, ActivationOp::Relu); }, {"does not belong"});
  // A failed add leaves the network unchanged.
  EXPECT_EQ(n.num_layers(), 1u);
  n.validate();
}

// Parameters near 2^63 (a hostile engine file or .pt2) must give a layer
// error, not a wrapped size (signed overflow is undefined behaviour; the
// engine-file fuzzer found the pooling case).
TEST(Network, HugeParametersDoNotWrap) {
  constexpr std::int64_t kBig = std::int64_t{1} << 62;
  Network n;
  auto* x = n.add_input("x", DType::Float32, {1, 2, 8, 8});
  PoolingParams pool;
  pool.kernel = {2, 2};
  pool.stride = {1, 1};
  pool.dilation = {kBig, 1};
  expect_error<LayerError>([&] { n.add_pooling("pool", x, pool); }, {"layer 'pool' (Pooling)"});
  pool.dilation = {1, 1};
  pool.stride = {kBig, kBig};
  pool.ceil_mode = true;
  EXPECT_EQ(n.add_pooling("pool_big_stride", x, pool)->dims, (Dims{1, 2, 1, 1}));
  ConvolutionParams conv;
  conv.padding_pre = {kBig, 0};
  conv.padding_post = {kBig, 0};
  auto* w = n.add_constant("w", Tensor(DType::Float32, {2, 2, 1, 1}));
  expect_error<LayerError>([&] { n.add_convolution("conv", x, w, nullptr, conv); },
                           {"layer 'conv' (Convolution)", "does not fit in int64"});
  // A reshape target whose product passes 2^63 (found by the engine-file fuzzer).
  expect_error<LayerError>([&] { n.add_reshape("rs_big", x, {kBig, kBig, 0, -1}); }, {"layer 'rs_big'"});
  expect_error<LayerError>([&] { n.add_reshape("rs_huge", x, {kBig, 4, 8}); }, {"more than 2^63 - 1 elements"});
  // A slice step near INT64_MAX selects one element.
  EXPECT_EQ(n.add_slice("sl", x, {2}, {0}, {8}, {std::numeric_limits<std::int64_t>::max()})->dims,
            (Dims{1, 2, 1, 8}));
}

TEST(Network, RewritingKeepsTheGraphConsistent) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {2, 3});
  auto* a = n.add_activation("relu", x, ActivationOp::Relu);
  auto* b = n.add_activation("sig", a, ActivationOp::Sigmoid);
  auto* dead = n.add_unary("dead", x, UnaryOp::Exp);
  (void)dead;
  n.mark_output(b);
  EXPECT_EQ(n.consumers(a).size(), 1u);
  // Insert a tanh between relu and sig.
  auto* t = n.add_activation("tanh", a, ActivationOp::Tanh);
  n.set_input(n.find_layer("sig"), 0, t);
  EXPECT_TRUE(n.consumers(t).size() == 1 && n.consumers(t)[0]->name == "sig");
  // The builder may add a layer later that an earlier one uses: topological order follows.
  auto order = n.topological_order();
  auto pos = [&](const std::string& name) {
    return std::find_if(order.begin(), order.end(), [&](Layer* l) { return l->name == name; }) - order.begin();
  };
  EXPECT_LT(pos("tanh"), pos("sig"));
  EXPECT_EQ(n.remove_dead_layers(), 1);
  EXPECT_EQ(n.find_layer("dead"), nullptr);
  EXPECT_EQ(n.find_tensor("dead"), nullptr);
  // Replacing the output keeps the output's name.
  auto* c = n.add_activation("clip", t, ActivationOp::Clip, 0.0, 0.5);
  n.replace_all_uses(b, c);
  EXPECT_EQ(n.outputs()[0], c);
  EXPECT_EQ(c->name, "sig");
  EXPECT_FALSE(b->is_output);
  n.remove_layer(n.find_layer("sig"));
  expect_error<LayerError>([&] { n.remove_layer(n.find_layer("relu")); }, {"cannot remove", "used by layer 'tanh'"});
  expect_error<LayerError>([&] { n.set_input(n.find_layer("tanh"), 0, n.add_input("wide", DType::Float32, {4})); },
                           {"would change output"});
  expect_error<LayerError>([&] { n.replace_all_uses(c, n.add_input("other", DType::Float32, {3, 2})); },
                           {"differ"});
  n.validate();
  auto out = reference::run(n, {{"x", f32({2, 3}, {-1, 0, 0.2f, 1, 2, 3})}, {"wide", Tensor(DType::Float32, {4})},
                                {"other", Tensor(DType::Float32, {3, 2})}});
  EXPECT_NEAR(floats(out.at("sig"))[3], 0.5f, 1e-6);
}

TEST(Network, SetParamsAndUniqueNames) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {4});
  n.add_activation("act", x, ActivationOp::Relu);
  EXPECT_EQ(n.unique_layer_name("act"), "act_1");
  EXPECT_EQ(n.unique_layer_name("new"), "new");
  n.set_params(n.find_layer("act"), ActivationParams{ActivationOp::LeakyRelu, 0.5, 0});
  EXPECT_EQ(n.find_layer("act")->kind(), LayerKind::Activation);
  expect_error<LayerError>([&] { n.set_params(n.find_layer("act"), ReduceParams{ReduceOp::Sum, {}, false}); },
                           {"would change output"});
  n.mark_output(n.find_tensor("act"));
  auto out = reference::run(n, {{"x", f32({4}, {-2, -1, 1, 2})}});
  EXPECT_EQ(floats(out.at("act")), (std::vector<float>{-1, -0.5f, 1, 2}));
  EXPECT_NE(n.to_string().find("act = Activation(x) -> float32[4]"), std::string::npos) << n.to_string();
}

TEST(Reference, RejectsBadInputs) {
  Network n;
  auto* x = n.add_input("x", DType::Float32, {-1, 3});
  n.mark_output(n.add_activation("y", x, ActivationOp::Relu));
  expect_error<InputError>([&] { reference::run(n, {}); }, {"input 'x' is missing"});
  expect_error<InputError>([&] { reference::run(n, {{"x", Tensor(DType::Float32, {2, 4})}}); },
                           {"'x' is float32[2, 4], expected float32[-1, 3]"});
  expect_error<InputError>([&] { reference::run(n, {{"x", Tensor(DType::Int64, {2, 3})}}); }, {"int64"});
  expect_error<InputError>(
      [&] { reference::run(n, {{"x", Tensor(DType::Float32, {1, 3})}, {"extra", Tensor()}}); }, {"'extra' is not a network input"});
}

TEST(Reference, RunTimeErrorsAreInputErrors) {
  Network n;
  auto* data = n.add_input("data", DType::Float32, {4});
  auto* idx = n.add_input("idx", DType::Int64, {2});
  n.mark_output(n.add_gather("g", data, idx, GatherMode::Axis, 0));
  expect_error<InputError>([&] { reference::run(n, {{"data", Tensor(DType::Float32, {4})}, {"idx", i64({2}, {1, 4})}}); },
                           {"layer 'g' (Gather)", "index 4 is out of range"});
  Network d;
  auto* a = d.add_input("a", DType::Int64, {2});
  d.mark_output(d.add_elementwise("fd", a, a, ElementwiseOp::FloorDiv));
  expect_error<InputError>([&] { reference::run(d, {{"a", i64({2}, {3, 0})}}); }, {"layer 'fd'", "division by zero"});
}

TEST(Reference, HandComputedCases) {
  // Integer division and remainder signs (torch: floor, trunc, remainder, fmod).
  auto binary = [](ElementwiseOp op, std::vector<std::int64_t> a, std::vector<std::int64_t> b) {
    return ints(reference::run_kernel("op", ElementwiseParams{op}, {i64({4}, a), i64({4}, b)})[0]);
  };
  const std::vector<std::int64_t> a{7, -7, 7, -7}, b{2, 2, -2, -2};
  EXPECT_EQ(binary(ElementwiseOp::FloorDiv, a, b), (std::vector<std::int64_t>{3, -4, -4, 3}));
  EXPECT_EQ(binary(ElementwiseOp::TruncDiv, a, b), (std::vector<std::int64_t>{3, -3, -3, 3}));
  EXPECT_EQ(binary(ElementwiseOp::Remainder, a, b), (std::vector<std::int64_t>{1, 1, -1, -1}));
  EXPECT_EQ(binary(ElementwiseOp::Fmod, a, b), (std::vector<std::int64_t>{1, -1, 1, -1}));
  EXPECT_EQ(binary(ElementwiseOp::Pow, {2, -1, 3, 5}, {10, 3, 0, -1}), (std::vector<std::int64_t>{1024, -1, 1, 0}));
  // Conv: 1x1 input channel, 2x2 kernel of ones over a 3x3 ramp.
  const auto conv = reference::run_kernel(
      "conv", ConvolutionParams{}, {f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), f32({1, 1, 2, 2}, {1, 1, 1, 1})});
  EXPECT_EQ(floats(conv[0]), (std::vector<float>{12, 16, 24, 28}));
  // Deconv is the adjoint of conv: a single 1 spreads the kernel.
  DeconvolutionParams dp;
  dp.stride = {2, 2};
  const auto de = reference::run_kernel("deconv", dp, {f32({1, 1, 1, 2}, {1, 2}), f32({1, 1, 2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(de[0].sizes(), (Dims{1, 1, 2, 4}));
  EXPECT_EQ(floats(de[0]), (std::vector<float>{1, 2, 2, 4, 3, 4, 6, 8}));
  // Round half to even; reflect padding; cumsum; topk ties keep the lower index.
  EXPECT_EQ(floats(reference::run_kernel("r", UnaryParams{UnaryOp::Round}, {f32({4}, {0.5f, 1.5f, 2.5f, -0.5f})})[0]),
            (std::vector<float>{0, 2, 2, -0}));
  EXPECT_EQ(floats(reference::run_kernel("p", PaddingParams{PaddingMode::Reflect, {2}, {1}, 0}, {f32({3}, {1, 2, 3})})[0]),
            (std::vector<float>{3, 2, 1, 2, 3, 2}));
  EXPECT_EQ(ints(reference::run_kernel("c", CumulativeParams{CumulativeOp::Sum, 0, true, false}, {i64({4}, {1, 2, 3, 4})})[0]),
            (std::vector<std::int64_t>{0, 1, 3, 6}));
  const auto tk = reference::run_kernel("t", TopKParams{2, 0, true}, {f32({4}, {5, 7, 7, 1})});
  EXPECT_EQ(ints(tk[1]), (std::vector<std::int64_t>{1, 2}));
  // Shape and constant.
  EXPECT_EQ(ints(reference::run_kernel("s", ShapeParams{}, {Tensor(DType::Bool, {2, 0, 5})})[0]),
            (std::vector<std::int64_t>{2, 0, 5}));
  // Non-contiguous inputs are read through their strides.
  Tensor base = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor transposed(base.storage(), DType::Float32, {3, 2}, {1, 3}, 0);
  EXPECT_EQ(floats(reference::run_kernel("neg", UnaryParams{UnaryOp::Neg}, {transposed})[0]),
            (std::vector<float>{-1, -4, -2, -5, -3, -6}));
}

TEST(Network, KindTablesAreComplete) {
  for (int k = 0; k < kLayerKindCount; ++k) EXPECT_NE(layer_kind_name(static_cast<LayerKind>(k)), "?");
  for (int k = 0; k < kActivationOpCount; ++k) EXPECT_NE(activation_op_name(static_cast<ActivationOp>(k)), "?");
  for (int k = 0; k < kElementwiseOpCount; ++k) EXPECT_NE(elementwise_op_name(static_cast<ElementwiseOp>(k)), "?");
  for (int k = 0; k < kUnaryOpCount; ++k) EXPECT_NE(unary_op_name(static_cast<UnaryOp>(k)), "?");
}

}  // namespace
}  // namespace atenrt::network
