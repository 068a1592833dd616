// torus-2QoS.conf: the torus-2QoS engine's description of the torus it should find (OpenSM's
// torus-2QoS.conf(5)). Blank lines and lines starting with '#' are ignored; tokens after the
// recognized ones on a line are ignored (so trailing "# comments" work).
//
//   torus|mesh X[m|M|t|T] Y[...] Z[...]   radices; 1 = no such dimension; suffix m/t per dimension
//   xp_link|xm_link|yp_link|ym_link|zp_link|zm_link GUID0 GUID1
//                                          seed: the link GUID0 -> GUID1 points in +x, -x, ...;
//                                          all links of a seed leave the same switch
//   x_dateline|y_dateline|z_dateline N     move the origin (and dateline) N from the seed switch
//   next_seed                              following links/datelines form another seed
//   portgroup_max_ports N                  parallel links / host ports per switch (default 16)
//   port_order P1 P2 ...                   order of host ports on destination switches
//   max_changes N                          torus changes reported (default 32)
//
// The reader throws ParseError (file, line, column, what was expected) on anything else, and
// checks each seed against the radices (a radix-4 torus dimension needs both directions).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::routing {

inline constexpr unsigned kTorusDims = 3;

struct TorusSeed {
    // link[d][0] = the "m" (negative) link of dimension d, link[d][1] = the "p" (positive) one:
    // (from switch GUID, to switch GUID).
    std::array<std::array<std::optional<std::pair<Guid, Guid>>, 2>, kTorusDims> link;
    std::array<int, kTorusDims> dateline{0, 0, 0};
    std::size_t line = 0;  // where the seed starts (first link or next_seed)
    Guid origin() const;   // the switch every link leaves (0 if the seed has no link)
};

struct TorusConfig {
    std::array<unsigned, kTorusDims> radix{1, 1, 1};
    std::array<bool, kTorusDims> mesh{false, false, false};  // per dimension: open instead of looped
    std::vector<TorusSeed> seeds;
    unsigned portgroup_max_ports = 16;
    std::vector<PortNum> port_order;  // duplicates removed, first occurrence kept
    unsigned max_changes = 32;
};

// Parses the text of a torus-2QoS.conf; `name` is the file name used in errors.
TorusConfig read_torus_config(std::string_view text, const std::string &name);
// Reads and parses a file; an unreadable file is a ParseError at line 0.
TorusConfig load_torus_config(const std::string &path);

}  // namespace weft::routing
