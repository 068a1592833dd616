// Reading the files weft-route is given (topologies, GUID and option files, torus-2QoS.conf)
// with bounds: a file is read whole, so a device or a runaway file must not be read without end.
#pragma once

#include <cstddef>
#include <string>

namespace weft::routing {

struct TextLimits {
    // The largest file: a topology of the whole unicast LID space is tens of megabytes.
    std::size_t max_bytes = std::size_t{256} << 20;
    // The longest line of a line-oriented file. Not applied to a file whose first non-blank
    // character is '{' (JSON may be written on one line).
    std::size_t max_line = std::size_t{64} << 10;
};

// Reads the file at `path` whole. Throws std::runtime_error when it cannot be opened or read or
// is larger than limits.max_bytes (naming the file and the limit), and ParseError at the first
// line longer than limits.max_line.
std::string read_text_file(const std::string &path, const TextLimits &limits = {});

}  // namespace weft::routing
