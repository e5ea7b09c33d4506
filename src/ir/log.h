// The library's side of include/atenrt/log.h: every room logs through here.
#pragma once

#include <string>

#include "atenrt/log.h"

namespace atenrt {

// True when a message at `level` would reach the callback: build costly
// messages only then.
bool log_enabled(LogLevel level);
void log(LogLevel level, const std::string& message);

}  // namespace atenrt
