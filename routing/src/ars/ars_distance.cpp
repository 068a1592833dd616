// The ARS compiler's distance basis: link costs by kind, and the cheapest routes by them.
#include "ars_distance.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "weft/routing/auto_choice.hpp"

namespace weft::routing::ars {
namespace {

bool to_switch(const Fabric &f, NodeIdx n, PortNum p) {
    return f.port(n, p).linked() && f.node(f.port(n, p).peer).is_switch();
}

}  // namespace

DistanceBasis::DistanceBasis(const Fabric &f, const ArsOptions &o) : f_(f), kind_(o.distance) {
    std::vector<std::uint32_t> group;
    if (kind_ == ArsDistance::Auto || kind_ == ArsDistance::Dragonfly) {
        group = choose_routing(f, {}).groups;
        if (!group.empty())
            kind_ = ArsDistance::Dragonfly;
        else if (kind_ == ArsDistance::Auto && !o.hop_weights.empty())
            kind_ = ArsDistance::Weighted;
        else
            kind_ = ArsDistance::Engine;
    }
    if (kind_ == ArsDistance::Engine) return;
    const std::size_t S = f.switch_count();
    begin_.resize(S);
    for (SwitchIdx s = 0; s < S; ++s) {
        const NodeIdx n = f.switch_node(s);
        begin_[s] = static_cast<std::uint32_t>(cost_.size());
        for (PortNum p = 0; p <= f.node(n).num_ports; ++p) {
            std::uint32_t c = 1;
            // Dragonfly: a global link counts 1 and a local one 0, so the cheapest route is the
            // one with the fewest global links, and Reach's hops break the tie.
            if (kind_ == ArsDistance::Dragonfly)
                c = p != 0 && to_switch(f, n, p) && group[f.node(f.port(n, p).peer).sw] != group[s];
            cost_.push_back(c);
        }
    }
    if (kind_ == ArsDistance::Weighted)
        for (const HopWeight &h : o.hop_weights) {
            const auto n = f.find_guid(h.sw);
            if (!n || !f.node(*n).is_switch() || h.port > f.node(*n).num_ports) continue;
            cost_[begin_[f.node(*n).sw] + h.port] = h.weight;
        }
}

Reach DistanceBasis::through(const Reach &there, std::uint32_t c) {
    if (!there.reached()) return {};
    Reach r;
    r.cost = there.cost + c >= Reach::kUnreached ? Reach::kUnreached - 1 : there.cost + c;
    r.hops = static_cast<std::uint8_t>(std::min<unsigned>(there.hops + 1u, kInfHops - 1u));
    return r;
}

void DistanceBasis::reach(const RoutingTables &t, const ArsDestination &d, std::vector<Reach> &out) const {
    const std::size_t S = f_.switch_count();
    out.assign(S, Reach{});
    if (kind_ == ArsDistance::Engine) {
        for (SwitchIdx s = 0; s < S; ++s)
            if (const std::uint8_t h = t.hops[s][d.lid]; h != kInfHops) out[s] = {h, h};
        return;
    }
    // Dijkstra from the leaf against the links: x reaches d through y at y's route plus what x's
    // port toward y costs.
    using Item = std::pair<Reach, SwitchIdx>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    out[d.sw] = {0, 0};
    heap.push({out[d.sw], d.sw});
    while (!heap.empty()) {
        const auto [r, y] = heap.top();
        heap.pop();
        if (r != out[y]) continue;
        const NodeIdx yn = f_.switch_node(y);
        for (PortNum p = 1; p <= f_.node(yn).num_ports; ++p) {
            if (!to_switch(f_, yn, p)) continue;
            const Port &x = f_.port(yn, p);
            const SwitchIdx xs = f_.node(x.peer).sw;
            const Reach via = through(r, cost(xs, x.peer_port));
            if (via < out[xs]) out[xs] = via, heap.push({via, xs});
        }
    }
}

}  // namespace weft::routing::ars
