// Our own kernels that replaced reference fallbacks (group/instance norm,
// layer norm of one-element rows, zero-size copies, resize, arg-max/min and other reductions, cumulative, top-k) against the
// reference over a table of shapes, and that the engine really picks them.
#include <gtest/gtest.h>

#include "support/engine_check.h"

namespace atenrt::testing {
namespace {

using namespace atenrt::network;
using builder::BuilderConfig;

struct Case {
  std::string name;
  std::string kind;  // the step kind that must run as "own"
  std::function<Network()> make;
  double tol = 1e-5;
  std::function<void(reference::TensorMap&)> tweak = {};
};


std::vector<Case> cases() {
  std::vector<Case> out;
  // group / instance norm
  struct Gn { Dims x; std::int64_t groups; };
  for (const Gn& g : std::vector<Gn>{{{2, 6, 4, 3}, 3}, {{1, 8, 5}, 2}, {{3, 4, 2, 2, 2}, 4}, {{1, 32, 7, 7}, 8},
                                     {{2, 5, 1}, 5}, {{1, 6}, 2}, {{2, 4, 16, 16}, 1}}) {
    for (auto op : {NormalizationOp::Group, NormalizationOp::Instance}) {
      if (op == NormalizationOp::Instance && g.x.size() < 3) continue;  // instance norm needs [N, C, ...]
      out.push_back({std::string(op == NormalizationOp::Group ? "groupnorm" : "instancenorm") + shape_to_string(g.x) +
                         std::to_string(g.groups),
                     "Normalization", [=] {
                       Network n;
                       auto* x = n.add_input("x", DType::Float32, g.x);
                       NormalizationParams p;
                       p.op = op;
                       p.num_groups = g.groups;
                       p.epsilon = 1e-5;
                       n.mark_output(n.add_normalization("gn", x, n.add_constant("s", weights({g.x[1]}, 1)),
                                                         n.add_constant("b", weights({g.x[1]}, 2)), p));
                       return n;
                     }});
    }
  }
  // layer norm of one-element rows (oneDNN takes longer rows): PyTorch's fused arithmetic, as the reference
  for (const Dims& x : std::vector<Dims>{{6, 1}, {2, 3, 1}, {1}}) {
    out.push_back({"layernorm_one" + shape_to_string(x), "Normalization", [=] {
                     Network n;
                     NormalizationParams p;
                     p.op = NormalizationOp::Layer;
                     p.axis = -1;
                     n.mark_output(n.add_normalization("ln", n.add_input("x", DType::Float32, x),
                                                       n.add_constant("s", weights({1}, 1)),
                                                       n.add_constant("b", weights({1}, 2)), p));
                     return n;
                   }, 0.0});
  }
  // zero-size tensors (no buffer: memcpy must not see a null pointer) and a 0-d tensor's shape
  out.push_back({"reshape_zero_size", "Shuffle", [] {
                   Network n;
                   n.mark_output(n.add_reshape("r", n.add_input("x", DType::Float32, {0, 3, 9}), {0, 27}));
                   return n;
                 }});
  out.push_back({"concat_with_zero_size", "Concatenation", [] {
                   Network n;
                   n.mark_output(n.add_concatenation("c", {n.add_input("a", DType::Float32, {0, 5}),
                                                           n.add_input("b", DType::Float32, {2, 5})}, 0));
                   return n;
                 }});
  out.push_back({"gather_zero_size_rows", "Gather", [] {
                   Network n;
                   Tensor idx(DType::Int64, {2});
                   idx.mutable_data<std::int64_t>()[0] = 2;
                   idx.mutable_data<std::int64_t>()[1] = 0;
                   n.mark_output(n.add_gather("g", n.add_input("x", DType::Float32, {3, 0}), n.add_constant("i", idx),
                                              GatherMode::Axis, 0));
                   return n;
                 }});
  out.push_back({"shape_of_scalar", "Shape", [] {
                   Network n;
                   n.mark_output(n.add_shape("s", n.add_input("x", DType::Float32, {})));
                   return n;
                 }});
  // resize: modes × 1d/2d/3d × up/down × align_corners × scales
  struct Rs { Dims x; Dims size; std::vector<double> scales; bool align; };
  for (const Rs& rs : std::vector<Rs>{{{1, 2, 5, 4}, {9, 7}, {}, false},
                                      {{2, 3, 8, 8}, {4, 3}, {}, false},
                                      {{1, 2, 5, 4}, {10, 8}, {2.0, 2.0}, false},
                                      {{1, 2, 5, 4}, {9, 7}, {}, true},
                                      {{1, 3, 7}, {15}, {}, false},
                                      {{1, 1, 3, 4, 5}, {6, 5, 9}, {}, false},
                                      {{1, 2, 4, 4}, {7, 7}, {1.75, 1.75}, false}}) {
    for (auto mode : {ResizeMode::Nearest, ResizeMode::NearestExact, ResizeMode::Linear, ResizeMode::Cubic}) {
      if (mode == ResizeMode::Cubic && rs.x.size() != 4) continue;
      if (rs.align && (mode == ResizeMode::Nearest || mode == ResizeMode::NearestExact)) continue;
      out.push_back({"resize" + std::to_string(static_cast<int>(mode)) + shape_to_string(rs.x) + shape_to_string(rs.size) +
                         (rs.align ? "ac" : "") + (rs.scales.empty() ? "" : "s"),
                     "Resize", [=] {
                       Network n;
                       ResizeParams p;
                       p.mode = mode, p.output_size = rs.size, p.scales = rs.scales, p.align_corners = rs.align;
                       n.mark_output(n.add_resize("r", n.add_input("x", DType::Float32, rs.x), p));
                       return n;
                     }});
    }
  }
  // arg-max/min and max/min reductions, float and int64
  for (auto op : {ReduceOp::ArgMax, ReduceOp::ArgMin, ReduceOp::Max, ReduceOp::Min}) {
    for (const auto& [dims, axis] : std::vector<std::pair<Dims, std::int64_t>>{
             {{3, 4, 5}, 0}, {{3, 4, 5}, 1}, {{3, 4, 5}, -1}, {{17}, 0}, {{2, 1, 6}, 1}, {{64, 33}, 1}}) {
      for (DType dt : {DType::Float32, DType::Int64}) {
        for (bool keep : {false, true}) {
          out.push_back({"reduce" + std::string(reduce_op_name(op)) + shape_to_string(dims) + std::to_string(axis) +
                             std::string(dtype_name(dt)) + (keep ? "k" : ""),
                         "Reduce", [=] {
                           Network n;
                           n.mark_output(n.add_reduce("r", n.add_input("x", dt, dims), op, {axis}, keep));
                           return n;
                         }});
        }
      }
    }
  }
  out.push_back({"reduce_all_bool", "Reduce", [] {
                   Network n;
                   n.mark_output(n.add_reduce("r", n.add_input("x", DType::Bool, {3, 4}), ReduceOp::All, {0}, false));
                   return n;
                 }});
  out.push_back({"reduce_sum_i64", "Reduce", [] {
                   Network n;
                   n.mark_output(n.add_reduce("r", n.add_input("x", DType::Int64, {3, 4, 2}), ReduceOp::Sum, {0, 2}, true));
                   return n;
                 }});
  // cumulative
  for (auto op : {CumulativeOp::Sum, CumulativeOp::Prod}) {
    for (const auto& [dims, axis] : std::vector<std::pair<Dims, std::int64_t>>{{{3, 5}, 1}, {{3, 5}, 0}, {{2, 3, 4}, 1}, {{7}, 0}}) {
      for (DType dt : {DType::Float32, DType::Int64}) {
        for (int flags = 0; flags < 4; ++flags) {
          out.push_back({"cum" + std::to_string(static_cast<int>(op)) + shape_to_string(dims) + std::to_string(axis) +
                             std::string(dtype_name(dt)) + std::to_string(flags),
                         "Cumulative", [=] {
                           Network n;
                           n.mark_output(n.add_cumulative("c", n.add_input("x", dt, dims), op, axis, flags & 1, flags & 2));
                           return n;
                         }});
        }
      }
    }
  }
  // float binaries oneDNN's jit lacks (a broadcast over a middle dim: Swin's
  // window mask), on our own kernel's runs: both operands running, one
  // staying put along the run (first or second), a short run (the element
  // odometer), NaN and ±inf among the values
  struct Bin { Dims a, b; ElementwiseOp op; };
  for (const Bin& b : std::vector<Bin>{{{1, 4, 3, 7, 7}, {1, 4, 1, 7, 7}, ElementwiseOp::Add},
                                       {{1, 2, 3, 4, 20}, {1, 2, 1, 4, 20}, ElementwiseOp::Mul},
                                       {{2, 3, 1, 1}, {2, 3, 4, 5}, ElementwiseOp::Sub},
                                       {{1, 4, 1, 7, 7}, {1, 4, 3, 7, 7}, ElementwiseOp::Div},
                                       {{3, 1, 2}, {3, 5, 2}, ElementwiseOp::Sub}}) {
    out.push_back({"binary" + std::to_string(static_cast<int>(b.op)) + shape_to_string(b.a) + shape_to_string(b.b),
                   "Elementwise", [=] {
                     Network n;
                     n.mark_output(n.add_elementwise("e", n.add_input("a", DType::Float32, b.a),
                                                     n.add_input("b", DType::Float32, b.b), b.op));
                     return n;
                   }, 1e-6, [](reference::TensorMap& in) {
                     const float specials[] = {std::nanf(""), INFINITY, -INFINITY, 0.0f};
                     for (const char* name : {"a", "b"}) {
                       float* v = in[name].mutable_data<float>();
                       for (int i = 0; i < 4 && i * 7 < in[name].numel(); ++i) v[i * 7] = specials[i];
                     }
                   }});
  }
  // concatenations large enough for the engine's threads to share the
  // copy: shares end inside runs, inputs of uneven sizes
  struct Cat { std::vector<Dims> xs; std::int64_t axis; };
  for (const Cat& c : std::vector<Cat>{{{{3, 5, 40, 40}, {3, 7, 40, 40}}, 1},
                                       {{{2, 3, 64, 70}, {2, 3, 1, 70}, {2, 3, 30, 70}}, 2},
                                       {{{1, 9000}, {1, 0}, {1, 41000}}, -1}}) {
    std::string name = "concat" + std::to_string(c.axis);
    for (const auto& x : c.xs) name += shape_to_string(x);
    out.push_back({name, "Concatenation", [=] {
                     Network n;
                     std::vector<NetworkTensor*> xs;
                     for (std::size_t i = 0; i < c.xs.size(); ++i) {
                       xs.push_back(n.add_input("x" + std::to_string(i), DType::Float32, c.xs[i]));
                     }
                     n.mark_output(n.add_concatenation("c", xs, c.axis));
                     return n;
                   }, 0.0});
  }
  // permutes and a strided slice large enough for the engine's threads to
  // share the copy (strided_copy): the last dim moved (a strided run per
  // element), kept, 8-byte elements
  struct Perm { Dims x; Dims perm; DType dt; };
  for (const Perm& pm : std::vector<Perm>{{{2, 16, 40, 40}, {0, 2, 3, 1}, DType::Float32},
                                         {{3, 20, 30, 20}, {0, 3, 1, 2}, DType::Float32},
                                         {{2, 6, 70, 70}, {1, 0, 2, 3}, DType::Float32},
                                         {{4, 50, 60}, {2, 0, 1}, DType::Int64}}) {
    out.push_back({"permute" + shape_to_string(pm.x) + shape_to_string(pm.perm) + std::string(dtype_name(pm.dt)),
                   "Shuffle", [=] {
                     Network n;
                     n.mark_output(n.add_permute("p", n.add_input("x", pm.dt, pm.x), pm.perm));
                     return n;
                   }, 0.0});
  }
  out.push_back({"strided_slice_large", "Slice", [] {
                   Network n;
                   n.mark_output(n.add_slice("s", n.add_input("x", DType::Float32, {2, 8, 100, 100}), {2, 3}, {1, 0},
                                             {100, 100}, {2, 3}));
                   return n;
                 }, 0.0});
  // top-k: sizes, axes, largest/smallest, ties (int64), NaN
  struct Tk { Dims x; std::int64_t k, axis; bool largest; DType dt; };
  for (const Tk& t : std::vector<Tk>{{{3, 8}, 3, -1, true, DType::Float32},
                                     {{3, 8}, 8, -1, false, DType::Float32},
                                     {{4, 6, 5}, 2, 1, true, DType::Float32},
                                     {{4, 6, 5}, 1, 0, false, DType::Float32},
                                     {{50}, 7, 0, true, DType::Float32},
                                     {{5, 9}, 4, 1, true, DType::Int64},
                                     {{5, 9}, 4, 1, false, DType::Int64},
                                     {{3, 8}, 0, 1, true, DType::Float32}}) {
    out.push_back({"topk" + shape_to_string(t.x) + std::to_string(t.k) + "_" + std::to_string(t.axis) + (t.largest ? "l" : "s") +
                       std::string(dtype_name(t.dt)),
                   "TopK", [=] {
                     Network n;
                     auto* l = n.add_topk("t", n.add_input("x", t.dt, t.x), t.k, t.axis, t.largest);
                     n.mark_output(l->output(0));
                     n.mark_output(l->output(1));
                     return n;
                   }});
  }
  out.push_back({"topk_nan_ties", "TopK", [] {
                   Network n;
                   auto* l = n.add_topk("t", n.add_input("x", DType::Float32, {2, 7}), 5, 1, false);
                   n.mark_output(l->output(0));
                   n.mark_output(l->output(1));
                   return n;
                 }, 1e-5, [](reference::TensorMap& in) {
                   float* v = in["x"].mutable_data<float>();
                   const float row[] = {1.0f, std::nanf(""), 1.0f, -2.0f, std::nanf(""), 1.0f, 0.5f};
                   for (int i = 0; i < 14; ++i) v[i] = row[i % 7];
                 }});
  return out;
}

class OwnLayerVsReference : public ::testing::TestWithParam<Case> {};

TEST_P(OwnLayerVsReference, MatchesReferenceAndIsOwn) {
  const Case& c = GetParam();
  BuilderConfig config;
  config.constant_folding = false;
  config.engine.allow_reference_kernels = false;  // a fallback would be an error here
  expect_engine_matches_reference(c.make, config, c.tol, c.name, c.tweak);
  const auto engine = builder::build(c.make(), config);
  int of_kind = 0;
  for (const auto& step : engine.steps()) {
    if (step.kind == c.kind) {
      ++of_kind;
      EXPECT_EQ(step.implementation, "own") << step.name;
    }
  }
  EXPECT_GT(of_kind, 0) << "no " << c.kind << " step: the case does not reach the kernel";
}

INSTANTIATE_TEST_SUITE_P(Shapes, OwnLayerVsReference, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string s = std::to_string(info.index) + "_" + info.param.name;
                           for (auto& ch : s) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return s;
                         });

}  // namespace
}  // namespace atenrt::testing
