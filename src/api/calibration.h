// Int8 calibration inputs for the builder (CompileSettings: calibration,
// calibration_method, calibration_cache): the .npz batches, checked against
// the network's inputs, and the cache file of scales.
#pragma once

#include <memory>

#include "atenrt/settings.h"
#include "builder/builder.h"
#include "network/network.h"

namespace atenrt::api {

// Fills the builder's calibration: the cache's table when the cache file
// exists, else the batches read from settings.calibration. `dims` are the
// network inputs' (static) shapes. Throws InputError/FormatError naming the
// file, the array and what does not fit.
void attach_calibration(builder::BuilderConfig& config, const CompileSettings& settings,
                        const std::vector<const network::NetworkTensor*>& inputs,
                        const std::vector<network::Dims>& dims);

// Writes the scales a build used to settings.calibration_cache when it was
// not read from there (write, then rename).
void save_calibration_cache(const builder::BuilderConfig& config, const CompileSettings& settings,
                            const builder::BuildReport& report);

}  // namespace atenrt::api
