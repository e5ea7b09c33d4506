// A small exact evaluator over atenrt::Tensor for the ops constant folding
// takes: views and transpositions (strided views of the same storage),
// elementwise arithmetic (computed in double and rounded once, which equals
// float32 arithmetic for + - * /), dtype casts, arange and full.
#pragma once

#include <functional>
#include <optional>

#include "atenrt/tensor.h"
#include "ir/graph.h"

namespace atenrt::lowering {

// Values of the node's tensor inputs, by name (nullptr: not a constant).
using ConstLookup = std::function<const Tensor*(const std::string&)>;

// Can this op be evaluated at all (independent of the inputs)?
bool const_evaluable(const ir::Node& node);

// The node's single output, or nullopt when the op/dtype/shape is not one
// the evaluator handles exactly. `out` is the output's metadata (static).
std::optional<Tensor> const_evaluate(const ir::Node& node, const ir::TensorMeta& out, const ConstLookup& lookup);

}  // namespace atenrt::lowering
