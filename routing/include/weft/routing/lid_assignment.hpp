// LID assignment: deterministic, LMC-aware, preserving.
//
// Every CA/router port gets an aligned block of 2^lmc LIDs; a switch gets one LID for port 0
// (base switch port 0, as OpenSM does for switches without enhanced port 0). LIDs come, in
// order of precedence, from a guid2lid file (OpenSM's format), from the LIDs already in the
// fabric (a topology file's), and otherwise the lowest free aligned block, nodes in fabric
// order. A requested LID that cannot be honoured (overlap, misalignment, wrong block size,
// out of range) is reported as a conflict and the port gets a fresh block.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::routing {

struct Guid2LidEntry {
    Guid port_guid = 0;
    Lid base = 0, top = 0;
    std::size_t line = 0;  // where it came from, for reports
};

// OpenSM's guid2lid: lines "0x<port guid> 0x<base lid> 0x<top lid>" (blank lines and
// '#' comments allowed). Throws ParseError.
std::vector<Guid2LidEntry> read_guid2lid(std::string_view text, const std::string &name);
std::string write_guid2lid(const Fabric &f);

struct LidOptions {
    std::uint8_t lmc = 0;
    std::vector<Guid2LidEntry> guid2lid;
    bool keep_existing = true;  // honour LIDs already set in the fabric
};

struct LidReport {
    std::size_t assigned = 0;            // ports/switches that got LIDs
    std::size_t from_file = 0;           // honoured guid2lid entries
    std::size_t kept = 0;                // honoured existing LIDs
    std::size_t unknown_guids = 0;       // guid2lid entries naming no port in the fabric
    std::vector<std::string> conflicts;  // one line each: what was asked and why it was refused
    Lid max_lid = 0;
};

// Reassigns every LID of f (clears first), then the VFs' LIDs of its vSwitches (after the
// physical ones): every VF with prepopulated LIDs, each VF that runs a VM with dynamic ones
// (f.vf_lid_scheme); from the unicast space the physical LIDs leave, or from the vLID space
// (kFirstVlid..kMaxExtendedLid) when f.extended_vlids. A VF keeps the LID it had when that is
// free and in its space (counted in `kept`). Throws std::runtime_error if a space runs out.
LidReport assign_lids(Fabric &f, const LidOptions &o);

// OpenSM GUID list files (-a, -u, -G, -i): one GUID per line, '#' comments. Throws ParseError.
std::vector<Guid> read_guid_list(std::string_view text, const std::string &name);

}  // namespace weft::routing
