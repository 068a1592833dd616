#include "engines/updown_routing.hpp"

#include <algorithm>

#include "engines/lft_builder.hpp"

namespace weft::routing::engines {

void UpDownRouting::compute(const Fabric &f, std::vector<unsigned> rank, bool free_roots, RoutingTables &t,
                            const std::vector<std::pair<Guid, std::uint64_t>> &ids) {
    free_roots_ = free_roots;
    const SwitchGraph &g = graph(f);
    const std::size_t n = g.size();
    rank_ = std::move(rank);
    guid_.resize(n);
    for (SwitchIdx s = 0; s < n; ++s) guid_[s] = f.node(f.switch_node(s)).guid;
    for (const auto &[guid, id] : ids)
        if (auto node = f.find_guid(guid); node && f.node(*node).is_switch()) guid_[f.node(*node).sw] = id;
    down_.assign(n);
    route_.assign(n);
    std::vector<std::uint8_t> down(n), dist(n);
    std::vector<SwitchIdx> queue(n);
    std::vector<std::vector<SwitchIdx>> bucket;
    for (SwitchIdx d = 0; d < n; ++d) {
        // All-down distance: walk from d against down moves.
        std::fill(down.begin(), down.end(), kInfHops);
        down[d] = 0;
        std::size_t head = 0, tail = 0;
        queue[tail++] = d;
        while (head < tail) {
            const SwitchIdx y = queue[head++];
            if (down[y] + 1 >= kInfHops) continue;
            for (const SwitchLink &l : g.links(y))
                if (down[l.peer] == kInfHops && !is_up(l.peer, y))
                    down[l.peer] = static_cast<std::uint8_t>(down[y] + 1), queue[tail++] = l.peer;
        }
        // Up-then-down distance for the rest, seeded by the all-down distances (bucket queue).
        dist = down;
        for (auto &b : bucket) b.clear();  // keeps their storage for the next destination
        for (std::size_t i = 0; i < tail; ++i) {
            const SwitchIdx y = queue[i];
            if (bucket.size() <= down[y]) bucket.resize(down[y] + 1u);
            bucket[down[y]].push_back(y);
        }
        for (std::size_t v = 0; v < bucket.size(); ++v) {
            for (std::size_t i = 0; i < bucket[v].size(); ++i) {
                const SwitchIdx y = bucket[v][i];
                if (dist[y] != v || v + 1 >= kInfHops) continue;
                for (const SwitchLink &l : g.links(y)) {
                    const SwitchIdx x = l.peer;
                    if (down[x] != kInfHops || !is_up(x, y) || dist[x] <= v + 1) continue;
                    dist[x] = static_cast<std::uint8_t>(v + 1);
                    if (bucket.size() <= v + 1) bucket.resize(v + 2);
                    bucket[v + 1].push_back(x);
                }
            }
        }
        for (SwitchIdx s = 0; s < n; ++s) down_.at(s, d) = down[s], route_.at(s, d) = dist[s];
    }
    fill_lid_hops(g, route_, t);
}

void UpDownRouting::build_lfts(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    const SwitchGraph &g = graph(f);
    const std::size_t n = g.size();
    // A down move where s reaches d going only down, else an up move along the up-then-down
    // route; each one hop closer.
    engines::build_lfts(
        f, g, o, t, route_order(f, g, o.guid_routing_order), PortPolicy{},
        [&](SwitchIdx s, const SwitchLink &l, std::uint8_t *ok) {
            const bool up = is_up(s, l.peer);
            const std::uint8_t *const down_here = down_.row(s), *const down_there = down_.row(l.peer);
            const std::uint8_t *const route_here = route_.row(s), *const route_there = route_.row(l.peer);
            for (std::size_t d = 0; d < n; ++d) {
                if (down_here[d] != kInfHops)
                    ok[d] = !up && down_there[d] != kInfHops && down_there[d] + 1 == down_here[d];
                else
                    ok[d] = up && route_there[d] != kInfHops && route_there[d] + 1 == route_here[d];
            }
        });
}

std::vector<SwitchIdx> switches_named(const Fabric &f, const std::vector<Guid> &guids) {
    std::vector<SwitchIdx> out;
    auto add = [&](NodeIdx n, PortNum p) {
        const Node &node = f.node(n);
        if (node.is_switch()) {
            out.push_back(node.sw);
            return;
        }
        // A CA stands for the switch it is cabled to (the given port, else its first cabled port).
        for (PortNum q = p ? p : 1; q <= node.num_ports; ++q) {
            const Port &x = f.port(n, q);
            if (x.linked() && f.node(x.peer).is_switch()) {
                out.push_back(f.node(x.peer).sw);
                return;
            }
            if (p) return;
        }
    };
    for (Guid g : guids) {
        if (auto n = f.find_guid(g))
            add(*n, 0);
        else if (auto o = f.find_port_guid(g))
            add(o->node, o->port);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<unsigned> bfs_rank(const SwitchGraph &g, const std::vector<SwitchIdx> &from) {
    std::vector<unsigned> rank(g.size(), UpDownRouting::kUnranked);
    std::vector<SwitchIdx> queue;
    for (SwitchIdx s : from)
        if (rank[s] != 0) rank[s] = 0, queue.push_back(s);
    for (std::size_t i = 0; i < queue.size(); ++i)
        for (const SwitchLink &l : g.links(queue[i]))
            if (rank[l.peer] == UpDownRouting::kUnranked)
                rank[l.peer] = rank[queue[i]] + 1, queue.push_back(l.peer);
    return rank;
}

}  // namespace weft::routing::engines
