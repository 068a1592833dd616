// One line of text input, from a --cmdline-file, from commands piped to stdin or from a
// --script: what the user wrote comes back to the terminal only with its control bytes escaped
// (an escape sequence in a file must not drive the operator's terminal), and a line that holds a
// NUL byte is refused whole (cmdline's parser would stop at the NUL and run what came before).
#pragma once

#include <string>
#include <string_view>

#include "weft/control/command_context.hpp"

struct cmdline;

namespace weft::control {

// `text` safe to print: control bytes (NUL, ESC, ...), DEL and bytes that are not UTF-8 text as
// \xNN; printable ASCII and UTF-8 characters (C1 controls excepted) as they are.
std::string printable(std::string_view text);

// Echoes "weft> <line>" and runs the line through run_line; a line holding a NUL byte is
// refused and counted as an error instead. Returns what run_line returns (false when refused).
bool run_input_line(CommandContext &ctx, struct cmdline *cl, std::string_view line);

}  // namespace weft::control
