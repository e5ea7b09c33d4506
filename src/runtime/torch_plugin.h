// Finds and loads the libtorch fallback plugin (libatenrt_torch.so) on first
// need: only programs with torch segments ever load libtorch.
#pragma once

#include <string>

#include "runtime/torch_abi.h"

namespace atenrt::runtime {

// Whether this build made the plugin (CMake option ATENRT_WITH_TORCH).
bool torch_fallback_built();

// The plugin file that torch_plugin() would load, found without loading it
// (build_info() names it); "" with why in `why` when not built or not found.
std::string torch_plugin_file(std::string* why = nullptr);

// The plugin's interface, loaded once per process; nullptr when it cannot be
// loaded, with why in `why` (not built, not found, wrong ABI version).
// ATENRT_TORCH_PLUGIN names the file to load instead of searching next to the
// program or library that holds atenrt.
const torch_abi::Api* torch_plugin(std::string* why = nullptr);

}  // namespace atenrt::runtime
