// What nue's two path searches (cdg_dijkstra: weft's, osm_cdg_dijkstra: OpenSM's) have in common:
// their result for one destination is a tree of next channels toward it, read the same way,
// laid along the escape tree on an impasse, and put on the channel weights the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/escape_paths.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::engines::nue {

class RouteTree {
  public:
    // Results of the last route(): next channel per switch (kNoChannel at d and where
    // unreachable), hops to d, and the switches in settling order (d first).
    const std::vector<ChannelId> &next() const { return next_; }
    const std::vector<std::uint8_t> &hops() const { return hops_; }
    const std::vector<SwitchIdx> &settled() const { return order_; }
    std::uint64_t rejected() const { return rejected_; }

    // Adds each route's load (sources per switch, carried down the tree) to the channel weights;
    // returns the largest weight it changed (0 if none).
    std::uint64_t add_load(const std::vector<std::uint64_t> &sources);
    // The heaviest channel weight (weights change only through add_load()).
    std::uint64_t max_weight() const { return max_weight_; }

  protected:
    // in_weight: the run's balancing weights, in_weight[o] that of channel reverse(o) (into
    // tail(o)): a relaxation from a settled switch v walks the channels out of v and reads the
    // weights of the channels into v, which lie side by side so.
    RouteTree(const Channels &ch, std::vector<std::uint64_t> &in_weight);
    // An impasse's answer: the routes toward d along the escape tree, settled from d outwards
    // (children after their parents).
    void route_along_escape(SwitchIdx d, const EscapeTree &escape);

    const Channels &ch_;
    std::vector<std::uint64_t> &in_weight_;
    std::vector<ChannelId> next_;
    std::vector<std::uint8_t> hops_;
    std::vector<SwitchIdx> order_;
    // Per switch, how many switches its connected component holds: a search that settles fewer
    // hit an impasse rather than a switch d cannot reach at all.
    std::vector<std::uint32_t> reachable_;
    std::uint64_t rejected_ = 0;

  private:
    std::uint64_t max_weight_ = 0;
    std::vector<std::uint64_t> carried_;
};

}  // namespace weft::routing::engines::nue
