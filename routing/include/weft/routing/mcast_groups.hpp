// Multicast groups from a file: the groups an SM without a subnet administrator (weft-sm,
// weft-route) builds trees and MFTs for, standing in for the joins an SA would take. weft's own
// format, one group per line ('#' starts a comment anywhere):
//
//   MLID MEMBER [MEMBER ...]
//
// MLID is 0xC000..0xFFFE (each at most once). A MEMBER is `all` (every linked CA and router
// port), `switches` (every switch, as its port 0) or a port GUID (0x...; a switch's node GUID
// stands for its port 0). Parsing needs no fabric (it throws ParseError naming file, line and
// column); resolve_mcast_groups() then finds the members in a fabric.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing {

inline constexpr Lid kFirstMlid = 0xC000;
inline constexpr Lid kLastMlid = 0xFFFE;  // 0xFFFF is the permissive LID

struct McastGroupSpec {
    Lid mlid = 0;
    bool all_end_ports = false;
    bool all_switches = false;
    std::vector<Guid> port_guids;
    std::size_t line = 0;
};

std::vector<McastGroupSpec> read_mcast_groups(std::string_view text, const std::string &name);

struct ResolvedMcastGroups {
    std::vector<McastGroup> groups;     // in file order; members sorted, each once
    std::vector<std::string> warnings;  // members not in the fabric or without a link: left out
};

// Members of each spec in f: only ports with a link (a CA whose cable is out cannot receive).
ResolvedMcastGroups resolve_mcast_groups(const std::vector<McastGroupSpec> &specs, const Fabric &f);

// The MFT entries the trees give, one line per switch on a tree and MLID, MLIDs in order and
// switches in GUID order within each:
//   0xc000 0x0000000000000100 1,3,17 # 'sw1'
std::string write_mft_listing(const Fabric &f, const std::vector<McastTree> &trees);

}  // namespace weft::routing
