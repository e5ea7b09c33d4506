// The dry run and conversion agree: for each hand-built node, the registry's
// answer (the validators, what `dry_run` reports) says "supported" exactly
// when the converter, run without its validator, converts the node. A limit
// that only the converter checks makes a refused row fail here.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "atenrt/errors.h"
#include "conversion/context.h"
#include "conversion/host_tensor.h"
#include "conversion/registry.h"
#include "support/graph_builder.h"

namespace atenrt::conversion {
namespace {

using testing::GraphBuilder;
using A = GraphBuilder;
using Ints = ir::IntList;

struct Case {
  std::string what;
  std::string target;
  std::vector<std::int64_t> x;  // self / input: float32 of these sizes
  std::vector<ir::NamedArgument> args;  // the node's arguments other than self
  std::vector<std::int64_t> out;        // the recorded output sizes
  bool supported;
  DType x_dtype = DType::Float32;
  DType out_dtype = DType::Float32;
  const char* self_name = "self";
  // Extra graph inputs / weights (a conv weight, an index tensor).
  std::function<void(GraphBuilder&)> extra = {};
};

ir::NamedArgument arg(std::string name, ir::Argument a) { return A::arg(std::move(name), std::move(a)); }

std::vector<Case> cases() {
  const Tensor w = tensor_from(DType::Float32, {4, 3, 3, 3}, std::vector<double>(4 * 3 * 3 * 3, 0.1));
  auto weight = [w](GraphBuilder& b) { b.weight("w", w); };
  auto index = [](std::vector<std::int64_t> sizes) {
    return [sizes](GraphBuilder& b) { b.input("i", DType::Int64, sizes); };
  };
  auto mask = [](std::vector<std::int64_t> sizes) {
    return [sizes](GraphBuilder& b) { b.input("m", DType::Bool, sizes); };
  };
  auto mask_values = [](std::vector<std::int64_t> m, std::vector<std::int64_t> v) {
    return [m, v](GraphBuilder& b) {
      b.input("m", DType::Bool, m);
      b.input("v", DType::Float32, v);
    };
  };
  auto conv = [&](Ints stride, Ints padding, Ints dilation, bool ok, std::string what) {
    return Case{what, "aten.convolution.default", {1, 3, 8, 8},
                {arg("weight", A::t("w")), arg("bias", ir::None{}), arg("stride", stride), arg("padding", padding),
                 arg("dilation", dilation), arg("transposed", false), arg("output_padding", Ints{0}),
                 arg("groups", std::int64_t{1})},
                {1, 4, 6, 6}, ok, DType::Float32, DType::Float32, "input", weight};
  };
  auto pool = [](Ints kernel, Ints stride, Ints padding, bool ok, std::string what) {
    return Case{what, "aten.max_pool2d.default", {1, 2, 8, 8},
                {arg("kernel_size", kernel), arg("stride", stride), arg("padding", padding)}, {1, 2, 4, 4}, ok};
  };
  return {
      // Pooling: every overload decodes into PoolArgs.
      pool({2, 2}, {2, 2}, {0, 0}, true, "max_pool2d"),
      pool({2, 2, 2}, {2, 2}, {0, 0}, false, "max_pool2d kernel with 3 entries"),
      pool({2, 2}, {2, 2}, {2, 2}, false, "max_pool2d padding over half the kernel"),
      pool({2}, {2}, {0, 0, 0}, false, "max_pool2d padding with 3 entries"),
      {"avg_pool2d of a 2-d input", "aten.avg_pool2d.default", {8, 8}, {arg("kernel_size", Ints{2})}, {4, 4}, false},
      {"adaptive_avg_pool2d", "aten.adaptive_avg_pool2d.default", {1, 2, 8, 8}, {arg("output_size", Ints{1, 1})},
       {1, 2, 1, 1}, true},
      {"adaptive_avg_pool2d output_size with 3 entries", "aten.adaptive_avg_pool2d.default", {1, 2, 8, 8},
       {arg("output_size", Ints{1, 1, 1})}, {1, 2, 1, 1}, false},
      // Convolution: ConvArgs.
      conv({1, 1}, {0, 0}, {1, 1}, true, "convolution"),
      conv({1, 1, 1}, {0, 0}, {1, 1}, false, "convolution stride with 3 entries"),
      conv({1}, {0}, {1, 1, 1, 1}, false, "convolution dilation with 4 entries"),
      // Boolean masks (data-dependent rows; index_put through a select).
      {"index with a bool mask", "aten.index.Tensor", {3, 4}, {arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}})},
       {5}, true, DType::Float32, DType::Float32, "self", mask({3, 4})},
      {"index with a bool mask of other dims", "aten.index.Tensor", {3, 4},
       {arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}})}, {5}, false, DType::Float32, DType::Float32, "self",
       mask({4})},
      {"index with a 0-d bool mask", "aten.index.Tensor", {3, 4}, {arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}})},
       {1, 3, 4}, false, DType::Float32, DType::Float32, "self", mask({})},
      {"index_put with a bool mask", "aten.index_put.default", {3, 4},
       {arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}}), arg("values", A::t("v")), arg("accumulate", false)},
       {3, 4}, true, DType::Float32, DType::Float32, "self", mask_values({3}, {1, 4})},
      {"index_put with a bool mask and one value row per element", "aten.index_put.default", {3, 4},
       {arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}}), arg("values", A::t("v")), arg("accumulate", false)},
       {3, 4}, true, DType::Float32, DType::Float32, "self", mask_values({3}, {2, 4})},
      {"index_put with a bool mask and value rows that do not broadcast", "aten.index_put.default", {3, 4},
       {arg("indices", ir::OptionalTensorList{ir::TensorRef{"m"}}), arg("values", A::t("v")), arg("accumulate", false)},
       {3, 4}, false, DType::Float32, DType::Float32, "self", mask_values({3}, {2, 3})},
      {"masked_select", "aten.masked_select.default", {3, 4}, {arg("mask", A::t("m"))}, {5}, true, DType::Float32,
       DType::Float32, "self", mask({1, 4})},
      // Slice / select / index.
      {"slice", "aten.slice.Tensor", {4, 6}, {arg("dim", std::int64_t{1}), arg("start", std::int64_t{1}),
                                              arg("end", std::int64_t{5}), arg("step", std::int64_t{2})},
       {4, 2}, true},
      {"slice step 0", "aten.slice.Tensor", {4, 6}, {arg("dim", std::int64_t{1}), arg("step", std::int64_t{0})},
       {4, 6}, false},
      {"slice dim out of range", "aten.slice.Tensor", {4, 6}, {arg("dim", std::int64_t{2})}, {4, 6}, false},
      {"select", "aten.select.int", {4, 6}, {arg("dim", std::int64_t{0}), arg("index", std::int64_t{-1})}, {6}, true},
      {"select index out of range", "aten.select.int", {4, 6},
       {arg("dim", std::int64_t{0}), arg("index", std::int64_t{4})}, {6}, false},
      {"select dim out of range", "aten.select.int", {4, 6},
       {arg("dim", std::int64_t{-3}), arg("index", std::int64_t{0})}, {6}, false},
      {"select of a 0-d tensor", "aten.select.int", {}, {arg("dim", std::int64_t{0}), arg("index", std::int64_t{0})},
       {}, false},
      {"index_select", "aten.index_select.default", {4, 6}, {arg("dim", std::int64_t{1}), arg("index", A::t("i"))},
       {4, 3}, true, DType::Float32, DType::Float32, "self", index({3})},
      {"index_select with a 2-d index", "aten.index_select.default", {4, 6},
       {arg("dim", std::int64_t{1}), arg("index", A::t("i"))}, {4, 6}, false, DType::Float32, DType::Float32, "self",
       index({3, 2})},
      {"gather dim out of range", "aten.gather.default", {4, 6}, {arg("dim", std::int64_t{5}), arg("index", A::t("i"))},
       {4, 6}, false, DType::Float32, DType::Float32, "self", index({4, 6})},
      {"constant_pad_nd with an odd pad list", "aten.constant_pad_nd.default", {4, 6}, {arg("pad", Ints{1, 1, 1})},
       {4, 8}, false},
      {"constant_pad_nd longer than the rank", "aten.constant_pad_nd.default", {4},
       {arg("pad", Ints{1, 1, 1, 1})}, {6}, false},
      {"roll with more shifts than dims", "aten.roll.default", {4, 6}, {arg("shifts", Ints{1, 2}), arg("dims", Ints{0})},
       {4, 6}, false},
      {"flip a dim twice", "aten.flip.default", {4, 6}, {arg("dims", Ints{0, -2})}, {4, 6}, false},
      // Shape ops.
      {"view with two -1", "aten.view.default", {4, 6}, {arg("size", Ints{-1, -1})}, {24}, false},
      {"view", "aten.view.default", {4, 6}, {arg("size", Ints{-1, 3})}, {8, 3}, true},
      {"permute with too few dims", "aten.permute.default", {4, 6}, {arg("dims", Ints{0})}, {4, 6}, false},
      {"permute a dim twice", "aten.permute.default", {4, 6}, {arg("dims", Ints{1, -1})}, {6, 4}, false},
      {"transpose dim out of range", "aten.transpose.int", {4, 6},
       {arg("dim0", std::int64_t{0}), arg("dim1", std::int64_t{2})}, {6, 4}, false},
      {"unsqueeze at the end", "aten.unsqueeze.default", {4, 6}, {arg("dim", std::int64_t{2})}, {4, 6, 1}, true},
      {"unsqueeze past the end", "aten.unsqueeze.default", {4, 6}, {arg("dim", std::int64_t{3})}, {4, 6, 1}, false},
      {"flatten start after end", "aten.flatten.using_ints", {2, 3, 4},
       {arg("start_dim", std::int64_t{2}), arg("end_dim", std::int64_t{1})}, {24}, false},
      {"pixel_shuffle channels not divisible", "aten.pixel_shuffle.default", {1, 6, 2, 2},
       {arg("upscale_factor", std::int64_t{2})}, {1, 1, 4, 4}, false},
      {"pixel_shuffle", "aten.pixel_shuffle.default", {1, 8, 2, 2}, {arg("upscale_factor", std::int64_t{2})},
       {1, 2, 4, 4}, true},
      // Reductions.
      {"sum over a dim twice", "aten.sum.dim_IntList", {4, 6}, {arg("dim", Ints{1, -1})}, {4}, false},
      {"sum dim out of range", "aten.sum.dim_IntList", {4, 6}, {arg("dim", Ints{2})}, {4}, false},
      {"sum", "aten.sum.dim_IntList", {4, 6}, {arg("dim", Ints{-1})}, {4}, true},
      {"cumsum dim out of range", "aten.cumsum.default", {4, 6}, {arg("dim", std::int64_t{-3})}, {4, 6}, false},
      // Normalization and embedding.
      {"layer_norm", "aten.layer_norm.default", {2, 3, 4}, {arg("normalized_shape", Ints{4})}, {2, 3, 4}, true,
       DType::Float32, DType::Float32, "input"},
      {"layer_norm shape that does not match", "aten.layer_norm.default", {2, 3, 4},
       {arg("normalized_shape", Ints{5})}, {2, 3, 4}, false, DType::Float32, DType::Float32, "input"},
      {"layer_norm shape longer than the input", "aten.layer_norm.default", {4},
       {arg("normalized_shape", Ints{1, 4})}, {4}, false, DType::Float32, DType::Float32, "input"},
      {"group_norm", "aten.group_norm.default", {1, 6, 4, 4}, {arg("num_groups", std::int64_t{3})}, {1, 6, 4, 4},
       true, DType::Float32, DType::Float32, "input"},
      {"group_norm groups that do not divide the channels", "aten.group_norm.default", {1, 6, 4, 4},
       {arg("num_groups", std::int64_t{4})}, {1, 6, 4, 4}, false, DType::Float32, DType::Float32, "input"},
      {"embedding", "aten.embedding.default", {4, 2}, {arg("indices", A::t("i"))}, {3, 2}, true, DType::Float32,
       DType::Float32, "weight", index({3})},
      {"embedding with a 3-d weight", "aten.embedding.default", {4, 2, 2}, {arg("indices", A::t("i"))}, {3, 2, 2},
       false, DType::Float32, DType::Float32, "weight", index({3})},
      // Upsampling and distances.
      {"upsample_nearest2d", "aten.upsample_nearest2d.vec", {1, 2, 3, 3},
       {arg("output_size", Ints{6, 6}), arg("scale_factors", ir::None{})}, {1, 2, 6, 6}, true, DType::Float32,
       DType::Float32, "input"},
      {"upsample_nearest2d of a 3-d input", "aten.upsample_nearest2d.vec", {2, 3, 3},
       {arg("output_size", Ints{6, 6}), arg("scale_factors", ir::None{})}, {2, 6, 6}, false, DType::Float32,
       DType::Float32, "input"},
      {"upsample_nearest2d output_size with 3 entries", "aten.upsample_nearest2d.vec", {1, 2, 3, 3},
       {arg("output_size", Ints{6, 6, 6}), arg("scale_factors", ir::None{})}, {1, 2, 6, 6}, false, DType::Float32,
       DType::Float32, "input"},
      {"cdist of a 1-d input", "aten._cdist_forward.default", {4}, {arg("x2", A::t("x")), arg("p", 2.0)}, {1}, false,
       DType::Float32, DType::Float32, "x1"},
      // Indexing.
      {"unfold", "aten.unfold.default", {4, 6},
       {arg("dimension", std::int64_t{1}), arg("size", std::int64_t{2}), arg("step", std::int64_t{2})}, {4, 3, 2},
       true},
      {"unfold window longer than the dim", "aten.unfold.default", {4, 6},
       {arg("dimension", std::int64_t{1}), arg("size", std::int64_t{7}), arg("step", std::int64_t{1})}, {4, 0, 7},
       false},
      {"unfold step 0", "aten.unfold.default", {4, 6},
       {arg("dimension", std::int64_t{1}), arg("size", std::int64_t{2}), arg("step", std::int64_t{0})}, {4, 3, 2},
       false},
      {"unfold dimension out of range", "aten.unfold.default", {4, 6},
       {arg("dimension", std::int64_t{2}), arg("size", std::int64_t{2}), arg("step", std::int64_t{1})}, {4, 3, 2},
       false},
      {"scatter_reduce amax", "aten.scatter_reduce.two", {4, 6},
       {arg("dim", std::int64_t{1}), arg("index", A::t("i")), arg("src", A::t("x")), arg("reduce", std::string("amax"))},
       {4, 6}, true, DType::Float32, DType::Float32, "self", index({4, 6})},
      {"scatter_reduce reduce median", "aten.scatter_reduce.two", {4, 6},
       {arg("dim", std::int64_t{1}), arg("index", A::t("i")), arg("src", A::t("x")), arg("reduce", std::string("median"))},
       {4, 6}, false, DType::Float32, DType::Float32, "self", index({4, 6})},
      {"im2col", "aten.im2col.default", {1, 2, 4, 4},
       {arg("kernel_size", Ints{2, 2}), arg("dilation", Ints{1, 1}), arg("padding", Ints{0, 0}), arg("stride", Ints{1, 1})},
       {1, 8, 9}, true},
      {"im2col stride 0", "aten.im2col.default", {1, 2, 4, 4},
       {arg("kernel_size", Ints{2, 2}), arg("dilation", Ints{1, 1}), arg("padding", Ints{0, 0}), arg("stride", Ints{0, 1})},
       {1, 8, 9}, false},
      // Special functions, order statistics, diagonals.
      {"polygamma of order 3", "aten.polygamma.default", {4}, {arg("n", std::int64_t{3})}, {4}, true},
      {"polygamma of a negative order", "aten.polygamma.default", {4}, {arg("n", std::int64_t{-1})}, {4}, false},
      {"kthvalue k past the dim", "aten.kthvalue.default", {4, 6}, {arg("k", std::int64_t{7}), arg("dim", std::int64_t{1})},
       {4}, false},
      {"rot90", "aten.rot90.default", {4, 6}, {arg("k", std::int64_t{1}), arg("dims", Ints{0, 1})}, {6, 4}, true},
      {"rot90 about one dim", "aten.rot90.default", {4, 6}, {arg("k", std::int64_t{1}), arg("dims", Ints{1, -1})}, {6, 4},
       false},
      {"diag_embed dims that coincide", "aten.diag_embed.default", {4, 6},
       {arg("offset", std::int64_t{0}), arg("dim1", std::int64_t{0}), arg("dim2", std::int64_t{-3})}, {4, 6, 6}, false},
      {"renorm p 0", "aten.renorm.default", {4, 6}, {arg("p", 0.0), arg("dim", std::int64_t{0}), arg("maxnorm", 1.0)},
       {4, 6}, false},
      {"renorm", "aten.renorm.default", {4, 6}, {arg("p", 2.0), arg("dim", std::int64_t{0}), arg("maxnorm", 1.0)}, {4, 6},
       true},
      {"histc min above max", "aten.histc.default", {4, 6},
       {arg("bins", std::int64_t{5}), arg("min", 2.0), arg("max", 1.0)}, {5}, false},
      // Elsewhere.
      {"softplus beta 0", "aten.softplus.default", {4}, {arg("beta", 0.0), arg("threshold", 20.0)}, {4}, false},
      {"t of a 3-d tensor", "aten.t.default", {2, 3, 4}, {}, {2, 3, 4}, false},
      {"neg of a bool tensor", "aten.neg.default", {4}, {}, {4}, false, DType::Bool, DType::Bool},
  };
}

// The graph x -> node -> output for one case.
ir::Graph graph_of(const Case& c) {
  GraphBuilder b;
  b.fill_schema_defaults = true;
  b.input("x", c.x_dtype, c.x);
  if (c.extra) c.extra(b);
  std::vector<ir::NamedArgument> args{arg(c.self_name, A::t("x"))};
  args.insert(args.end(), c.args.begin(), c.args.end());
  b.node("y", c.target, args, c.out_dtype, c.out);
  b.output("y");
  return b.g;
}

// What the converter itself says, its validator bypassed: "" when it converts.
std::string convert_without_validator(const ir::Graph& g) {
  const auto candidates = ConverterRegistry::global().candidates(g.nodes[0].target.str());
  if (candidates.empty()) return "no converter for " + g.nodes[0].target.str();
  SegmentPlan plan;
  plan.nodes = {0};
  plan.selections = {Selection{candidates.front(), {}}};
  try {
    convert_segment(g, plan);
  } catch (const UnsupportedError& e) {
    return e.what();
  }
  return "";
}

TEST(DryRunAgreement, TheValidatorRefusesWhatTheConverterRefuses) {
  const ConversionSettings settings;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.what);
    const ir::Graph g = graph_of(c);
    const Selection dry = ConverterRegistry::global().select(ir::NodeView(g, g.nodes[0]), settings);
    const std::string converted = convert_without_validator(g);
    // The row means what it says: the converter itself accepts or refuses it...
    EXPECT_EQ(converted.empty(), c.supported) << "converter: " << converted;
    // ...and the dry run answers the same, with the same reason.
    EXPECT_EQ(dry.chosen != nullptr, c.supported) << "dry run: " << dry.reason();
    if (!c.supported && dry.chosen == nullptr) {
      EXPECT_FALSE(dry.reason().empty());
    }
  }
}

}  // namespace
}  // namespace atenrt::conversion
