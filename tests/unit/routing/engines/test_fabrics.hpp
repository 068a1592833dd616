// Small fabric builders and route checkers for the engine tests: hand-checkable topologies
// (fat trees, rings, lines), k-ary-n-trees and 36-port fat trees for properties and timing,
// LID assignment, an LFT walker, a channel-dependency cycle check and per-link loads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::test {

// Switch GUIDs are 0x1000 + creation index, CA node GUIDs 0x100000 + index, CA port GUID =
// node GUID + port. Descriptions: "sw<i>", "h<i>".
struct Builder {
    Fabric f;
    std::vector<NodeIdx> sws, hosts;
    NodeIdx sw(PortNum ports);
    NodeIdx host(NodeIdx to_switch, PortNum at_port);
};

// Switches first (LIDs 1..S), then CA ports in node order, aligned blocks of 2^lmc.
void assign_lids(Fabric &f, std::uint8_t lmc = 0);

// Two-level fat tree: `leaves` leaf switches with `hosts` CAs each on ports 1..hosts, each leaf
// cabled to every spine with `parallel` cables on ports hosts+1...; spines use ports 1.. for
// leaves in order. Switch order: leaves, then spines.
Fabric two_level(unsigned leaves, unsigned spines, unsigned hosts, unsigned parallel = 1,
                 std::uint8_t lmc = 0);
// Ring / line of n switches (port 1 = next, port 2 = previous), `hosts` CAs each on ports 3...
Fabric ring(unsigned n, unsigned hosts);
Fabric line(unsigned n, unsigned hosts);
// 2D torus x*y, ports 1..4 = +x,-x,+y,-y, one host on port 5.
Fabric torus2d(unsigned x, unsigned y);
// k-ary-n-tree: n levels of k^(n-1) switches with 2k ports, k^n hosts. Leaves first.
Fabric kary_ntree(unsigned k, unsigned n);

// Routes f with `engine` alone (no fallback), expecting it to succeed and to be the one that
// routed.
RoutingTables route_alone(const std::string &engine, const Fabric &f, RoutingOptions o = {});
// A generator spec (weft/routing/generators.hpp) with the LIDs of assign_lids above.
Fabric generated(const std::string &spec);
// LID of switch s (its port 0).
Lid switch_lid(const Fabric &f, SwitchIdx s);

// Walks the LFTs from switch s to lid. Returns the switch-to-switch channels taken as
// (switch, out port), or nullopt on a missing entry, a loop or a wrong delivery.
std::optional<std::vector<std::pair<SwitchIdx, PortNum>>> walk(const Fabric &f, const RoutingTables &t,
                                                               SwitchIdx s, Lid lid);

// Every switch with CAs reaches every CA LID (and every switch reaches every switch LID when
// `switches` is set), loop-free. Returns a description of the first failure, or "".
std::string check_all_routes(const Fabric &f, const RoutingTables &t, bool switches = true);

// Channel dependency cycles among CA-to-CA routes, per virtual layer (path SL). Returns the
// number of layers with a cycle.
unsigned cdg_cycles(const Fabric &f, const RoutingTables &t);
// The same among the routes from the given switches to the given LIDs (unreachable pairs add no
// dependencies).
unsigned cdg_cycles(const Fabric &f, const RoutingTables &t, const std::vector<SwitchIdx> &sources,
                    const std::vector<Lid> &dests);

// CA LIDs in node order (base LIDs), and the switch each is cabled to.
std::vector<Lid> ca_lids(const Fabric &f);
// The switches with at least one CA cabled to them, in index order.
std::vector<SwitchIdx> switches_with_cas(const Fabric &f);

// Largest number of flows sharing one switch-to-switch channel when host order[i] sends to
// order[(i + shift) % N], over every shift 1..N-1 (0 entries in `order` are idle slots).
unsigned worst_shift_load(const Fabric &f, const RoutingTables &t, const std::vector<Lid> &order);

}  // namespace weft::routing::test
