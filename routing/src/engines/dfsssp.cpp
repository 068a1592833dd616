// OpenSM's dfsssp: sssp's balanced routes, then deadlock freedom by virtual layers. Every
// route from a CA (to a CA or a switch) starts in layer 0; while a layer's channel dependency graph (channels
// = switch-to-switch links, a dependency = two consecutive channels of one route) has a cycle, the routes
// behind the cycle's least-used dependency move up one layer. More layers than max_vls: fail. The layer is
// the path SL (SL n on VL n).
#include <algorithm>
#include <memory>

#include "engines/dfsssp_layers.hpp"
#include "engines/engines.hpp"
#include "engines/sssp_balancing.hpp"

namespace weft::routing::engines {
namespace {

class Dfsssp final : public SsspEngine {
  public:
    std::string_view name() const override { return "dfsssp"; }
    HookResult assign_sl(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph g(ctx.fabric);
        const unsigned budget = std::max(1u, std::min(ctx.options.max_vls, 15u));
        const DfssspLayers layers = assign_dfsssp_layers(g, t, budget);
        if (layers.used == 0) {
            t.path_sl.clear();
            return HookResult::failure(layers.error);
        }
        t.vls_used = layers.used;
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_dfsssp() {
    return std::make_unique<Dfsssp>();
}

}  // namespace weft::routing::engines
