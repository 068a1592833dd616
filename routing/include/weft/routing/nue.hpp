// Nue routing (Domke, Hoefler, Matsuoka, HPDC'16; OpenSM's "nue" engine): destination-based,
// deadlock-free routing computed directly on the complete channel dependency graph of each
// virtual layer. The engine is registered as "nue"; this header exposes the run with its
// statistics, and the choice of partitioner, for tests and benchmarks.
#pragma once

#include <cstdint>
#include <string>

#include "weft/routing/engine.hpp"

namespace weft::routing {

// How destinations are split over the virtual layers.
enum class NuePartitioner : std::uint8_t {
    Auto,        // METIS when built with it and more than one layer is allowed; semi-random if it fails;
                 // OpenSM's round-robin partition instead when it balances better than METIS
    Metis,       // METIS or fail
    SemiRandom,  // seeded shuffle of the destinations, dealt round-robin over the layers
    PortGuidRoundRobin,  // OpenSM built without METIS: destinations by port GUID, dealt round-robin
};

// The destination order whose routes Nue kept (see nue_routing.cpp).
enum class NueOrder : std::uint8_t { PerSwitch, Interleaved, PortTable };

struct NueStats {
    unsigned layers_allowed = 0;      // the VL budget Nue worked with
    unsigned layers_used = 0;         // non-empty layers (= vls_used)
    bool metis_used = false;          // destinations partitioned by METIS (else semi-random or one layer)
    std::string partition_note;       // why METIS was not used, when it was wanted
    std::uint64_t destinations = 0;   // destination LIDs routed on the CDG
    std::uint64_t escape_routed = 0;  // of those, routed entirely along the escape paths (impasse)
    std::uint64_t rejected_dependencies = 0;  // candidate channels refused because they close a cycle
    std::vector<SwitchIdx> central_nodes;     // escape-tree root of each layer
    NueOrder order = NueOrder::PerSwitch;     // the destination order of the kept routes
};

// Whether this build partitions with METIS (else only the semi-random split is available).
bool nue_has_metis();

// Routes f with Nue into t (lft, hops, path_sl, sl2vl, vls_used). Fails only on a fabric without
// switches or a METIS run that was demanded and failed.
HookResult route_nue(const Fabric &f, const RoutingOptions &o, RoutingTables &t,
                     NuePartitioner partitioner = NuePartitioner::Auto, NueStats *stats = nullptr,
                     const std::function<void(std::size_t, std::size_t)> &progress = {});

// Nue's multicast tree for one group (after route_nue filled t): rooted at OpenSM's root choice
// (the switch whose largest hop count to the members is smallest, lowest GUID on ties), grown
// along the least-loaded links (routes per channel of t's unicast routes).
HookResult build_nue_mcast_tree(const Fabric &f, const RoutingTables &t, const McastGroup &g, McastTree &out);

}  // namespace weft::routing
