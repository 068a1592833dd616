// OpenSM's per-port and ordering option files, read into plain values that RoutingOptions
// carries. Formats as opensm(8) documents them; '#' starts a comment anywhere on a line.
// Every reader throws ParseError naming file, line, column and what was expected.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "weft/routing/fabric.hpp"

namespace weft::routing {

// -w / --hop_weights_file: "<switch GUID> <port> <weight>" per line. A port's weight is the hop
// cost of leaving the switch through it (default 1); it shapes the min-hop matrices.
struct HopWeight {
    Guid sw = 0;
    PortNum port = 0;
    unsigned weight = 1;
    bool operator==(const HopWeight &) const = default;  // RoutingOptions compare (unicast cache)
};
std::vector<HopWeight> read_hop_weights(std::string_view text, const std::string &name);

// -O / --port_search_ordering_file (--dimn_ports_file): "<switch GUID> <port> <port> ..." per
// line. For dor the ports name the dimensions in order; for the other engines they are the
// order in which a switch's ports are searched instead of 1..N.
struct PortOrder {
    Guid sw = 0;
    std::vector<PortNum> ports;
    bool operator==(const PortOrder &) const = default;
};
std::vector<PortOrder> read_port_search_ordering(std::string_view text, const std::string &name);

// -i / --ignore_guids: "<node GUID> <port>" per line (OpenSM 3.3); a line with a GUID alone is
// the older per-end-port form. Fills the two RoutingOptions lists.
struct IgnoreList {
    std::vector<Guid> end_port_guids;
    std::vector<std::pair<Guid, PortNum>> switch_ports;
};
IgnoreList read_ignore_guids(std::string_view text, const std::string &name);

// -m / --ids_guid_file: "<GUID> <id>" per line; updn/dnup rank switches by these IDs instead of
// their GUIDs.
std::vector<std::pair<Guid, std::uint64_t>> read_ids_guids(std::string_view text, const std::string &name);

}  // namespace weft::routing
