// What the conversion may assume; validators see these too.
#pragma once

namespace atenrt::conversion {

struct ConversionSettings {
  // Let converters not marked `supports_dynamic_shapes` take nodes whose
  // shapes are dynamic (Torch-TensorRT's assume_dynamic_shape_support).
  bool assume_dynamic_shape_support = false;
  // Every node's tensor value also becomes a network output, named after the
  // value (Polygraphy's "mark all"), for layer-by-layer comparison.
  bool mark_all_outputs = false;
};

}  // namespace atenrt::conversion
