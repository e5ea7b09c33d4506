// Plugins (include/atenrt/extension.h): shared libraries that add converters
// to the process-wide registry. atenrt::load_plugin and loaded_plugins are the
// public face; this is what the pipeline calls.
#pragma once

namespace atenrt::conversion {

// Loads the plugins that ATENRT_PLUGINS names (colon-separated paths), once
// per process; the pipeline calls it before it first asks the registry. An
// error names the variable and the plugin file, and is thrown again by every
// later call (a plugin the user asked for must not be skipped quietly).
void load_env_plugins();

}  // namespace atenrt::conversion
