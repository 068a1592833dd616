// Balance and throughput metrics of routed fabrics.
//
// - Routes per directed link: how many (CA source, CA destination LID) paths use each link
//   direction; min/max/mean/stddev over all cabled link directions and over switch-to-switch
//   ones. Computed per destination tree (sources are counted at their switch and pushed along
//   the next-hop function), so the cost is O(switches x LIDs).
// - Effective bisection bandwidth as ORCS computes it: a random bisection of the hosts into two
//   halves with a random perfect matching between them, flows both ways; each flow gets
//   1 / (largest number of flows sharing one link direction on its path); the mean over the
//   flows, averaged over `runs` seeded patterns.
// - Shift patterns (host i -> i+k) and all-to-all, with the same per-flow bandwidth rule.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {

struct LoadStats {
    std::uint64_t links = 0;  // link directions counted
    std::uint64_t min = 0, max = 0;
    double mean = 0, stddev = 0;
};

struct LinkLoad {
    std::vector<std::uint64_t> routes;  // by global port index (Node::port_base + port)
    LoadStats all;                      // every cabled link direction
    LoadStats switch_links;             // switch-to-switch link directions
};

LinkLoad routes_per_link(const Fabric &f, const RoutingTables &t,
                         const std::function<void(std::size_t, std::size_t)> &progress = {});

// The same between traffic endpoints (VMs, traffic_endpoints() in vswitch.hpp): each sends to
// every other one's LID except those behind its own port, which its vSwitch delivers.
LinkLoad routes_per_link(const Fabric &f, const RoutingTables &t, const std::vector<VmEndpoint> &ends,
                         const std::function<void(std::size_t, std::size_t)> &progress = {});

struct PatternResult {
    double mean_bandwidth = 0;  // mean per-flow bandwidth share (1.0 = no contention)
    double min_bandwidth = 0;   // worst flow
    std::uint64_t flows = 0;
    std::uint64_t undelivered = 0;  // flows whose path does not reach the destination
};

// Hosts are the CA/router ports with a LID, in fabric order; flows go to base LIDs.
std::vector<LidOwner> host_ports(const Fabric &f);

PatternResult effective_bisection_bandwidth(
    const Fabric &f, const RoutingTables &t, unsigned runs, std::uint64_t seed,
    const std::function<void(std::size_t, std::size_t)> &progress = {});
// The same over traffic endpoints (VMs); a pair behind one vSwitch shares no link (a full share).
PatternResult effective_bisection_bandwidth(
    const Fabric &f, const RoutingTables &t, std::vector<VmEndpoint> ends, unsigned runs, std::uint64_t seed,
    const std::function<void(std::size_t, std::size_t)> &progress = {});
// Shift by k for each k in shifts (all 1..N-1 when empty); the result averages all flows.
PatternResult shift_pattern(const Fabric &f, const RoutingTables &t, std::vector<std::uint32_t> shifts = {});
PatternResult all_to_all(const Fabric &f, const RoutingTables &t);

}  // namespace weft::routing
