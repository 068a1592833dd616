// The default engine (OpenSM minhop): unrestricted min-hop matrices, then the shared
// port-equalizing LFT builder. Also the public defaults build_minhop_matrices/_lfts.
#include <algorithm>
#include <queue>

#include "engines/engines.hpp"
#include "engines/lft_builder.hpp"
#include "engines/switch_graph.hpp"

namespace weft::routing {

void build_minhop_matrices(const Fabric &f, RoutingTables &t) {
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

// The LFTs from the switch-level hops h (a port is a min-hop choice when its far switch is one
// hop, or the port's -w weight, closer).
void lfts_from_switch_hops(const Fabric &f, const engines::SwitchGraph &g, const engines::HopMatrix &h,
                           const RoutingOptions &o, RoutingTables &t) {
    const auto w = port_weights(f, o);
    engines::build_lfts(f, g, o, t, engines::route_order(f, g, o.guid_routing_order), engines::PortPolicy{},
                        [&](SwitchIdx s, const engines::SwitchLink &l, std::uint8_t *ok) {
                            engines::min_hop_row(h.row(s), h.row(l.peer), ok, g.size(),
                                                 w.empty() ? 1u : w[s][l.port]);
                        });
}

}  // namespace

void build_minhop_lfts(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    const engines::SwitchGraph g(f);
    for (auto &row : t.lft) std::fill(row.begin(), row.end(), kNoPort);
    lfts_from_switch_hops(f, g, engines::switch_hops_from_lids(g, t), o, t);
}

namespace engines {

void build_minhop_tables(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    if (!o.hop_weights.empty()) {
        build_minhop_matrices(f, o, t);
        return weft::routing::build_minhop_lfts(f, o, t);
    }
    // build_minhop_matrices then build_minhop_lfts with one switch graph, the switch hop matrix
    // standing for the hops toward every LID of its switches. t.reset leaves every LFT entry
    // kNoPort, as the LFT step expects.
    t.reset(f);
    const SwitchGraph g(f);
    const HopMatrix m = switch_min_hops(g);
    fill_lid_hops(g, m, t);
    lfts_from_switch_hops(f, g, m, o, t);
}

namespace {

class MinHop final : public Engine {
  public:
    std::string_view name() const override { return "minhop"; }
};

}  // namespace

std::unique_ptr<Engine> make_minhop() {
    return std::make_unique<MinHop>();
}

}  // namespace engines
}  // namespace weft::routing
