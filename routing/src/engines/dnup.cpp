// OpenSM's dnup: like updn, but switches are ranked by their distance from the CAs (switches
// with a CA are rank 0, every other switch one more than its nearest ranked neighbour), so
// fabrics with CAs cabled close to the core still route; the farthest switches act as roots.
// Fails when no switch has a CA. Unlike OpenSM, which leaves moves between equally ranked
// switches unrestricted, equal ranks are ordered by GUID so dnup stays free of credit loops;
// where that cuts a switch with CAs off from another switch, dnup fails (the chain falls back).
#include <algorithm>

#include "engines/engines.hpp"
#include "engines/updown_routing.hpp"

namespace weft::routing::engines {
namespace {

class Dnup final : public UpDownEngine {
  public:
    std::string_view name() const override { return "dnup"; }
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph &g = routing_.new_graph(ctx.fabric);
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
        // Ordering equal ranks by GUID can leave a switch with no up move toward a destination
        // (a local GUID minimum among equals): refuse rather than leave CAs cut off, so the
        // chain falls back.
        std::size_t cut = 0;
        SwitchIdx from = 0, to = 0;
        for (SwitchIdx s = 0; s < g.size(); ++s) {
            if (!g.end_ports(s)) continue;
            for (SwitchIdx d = 0; d < g.size(); ++d) {
                const Lid l = ctx.fabric.port(ctx.fabric.switch_node(d), 0).lid;
                if (l == 0 || l >= t.hops[s].size() || t.hops[s][l] != kInfHops) continue;
                if (!cut++) from = s, to = d;
            }
        }
        if (cut)
            return HookResult::failure("switch '" + ctx.fabric.node(ctx.fabric.switch_node(from)).desc +
                                       "' (with CAs) cannot reach switch '" +
                                       ctx.fabric.node(ctx.fabric.switch_node(to)).desc +
                                       "' going up then down (equal ranks ordered by GUID or -m ID); " +
                                       std::to_string(cut) + " such switch pairs");
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_dnup() {
    return std::make_unique<Dnup>();
}

}  // namespace weft::routing::engines
