// What the routing engine's tables become on an Ethernet/RoCE fabric of weft switches: one
// EthernetTable per switch. The ARS groups (routing::compile_ars_groups: fixed = the engine's
// port, primaries = its equal-cost ports, alternates = detours that keep the union free of
// credit loops) are per (switch, destination leaf); every subnet a leaf announced
// (WeftHostSubnets) becomes, on every other switch that has a group for that leaf, a route to
// it. A leaf's own subnets are its local routes, not the SM's business. The group id is the
// leaf switch's LID, which stays as long as LIDs do, so routes do not move when groups change.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/sm/ethernet_table.hpp"
#include "weft/sm/vendor_host_subnets.hpp"

namespace weft::sm {

using LearnedSubnets = std::map<std::uint64_t, std::vector<HostSubnet>>;  // leaf node GUID -> subnets

struct EthernetCompileOptions {
    std::uint16_t ars_object = 0;
    EthernetArsMode mode = EthernetArsMode::kFlowletQuality;
    // Per switch (node GUID): members past what it takes are left out — alternates last added
    // first, then primaries other than the fixed one (a smaller union stays free of loops).
    std::map<std::uint64_t, EthernetLimits> limits;
    // On a dragonfly, every switch's ARN group (arn_group.hpp) goes into its table.
    bool arn = true;
};

struct EthernetCompileReport {
    std::size_t groups = 0, routes = 0;
    std::size_t members_left_out = 0;   // past a switch's limits
    std::size_t unrouted = 0;           // (switch, subnet) pairs with no group for the subnet's leaf
    std::vector<std::string> problems;  // a prefix two leaves claim, a leaf with subnets but no group...
};

// Index = SwitchIdx of f. `g` is compile_ars_groups(f, t, ...) on the same fabric.
std::vector<EthernetTable> compile_ethernet_tables(const routing::Fabric &f, const routing::ArsGroups &g,
                                                   const LearnedSubnets &subnets,
                                                   const EthernetCompileOptions &options = {},
                                                   EthernetCompileReport *report = nullptr);

}  // namespace weft::sm
