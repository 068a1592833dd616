// OpenSM's sssp: globally balanced single-source shortest paths (see sssp_balancing.hpp).
// No virtual lanes: not deadlock-free on every topology.
#include "engines/engines.hpp"
#include "engines/sssp_balancing.hpp"

namespace weft::routing::engines {
namespace {

class Sssp final : public Engine {
  public:
    std::string_view name() const override { return "sssp"; }
    bool provides_lid_matrices() const override { return true; }
    bool provides_fwd_tables() const override { return true; }
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

}  // namespace

std::unique_ptr<Engine> make_sssp() {
    return std::make_unique<Sssp>();
}

}  // namespace weft::routing::engines
