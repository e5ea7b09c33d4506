// Shared by the registration files: includes, short names and the
// validators several families use.
#pragma once

#include <initializer_list>
#include <string>

#include "conversion/context.h"
#include "conversion/impl/converter_utils.h"
#include "conversion/registry.h"
#include "conversion/scope.h"

namespace atenrt::conversion::aten_ops {

using network::NetworkTensor;

// `.out` variants write into a caller's buffer; functional graphs never
// contain them, and the network has no in-place outputs.
Capability refuse_out_variant(const NodeView& node, const ConversionSettings&);

// The named bool argument is false (or absent).
Validator requires_false(const char* arg, const char* why);
// The tensor arguments and the result are integer or bool (bitwise ops;
// torch defines them on nothing else).
Validator requires_integer_or_bool(std::initializer_list<const char*> args);
// The tensor arguments and the result are integers (bit shifts: torch 1.13
// defines them on no other dtype, bool included).
Validator requires_integer(std::initializer_list<const char*> args);
// Every listed tensor argument has a static shape.
Validator requires_static(std::initializer_list<const char*> args);
// The literal int argument `dim` (or each entry of an int list) names a dim
// of the tensor argument `tensor`, whose rank `extra` extends for ops that
// add a dim: the rule normalize_dim applies at conversion (impl::dim_problem).
Validator dim_in_range(const char* dim = "dim", const char* tensor = "self", std::int64_t extra = 0);
// The literal int list `dims` names distinct dims of `tensor` (normalize_dims' rule).
Validator distinct_dims(const char* dims = "dims", const char* tensor = "self");
// The rank of tensor argument `arg`, -1 when unknown.
std::int64_t rank_of(const NodeView& node, const char* arg);
// Capability::no(*why) when there is a reason, else yes.
Capability refuse_if(const std::optional<std::string>& why);
// All validators pass (first refusal wins).
Validator all_of(std::initializer_list<Validator> validators);

// Outputs helpers.
inline Outputs one(Value v) { return Outputs{std::move(v)}; }

}  // namespace atenrt::conversion::aten_ops
