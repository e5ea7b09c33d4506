// Batch, layer, group and instance normalization.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conversion/impl/converter_utils.h"

namespace atenrt::conversion::impl::normalization {

// Limits the validators check with the node's numbers and the impl functions
// with the resolved ones (a size < 0: not known).
// normalized_shape names 1..rank trailing dims of the input, each of its size.
std::optional<std::string> layer_norm_shape_problem(const std::vector<std::int64_t>& normalized_shape,
                                                    const std::vector<std::int64_t>& input_dims);
// groups > 0 and dividing the channels.
std::optional<std::string> group_norm_problem(std::int64_t channels, std::int64_t groups);

struct BatchNormResult {
  NetworkTensor* out = nullptr;
  NetworkTensor* mean = nullptr;    // batch statistics only (training)
  NetworkTensor* invstd = nullptr;  // batch statistics only (training)
  NetworkTensor* var = nullptr;     // batch statistics only: the biased variance, [C]
};

// Inference with running statistics (one Normalization layer), or batch
// statistics when `use_batch_stats` (training mode, or no running stats).
// weight/bias/mean/var may be null (ones, zeros).
BatchNormResult batch_norm(const Scope& s, NetworkTensor* x,
                           NetworkTensor* weight, NetworkTensor* bias, NetworkTensor* running_mean,
                           NetworkTensor* running_var, bool use_batch_stats, double eps);
// What training-mode batch norm writes back to its running statistics, as PyTorch computes it:
// momentum * batch + (1 - momentum) * running, with the batch variance made unbiased (times
// n / (n - 1), n the elements per channel: the input's static dims but the channel). `batch` is
// batch_norm's result with batch statistics; the results take the running statistics' dtypes.
struct RunningStats {
  NetworkTensor* mean = nullptr;
  NetworkTensor* var = nullptr;
};
RunningStats updated_running_stats(const Scope& s, NetworkTensor* x, const BatchNormResult& batch,
                                   NetworkTensor* running_mean, NetworkTensor* running_var, double momentum);
// Over the trailing dims named by normalized_shape.
NetworkTensor* layer_norm(const Scope& s, NetworkTensor* x,
                          const std::vector<std::int64_t>& normalized_shape, NetworkTensor* weight,
                          NetworkTensor* bias, double eps);
NetworkTensor* group_norm(const Scope& s, NetworkTensor* x,
                          std::int64_t groups, NetworkTensor* weight, NetworkTensor* bias, double eps);

// The result with the statistics PyTorch's native_layer_norm / native_group_norm return: mean and
// rstd = 1/sqrt(var + eps) (layer norm: the input's shape with the normalized dims as 1; group norm:
// [N, groups]). Built from reductions, so any epsilon works (a negative one as PyTorch computes it).
struct NormWithStats {
  NetworkTensor* out = nullptr;
  NetworkTensor* mean = nullptr;
  NetworkTensor* rstd = nullptr;
};
NormWithStats layer_norm_with_stats(const Scope& s, NetworkTensor* x,
                                    const std::vector<std::int64_t>& normalized_shape, NetworkTensor* weight,
                                    NetworkTensor* bias, double eps);
NormWithStats group_norm_with_stats(const Scope& s, NetworkTensor* x, std::int64_t groups,
                                    NetworkTensor* weight, NetworkTensor* bias, double eps);
// torch's weight norm (_weight_norm_interface): w = v * (g / ||v||), the 2-norm over every dim but
// `dim` (all of them for dim -1), and that norm in g's shape.
struct WeightNorm {
  NetworkTensor* weight = nullptr;
  NetworkTensor* norm = nullptr;
};
WeightNorm weight_norm(const Scope& s, NetworkTensor* v, NetworkTensor* g, std::int64_t dim);

NetworkTensor* instance_norm(const Scope& s, NetworkTensor* x,
                             NetworkTensor* weight, NetworkTensor* bias, double eps);

}  // namespace atenrt::conversion::impl::normalization
