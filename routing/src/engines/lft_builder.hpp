// OpenSM's LFT assignment step (ucast_mgr_build_lfts / osm_switch_recommend_path), shared by
// every engine that routes from hop matrices (minhop, updn, dnup, dor): each switch walks the end
// ports in OpenSM's order (switches with most end ports first, then by port GUID), and for each
// LID picks, among the ports the engine allows toward the LID's switch, the one that carries the
// fewest target LIDs so far (port equalization). With LMC > 0 the LIDs of one port spread over
// different paths (PortPolicy::Lmc).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing::engines {

// One LID-owning end port (or switch), in the order OpenSM routes them.
struct RouteOrderEntry {
    Lid base = 0;
    std::uint32_t count = 1;  // 2^lmc LIDs from base
};
// first (-X / --guid_routing_order_file): port GUIDs routed before all others, in this order.
std::vector<RouteOrderEntry> route_order(const Fabric &f, const SwitchGraph &g,
                                         const std::vector<Guid> &first = {});

// -O / --port_search_ordering_file for switch s: search position of each port (listed ports
// first in file order, the rest after them in port order); empty when s has no line.
std::vector<std::uint8_t> port_search_rank(const Fabric &f, const RoutingOptions &o, SwitchIdx s);

// Ports of switch s that -i / ignore options leave out of equalization, by port number.
std::vector<bool> ignored_ports(const Fabric &f, const RoutingOptions &o, SwitchIdx s);

// How a switch chooses among the ports an engine allows toward a destination switch. The
// candidates are searched in port order, or in -O's order for a switch it lists.
struct PortPolicy {
    // Only the candidates to the neighbour of the first one (dor: the first dimension that brings
    // the packet closer, over all parallel cables of it); otherwise all of them.
    bool first_neighbour_only = false;
    // Port equalization: the least-loaded candidate, the first of equals; off, the first candidate.
    bool equalize = true;
    enum class Lmc {
        // OpenSM's rules for the LIDs of one end port (minhop, up*/down*): each LID's scan starts
        // after the port the previous LID took, and prefers a system, then a node, that the end
        // port's LIDs have not gone through yet; among equal loads, the node they used least.
        systems,
        // dor: every LID scans from the first candidate (all keep dimension order); among equal
        // loads, the cable (far switch and port) the end port's LIDs used least.
        far_ports,
    };
    Lmc lmc = Lmc::systems;
};

// ok_row(s, link, ok) sets ok[d] to 1 where switch s may forward toward destination switch d over
// `link`, else to 0, for every d < g.size().
using OkRow = std::function<void(SwitchIdx, const SwitchLink &, std::uint8_t *)>;

// Fills t.lft for every LID of `order` that lands on a switch and that t.hops marks reachable;
// leaves the other entries as they are.
void build_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o, RoutingTables &t,
                const std::vector<RouteOrderEntry> &order, const PortPolicy &policy, const OkRow &ok_row);

// ok[d] = 1 where the far switch (row `there`) is `step` hops closer to d than this one
// (`here`), for d < n: the min-hop test.
void min_hop_row(const std::uint8_t *here, const std::uint8_t *there, std::uint8_t *ok, std::size_t n,
                 unsigned step = 1);

// Hops from every switch toward every destination switch, read from t.hops through one LID of
// each destination (the min-hop test gives the same ports for every LID of a switch wherever the
// LID is routed at all).
HopMatrix switch_hops_from_lids(const SwitchGraph &g, const RoutingTables &t);

}  // namespace weft::routing::engines
