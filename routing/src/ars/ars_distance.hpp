// The distance basis the ARS group compiler judges members on (ArsDistance in ars_groups.hpp):
// what a link costs, and every switch's cheapest route to a destination leaf by it.
#pragma once

#include <cstdint>
#include <vector>

#include "weft/routing/ars_groups.hpp"

namespace weft::routing::ars {

// A switch's cheapest route to the leaf: its cost, then its hops (fewest hops among the
// cheapest). Compared in that order.
struct Reach {
    static constexpr std::uint32_t kUnreached = 0xFFFFFFFF;
    std::uint32_t cost = kUnreached;
    std::uint8_t hops = kInfHops;
    bool reached() const { return cost != kUnreached; }
    auto operator<=>(const Reach &) const = default;
};

class DistanceBasis {
  public:
    // Resolves o.distance for f (Auto, and Dragonfly on a fabric without groups).
    DistanceBasis(const Fabric &f, const ArsOptions &o);

    ArsDistance kind() const { return kind_; }
    // What leaving switch s by port p adds to a route's cost.
    std::uint32_t cost(SwitchIdx s, PortNum p) const {
        return kind_ == ArsDistance::Engine ? 1 : cost_[begin_[s] + p];
    }
    // Every switch's Reach to destination d (by SwitchIdx). For Engine: t.hops, as the engine
    // left them; otherwise the cheapest routes over every switch link.
    void reach(const RoutingTables &t, const ArsDestination &d, std::vector<Reach> &out) const;
    // The route through a neighbour that `there` describes, one link (cost c) further.
    static Reach through(const Reach &there, std::uint32_t c);

  private:
    const Fabric &f_;
    ArsDistance kind_ = ArsDistance::Engine;
    std::vector<std::uint32_t> begin_;  // per switch, the index of its port 0 in cost_
    std::vector<std::uint32_t> cost_;
};

}  // namespace weft::routing::ars
