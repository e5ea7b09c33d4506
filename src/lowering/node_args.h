// Typed access to a node's named arguments, with errors that name the node,
// its op overload and the argument.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace atenrt::lowering {

const ir::Argument& arg(const ir::Node& node, const std::string& name);
std::string tensor_arg(const ir::Node& node, const std::string& name);
std::optional<std::string> opt_tensor_arg(const ir::Node& node, const std::string& name);
// Scalar (int, float or bool) as double.
double scalar_arg(const ir::Node& node, const std::string& name);
std::optional<double> opt_scalar_arg(const ir::Node& node, const std::string& name);
std::int64_t int_arg(const ir::Node& node, const std::string& name);
std::optional<std::int64_t> opt_int_arg(const ir::Node& node, const std::string& name);
bool bool_arg(const ir::Node& node, const std::string& name);
// int[] (an int is a one-element list; static SymInts are accepted).
std::vector<std::int64_t> int_list_arg(const ir::Node& node, const std::string& name);
std::optional<std::vector<std::int64_t>> opt_int_list_arg(const ir::Node& node, const std::string& name);
std::optional<DType> opt_dtype_arg(const ir::Node& node, const std::string& name);
std::optional<std::string> opt_string_arg(const ir::Node& node, const std::string& name);

// The tensor value names a node produces (TensorRef outputs, in order; list
// outputs flattened).
std::vector<std::string> output_values(const ir::Node& node);

}  // namespace atenrt::lowering
