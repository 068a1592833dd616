// What routing produces: one linear forwarding table per switch, the hop matrix behind it (from
// which ARS derives every equal-cost port), the SL of each path, SL2VL tables, and how many
// virtual lanes the result needs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"

namespace weft::routing {

inline constexpr std::uint8_t kInfHops = 0xFF;

using Sl2Vl = std::array<std::uint8_t, 16>;  // VL for each SL

struct RoutingTables {
    std::string engine;  // the engine that actually routed (after any fallback)

    // lft[s][lid] = output port of switch s for lid; kNoPort where unrouted; 0 for the switch's
    // own LIDs. Sized max_lid + 1 for every switch.
    std::vector<std::vector<PortNum>> lft;

    // hops[s][lid] = hops from switch s to lid's owner along links the engine allows, kInfHops
    // if unreachable. Engines that route by min-hop matrices (minhop, updn, dnup, dor) fill it
    // first; every engine leaves it consistent with the LFT's minimal choices so that
    // equal_cost_ports() can serve ARS.
    std::vector<std::vector<std::uint8_t>> hops;

    // Path SL from any CA behind source switch s to lid: path_sl[s][lid]. Empty = SL 0 for all.
    std::vector<std::vector<std::uint8_t>> path_sl;

    // SL2VL per (switch, in port, out port), flattened as [s][in * (radix+1) + out]; empty =
    // sl2vl_all, or without that identity (SL n on VL n) everywhere.
    std::vector<std::vector<Sl2Vl>> sl2vl;
    // One map for every switch and port pair (nue's SL i -> VL i % VLs), kept once: per port pair
    // it would be megabytes of equal maps on a large fabric.
    std::optional<Sl2Vl> sl2vl_all;

    unsigned vls_used = 1;  // virtual lanes (or virtual layers) the routing needs

    // What the engine that routed wants the operator to know without failing (OpenSM logs these),
    // e.g. dor's inconsistently cabled ports. One line each, naming switches and ports.
    std::vector<std::string> warnings;

    void reset(const Fabric &f);  // sizes lft/hops for f, everything unrouted
    std::uint8_t sl(SwitchIdx src, Lid dst) const { return path_sl.empty() ? 0 : path_sl[src][dst]; }
    bool has_sl2vl() const { return !sl2vl.empty() || sl2vl_all.has_value(); }
};

// A multicast group: the end ports (CA/router ports, or switches as port 0) that joined mlid.
struct McastGroup {
    Lid mlid = 0;
    std::vector<LidOwner> members;
};

// The spanning tree of one group: for each switch (by SwitchIdx) the ports its MFT entry for
// mlid replicates to, in port order; an empty list means the switch is not on the tree.
struct McastTree {
    Lid mlid = 0;
    std::vector<std::vector<PortNum>> ports;
};

// Ports of switch s whose far side is one hop closer to lid than s (the minimal next hops),
// in port order. This is the primary ARS set for lid at s.
std::vector<PortNum> equal_cost_ports(const Fabric &f, const RoutingTables &t, SwitchIdx s, Lid lid);

}  // namespace weft::routing
