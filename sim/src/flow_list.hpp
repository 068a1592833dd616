// A list of flows given in a file (the `file` workload): one flow per line, `src dst bytes
// [start]`, hosts by index, sizes and times as in scenario files (1MB, 12.5us). It lets two
// simulators run exactly the same traffic (perf/sim/htsim-crosscheck writes one from htsim's
// connection matrices and from weft-sim's own per-flow CSV).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "weft/sim/time.hpp"

namespace weft::sim {

struct FlowSpec {
    std::uint32_t src = 0, dst = 0;
    std::uint64_t bytes = 0;
    Time start = 0;
    std::size_t line = 0;
};

// Throws routing::ParseError (file:line:column) on a malformed line, a flow from a host to
// itself, or a host at or above `hosts`.
std::vector<FlowSpec> parse_flow_list(std::string_view text, const std::string &name, std::uint32_t hosts);

}  // namespace weft::sim
