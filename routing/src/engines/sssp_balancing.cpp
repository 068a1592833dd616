#include "engines/sssp_balancing.hpp"

#include <algorithm>
#include <queue>

namespace weft::routing::engines {

LinkIndex::LinkIndex(const Fabric &f, const SwitchGraph &g) {
    const std::size_t n = g.size();
    base_.resize(n);
    width_.resize(n);
    std::size_t e = 0;
    for (SwitchIdx s = 0; s < n; ++s) {
        base_[s] = static_cast<std::uint32_t>(index_.size());
        width_[s] = static_cast<PortNum>(f.node(f.switch_node(s)).num_ports + 1);
        index_.resize(index_.size() + width_[s], -1);
        for (const SwitchLink &l : g.links(s)) index_[base_[s] + l.port] = static_cast<std::int64_t>(e++);
    }
    links_ = e;
}

void route_sssp(const Fabric &f, const SwitchGraph &g, RoutingTables &t,
                const std::function<void(std::size_t, std::size_t)> &progress) {
    const std::size_t n = g.size();
    // CSR offsets per switch, and for each link the index of the same cable seen from the peer.
    std::vector<std::uint32_t> off(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) off[s + 1] = off[s] + static_cast<std::uint32_t>(g.links(s).size());
    const LinkIndex idx(f, g);
    std::vector<std::uint32_t> reverse(off[n]);
    // Far switch and local port of each link, flat by link index: the inner loops below run
    // once per (LID, switch) and should not re-derive them through the graph's spans.
    std::vector<SwitchIdx> peer_of(off[n]);
    std::vector<PortNum> port_of(off[n]);
    for (SwitchIdx s = 0; s < n; ++s)
        for (std::uint32_t i = 0; i < g.links(s).size(); ++i) {
            const SwitchLink &l = g.links(s)[i];
            reverse[off[s] + i] = static_cast<std::uint32_t>(idx.at(l.peer, l.peer_port));
            peer_of[off[s] + i] = l.peer;
            port_of[off[s] + i] = l.port;
        }
    // LIDs per switch (its own and its CAs'), OpenSM's num_hca: the load one route from that
    // switch puts on each link. Links start at P^2 (P = all LIDs), so no amount of load can
    // make a longer path cheaper: routes stay minimal and the load only breaks ties.
    std::vector<std::uint64_t> lids_at(n, 0);
    std::uint64_t all_lids = 0;
    for (Lid l = 1; l <= g.max_lid(); ++l)
        if (g.target(l).sw != kNoSwitch) ++lids_at[g.target(l).sw], ++all_lids;
    std::vector<std::uint64_t> weight(off[n], all_lids * all_lids);
    std::vector<std::uint64_t> dist(n);
    std::vector<std::uint32_t> next(n);  // link each switch takes toward the destination
    std::vector<std::uint8_t> len(n);
    std::vector<SwitchIdx> settled;
    std::vector<std::uint64_t> carried(n);
    using Item = std::pair<std::uint64_t, SwitchIdx>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    constexpr std::uint64_t kFar = ~std::uint64_t{0};
    constexpr std::uint32_t kNoLink = ~std::uint32_t{0};

    // OpenSM's order: switches with the most LIDs first (GUID order within equal counts); the
    // CA LIDs of each switch in port order, then the switches' own LIDs in the same order.
    std::vector<SwitchIdx> sws(n);
    for (SwitchIdx s = 0; s < n; ++s) sws[s] = s;
    std::stable_sort(sws.begin(), sws.end(), [&](SwitchIdx a, SwitchIdx b) {
        if (lids_at[a] != lids_at[b]) return lids_at[a] > lids_at[b];
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });
    std::vector<std::uint32_t> rank(n);
    for (std::uint32_t i = 0; i < n; ++i) rank[sws[i]] = i;
    std::vector<Lid> order;
    for (Lid l = 1; l <= g.max_lid(); ++l)
        if (g.target(l).sw != kNoSwitch) order.push_back(l);
    std::stable_sort(order.begin(), order.end(), [&](Lid a, Lid b) {
        const LidTarget &x = g.target(a), &y = g.target(b);
        if (x.is_switch != y.is_switch) return y.is_switch;
        if (x.sw != y.sw) return rank[x.sw] < rank[y.sw];
        return x.port < y.port;
    });

    std::size_t done = 0;
    // While every link's extra load stays below P^2 / (longest route), a route with one more hop
    // always costs more than any minimal one, and Dijkstra's choice at x is the cheapest link
    // (then the lowest link index) to a neighbour one hop closer. That is a pass over the BFS
    // layers of the destination switch, which are computed once per switch. Otherwise: Dijkstra.
    const std::uint64_t p2 = all_lids * all_lids;
    std::uint64_t max_extra = 0;
    SwitchIdx layered_for = kNoSwitch;
    std::vector<SwitchIdx> bfs;                         // reachable switches by hops from the destination
    std::vector<std::uint32_t> hop(n), cand, cand_off;  // per bfs entry: links one hop closer
    std::uint32_t max_hop = 0;
    auto layer = [&](SwitchIdx d) {
        layered_for = d;
        std::fill(hop.begin(), hop.end(), ~std::uint32_t{0});
        bfs.assign(1, d);
        hop[d] = 0;
        for (std::size_t i = 0; i < bfs.size(); ++i) {
            const SwitchIdx x = bfs[i];
            for (std::uint32_t e = off[x]; e < off[x + 1]; ++e)
                if (hop[peer_of[e]] == ~std::uint32_t{0})
                    hop[peer_of[e]] = hop[x] + 1, bfs.push_back(peer_of[e]);
        }
        max_hop = hop[bfs.back()];
        cand.clear();
        cand_off.assign(1, 0);
        for (SwitchIdx x : bfs) {
            for (std::uint32_t e = off[x]; e < off[x + 1]; ++e)
                if (hop[peer_of[e]] + 1 == hop[x]) cand.push_back(e);
            cand_off.push_back(static_cast<std::uint32_t>(cand.size()));
        }
    };

    for (Lid lid : order) {
        const LidTarget &tg = g.target(lid);
        std::fill(dist.begin(), dist.end(), kFar);
        std::fill(next.begin(), next.end(), kNoLink);
        settled.clear();
        dist[tg.sw] = 0;
        len[tg.sw] = 0;
        if (layered_for != tg.sw) layer(tg.sw);
        if (max_hop == 0 || max_extra <= (p2 - 1) / max_hop) {
            for (std::size_t i = 1; i < bfs.size(); ++i) {
                const SwitchIdx x = bfs[i];
                std::uint64_t best = kFar;
                std::uint32_t via = kNoLink;
                for (std::uint32_t k = cand_off[i]; k < cand_off[i + 1]; ++k) {
                    const std::uint32_t e = cand[k];
                    const std::uint64_t nd = dist[peer_of[e]] + weight[e];
                    if (nd < best) best = nd, via = e;  // candidates ascend: ties keep the lowest
                }
                dist[x] = best;
                next[x] = via;
                len[x] = static_cast<std::uint8_t>(std::min<unsigned>(hop[x], kInfHops - 1u));
            }
            settled = bfs;
        } else {
            heap.push({0, tg.sw});
            while (!heap.empty()) {
                const auto [d, y] = heap.top();
                heap.pop();
                if (d != dist[y]) continue;
                settled.push_back(y);
                // Relax every x with a link x -> y: its cost is that link's weight.
                for (std::uint32_t i = off[y]; i < off[y + 1]; ++i) {
                    const std::uint32_t e = reverse[i];  // link x -> y
                    const SwitchIdx x = peer_of[i];
                    const std::uint64_t nd = d + weight[e];
                    if (nd < dist[x] || (nd == dist[x] && e < next[x])) {
                        const bool improved = nd < dist[x];
                        dist[x] = nd;
                        next[x] = e;
                        len[x] = static_cast<std::uint8_t>(std::min<unsigned>(len[y] + 1u, kInfHops - 1u));
                        if (improved) heap.push({nd, x});
                    }
                }
            }
        }
        // Forwarding entries and route lengths along the tree.
        const std::uint8_t extra = tg.is_switch ? 0 : 1;
        for (SwitchIdx s : settled) {
            t.lft[s][lid] = s == tg.sw ? tg.port : port_of[next[s]];
            t.hops[s][lid] = static_cast<std::uint8_t>(std::min<unsigned>(len[s] + extra, kInfHops - 1u));
        }
        // Load: each switch sends one route per LID it has; sum them down the tree.
        for (SwitchIdx s : settled) carried[s] = lids_at[s];
        for (auto it = settled.rbegin(); it != settled.rend(); ++it) {
            const SwitchIdx s = *it;
            if (s == tg.sw || next[s] == kNoLink) continue;
            weight[next[s]] += carried[s];
            max_extra = std::max(max_extra, weight[next[s]] - p2);
            carried[peer_of[next[s]]] += carried[s];
        }
        if (progress && (++done % 256 == 0)) progress(done, order.size());
    }
}

}  // namespace weft::routing::engines
