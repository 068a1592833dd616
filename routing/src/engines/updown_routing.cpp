#include "engines/updown_routing.hpp"

#include <algorithm>
#include <cstring>

#include "engines/lft_builder.hpp"

namespace weft::routing::engines {

[[gnu::hot]] void UpDownRouting::compute(const Fabric &f, std::vector<unsigned> rank, bool free_roots,
                                         RoutingTables &t,
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

[[gnu::hot]] void UpDownRouting::build_lfts(const Fabric &f, const RoutingOptions &o, RoutingTables &t) {
    const SwitchGraph &g = graph(f);
    const std::size_t n = g.size();
    build_equalized_lfts(
        f, g, o, t,
        [&](SwitchIdx s, const SwitchLink &l, Lid lid) {
            const SwitchIdx d = g.target(lid).sw;
            if (down_.at(s, d) != kInfHops)
                return !is_up(s, l.peer) && down_.at(l.peer, d) != kInfHops &&
                       down_.at(l.peer, d) + 1 == down_.at(s, d);
            return is_up(s, l.peer) && route_.at(l.peer, d) != kInfHops &&
                   route_.at(l.peer, d) + 1 == route_.at(s, d);
        },
        [&](SwitchIdx s, const SwitchLink &l, std::uint8_t *ok) {
            // The same test for every destination at once: a down move where s reaches d going
            // only down, else an up move along the up-then-down route; 16 destinations a step.
            const std::uint8_t up = is_up(s, l.peer) ? 1 : 0;
            const std::uint8_t *const down_here = down_.row(s);
            const std::uint8_t *const down_there = down_.row(l.peer);
            const std::uint8_t *const route_here = route_.row(s);
            const std::uint8_t *const route_there = route_.row(l.peer);
            std::size_t d = 0;
            for (; d + 16 <= n; d += 16) {
                detail::Bytes16 dh, dt, rh, rt;
                std::memcpy(&dh, down_here + d, 16);
                std::memcpy(&dt, down_there + d, 16);
                std::memcpy(&rh, route_here + d, 16);
                std::memcpy(&rt, route_there + d, 16);
                const auto by_down = (dt != kInfHops) & (dt + 1 == dh);
                const auto by_route = (rt != kInfHops) & (rt + 1 == rh);
                const auto reach_down = dh != kInfHops;
                const auto r = up ? (~reach_down & by_route) : (reach_down & by_down);
                const detail::Bytes16 b = reinterpret_cast<detail::Bytes16>(r) & 1;
                std::memcpy(ok + d, &b, 16);
            }
            for (; d < n; ++d) {
                const unsigned by_down =
                    (1u - up) & (down_there[d] != kInfHops) & (down_there[d] + 1 == down_here[d]);
                const unsigned by_route =
                    up & (route_there[d] != kInfHops) & (route_there[d] + 1 == route_here[d]);
                ok[d] = static_cast<std::uint8_t>(down_here[d] != kInfHops ? by_down : by_route);
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

[[gnu::hot]] std::vector<unsigned> bfs_rank(const SwitchGraph &g, const std::vector<SwitchIdx> &from) {
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
