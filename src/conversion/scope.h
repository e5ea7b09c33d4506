// A converter's scope: the node it converts (network, target, source IR,
// name), as Torch-TensorRT's impl functions receive (ctx, target,
// source_ir, name). Layers added through a scope are named after the node
// and where it came from:
//
//   [aten]-[relu_1]                 the converter's (last) layer
//   [aten]-[relu_1]-[cast]          an intermediate one (suffix "cast")
//   [decomposition]-[addmm_mm]-[mm] a node that lowering's decomposition made
//
// and made unique in the network (`_1`, `_2` ...), so describe(), the
// dry-run report and a profile say where every layer came from. An impl
// function that calls another passes a child scope (`s.child("qk")`), whose
// layers get the extra segment: [aten]-[mha]-[qk]-[cast].
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "atenrt/tensor.h"
#include "conversion/context.h"
#include "ir/graph.h"
#include "ir/provenance.h"
#include "network/network.h"

namespace atenrt::conversion {

// Which IR a node (and so each of its layers) comes from.
enum class SourceIR : std::uint8_t { ATen, Prims, Operator, Torch, Decomposition };
// "aten", "prims", "operator", "torch", "decomposition": the first name segment.
const char* source_ir_name(SourceIR source);
// A node's source: "decomposition" when lowering made it (node metadata
// ir::kDecomposedFromKey), else its target's namespace.
SourceIR source_ir_of(const ir::Node& node);

class Scope {
 public:
  // The scope of `node` being converted in `ctx`.
  Scope(ConversionContext& ctx, const ir::Node& node);
  // A scope for layers that belong to no node (graph outputs, tests).
  Scope(ConversionContext& ctx, std::string node_name, std::string target, SourceIR source);

  ConversionContext& ctx() const { return *ctx_; }
  network::Network& net() const { return ctx_->net(); }
  const ConversionSettings& settings() const { return ctx_->settings(); }
  const std::string& node_name() const { return node_; }
  const std::string& target() const { return target_; }  // "aten.relu.default"
  SourceIR source_ir() const { return source_; }
  // "node 'relu_1' (aten.relu.default)": the prefix of messages about it.
  std::string where() const;

  // A scope whose layers carry one more name segment.
  Scope child(std::string_view segment) const;
  // The same scope with another source (an impl function that emits a
  // prims-level sequence, say).
  Scope with_source(SourceIR source) const;

  // A fresh layer name in this scope, unique in the network; `suffix`
  // (may be empty) is the last segment.
  std::string layer_name(std::string_view suffix = {}) const;

  // A network tensor for a value (a host tensor or number becomes a constant
  // named with `suffix`).
  network::NetworkTensor* tensor(const Value& v, std::string_view suffix) const;
  // A constant layer holding `value` (the same storage view gives the same
  // layer, whoever asks first names it).
  network::NetworkTensor* constant(const Tensor& value, std::string_view suffix) const;

  // ---- Network::add_* with the name made by the scope from `suffix`
  // ("" for the converter's own layer).
  using NT = network::NetworkTensor;
  network::Layer* add_layer(std::string_view suffix, std::vector<NT*> inputs, network::LayerParams params) const;
  NT* add_activation(std::string_view suffix, NT* x, network::ActivationOp op, double alpha = 0.0,
                     double beta = 0.0) const;
  NT* add_elementwise(std::string_view suffix, NT* a, NT* b, network::ElementwiseOp op) const;
  NT* add_unary(std::string_view suffix, NT* x, network::UnaryOp op) const;
  NT* add_matmul(std::string_view suffix, NT* a, NT* b, bool transpose_a = false, bool transpose_b = false) const;
  NT* add_convolution(std::string_view suffix, NT* x, NT* weight, NT* bias, network::ConvolutionParams p) const;
  NT* add_deconvolution(std::string_view suffix, NT* x, NT* weight, NT* bias, network::DeconvolutionParams p) const;
  NT* add_pooling(std::string_view suffix, NT* x, network::PoolingParams p) const;
  NT* add_softmax(std::string_view suffix, NT* x, std::int64_t axis, bool log = false) const;
  NT* add_normalization(std::string_view suffix, NT* x, NT* scale, NT* bias, network::NormalizationParams p,
                        NT* mean = nullptr, NT* var = nullptr) const;
  NT* add_reduce(std::string_view suffix, NT* x, network::ReduceOp op, network::Dims axes, bool keep_dims) const;
  NT* add_shuffle(std::string_view suffix, NT* x, network::ShuffleParams p, NT* shape = nullptr) const;
  NT* add_reshape(std::string_view suffix, NT* x, network::Dims dims) const;
  NT* add_permute(std::string_view suffix, NT* x, network::Dims perm) const;
  NT* add_slice(std::string_view suffix, NT* x, network::Dims axes, network::Dims starts, network::Dims ends,
                network::Dims steps) const;
  NT* add_slice_normalized(std::string_view suffix, NT* x, network::SliceParams p) const;
  NT* add_concatenation(std::string_view suffix, std::vector<NT*> xs, std::int64_t axis) const;
  NT* add_gather(std::string_view suffix, NT* data, NT* indices, network::GatherMode mode, std::int64_t axis) const;
  NT* add_scatter(std::string_view suffix, NT* data, NT* indices, NT* updates, std::int64_t axis,
                  network::ScatterReduce reduce = network::ScatterReduce::None) const;
  NT* add_select(std::string_view suffix, NT* cond, NT* a, NT* b) const;
  NT* add_constant(std::string_view suffix, const Tensor& value) const;
  NT* add_cast(std::string_view suffix, NT* x, DType to) const;
  NT* add_padding(std::string_view suffix, NT* x, network::PaddingParams p) const;
  NT* add_resize(std::string_view suffix, NT* x, network::ResizeParams p, NT* size = nullptr) const;
  network::Layer* add_topk(std::string_view suffix, NT* x, std::int64_t k, std::int64_t axis, bool largest,
                           network::TopKTies ties = network::TopKTies::IndexOrder) const;
  NT* add_cumulative(std::string_view suffix, NT* x, network::CumulativeOp op, std::int64_t axis,
                     bool exclusive = false, bool reverse = false) const;
  NT* add_shape(std::string_view suffix, NT* x) const;
  NT* add_fill(std::string_view suffix, network::FillParams p, NT* shape = nullptr) const;

 private:
  ConversionContext* ctx_;
  std::string node_;
  std::string target_;
  SourceIR source_;
  std::vector<std::string> segments_;  // child() segments after the node name
};

}  // namespace atenrt::conversion
