// Plugins with kernels of their own (tests/plugins/kernel_plugin.cpp): a
// converter reads a weight's values at conversion time and adds a plugin
// layer with them as attributes; another returns a Tensor[] of a plugin
// layer's outputs; both run on the reference executor and in a built engine
// as torch computes them. Misuse is an error naming the node.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "atenrt/errors.h"
#include "atenrt/extension.h"
#include "builder/builder.h"
#include "conversion/context.h"
#include "reference/reference.h"
#include "support/graph_builder.h"

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;

std::string plugin(const std::string& name) {
  const auto exe = std::filesystem::read_symlink("/proc/self/exe");
  return (exe.parent_path() / "plugins" / ("lib" + name + ".so")).string();
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

Tensor f32(std::vector<std::int64_t> dims, const std::vector<float>& values) {
  Tensor t(DType::Float32, std::move(dims));
  std::copy(values.begin(), values.end(), t.mutable_data<float>());
  return t;
}

// x [2, 4] -> bucketize(x, boundaries = a weight, right) -> output
ir::Graph bucketize_graph(const std::string& name, bool right) {
  GraphBuilder b;
  b.input("x", DType::Float32, {2, 4});
  b.weight("bounds", f32({4}, {-1.0f, 0.0f, 0.5f, 2.0f}), ir::InputKind::Buffer);
  b.node(name, "aten.bucketize.Tensor",
         {GraphBuilder::arg("self", GraphBuilder::t("x")), GraphBuilder::arg("boundaries", GraphBuilder::t("bounds")),
          GraphBuilder::arg("out_int32", false), GraphBuilder::arg("right", right)},
         DType::Int64, {2, 4});
  b.output(name);
  return b.g;
}

const Tensor kX = f32({2, 4}, {-2.0f, -1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 2.0f, 3.0f});

std::vector<std::int64_t> values_of(const Tensor& t) {
  const Tensor c = t.contiguous();
  return {c.data<std::int64_t>(), c.data<std::int64_t>() + c.numel()};
}

TEST(PluginKernels, AConverterReadsAWeightAndAddsAPluginLayer) {
  const PluginInfo info = load_plugin(plugin("kernel_test"));
  EXPECT_EQ(info.kernels, 2u);
  EXPECT_EQ(info.converters, 2u);
  // torch.bucketize(x, [-1, 0, 0.5, 2], right=False / True)
  const std::vector<std::int64_t> left = {0, 0, 1, 1, 2, 2, 3, 4}, right = {0, 1, 1, 2, 2, 3, 4, 4};
  for (bool r : {false, true}) {
    ConvertedGraph g = convert_graph(bucketize_graph("plugin_bucketize", r));
    const auto* layer = g.network.find_layer("[aten]-[plugin_bucketize]");
    ASSERT_NE(layer, nullptr);
    ASSERT_EQ(layer->kind(), network::LayerKind::Plugin);
    const auto& p = layer->params_as<network::PluginParams>();
    EXPECT_EQ(p.kernel, "test::bucketize");
    EXPECT_EQ(p.plugin, "kernel_test");
    EXPECT_EQ(p.attributes.get_floats("boundaries"), (std::vector<double>{-1.0, 0.0, 0.5, 2.0}));
    const auto ref = reference::run(g.network, {{g.inputs[0]->name, kX}});
    EXPECT_EQ(values_of(ref.at(g.outputs[0]->name)), r ? right : left);
    const runtime::Engine engine = builder::build(std::move(g.network));
    auto ctx = engine.create_context();
    EXPECT_EQ(values_of(ctx.run(std::vector<Tensor>{kX})[0]), r ? right : left);
  }
  // A node the validator refuses still goes to the built-in converter.
  ConvertedGraph builtin = convert_graph(bucketize_graph("bucketize", false));
  EXPECT_NE(builtin.network.find_layer("[aten]-[bucketize]")->kind(), network::LayerKind::Plugin);
}

TEST(PluginKernels, AConverterReturnsATensorList) {
  load_plugin(plugin("kernel_test"));
  GraphBuilder b;
  b.input("x", DType::Float32, {3, 2});
  ir::Node unbind;
  unbind.name = "plugin_unbind";
  unbind.target = ir::OpName::parse("aten.unbind.int");
  unbind.inputs = {GraphBuilder::arg("self", GraphBuilder::t("x")), GraphBuilder::arg("dim", std::int64_t{1})};
  unbind.outputs = {ir::TensorList{ir::TensorRef{"u_0"}, ir::TensorRef{"u_1"}}};
  b.meta("u_0", DType::Float32, {3});
  b.meta("u_1", DType::Float32, {3});
  b.g.nodes.push_back(unbind);
  b.output("u_1");
  b.output("u_0");
  ConvertedGraph g = convert_graph(b.g);
  ASSERT_EQ(g.network.find_layer("[aten]-[plugin_unbind]")->kind(), network::LayerKind::Plugin);
  const Tensor x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  const runtime::Engine engine = builder::build(std::move(g.network));
  auto ctx = engine.create_context();
  const auto& out = ctx.run(std::vector<Tensor>{x});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(std::vector<float>(out[0].data<float>(), out[0].data<float>() + 3), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(std::vector<float>(out[1].data<float>(), out[1].data<float>() + 3), (std::vector<float>{1, 3, 5}));
}

TEST(PluginKernels, MisuseIsAnErrorNamingTheNode) {
  load_plugin(plugin("kernel_test"));
  const auto fails = [](const std::string& kind) {
    return error_of([&] { convert_graph(bucketize_graph("misuse_" + kind, false)); });
  };
  EXPECT_NE(fails("unknown_kernel")
                .find("node 'misuse_unknown_kernel' (aten.bucketize.Tensor): plugin_layer(): no loaded plugin "
                      "registers kernel 'test::nothing' version 1"),
            std::string::npos)
      << fails("unknown_kernel");
  EXPECT_NE(fails("bad_attribute").find("plugin_layer(): attribute name 'no spaces' is not 1 to 64 letters"),
            std::string::npos)
      << fails("bad_attribute");
  EXPECT_NE(fails("refused").find("kernel 'test::bucketize' version 1 (plugin 'kernel_test') refused the layer: "
                                  "right must be 0 or 1"),
            std::string::npos)
      << fails("refused");
  EXPECT_NE(fails("list_as_input").find("plugin_layer(): inputs[0] is a list (from list()), not a tensor"),
            std::string::npos)
      << fails("list_as_input");
}

}  // namespace
}  // namespace atenrt::conversion
