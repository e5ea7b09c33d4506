// Logging for embedders: what the library has to say (compile summaries, notes
// on loaded engine files, warnings) goes to one callback per process, never
// straight to stderr. The default callback writes warnings and errors to
// stderr as "atenrt: warning: ..."; set your own to route them into your
// service's log, or an empty one to silence the library. The C API's
// atenrt_set_log_callback sets the same callback.
#pragma once

#include <functional>
#include <string_view>

#include "atenrt/export.h"

namespace atenrt {

enum class LogLevel { Debug = 0, Info = 1, Warning = 2, Error = 3 };

// Called from whichever thread calls into atenrt (possibly several at once);
// `message` is valid during the call only.
using LogCallback = std::function<void(LogLevel level, std::string_view message)>;

// Replaces the callback; messages below `min_level` are not made at all.
ATENRT_API void set_log_callback(LogCallback callback, LogLevel min_level = LogLevel::Info);
// Back to the default: warnings and errors to stderr.
ATENRT_API void reset_log_callback();
ATENRT_API std::string_view log_level_name(LogLevel level);  // "debug", "info", "warning", "error"

}  // namespace atenrt
