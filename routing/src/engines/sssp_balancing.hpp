// The routing core shared by sssp and dfsssp (OpenSM osm_ucast_dfsssp.c): for each destination
// LID in turn (OpenSM's port order), Dijkstra over the switch links from the LID's switch
// outwards, where a link's weight is P^2 (P = number of LIDs) plus the routes already assigned
// to it, each weighted by the LIDs of its source switch. Routes stay minimal; among minimal
// paths, later routes avoid the links that earlier ones loaded (global balancing). Ties are
// decided as OpenSM decides them (its switch order, its queue, port order), so the tables are
// OpenSM's own; most LIDs need no queue at all (see route_sssp).
#pragma once

#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing::engines {

// Fills t.lft and t.hops (route lengths) for every LID.
void route_sssp(const Fabric &f, const SwitchGraph &g, RoutingTables &t,
                const std::function<void(std::size_t, std::size_t)> &progress);

// The sssp engine: both hooks route with route_sssp. dfsssp derives from it and adds the
// virtual-layer assignment.
class SsspEngine : public Engine {
  public:
    std::string_view name() const override { return "sssp"; }
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    // The hop matrix comes from the routes themselves (route_sssp fills t.hops).
    HookResult build_lid_matrices(RoutingContext &, RoutingTables &) override {
        return HookResult::success();
    }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph g(ctx.fabric);
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        route_sssp(ctx.fabric, g, t, ctx.progress);
        return HookResult::success();
    }
};

// Switch link index (into the CSR of g) leaving switch s through port p, or -1.
class LinkIndex {
  public:
    explicit LinkIndex(const Fabric &f, const SwitchGraph &g);
    std::int64_t at(SwitchIdx s, PortNum p) const { return p < width_[s] ? index_[base_[s] + p] : -1; }
    std::size_t links() const { return links_; }

  private:
    std::vector<std::uint32_t> base_;
    std::vector<PortNum> width_;
    std::vector<std::int64_t> index_;
    std::size_t links_ = 0;
};

}  // namespace weft::routing::engines
