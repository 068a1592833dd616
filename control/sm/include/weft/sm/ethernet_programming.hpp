// The Ethernet/RoCE step of a heavy sweep, after the LFTs are programmed: read every switch's
// WeftFibState (the probe: only switches that answer with weft's magic take part) and, when
// their version moved, its WeftHostSubnets; compile the ARS groups on the sweep's fabric and
// tables and every switch's table (ethernet_compiler.hpp); then for each switch whose table
// differs from what it holds: Begin, the group and route blocks that differ, Commit
// (VENDOR_ATTRIBUTES.md). What a switch holds is known from the SM's memory of its last commit
// while the switch still reports that generation; otherwise (a new SM, or a switch another SM
// or a restart changed) its table is written whole from an empty staging.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/tables.hpp"
#include "weft/sm/discovery.hpp"
#include "weft/sm/ethernet_compiler.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

// What the SM committed to one switch (by node GUID), and the subnets it last read there.
struct HeldEthernet {
    std::uint32_t generation = 0;  // 0: nothing committed by this SM
    EthernetBlocks blocks;
    std::uint32_t routes = 0;
    std::uint16_t groups = 0;
    std::uint16_t arn = 0;              // ARN group entries
    std::uint16_t subnets_version = 0;  // the version `subnets` were read at (0: never read)
    std::vector<HostSubnet> subnets;
};
using EthernetMemory = std::unordered_map<std::uint64_t, HeldEthernet>;

struct EthernetOptions {
    routing::ArsOptions ars;               // bounds of the alternates
    EthernetCompileOptions compile;        // ARS object and mode (its limits are filled from the switches)
    const EthernetMemory *held = nullptr;  // the last step's EthernetReport::programmed
    std::function<void(std::string_view)> log;
};

struct EthernetReport {
    std::size_t switches = 0;  // answered WeftFibState with weft's magic
    std::size_t other = 0;     // switches that did not (another vendor, or not in Ethernet mode)
    std::size_t subnets = 0;   // learned, all switches
    std::size_t subnet_blocks_read = 0;
    routing::ArsCompileReport ars;
    EthernetCompileReport compile;
    std::size_t unchanged = 0;  // switches whose table was already the compiled one
    std::size_t begins = 0, commits = 0;
    std::size_t group_blocks_set = 0, route_blocks_set = 0, arn_blocks_set = 0;
    std::size_t blocks_unchanged = 0;               // as remembered: not written
    std::size_t failures = 0;                       // Gets and Sets refused, unanswered or malformed
    LearnedSubnets learned;                         // leaf GUID -> subnets
    std::map<std::uint64_t, EthernetTable> tables;  // what was compiled for each weft switch
    EthernetMemory programmed;  // the switches whose table is now known to be the compiled one
    std::vector<std::string> problems;
};

// `d.fabric` with its LIDs and `t` its routing, as the sweep programmed them.
EthernetReport program_ethernet(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d,
                                const routing::RoutingTables &t, const EthernetOptions &options = {});

}  // namespace weft::sm
