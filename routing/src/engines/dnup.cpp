// OpenSM's dnup: like updn, but switches are ranked by their distance from the CAs (switches
// with a CA are rank 0, every other switch one more than its nearest ranked neighbour), so
// fabrics with CAs cabled close to the core still route; the farthest switches act as roots.
// Fails when no switch has a CA. Unlike OpenSM, which leaves moves between equally ranked
// switches unrestricted, equal ranks are ordered by GUID so dnup stays free of credit loops.
#include <algorithm>

#include "engines/engines.hpp"
#include "engines/updown_routing.hpp"

namespace weft::routing::engines {
namespace {

class Dnup final : public UpDownEngine {
  public:
    std::string_view name() const override { return "dnup"; }
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph g(ctx.fabric);
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        std::vector<SwitchIdx> leaves;
        for (SwitchIdx s = 0; s < g.size(); ++s)
            if (g.end_ports(s)) leaves.push_back(s);
        if (leaves.empty()) return HookResult::failure("no leaf switches (no switch has a CA)");
        auto rank = bfs_rank(g, leaves);
        unsigned top = 0;
        for (unsigned r : rank)
            if (r != UpDownRouting::kUnranked) top = std::max(top, r);
        // Up is away from the CAs: flip to the up*/down* convention where 0 is the top.
        for (unsigned &r : rank)
            if (r != UpDownRouting::kUnranked) r = top - r;
        routing_.compute(ctx.fabric, std::move(rank), false, t, ctx.options.ids_guids);
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_dnup() {
    return std::make_unique<Dnup>();
}

}  // namespace weft::routing::engines
