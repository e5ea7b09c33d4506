// Text that echoes untrusted content (archive entry names, node names) goes
// through escape_text before it reaches a terminal or a log.
#pragma once

#include <string>
#include <string_view>

#include "atenrt/export.h"

namespace atenrt {

// Valid UTF-8 with control characters, DEL and invalid bytes written as
// \xNN (newlines and tabs kept), so a hostile name cannot reach a terminal.
ATENRT_API std::string escape_text(std::string_view text);

}  // namespace atenrt
