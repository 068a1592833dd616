// OpenSM's unicast routing cache (-A / --ucast_cache): a heavy sweep that finds only CAs,
// routers or leaf switches gone, or back after being gone, reuses the last routing instead of
// recomputing it (a host reboot would otherwise cost two full recomputations). The cache keeps
// the topology the tables were computed on (switch ports and what is cabled to them, LIDs, by
// GUID) and the tables; given a new fabric it classifies the change against that topology:
//
//  hit        nothing changed, or only end ports (CA/router) and leaf switches (switches with
//             an end port) are missing, or came back exactly where they were, with their LIDs.
//             The cached tables are returned for the new fabric: entries for the LIDs that are
//             gone are unrouted, everything else is the cached routing, so what comes back is
//             routed exactly as before.
//  recompute  anything else, with the reason: a new switch or end port, a link that moved or
//             appeared, a switch-to-switch link down, a non-leaf switch gone, a leaf switch gone
//             that was cabled to another leaf (routes may cross leaves), a LID that changed, a
//             different engine chain or option, or a cached route to a present CA that would
//             now lead through a missing switch.
//
// Entries for switch LIDs that lead through a missing leaf switch are kept, as OpenSM keeps
// them (SMPs travel by directed route), and counted in the decision.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "weft/routing/engine.hpp"

namespace weft::routing {

struct CacheDecision {
    bool hit = false;
    // hit: "no change", or what changed ("1 end port down: 'h3' port 1 (LID 9)"); recompute:
    // why ("switch-to-switch link down: 'leaf0' port 3 - 'spine0' port 1").
    std::string reason;
    std::size_t end_ports_down = 0, end_ports_back = 0;            // since the previous lookup
    std::size_t leaf_switches_down = 0, leaf_switches_back = 0;    // since the previous lookup
    std::size_t end_ports_missing = 0, leaf_switches_missing = 0;  // against the cached topology
    std::uint64_t unrouted_lids = 0;         // LIDs of missing end ports/switches, unrouted
    std::uint64_t stale_switch_entries = 0;  // switch-LID entries leading to a missing switch
};

struct CachedRouting {
    ChainResult chain;    // the routing result; on a hit the one the cached tables came from
    CacheDecision cache;  // what the cache decided (reason "cache off" without ucast_cache)
    bool recomputed = false;
};

class UcastCache {
  public:
    UcastCache();
    ~UcastCache();
    UcastCache(UcastCache &&) noexcept;
    UcastCache &operator=(UcastCache &&) noexcept;

    bool valid() const;
    void invalidate();
    // Remembers f's topology and the tables t that `chain` with options o computed on it.
    void store(const Fabric &f, std::string_view chain, const RoutingOptions &o, const RoutingTables &t,
               ChainResult routed = {});
    // Classifies the change from the stored topology to f. On a hit, out holds the cached
    // tables for f. Remembers what it found missing, so the next lookup can say what came back.
    CacheDecision lookup(const Fabric &f, std::string_view chain, const RoutingOptions &o,
                         RoutingTables &out);

    // Routing for a long-running caller: with o.ucast_cache off, run_chain. With it on, the
    // cached tables on a hit; otherwise run_chain, and on success the result is stored.
    CachedRouting route(std::string_view chain, const Fabric &f, const RoutingOptions &o, RoutingTables &out,
                        std::function<void(std::size_t, std::size_t)> progress = {});

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace weft::routing
