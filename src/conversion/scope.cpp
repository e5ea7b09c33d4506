#include "conversion/scope.h"

#include <utility>

namespace atenrt::conversion {

using network::NetworkTensor;

const char* source_ir_name(SourceIR source) {
  switch (source) {
    case SourceIR::ATen: return "aten";
    case SourceIR::Prims: return "prims";
    case SourceIR::Operator: return "operator";
    case SourceIR::Torch: return "torch";
    case SourceIR::Decomposition: return "decomposition";
  }
  return "aten";
}

SourceIR source_ir_of(const ir::Node& node) {
  if (node.metadata.count(ir::kDecomposedFromKey)) return SourceIR::Decomposition;
  const std::string& ns = node.target.ns;
  if (ns == "prims") return SourceIR::Prims;
  if (ns == "operator" || ns == "_operator" || ns == "math") return SourceIR::Operator;
  if (ns == "torch") return SourceIR::Torch;
  return SourceIR::ATen;
}

Scope::Scope(ConversionContext& ctx, const ir::Node& node)
    : Scope(ctx, node.name, node.target.str(), source_ir_of(node)) {}

Scope::Scope(ConversionContext& ctx, std::string node_name, std::string target, SourceIR source)
    : ctx_(&ctx), node_(std::move(node_name)), target_(std::move(target)), source_(source) {}

std::string Scope::where() const { return "node '" + node_ + "' (" + target_ + ")"; }

Scope Scope::child(std::string_view segment) const {
  Scope s = *this;
  if (!segment.empty()) s.segments_.emplace_back(segment);
  return s;
}

Scope Scope::with_source(SourceIR source) const {
  Scope s = *this;
  s.source_ = source;
  return s;
}

std::string Scope::layer_name(std::string_view suffix) const {
  std::string name = "[" + std::string(source_ir_name(source_)) + "]-[" + node_ + "]";
  for (const auto& seg : segments_) name += "-[" + seg + "]";
  if (!suffix.empty()) name += "-[" + std::string(suffix) + "]";
  return net().unique_layer_name(name);
}

NetworkTensor* Scope::tensor(const Value& v, std::string_view suffix) const {
  if (v.is_network_tensor()) return v.network_tensor();
  return ctx_->tensor(v, layer_name(suffix));
}

NetworkTensor* Scope::constant(const Tensor& value, std::string_view suffix) const {
  return ctx_->constant(value, layer_name(suffix));
}

// ---- forwarders: the scope names, the network adds.

network::Layer* Scope::add_layer(std::string_view suffix, std::vector<NT*> inputs, network::LayerParams params) const {
  return net().add_layer(layer_name(suffix), std::move(inputs), std::move(params));
}
NetworkTensor* Scope::add_activation(std::string_view suffix, NT* x, network::ActivationOp op, double alpha,
                                     double beta) const {
  return net().add_activation(layer_name(suffix), x, op, alpha, beta);
}
NetworkTensor* Scope::add_elementwise(std::string_view suffix, NT* a, NT* b, network::ElementwiseOp op) const {
  return net().add_elementwise(layer_name(suffix), a, b, op);
}
NetworkTensor* Scope::add_unary(std::string_view suffix, NT* x, network::UnaryOp op) const {
  return net().add_unary(layer_name(suffix), x, op);
}
NetworkTensor* Scope::add_matmul(std::string_view suffix, NT* a, NT* b, bool transpose_a, bool transpose_b) const {
  return net().add_matmul(layer_name(suffix), a, b, transpose_a, transpose_b);
}
NetworkTensor* Scope::add_convolution(std::string_view suffix, NT* x, NT* weight, NT* bias,
                                      network::ConvolutionParams p) const {
  return net().add_convolution(layer_name(suffix), x, weight, bias, std::move(p));
}
NetworkTensor* Scope::add_deconvolution(std::string_view suffix, NT* x, NT* weight, NT* bias,
                                        network::DeconvolutionParams p) const {
  return net().add_deconvolution(layer_name(suffix), x, weight, bias, std::move(p));
}
NetworkTensor* Scope::add_pooling(std::string_view suffix, NT* x, network::PoolingParams p) const {
  return net().add_pooling(layer_name(suffix), x, std::move(p));
}
NetworkTensor* Scope::add_softmax(std::string_view suffix, NT* x, std::int64_t axis, bool log) const {
  return net().add_softmax(layer_name(suffix), x, axis, log);
}
NetworkTensor* Scope::add_normalization(std::string_view suffix, NT* x, NT* scale, NT* bias,
                                        network::NormalizationParams p, NT* mean, NT* var) const {
  return net().add_normalization(layer_name(suffix), x, scale, bias, std::move(p), mean, var);
}
NetworkTensor* Scope::add_reduce(std::string_view suffix, NT* x, network::ReduceOp op, network::Dims axes,
                                 bool keep_dims) const {
  return net().add_reduce(layer_name(suffix), x, op, std::move(axes), keep_dims);
}
NetworkTensor* Scope::add_shuffle(std::string_view suffix, NT* x, network::ShuffleParams p, NT* shape) const {
  return net().add_shuffle(layer_name(suffix), x, std::move(p), shape);
}
NetworkTensor* Scope::add_reshape(std::string_view suffix, NT* x, network::Dims dims) const {
  return net().add_reshape(layer_name(suffix), x, std::move(dims));
}
NetworkTensor* Scope::add_permute(std::string_view suffix, NT* x, network::Dims perm) const {
  return net().add_permute(layer_name(suffix), x, std::move(perm));
}
NetworkTensor* Scope::add_slice(std::string_view suffix, NT* x, network::Dims axes, network::Dims starts,
                                network::Dims ends, network::Dims steps) const {
  return net().add_slice(layer_name(suffix), x, std::move(axes), std::move(starts), std::move(ends),
                         std::move(steps));
}
NetworkTensor* Scope::add_slice_normalized(std::string_view suffix, NT* x, network::SliceParams p) const {
  return net().add_slice_normalized(layer_name(suffix), x, std::move(p));
}
NetworkTensor* Scope::add_concatenation(std::string_view suffix, std::vector<NT*> xs, std::int64_t axis) const {
  return net().add_concatenation(layer_name(suffix), std::move(xs), axis);
}
NetworkTensor* Scope::add_gather(std::string_view suffix, NT* data, NT* indices, network::GatherMode mode,
                                 std::int64_t axis) const {
  return net().add_gather(layer_name(suffix), data, indices, mode, axis);
}
NetworkTensor* Scope::add_scatter(std::string_view suffix, NT* data, NT* indices, NT* updates, std::int64_t axis,
                                  network::ScatterReduce reduce) const {
  return net().add_scatter(layer_name(suffix), data, indices, updates, axis, reduce);
}
NetworkTensor* Scope::add_select(std::string_view suffix, NT* cond, NT* a, NT* b) const {
  return net().add_select(layer_name(suffix), cond, a, b);
}
NetworkTensor* Scope::add_constant(std::string_view suffix, const Tensor& value) const {
  return net().add_constant(layer_name(suffix), value);
}
NetworkTensor* Scope::add_cast(std::string_view suffix, NT* x, DType to) const {
  return net().add_cast(layer_name(suffix), x, to);
}
NetworkTensor* Scope::add_padding(std::string_view suffix, NT* x, network::PaddingParams p) const {
  return net().add_padding(layer_name(suffix), x, std::move(p));
}
NetworkTensor* Scope::add_resize(std::string_view suffix, NT* x, network::ResizeParams p, NT* size) const {
  return net().add_resize(layer_name(suffix), x, std::move(p), size);
}
network::Layer* Scope::add_topk(std::string_view suffix, NT* x, std::int64_t k, std::int64_t axis,
                                bool largest, network::TopKTies ties) const {
  return net().add_topk(layer_name(suffix), x, k, axis, largest, ties);
}
NetworkTensor* Scope::add_cumulative(std::string_view suffix, NT* x, network::CumulativeOp op, std::int64_t axis,
                                     bool exclusive, bool reverse) const {
  return net().add_cumulative(layer_name(suffix), x, op, axis, exclusive, reverse);
}
NetworkTensor* Scope::add_shape(std::string_view suffix, NT* x) const {
  return net().add_shape(layer_name(suffix), x);
}
NetworkTensor* Scope::add_fill(std::string_view suffix, network::FillParams p, NT* shape) const {
  return net().add_fill(layer_name(suffix), std::move(p), shape);
}

}  // namespace atenrt::conversion
