// The "nue" engine: route_nue fills the LFTs, hop matrix, path SLs and SL2VL in one pass, and
// its multicast trees avoid the links the unicast routes load most. LMC > 0 is supported (each
// LID is a destination of its own).
#include "engines/engines.hpp"
#include "weft/routing/nue.hpp"

namespace weft::routing::engines {
namespace {

class Nue final : public Engine {
  public:
    std::string_view name() const override { return "nue"; }
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_lid_matrices(RoutingContext &, RoutingTables &) override {
        return HookResult::success();
    }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const NuePartitioner p =
            ctx.options.nue_metis ? NuePartitioner::Auto : NuePartitioner::PortGuidRoundRobin;
        return route_nue(ctx.fabric, ctx.options, t, p, nullptr, ctx.progress);
    }
    // route_nue already set path_sl, sl2vl and vls_used.
    HookResult assign_sl(RoutingContext &, RoutingTables &) override { return HookResult::success(); }
    bool provides_mcast_tree() const override { return true; }
    HookResult build_mcast_tree(RoutingContext &ctx, const RoutingTables &t, const McastGroup &g,
                                McastTree &out) override {
        return build_nue_mcast_tree(ctx.fabric, t, g, out);
    }
};

}  // namespace

std::unique_ptr<Engine> make_nue() {
    return std::make_unique<Nue>();
}

}  // namespace weft::routing::engines
