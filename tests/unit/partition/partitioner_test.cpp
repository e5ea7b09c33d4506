#include "partition/partitioner.h"

#include <gtest/gtest.h>

#include "atenrt/errors.h"
#include "support/graph_builder.h"

namespace atenrt::partition {
namespace {

using ir::Argument;
using ir::TensorRef;

// x -> n0 -> n1 -> ... chain of unary nodes with the given ops.
ir::Graph chain(const std::vector<std::string>& ops) {
  testing::GraphBuilder b;
  std::string prev = b.input("x", DType::Float32, {2, 3});
  for (std::size_t i = 0; i < ops.size(); ++i) {
    prev = b.node("n" + std::to_string(i), ops[i], {b.arg("self", b.t(prev))}, DType::Float32, {2, 3});
  }
  b.output(prev);
  return b.g;
}

NodeSupport all_but_sin(const ir::Node& n) {
  if (n.target.name == "sin") return {false, "no converter for aten.sin.default"};
  return {true, ""};
}

TEST(Partitioner, FullySupportedGraphIsOneEngineWhateverTheBlockSize) {
  auto g = chain({"aten.relu.default", "aten.exp.default"});
  PartitionSettings s;
  s.min_block_size = 5;
  auto p = partition_graph(g, all_but_sin, s);
  ASSERT_EQ(p.segments.size(), 1u);
  EXPECT_EQ(p.segments[0].target, SegmentTarget::Engine);
  EXPECT_TRUE(p.fully_supported());
  EXPECT_NO_THROW(require_single_engine(g, p, s));
}

TEST(Partitioner, UnsupportedNodeSplitsAndIsReportedWithReason) {
  auto g = chain({"aten.relu.default", "aten.exp.default", "aten.sin.default", "aten.relu.default"});
  PartitionSettings s;
  s.min_block_size = 1;
  auto p = partition_graph(g, all_but_sin, s);
  ASSERT_EQ(p.segments.size(), 3u);
  EXPECT_EQ(p.segments[0].target, SegmentTarget::Engine);
  EXPECT_EQ(p.segments[1].target, SegmentTarget::Fallback);
  EXPECT_EQ(p.segments[2].target, SegmentTarget::Engine);
  EXPECT_EQ(p.supported_ops, 3);
  EXPECT_EQ(p.segments[1].inputs, std::vector<std::string>{"n1"});
  const auto report = p.report(g);
  EXPECT_NE(report.find("3 of 4 operators supported (75.0%)"), std::string::npos) << report;
  EXPECT_NE(report.find("n2 (aten.sin.default): no converter for aten.sin.default"), std::string::npos)
      << report;
  EXPECT_NE(report.find("n1: float32[2, 3]"), std::string::npos) << report;
  EXPECT_THROW(require_single_engine(g, p, s), UnsupportedError);
}

TEST(Partitioner, SmallBlocksFallBackWhenGraphIsPartlyUnsupported) {
  auto g = chain({"aten.relu.default", "aten.sin.default", "aten.relu.default", "aten.exp.default"});
  PartitionSettings s;
  s.min_block_size = 2;
  auto p = partition_graph(g, all_but_sin, s);
  ASSERT_EQ(p.segments.size(), 2u);  // [relu, sin] fall back together, [relu, exp] stays
  EXPECT_EQ(p.segments[0].target, SegmentTarget::Fallback);
  EXPECT_EQ(p.segments[0].nodes.size(), 2u);
  EXPECT_EQ(p.segments[1].target, SegmentTarget::Engine);
  EXPECT_EQ(p.suggested_min_block_size, 1);
}

TEST(Partitioner, TorchExecutedOpsAreForcedOut) {
  auto g = chain({"aten.relu.default", "aten.exp.default"});
  PartitionSettings s;
  s.min_block_size = 1;
  s.torch_executed_ops = {"aten.exp"};
  auto p = partition_graph(g, all_but_sin, s);
  EXPECT_FALSE(p.support[1].supported);
  EXPECT_EQ(p.support[1].reason, "listed in torch_executed_ops");
  EXPECT_FALSE(p.fully_supported());
}

TEST(Partitioner, ViewsDoNotCountAsComputeOps) {
  auto g = chain({"aten.view.default", "aten.relu.default"});
  auto p = partition_graph(g, all_but_sin, PartitionSettings{});
  EXPECT_EQ(p.segments[0].compute_ops, 1);
}

// Diamond: x -> a (ok) -> b (unsupported) -> c (ok); a -> c directly too.
// The global partitioner must not merge a and c: the segment would both feed
// and consume b.
TEST(Partitioner, GlobalPartitionerAvoidsCycles) {
  auto g = chain({"aten.relu.default", "aten.sin.default"});
  ir::Node c;
  c.name = "c";
  c.target = ir::OpName::parse("aten.add.Tensor");
  c.inputs = {{"self", Argument(TensorRef{"n0"})}, {"other", Argument(TensorRef{"n1"})}};
  c.outputs = {Argument(TensorRef{"c"})};
  g.nodes.push_back(c);
  g.tensor_values["c"] = g.tensor_values["x"];
  g.outputs = {Argument(TensorRef{"c"})};
  PartitionSettings s;
  s.min_block_size = 1;
  s.use_fast_partitioner = false;
  auto p = partition_graph(g, all_but_sin, s);
  ASSERT_EQ(p.segments.size(), 3u);
  EXPECT_EQ(p.segments[0].nodes, std::vector<std::size_t>{0});
  EXPECT_EQ(p.segments[2].nodes, std::vector<std::size_t>{2});
}

TEST(Partitioner, GlobalPartitionerMergesNonAdjacentIndependentNodes) {
  // x -> relu (ok), x -> sin (no), relu -> exp (ok): relu and exp share a segment.
  auto g = chain({"aten.relu.default"});
  ir::Node s1;
  s1.name = "s";
  s1.target = ir::OpName::parse("aten.sin.default");
  s1.inputs = {{"self", Argument(TensorRef{"x"})}};
  s1.outputs = {Argument(TensorRef{"s"})};
  ir::Node e;
  e.name = "e";
  e.target = ir::OpName::parse("aten.exp.default");
  e.inputs = {{"self", Argument(TensorRef{"n0"})}};
  e.outputs = {Argument(TensorRef{"e"})};
  g.nodes.push_back(s1);
  g.nodes.push_back(e);
  g.outputs = {Argument(TensorRef{"e"}), Argument(TensorRef{"s"})};
  PartitionSettings s;
  s.min_block_size = 1;
  s.use_fast_partitioner = false;
  auto p = partition_graph(g, all_but_sin, s);
  ASSERT_EQ(p.engine_segments(), 1u);
  EXPECT_EQ(p.segments[0].nodes, (std::vector<std::size_t>{0, 2}));
}

}  // namespace
}  // namespace atenrt::partition
