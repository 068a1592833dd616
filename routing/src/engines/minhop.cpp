// The default engine (OpenSM minhop): unrestricted min-hop matrices, then the shared
// port-equalizing LFT builder. Also the public defaults build_minhop_matrices/_lfts.
#include <algorithm>
#include <queue>

#include "engines/engines.hpp"
#include "engines/lft_builder.hpp"
#include "engines/switch_graph.hpp"

namespace weft::routing {

[[gnu::hot]] void build_minhop_matrices(const Fabric &f, RoutingTables &t) {
    t.reset(f);
    const engines::SwitchGraph g(f);
    engines::fill_lid_hops(g, engines::switch_min_hops(g), t);
}

namespace {

// Hop weight of each switch port (-w), by [switch][port]; empty when no file was given.
std::vector<std::vector<std::uint8_t>> port_weights(const Fabric &f, const RoutingOptions &o) {
    std::vector<std::vector<std::uint8_t>> w;
    if (o.hop_weights.empty()) return w;
    w.resize(f.switch_count());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        w[s].assign(std::size_t{f.node(f.switch_node(s)).num_ports} + 1, 1);
    for (const HopWeight &h : o.hop_weights) {
        const auto node = f.find_guid(h.sw);
        if (!node || !f.node(*node).is_switch() || h.port > f.node(*node).num_ports) continue;
        w[f.node(*node).sw][h.port] = static_cast<std::uint8_t>(h.weight);
    }
    return w;
}

}  // namespace

void build_minhop_matrices(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    const auto w = port_weights(f, o);
    if (w.empty()) return build_minhop_matrices(f, t);
    t.reset(f);
    const engines::SwitchGraph g(f);
    const std::size_t n = g.size();
    engines::HopMatrix m;
    m.assign(n);
    // Per destination, Dijkstra against the links: x reaches d through y at cost(y) + w(x, port).
    using Item = std::pair<unsigned, SwitchIdx>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    std::vector<unsigned> cost(n);
    for (SwitchIdx d = 0; d < n; ++d) {
        std::fill(cost.begin(), cost.end(), unsigned{kInfHops});
        cost[d] = 0;
        heap.push({0, d});
        while (!heap.empty()) {
            const auto [c, y] = heap.top();
            heap.pop();
            if (c != cost[y]) continue;
            for (const engines::SwitchLink &l : g.links(y)) {
                const unsigned nc = std::min(c + w[l.peer][l.peer_port], unsigned{kInfHops} - 1);
                if (nc < cost[l.peer]) cost[l.peer] = nc, heap.push({nc, l.peer});
            }
        }
        for (SwitchIdx s = 0; s < n; ++s) m.at(s, d) = static_cast<std::uint8_t>(cost[s]);
    }
    engines::fill_lid_hops(g, m, t);
}

namespace {

// Unweighted LFTs from t.hops, given the switch-level hops toward each destination switch.
[[gnu::hot]] void unweighted_lfts(const Fabric &f, const engines::SwitchGraph &g,
                                  const engines::SwitchHops &h, const RoutingOptions &o, RoutingTables &t) {
    engines::build_equalized_lfts(
        f, g, o, t,
        [&](SwitchIdx s, const engines::SwitchLink &l, Lid lid) {
            const std::uint8_t there = t.hops[l.peer][lid];
            return there != kInfHops && there + 1 == t.hops[s][lid];
        },
        [&](SwitchIdx s, const engines::SwitchLink &l, std::uint8_t *ok) {
            engines::min_hop_row(h.row(s), h.row(l.peer), ok, h.stride);
        });
}

}  // namespace

[[gnu::hot]] void build_minhop_lfts(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    const engines::SwitchGraph g(f);
    const auto w = port_weights(f, o);
    for (auto &row : t.lft) std::fill(row.begin(), row.end(), kNoPort);
    // A port is a min-hop choice when its far switch is one hop (or the port's weight) closer.
    if (w.empty()) return unweighted_lfts(f, g, engines::switch_hops_from_lids(g, t), o, t);
    engines::build_equalized_lfts(f, g, o, t, [&](SwitchIdx s, const engines::SwitchLink &l, Lid lid) {
        const std::uint8_t here = t.hops[s][lid], there = t.hops[l.peer][lid];
        const unsigned step = w[s][l.port];
        return there != kInfHops && there + step == here;
    });
}

namespace engines {

[[gnu::hot]] void build_minhop_tables(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    if (!o.hop_weights.empty()) {
        build_minhop_matrices(f, o, t);
        return build_minhop_lfts(f, o, t);
    }
    // build_minhop_matrices then build_minhop_lfts, with one switch graph and the switch hop
    // matrix itself as the LFT step's hops toward each destination switch (the min-hop test
    // on switch hops picks the same ports as on the hops of any LID routed to that switch).
    // t.reset leaves every LFT entry kNoPort, as the LFT step expects.
    t.reset(f);
    const SwitchGraph g(f);
    HopMatrix m = switch_min_hops(g, switch_hops_stride(g.size()));
    fill_lid_hops(g, m, t);
    unweighted_lfts(f, g, switch_hops_of(std::move(m)), o, t);
}

namespace {

class MinHop final : public Engine {
  public:
    [[gnu::hot]] std::string_view name() const override { return "minhop"; }
};

}  // namespace

[[gnu::hot]] std::unique_ptr<Engine> make_minhop() {
    return std::make_unique<MinHop>();
}

}  // namespace engines
}  // namespace weft::routing
