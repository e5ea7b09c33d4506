// Schemas of ops newer than torch 1.13 that torch >= 2.1 exports produce.
// Written from the torch 2.x native_functions declarations (same syntax as
// the 1.13 list), so that their omitted defaults can be filled too.
#include <string_view>

namespace atenrt::ir {

extern const std::string_view kExtraSchemaText;
const std::string_view kExtraSchemaText = R"SCHEMAS(
aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)
aten::_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
aten::_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
aten::_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)
aten::_prelu_kernel(Tensor self, Tensor weight) -> Tensor
aten::any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor
aten::squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)
aten::_reshape_copy(Tensor self, SymInt[] size) -> Tensor
aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor
aten::_scaled_dot_product_flash_attention(Tensor query, Tensor key, Tensor value, float dropout_p=0., bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) -> (Tensor output, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, Tensor rng_state, Tensor unused, Tensor debug_attn_mask)
aten::_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0., bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)
aten::_scaled_dot_product_efficient_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, bool compute_log_sumexp, float dropout_p=0., bool is_causal=False, *, float? scale=None) -> (Tensor output, Tensor log_sumexp, Tensor philox_seed, Tensor philox_offset)
aten::_scaled_dot_product_cudnn_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, bool compute_log_sumexp, float dropout_p=0., bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) -> (Tensor output, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, Tensor philox_seed, Tensor philox_offset, Tensor debug_attn_mask)
aten::_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
aten::sym_size.int(Tensor self, int dim) -> SymInt
aten::sym_stride.int(Tensor self, int dim) -> SymInt
aten::sym_numel(Tensor self) -> SymInt
aten::sym_storage_offset(Tensor self) -> SymInt
aten::_assert_tensor_metadata(Tensor a, SymInt[]? size=None, SymInt[]? stride=None, ScalarType? dtype=None, *, Device? device=None, Layout? layout=None) -> ()
aten::_assert_scalar(Scalar self, str assert_msg) -> ()
aten::_assert_async.msg(Tensor self, str assert_msg) -> ()
aten::sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()
aten::sym_constrain_range_for_size(Scalar size, *, int? min=None, int? max=None) -> ()
aten::unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]
aten::alias_copy(Tensor self) -> Tensor
aten::rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor
aten::_fused_rms_norm(Tensor input, int[] normalized_shape, Tensor? weight, float? eps) -> (Tensor, Tensor)
prims::broadcast_in_dim(Tensor(a) a, SymInt[] shape, int[] broadcast_dimensions) -> Tensor(a)
prims::div(Tensor self, Tensor other) -> Tensor
prims::sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor
prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor
prims::var(Tensor inp, int[]? dims, float correction=1., *, ScalarType? output_dtype=None) -> Tensor
)SCHEMAS";

}  // namespace atenrt::ir
