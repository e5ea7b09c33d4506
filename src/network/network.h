// The Network: a TensorRT-style graph of typed tensors and layers.
//
// Converters build it through the add_* methods (each infers the output
// dtype and dims and validates, throwing LayerError that names the layer);
// the builder rewrites it (replace_all_uses, set_input, remove_layer); the
// reference executor (reference/reference.h) runs it as the oracle.
//
// Tensors and layers are owned by the Network and keep their addresses
// until removed. Layer names are unique (layers are named after the ATen
// node they came from; `unique_layer_name` helps when one node makes several).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "atenrt/dtype.h"
#include "atenrt/errors.h"
#include "atenrt/tensor.h"
#include "network/layers.h"

namespace atenrt::network {

// A layer (or network) is invalid: wrong operand count, dtype or dims, bad
// parameters. The message starts with "layer '<name>' (<Kind>): ".
class LayerError : public UnsupportedError {
 public:
  using UnsupportedError::UnsupportedError;
};

// Dtype and dims of a tensor: what shape inference works on.
struct TensorDesc {
  DType dtype = DType::Float32;
  Dims dims;
  bool operator==(const TensorDesc&) const = default;
};
std::string desc_to_string(const TensorDesc& desc);  // "float32[2, -1, 3]"

class Layer;

struct NetworkTensor {
  std::string name;
  DType dtype = DType::Float32;
  Dims dims;  // -1 = dynamic
  bool is_input = false;
  bool is_output = false;
  Layer* producer = nullptr;  // null for network inputs
  int producer_output = 0;    // which output of producer

  int rank() const { return static_cast<int>(dims.size()); }
  bool is_static() const;  // no dynamic dim
  TensorDesc desc() const { return {dtype, dims}; }
};

// Read freely; change only through Network methods, which keep producers,
// consumers and inferred shapes consistent.
class Layer {
 public:
  std::string name;
  LayerParams params;
  std::vector<NetworkTensor*> inputs;
  std::vector<NetworkTensor*> outputs;

  LayerKind kind() const { return kind_of(params); }
  NetworkTensor* input(std::size_t i) const { return inputs.at(i); }
  NetworkTensor* output(std::size_t i = 0) const { return outputs.at(i); }
  template <typename P>
  const P& params_as() const { return std::get<P>(params); }
};

class Network {
 public:
  Network();
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  Network(Network&&) noexcept;
  Network& operator=(Network&&) noexcept;

  // ---- inputs and outputs
  NetworkTensor* add_input(const std::string& name, DType dtype, Dims dims);
  // Marks `tensor` as a network output (order of calls = output order).
  // A tensor may be renamed first with set_tensor_name.
  void mark_output(NetworkTensor* tensor);
  void unmark_output(NetworkTensor* tensor);
  void set_tensor_name(NetworkTensor* tensor, const std::string& name);
  // Renames a layer (a pass that replaced a layer gives its name to the
  // replacement, so steps and reports keep the node's name).
  void set_layer_name(Layer* layer, const std::string& name);
  const std::vector<NetworkTensor*>& inputs() const { return inputs_; }
  const std::vector<NetworkTensor*>& outputs() const { return outputs_; }

  // ---- generic layer creation: validates, infers and creates the outputs,
  // named `name` (first output) and `name:i` (others).
  Layer* add_layer(const std::string& name, std::vector<NetworkTensor*> inputs, LayerParams params);

  // ---- one helper per kind; each returns the (first) output.
  NetworkTensor* add_activation(const std::string& name, NetworkTensor* x, ActivationOp op,
                                double alpha = 0.0, double beta = 0.0);
  NetworkTensor* add_elementwise(const std::string& name, NetworkTensor* a, NetworkTensor* b,
                                 ElementwiseOp op);
  NetworkTensor* add_unary(const std::string& name, NetworkTensor* x, UnaryOp op);
  NetworkTensor* add_matmul(const std::string& name, NetworkTensor* a, NetworkTensor* b,
                            bool transpose_a = false, bool transpose_b = false);
  // bias may be null.
  NetworkTensor* add_convolution(const std::string& name, NetworkTensor* x, NetworkTensor* weight,
                                 NetworkTensor* bias, ConvolutionParams params);
  NetworkTensor* add_deconvolution(const std::string& name, NetworkTensor* x,
                                   NetworkTensor* weight, NetworkTensor* bias,
                                   DeconvolutionParams params);
  NetworkTensor* add_pooling(const std::string& name, NetworkTensor* x, PoolingParams params);
  NetworkTensor* add_softmax(const std::string& name, NetworkTensor* x, std::int64_t axis,
                             bool log = false);
  // mean/var only for NormalizationOp::Batch (null otherwise).
  NetworkTensor* add_normalization(const std::string& name, NetworkTensor* x,
                                   NetworkTensor* scale, NetworkTensor* bias,
                                   NormalizationParams params, NetworkTensor* mean = nullptr,
                                   NetworkTensor* var = nullptr);
  NetworkTensor* add_reduce(const std::string& name, NetworkTensor* x, ReduceOp op, Dims axes,
                            bool keep_dims);
  NetworkTensor* add_shuffle(const std::string& name, NetworkTensor* x, ShuffleParams params,
                             NetworkTensor* shape = nullptr);
  NetworkTensor* add_reshape(const std::string& name, NetworkTensor* x, Dims dims);
  NetworkTensor* add_permute(const std::string& name, NetworkTensor* x, Dims perm);
  // Python slice semantics per listed axis (start/end may be negative or out
  // of range and are clamped; step != 0); other axes are kept whole. Needs
  // static dims on the sliced axes.
  NetworkTensor* add_slice(const std::string& name, NetworkTensor* x, Dims axes, Dims starts,
                           Dims ends, Dims steps);
  NetworkTensor* add_slice_normalized(const std::string& name, NetworkTensor* x,
                                      SliceParams params);
  NetworkTensor* add_concatenation(const std::string& name, std::vector<NetworkTensor*> xs,
                                   std::int64_t axis);
  NetworkTensor* add_gather(const std::string& name, NetworkTensor* data, NetworkTensor* indices,
                            GatherMode mode, std::int64_t axis);
  NetworkTensor* add_scatter(const std::string& name, NetworkTensor* data, NetworkTensor* indices,
                             NetworkTensor* updates, std::int64_t axis,
                             ScatterReduce reduce = ScatterReduce::None);
  NetworkTensor* add_select(const std::string& name, NetworkTensor* cond, NetworkTensor* a,
                            NetworkTensor* b);
  NetworkTensor* add_constant(const std::string& name, const Tensor& value);
  NetworkTensor* add_cast(const std::string& name, NetworkTensor* x, DType to);
  NetworkTensor* add_padding(const std::string& name, NetworkTensor* x, PaddingParams params);
  // size: the output's spatial sizes as an int64 tensor known at run time (else null).
  NetworkTensor* add_resize(const std::string& name, NetworkTensor* x, ResizeParams params,
                            NetworkTensor* size = nullptr);
  // Returns the layer: output(0) values, output(1) int64 indices.
  Layer* add_topk(const std::string& name, NetworkTensor* x, std::int64_t k, std::int64_t axis,
                  bool largest, TopKTies ties = TopKTies::IndexOrder);
  NetworkTensor* add_cumulative(const std::string& name, NetworkTensor* x, CumulativeOp op,
                                std::int64_t axis, bool exclusive = false, bool reverse = false);
  NetworkTensor* add_shape(const std::string& name, NetworkTensor* x);
  NetworkTensor* add_fill(const std::string& name, FillParams params, NetworkTensor* shape = nullptr);

  // ---- queries
  // Layers in insertion order (topological unless the network was rewired).
  std::vector<Layer*> layers() const;
  // A topological order (stable: insertion order where possible). Throws
  // LayerError on a cycle.
  std::vector<Layer*> topological_order() const;
  std::size_t num_layers() const { return layers_.size(); }
  Layer* find_layer(std::string_view name) const;            // null if none
  NetworkTensor* find_tensor(std::string_view name) const;   // null if none
  std::vector<Layer*> consumers(const NetworkTensor* tensor) const;
  // `base` if no layer has that name, else `base_1`, `base_2`, ...
  std::string unique_layer_name(std::string_view base) const;
  // Human-readable listing, one layer per line.
  std::string to_string() const;

  // ---- rewriting (for the builder)
  // Every consumer of `from` (and the output marking) now uses `to`; dtype
  // and dims must match exactly.
  void replace_all_uses(NetworkTensor* from, NetworkTensor* to);
  // Rewires one input; re-infers the layer and checks its outputs keep their
  // dtype and dims.
  void set_input(Layer* layer, std::size_t index, NetworkTensor* tensor);
  // Replaces the params (same kind or not) and re-infers; outputs must keep
  // their count, dtype and dims.
  void set_params(Layer* layer, LayerParams params);
  // Removes a layer whose outputs have no consumers and are not outputs.
  void remove_layer(Layer* layer);
  // Removes layers that no output depends on; returns how many.
  int remove_dead_layers();
  // Re-runs shape inference on every layer in topological order and checks
  // the stored tensors agree; throws LayerError otherwise.
  void validate() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<NetworkTensor*> inputs_;
  std::vector<NetworkTensor*> outputs_;
  std::vector<Layer*> layers_;  // insertion order; owned by impl_
};

// ---- shape inference (used by Network and by the reference executor)

// Infers the outputs of a layer from its inputs' descs. `values[i]` is the
// value of input i when known (constants at build time, every input at run
// time) or null; value-dependent kinds (Shuffle/Fill with a shape input) give
// -1 dims without it. Throws LayerError naming `layer_name`.
std::vector<TensorDesc> infer_outputs(std::string_view layer_name, const LayerParams& params,
                                      std::span<const TensorDesc> inputs,
                                      std::span<const Tensor* const> values = {});

// Fills parameters left empty with torch's defaults: conv/deconv/pool
// stride (pool: the kernel), dilation 1, padding 0, padding_post = padding_pre,
// output_padding 0. add_layer and set_params call it; stored params are full.
void fill_param_defaults(LayerParams& params, std::span<const TensorDesc> inputs);

// numpy/torch broadcasting of two dims vectors (-1 stays -1 unless the other
// side fixes it); nullopt if they do not broadcast.
std::optional<Dims> broadcast_dims(const Dims& a, const Dims& b);

}  // namespace atenrt::network
