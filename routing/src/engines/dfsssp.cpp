// OpenSM's dfsssp: sssp's balanced routes, then deadlock freedom by virtual layers. Every
// CA-to-CA route starts in layer 0; while a layer's channel dependency graph (channels =
// switch-to-switch links, a dependency = two consecutive channels of one route) has a cycle,
// the routes behind the cycle's least-used dependency move up one layer. More layers than
// max_vls: fail. The layer is the path SL (SL n on VL n).
#include <algorithm>
#include <unordered_map>

#include "engines/engines.hpp"
#include "engines/sssp_balancing.hpp"

namespace weft::routing::engines {
namespace {

struct Route {
    SwitchIdx src;
    Lid dst;
};

class LayerAssigner {
  public:
    LayerAssigner(const Fabric &f, const SwitchGraph &g, RoutingTables &t)
        : f_(f), g_(g), t_(t), idx_(f, g) {}

    // Returns the number of layers used, or 0 if more than max_layers would be needed.
    unsigned assign(unsigned max_layers) {
        std::vector<Route> routes;
        for (SwitchIdx s = 0; s < g_.size(); ++s) {
            if (!g_.end_ports(s)) continue;
            for (Lid l = 1; l <= g_.max_lid(); ++l) {
                const LidTarget &tg = g_.target(l);
                if (tg.sw != kNoSwitch && !tg.is_switch && tg.sw != s) routes.push_back({s, l});
            }
        }
        std::vector<std::uint32_t> current(routes.size());
        for (std::uint32_t i = 0; i < current.size(); ++i) current[i] = i;
        t_.path_sl.assign(g_.size(), std::vector<std::uint8_t>(std::size_t{g_.max_lid()} + 1, 0));
        unsigned layer = 0;
        while (!current.empty()) {
            if (layer >= max_layers) return 0;
            std::vector<std::uint32_t> moved = break_cycles(routes, current);
            for (std::uint32_t r : moved)
                t_.path_sl[routes[r].src][routes[r].dst] = static_cast<std::uint8_t>(layer + 1);
            if (moved.empty()) return layer + 1;
            current = std::move(moved);
            ++layer;
        }
        return std::max(layer, 1u);
    }

  private:
    // The channels of a route, by walking the LFTs.
    void channels(const Route &r, std::vector<std::uint32_t> &out) const {
        out.clear();
        SwitchIdx s = r.src;
        for (std::size_t steps = 0; steps <= g_.size(); ++steps) {
            const PortNum p = t_.lft[s][r.dst];
            const std::int64_t e = (p == kNoPort || p == 0) ? -1 : idx_.at(s, p);
            if (e < 0) return;  // delivered (or unrouted)
            out.push_back(static_cast<std::uint32_t>(e));
            const Port &x = f_.port(f_.switch_node(s), p);
            s = f_.node(x.peer).sw;
        }
    }

    // Breaks every cycle among `in` (route ids); returns the routes moved to the next layer.
    std::vector<std::uint32_t> break_cycles(const std::vector<Route> &routes,
                                            const std::vector<std::uint32_t> &in) {
        // Dependencies as edges between channels, each with the routes that induce it (CSR).
        std::unordered_map<std::uint64_t, std::uint32_t> edge_id;
        std::vector<std::uint64_t> edge_key;
        std::vector<std::uint32_t> edge_count;
        std::vector<std::uint32_t> path;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> uses;  // (edge, route)
        for (std::uint32_t r : in) {
            channels(routes[r], path);
            for (std::size_t i = 0; i + 1 < path.size(); ++i) {
                const std::uint64_t key = (std::uint64_t{path[i]} << 32) | path[i + 1];
                auto [it, fresh] = edge_id.try_emplace(key, static_cast<std::uint32_t>(edge_key.size()));
                if (fresh) edge_key.push_back(key), edge_count.push_back(0);
                ++edge_count[it->second];
                uses.emplace_back(it->second, r);
            }
        }
        const std::size_t channels_n = idx_.links();
        std::vector<std::uint32_t> out_off(channels_n + 1, 0), out_edges(edge_key.size());
        for (std::uint64_t k : edge_key) ++out_off[(k >> 32) + 1];
        for (std::size_t c = 0; c < channels_n; ++c) out_off[c + 1] += out_off[c];
        {
            std::vector<std::uint32_t> fill(out_off.begin(), out_off.end() - 1);
            for (std::uint32_t e = 0; e < edge_key.size(); ++e) out_edges[fill[edge_key[e] >> 32]++] = e;
        }
        std::vector<std::uint32_t> route_off(edge_key.size() + 1, 0), route_of(uses.size());
        for (auto &u : uses) ++route_off[u.first + 1];
        for (std::size_t e = 0; e < edge_key.size(); ++e) route_off[e + 1] += route_off[e];
        {
            std::vector<std::uint32_t> fill(route_off.begin(), route_off.end() - 1);
            for (auto &u : uses) route_of[fill[u.first]++] = u.second;
        }
        std::vector<bool> gone(routes.size(), false);  // moved out of this layer
        std::vector<std::uint32_t> moved;

        // Iterative DFS; finished channels stay finished (removing edges cannot add cycles).
        enum : std::uint8_t { kWhite, kGrey, kBlack };
        std::vector<std::uint8_t> color(channels_n, kWhite);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // (channel, next edge slot)
        std::vector<std::uint32_t> via;                              // edge taken into stack[i+1]
        for (std::uint32_t start = 0; start < channels_n; ++start) {
            if (color[start] != kWhite) continue;
            stack.assign(1, {start, out_off[start]});
            via.clear();
            color[start] = kGrey;
            while (!stack.empty()) {
                auto &[u, slot] = stack.back();
                if (slot == out_off[u + 1]) {
                    color[u] = kBlack;
                    stack.pop_back();
                    if (!via.empty()) via.pop_back();
                    continue;
                }
                const std::uint32_t e = out_edges[slot++];
                if (edge_count[e] == 0) continue;
                const std::uint32_t v = static_cast<std::uint32_t>(edge_key[e]);
                if (color[v] == kBlack) continue;
                if (color[v] == kWhite) {
                    color[v] = kGrey;
                    via.push_back(e);
                    stack.emplace_back(v, out_off[v]);
                    continue;
                }
                // A cycle: from v's place on the stack around to u, closed by e.
                std::size_t at = stack.size() - 1;
                while (stack[at].first != v) --at;
                std::uint32_t weakest = e;
                for (std::size_t i = at; i < via.size(); ++i)
                    if (edge_count[via[i]] < edge_count[weakest]) weakest = via[i];
                for (std::uint32_t i = route_off[weakest]; i < route_off[weakest + 1]; ++i) {
                    const std::uint32_t r = route_of[i];
                    if (gone[r]) continue;
                    gone[r] = true;
                    moved.push_back(r);
                    channels(routes[r], path);
                    for (std::size_t k = 0; k + 1 < path.size(); ++k)
                        --edge_count[edge_id.at((std::uint64_t{path[k]} << 32) | path[k + 1])];
                }
                // Re-examine the grey part of the stack from scratch.
                for (auto &entry : stack) color[entry.first] = kWhite;
                stack.assign(1, {start, out_off[start]});
                via.clear();
                color[start] = kGrey;
            }
        }
        return moved;
    }

    const Fabric &f_;
    const SwitchGraph &g_;
    RoutingTables &t_;
    LinkIndex idx_;
};

class Dfsssp final : public Engine {
  public:
    std::string_view name() const override { return "dfsssp"; }
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
    HookResult assign_sl(RoutingContext &ctx, RoutingTables &t) override {
        const SwitchGraph g(ctx.fabric);
        const unsigned budget = std::max(1u, std::min(ctx.options.max_vls, 15u));
        const unsigned used = LayerAssigner(ctx.fabric, g, t).assign(budget);
        if (used == 0) {
            t.path_sl.clear();
            return HookResult::failure("breaking all credit loops needs more than " + std::to_string(budget) +
                                       " virtual layers (max_vls)");
        }
        t.vls_used = used;
        return HookResult::success();
    }
};

}  // namespace

std::unique_ptr<Engine> make_dfsssp() {
    return std::make_unique<Dfsssp>();
}

}  // namespace weft::routing::engines
