// Prefix routing (seed 003) on a fabric: the spanning tree the `prefix` engine routes by, and the
// channel turns of its unicast routes and multicasts for check_turn_credit_loops. The labels,
// routes and multicasts themselves are arn's (weft/arn/prefix_*.hpp), on the fabric's switches.
#pragma once

#include <span>
#include <vector>

#include "weft/arn/prefix_routing.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {

// The fabric's switches as a prefix graph: node i is switch index i, its ports numbered as the
// fabric numbers them, one link per active cable between two switches.
arn::PrefixGraph prefix_switch_graph(const Fabric &f);

// The spanning tree the engine routes by: breadth-first (a minimum tree) from the first root GUID
// (-a) that names a switch, or else from the switch whose largest hop count to the others is the
// smallest (the shallowest tree: labels and routes are as long as the tree is deep; the first in
// GUID order among equals).
arn::PrefixLabels prefix_labels(const Fabric &f, const RoutingOptions &o);

// The turns a route or a multicast over prefix_switch_graph(f) makes, appended to `out`: a turn
// at every switch a packet enters and leaves again, one per output where it replicates.
void append_turns(const Fabric &f, std::span<const arn::RouteHop> hops, std::vector<ChannelTurn> &out);
void append_turns(const Fabric &f, const arn::PrefixMulticast &m, std::vector<ChannelTurn> &out);

}  // namespace weft::routing
