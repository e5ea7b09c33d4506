// Where a node came from, as lowering records it in node metadata.
#pragma once

namespace atenrt::ir {

// Metadata key that lowering sets on the nodes a decomposition made: the op
// overload they replace ("aten.addmm.default"). Conversion reads it to name
// layers after their origin ("[decomposition]-[addmm_mm]").
inline constexpr const char* kDecomposedFromKey = "atenrt.decomposed_from";

}  // namespace atenrt::ir
