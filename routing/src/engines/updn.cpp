// OpenSM's updn: roots from the root GUID list, else found by the min-hop histogram rule (a
// switch is a root when exactly one hop distance holds more than 5% of the CAs and it holds
// more than 90%); switches ranked by BFS from the roots; up*/down* routes. No roots: fail.
#include <algorithm>

#include "engines/engines.hpp"
#include "engines/updown_routing.hpp"

namespace weft::routing::engines {
namespace {

std::vector<SwitchIdx> roots_by_histogram(const SwitchGraph &g) {
    const HopMatrix m = switch_min_hops(g);
    const std::size_t n = g.size();
    double cas = 0;
    for (SwitchIdx s = 0; s < n; ++s) cas += g.end_ports(s);
    const double thd1 = cas * 0.9, thd2 = cas * 0.05;
    std::vector<SwitchIdx> roots;
    std::vector<double> hist(kInfHops);
    for (SwitchIdx s = 0; s < n; ++s) {
        std::size_t used = 0;  // hist[used..] is all zero, which exceeds neither threshold
        for (SwitchIdx d = 0; d < n; ++d)
            if (g.end_ports(d) && m.at(s, d) != kInfHops) {
                hist[m.at(s, d)] += g.end_ports(d);
                used = std::max<std::size_t>(used, m.at(s, d) + 1u);
            }
        unsigned over1 = 0, over2 = 0;
        for (std::size_t h = 0; h < used; ++h) over1 += hist[h] > thd1, over2 += hist[h] > thd2;
        std::fill(hist.begin(), hist.begin() + static_cast<std::ptrdiff_t>(used), 0.0);
        if (over1 == 1 && over2 == 1) roots.push_back(s);
    }
    return roots;
}

class Updn final : public UpDownEngine {
  public:
    std::string_view name() const override { return "updn"; }
    HookResult build_lid_matrices(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph &g = routing_.new_graph(ctx.fabric);
        if (g.size() == 0) return HookResult::failure("not a switched subnet");
        std::vector<SwitchIdx> roots;
        if (!ctx.options.root_guids.empty()) {
            roots = switches_named(ctx.fabric, ctx.options.root_guids);
            if (roots.empty())
                return HookResult::failure("none of the root GUIDs names a switch of the fabric");
        } else {
            roots = roots_by_histogram(g);
            if (roots.empty()) return HookResult::failure("no root switches found by the min-hop histogram");
        }
        routing_.compute(ctx.fabric, bfs_rank(g, roots), true, t, ctx.options.ids_guids);
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_updn() {
    return std::make_unique<Updn>();
}

}  // namespace weft::routing::engines
