// What the conversion may assume; validators see these too.
#pragma once

namespace atenrt::conversion {

struct ConversionSettings {
  // Let converters not marked `supports_dynamic_shapes` take nodes whose
  // shapes are dynamic (Torch-TensorRT's assume_dynamic_shape_support).
  bool assume_dynamic_shape_support = false;
};

}  // namespace atenrt::conversion
