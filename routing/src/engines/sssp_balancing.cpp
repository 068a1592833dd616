#include "engines/sssp_balancing.hpp"
#include "engines/osm_guid_order.hpp"
#include "engines/sssp_heap.hpp"
#include "engines/sssp_outer_choice.hpp"

#include <algorithm>
#include <bit>

namespace weft::routing::engines {
namespace {
// OpenSM's destination order (see route_sssp), as one word per LID, (is_switch, rank, port,
// LID) from the top bits down: a plain sort of the words is the stable sort by the first
// three, cheaper than comparing targets. Out of line: inlined, it cost route_sssp's main loop
// more than it saved.
[[gnu::noinline]] std::vector<Lid> destination_order(const SwitchGraph &g,
                                                     const std::vector<std::uint32_t> &rank,
                                                     std::size_t all_lids) {
    std::vector<std::uint64_t> key;
    key.reserve(all_lids);
    for (Lid l = 1; l <= g.max_lid(); ++l) {
        const LidTarget &x = g.target(l);
        if (x.sw != kNoSwitch)
            key.push_back(std::uint64_t{x.is_switch} << 63 | std::uint64_t{rank[x.sw]} << 40 |
                          std::uint64_t{x.port} << 32 | l);
    }
    std::sort(key.begin(), key.end());
    std::vector<Lid> order(key.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<Lid>(key[i]);
    return order;
}
// The BFS of a destination's layers (see route_sssp) from switch d over the links in CSR
// order (off, and per link its reverse link and peer in pv), with hv[] all kUnseen on entry:
// the switches in BFS order with their hops in hv[], and for each the candidates (reverse link,
// peer one hop closer) in cand[cand_off[k]] .. cand[cand_off[k + 1]]. Returns the switches
// reached. cand needs one spare entry. Out of line: inlined into route_sssp, it had fewer
// registers and more instructions per link.
[[gnu::noinline]] std::uint32_t layers_bfs(SwitchIdx d, const std::uint32_t *off, const SsspCand *pv,
                                           std::uint32_t *hv, SwitchIdx *bfs, std::uint32_t *cand_off,
                                           SsspCand *cand) {
    constexpr std::uint32_t kUnseen = ~std::uint32_t{0};
    // Write pointers, not indices: fewer instructions per link as compiled.
    SwitchIdx *bw = bfs + 1;
    SsspCand *cw = cand;
    std::uint32_t *ow = cand_off;
    bfs[0] = d;
    hv[d] = 0;
    // When x leaves the BFS queue every switch one hop closer already has its hop count.
    // Every link writes a candidate, and the write pointer moves past it if it is one: whether
    // it is one is data, a branch the predictor would often miss.
    for (const SwitchIdx *q = bfs; q != bw; ++q) {
        const SwitchIdx x = *q;
        const std::uint32_t h = hv[x], closer = h != 0 ? h - 1 : kUnseen - 1;
        *ow++ = static_cast<std::uint32_t>(cw - cand);
        for (const SsspCand *e = pv + off[x], *ee = pv + off[x + 1]; e != ee; ++e) {
            const SwitchIdx y = e->from;
            const std::uint32_t hy = hv[y];
            if (hy == kUnseen) hv[y] = h + 1, *bw++ = y;
            *cw = *e, cw += hy == closer;  // the entry is the candidate: (reverse link, peer)
        }
    }
    const auto tail = static_cast<std::uint32_t>(bw - bfs);
    cand_off[tail] = static_cast<std::uint32_t>(cw - cand);
    return tail;
}
// An outermost layer is wide when it holds many switches with many candidates each (a tree's:
// every spine is one). There its choice is decided by OpenSM's relaxation with an early finish,
// which needs lower bounds on the weights into its switches kept up to date as routes are
// committed; on narrow layers that upkeep costs more than the early finish saves.
bool wide(std::uint32_t switches, std::uint32_t cands) {
    return switches >= 16 && cands >= 8 * switches;
}

}  // namespace

LinkIndex::LinkIndex(const Fabric &f, const SwitchGraph &g) {
    const std::size_t n = g.size();
    base_.resize(n);
    width_.resize(n);
    std::size_t total = 0;  // one allocation, not one regrowth per switch
    for (SwitchIdx s = 0; s < n; ++s) {
        base_[s] = static_cast<std::uint32_t>(total);
        width_[s] = static_cast<PortNum>(f.node(f.switch_node(s)).num_ports + 1);
        total += width_[s];
    }
    index_.assign(total, -1);
    std::size_t e = 0;
    for (SwitchIdx s = 0; s < n; ++s)
        for (const SwitchLink &l : g.links(s)) index_[base_[s] + l.port] = static_cast<std::int64_t>(e++);
    links_ = e;
}

void route_sssp(const Fabric &f, const SwitchGraph &g, RoutingTables &t,
                const std::function<void(std::size_t, std::size_t)> &progress) {
    const std::size_t n = g.size();
    // Links are numbered in CSR order (per switch, by port). Link i belongs to switch from[i]
    // and leads to peer_of[i]; as in OpenSM, the Dijkstra from a destination walks links
    // outwards, and a switch x reached over link i (y -> x) forwards through the far end of i,
    // i.e. its own port peer_port_of[i]. Link i's weight counts the routes that go x -> y.
    std::vector<std::uint32_t> off(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) off[s + 1] = off[s] + static_cast<std::uint32_t>(g.links(s).size());
    const LinkIndex idx(f, g);
    std::vector<std::uint32_t> reverse(off[n]);
    std::vector<SwitchIdx> peer_of(off[n]), from(off[n]);
    std::vector<PortNum> peer_port_of(off[n]);
    for (SwitchIdx s = 0; s < n; ++s)
        for (std::uint32_t i = 0; i < g.links(s).size(); ++i) {
            const SwitchLink &l = g.links(s)[i];
            reverse[off[s] + i] = static_cast<std::uint32_t>(idx.at(l.peer, l.peer_port));
            peer_of[off[s] + i] = l.peer;
            from[off[s] + i] = s;
            peer_port_of[off[s] + i] = l.peer_port;
        }
    // LIDs per switch (its own and its CAs'), OpenSM's num_hca: the load one route from that
    // switch puts on each link. Links start at P^2 (P = all LIDs), so no amount of load can
    // make a longer path cheaper: routes stay minimal and the load only breaks ties.
    std::vector<std::uint64_t> lids_at(n, 0);
    std::uint64_t all_lids = 0;
    for (Lid l = 1; l <= g.max_lid(); ++l)
        if (g.target(l).sw != kNoSwitch) ++lids_at[g.target(l).sw], ++all_lids;
    const std::uint64_t p2 = all_lids * all_lids;
    std::vector<std::uint64_t> weight(off[n], p2);

    // OpenSM's switch order (its GUID table order, osm_table_key: its adjacency list, and so the
    // start order of the Dijkstra queue, follow it), and its destination order: switches with the
    // most LIDs first (a stable sort of that order), the CA LIDs of each switch in port order,
    // then the switches' own LIDs in the same switch order.
    std::vector<SwitchIdx> adj(n);
    for (SwitchIdx s = 0; s < n; ++s) adj[s] = s;
    std::vector<std::uint64_t> map_key(n);
    for (SwitchIdx s = 0; s < n; ++s) map_key[s] = osm_table_key(f.node(f.switch_node(s)).guid);
    std::stable_sort(adj.begin(), adj.end(),
                     [&](SwitchIdx a, SwitchIdx b) { return map_key[a] < map_key[b]; });
    std::vector<SwitchIdx> sws = adj;
    std::stable_sort(sws.begin(), sws.end(),  // most LIDs first
                     [&](SwitchIdx a, SwitchIdx b) { return lids_at[a] > lids_at[b]; });
    std::vector<std::uint32_t> rank(n);
    for (std::uint32_t i = 0; i < n; ++i) rank[sws[i]] = i;
    const std::vector<Lid> order = destination_order(g, rank, all_lids);

    // Per-destination state. Vertex n stands for the destination CA (OpenSM's adj_list[0]),
    // joined to its switch by one link of weight 1.
    constexpr std::uint64_t kInf = 0x7FFFFFFF;  // OpenSM's "unreached": costs at or above it never win
    constexpr std::uint32_t kNoLink = ~std::uint32_t{0}, kCaLink = kNoLink - 1;
    std::vector<std::uint64_t> dist(n + 1);
    std::vector<std::uint32_t> used(n + 1);  // link over which the switch was reached
    std::vector<std::uint8_t> len(n + 1);
    std::vector<SwitchIdx> settled;
    std::vector<std::uint64_t> carried(n + 1);
    SsspHeap heap, heap0;  // heap0: every switch unreached, in switch order
    heap0.assign(adj, n + 1, kInf);

    // The layers of a destination switch: reachable switches by hops (BFS order), each with its
    // hop count and the links (y -> x, y one hop closer) it can be reached over, as (link, y).
    // Only the current switch's are kept, for its CA LIDs (which come in a row); its own LID,
    // near the end, runs the BFS again: a BFS costs less than storing every switch's layers,
    // which are never read again.
    using Cand = SsspCand;
    struct Layers {
        const SwitchIdx *bfs;
        const std::uint8_t *hops;
        const std::uint32_t *cand_off;  // per bfs entry, plus one: ranges of cand
        const Cand *cand;
        std::uint32_t m;        // switches reached
        std::uint32_t max_hop;  // hops to the outermost layer
        std::uint32_t inner;    // switches less than max_hop hops away (a prefix of bfs)
        std::uint32_t mid;      // switches less than max_hop - 1 hops away (a prefix of inner)
        std::uint32_t end;      // where the layered pass stops: m, or inner if wide (decide_outer)
    };
    std::vector<SwitchIdx> bfs_of(n);
    std::vector<std::uint8_t> hops_of(n);
    std::vector<std::uint32_t> cand_off_of(n + 1);
    std::vector<Cand> cand_of(off[n] + 1);  // (one spare entry for the BFS's blind write)
    SwitchIdx layers_at = kNoSwitch;        // whose layers the arrays hold
    Layers lay{bfs_of.data(), hops_of.data(), cand_off_of.data(), cand_of.data(), 0, 0, 0, 0, 0};
    std::vector<std::uint32_t> hop(n);
    // Per link, the reverse link and the peer in one entry: one stream for the BFS to read.
    std::vector<SsspCand> peer_rev(off[n]);
    for (std::uint32_t e = 0; e < off[n]; ++e) peer_rev[e] = {reverse[e], peer_of[e]};
    auto layers_of = [&](SwitchIdx d) -> const Layers & {
        if (layers_at == d) return lay;
        layers_at = d;
        constexpr std::uint32_t kUnseen = ~std::uint32_t{0};
        std::fill(hop.begin(), hop.end(), kUnseen);
        const SwitchIdx *bfs = bfs_of.data();
        const std::uint32_t *hv = hop.data();
        const std::uint32_t tail = layers_bfs(d, off.data(), peer_rev.data(), hop.data(), bfs_of.data(),
                                              cand_off_of.data(), cand_of.data());
        const std::uint32_t *cand_off = cand_off_of.data();
        const std::uint32_t nc = cand_off[tail];
        std::uint8_t *hops = hops_of.data();
        lay.m = tail;
        lay.max_hop = hv[bfs[tail - 1]];
        lay.inner = tail;
        while (lay.inner > 0 && hv[bfs[lay.inner - 1]] == lay.max_hop) --lay.inner;
        lay.mid = lay.inner;
        while (lay.mid > 0 && hv[bfs[lay.mid - 1]] + 1 == lay.max_hop) --lay.mid;
        // A wide outermost layer (see wide()) behind a small replay is always decided after
        // one: most LIDs tie there anyway (every spine of a tree is a candidate), and the replay
        // and decide_outer's early finish cost less than the layered pass over all its
        // candidates even where none tie. The replay's cost: the links of the switches before
        // mid, and a few queue steps per inner switch.
        const std::uint32_t outer = tail - lay.inner, outer_cands = nc - cand_off[lay.inner];
        lay.end = tail;
        if (wide(outer, outer_cands)) {
            std::uint64_t replay_cost = 6 * std::uint64_t{lay.inner};
            for (std::uint32_t k = 0; k < lay.mid; ++k) replay_cost += off[bfs[k] + 1] - off[bfs[k]];
            if (replay_cost < outer_cands) lay.end = lay.inner;
        }
        for (std::uint32_t k = 0; k < tail; ++k)
            hops[k] = static_cast<std::uint8_t>(std::min<std::uint32_t>(hv[bfs[k]], kInfHops - 2u));
        return lay;
    };
    std::vector<std::uint64_t> dkey(n);  // last inner layer: cost << 32 | rank
    // Per switch, the least weight of the links into it and how many links have it, kept
    // from the first time it is in a wide outermost layer on (see decide_outer); weights only
    // grow, so a bound that lags is still a lower bound. Untracked switches (kUntracked, which
    // no weight equals) cost commit nothing: on trees the spines until their own LIDs, last.
    constexpr std::uint64_t kUntracked = ~std::uint64_t{0};
    std::vector<std::uint64_t> lb_in(n, kUntracked);
    std::vector<std::uint32_t> lb_count(n);
    bool track_lb = false;
    auto refresh_lb = [&](SwitchIdx x) {
        std::uint64_t lo = ~std::uint64_t{0};
        std::uint32_t count = 0;
        for (std::uint32_t e = off[x]; e < off[x + 1]; ++e) {
            const std::uint64_t w = weight[reverse[e]];
            count = w < lo ? 1 : count + (w == lo);
            lo = std::min(lo, w);
        }
        lb_in[x] = lo, lb_count[x] = count;
    };
    // An outermost switch's least cost so far while decide_outer's wide path has it open, else 0.
    std::vector<std::uint64_t> open_best(n, 0);

    // OpenSM's Dijkstra, step for step: every switch enters the queue unreached in switch
    // order, the destination (switch, or CA as vertex n) is lowered to 0, and each switch taken
    // from the queue relaxes its links in port order, a strictly cheaper cost replacing. (A
    // switch already taken has a cost no higher than the current one, and every link costs at
    // least 1, so it is never replaced: no need to mark them.) Used when routes may not stay
    // minimal (see `layered`).
    auto dijkstra = [&](const LidTarget &tg) {
        heap.assign(adj, n + 1, kInf);
        for (SwitchIdx s : adj) dist[s] = kInf, used[s] = kNoLink;
        const std::uint32_t src = tg.is_switch ? tg.sw : static_cast<std::uint32_t>(n);
        if (!tg.is_switch) heap.push(src, kInf);
        dist[src] = 0, used[src] = kNoLink, len[src] = 0;
        heap.set_key(src, 0);
        settled.clear();
        for (std::uint32_t cur = heap.pop(); cur != SsspHeap::kNone; cur = heap.pop()) {
            if (cur == n) {  // the CA: its one link, to its switch
                const SwitchIdx x = tg.sw;
                if (1 < dist[x]) dist[x] = 1, used[x] = kCaLink, heap.set_key(x, 1);
                continue;
            }
            if (used[cur] != kNoLink)
                len[cur] = static_cast<std::uint8_t>(std::min<unsigned>(
                    (used[cur] == kCaLink ? 0u : len[from[used[cur]]]) + 1u, kInfHops - 1u));
            settled.push_back(cur);
            const std::uint64_t d = dist[cur];
            for (std::uint32_t i = off[cur], ie = off[cur + 1]; i != ie; ++i) {
                const SwitchIdx x = peer_of[i];
                const std::uint64_t nd = d + weight[i];
                if (nd < dist[x]) dist[x] = nd, used[x] = i, heap.set_key(x, nd);
            }
        }
    };

    // The outermost layer from bfs[first] on, after a replay: what relaxing the last inner
    // layer's links in the order its switches left the queue would give, i.e. the least
    // (cost, rank of the closer switch, link) over each switch's candidates. Costs stay below
    // 2^31, so one word holds cost << 32 | rank; equal words mean one closer switch, whose
    // lowest port wins.
    auto decide_outer = [&](const Layers &L, std::uint32_t first) {
        const SwitchIdx *bfs = L.bfs;
        const Cand *cand = L.cand;
        const std::uint32_t *cand_off = L.cand_off;
        const std::uint64_t *wv = weight.data();
        // Wide layers: OpenSM's own relaxation of the last inner layer's links in pop order,
        // where each switch's costs are no lower than the ones before: an outermost switch is
        // settled once its best cost is at most the current cost plus the least weight into it
        // (a later one can at best tie, and ties keep the earlier). On a balanced tree that is
        // after a few of its many closer switches. Narrow layers keep the word per candidate.
        if (wide(L.m - first, cand_off[L.m] - cand_off[first])) {
            track_lb = true;
            for (std::uint32_t k = first; k < L.m; ++k) {
                const SwitchIdx x = bfs[k];
                open_best[x] = ~std::uint64_t{0};
                if (lb_in[x] == kUntracked) refresh_lb(x);
            }
            std::uint32_t open = L.m - first;
            const SwitchIdx *pv = peer_of.data();
            std::uint64_t *ob = open_best.data();
            for (std::uint32_t r = L.mid; r < L.inner && open != 0; ++r) {
                const SwitchIdx y = heap.pop();
                const std::uint64_t dy = dist[y];
                for (std::uint32_t i = off[y], ie = off[y + 1]; i != ie; ++i) {
                    const SwitchIdx x = pv[i];
                    std::uint64_t b = ob[x];
                    if (b == 0) continue;
                    const std::uint64_t cost = dy + wv[i];
                    if (cost < b) b = cost, used[x] = i;
                    if (b <= dy + lb_in[x]) b = 0, --open;
                    ob[x] = b;
                }
            }
            if (open != 0)
                for (std::uint32_t k = first; k < L.m; ++k) ob[bfs[k]] = 0;
            return;
        }
        for (std::uint32_t r = L.mid; r < L.inner; ++r) {  // the last inner layer, in pop order
            const SwitchIdx y = heap.pop();
            dkey[y] = dist[y] << 32 | r;
        }
        outer_choice_scalar(bfs, cand_off, cand, first, L.m, dkey.data(), wv, used.data());
    };

    // The same Dijkstra where routes are known to stay minimal (layers L), for the inner layers
    // only: every switch of a layer costs less than every switch of the next, so only the links
    // one hop further out can replace anything: a switch's links back or within its layer lead
    // to switches whose costs are final and lower, and fail the strict test as in OpenSM
    // (cheaper than listing the outward links per destination). The outermost layer
    // needs no queue updates: its switches leave the queue last and relax nothing, and their
    // keys, once set, exceed every key of the inner layers, so lowering them only reorders them
    // among larger keys and never changes where an inner switch sits or when it leaves. So the
    // links into it are not relaxed here at all: the queue stops once the inner layers (and
    // the CA) are out, with used[] final for the inner switches, and even then only up to the
    // last inner layer: decide_outer takes those from the queue as it needs them (their order
    // decides the outermost layer; they relax nothing in the queue).
    // `pops` switches (a prefix of bfs: whole layers before the last inner one) leave the queue
    // and relax their links, which reach no further than bfs[reset - 1].
    auto replay = [&](const LidTarget &tg, const Layers &L, std::uint32_t pops, std::uint32_t reset) {
        heap = heap0;
        for (std::uint32_t k = 0; k < reset; ++k) dist[L.bfs[k]] = kInf;
        const std::uint32_t src = tg.is_switch ? tg.sw : static_cast<std::uint32_t>(n);
        dist[src] = 0;
        if (tg.is_switch)
            heap.lower_key(src, 0);
        else
            heap.push(src, 0);  // as pushing it unreached and lowering it to 0
        const std::uint32_t *ov = off.data();
        std::uint64_t *dv = dist.data();
        std::uint32_t *uv = used.data();  // (held here: else reloaded through the closure)
        const std::uint64_t *wv = weight.data();
        const SwitchIdx *pv = peer_of.data();
        if (!tg.is_switch) {  // the CA (alone at key 0, so first out): its one link, to its switch
            heap.pop();
            dv[tg.sw] = 1, heap.lower_key(tg.sw, 1);
        }
        for (std::size_t left = pops; left > 0; --left) {
            const std::uint32_t cur = heap.pop();
            const std::uint64_t d = dv[cur];
            for (std::size_t i = ov[cur], ie = ov[cur + 1]; i != ie; ++i) {
                const SwitchIdx x = pv[i];
                const std::uint64_t nd = d + wv[i];
                if (nd < dv[x]) dv[x] = nd, uv[x] = static_cast<std::uint32_t>(i), heap.lower_key(x, nd);
            }
        }
    };

    // While no link's load reaches P^2 / (longest route), a route one hop longer always costs
    // more than any minimal one, so switch x's choice is the cheapest link from a switch one
    // hop closer: of equal ones, the first in port order of the switch that leaves the queue
    // first, and that is the closer switch (lower cost) unless two have the same cost. Only
    // then does the queue's internal order decide (`replay`). When costs could exceed that bound
    // or reach OpenSM's infinity, the full Dijkstra runs.
    std::uint64_t max_extra = 0;
    std::vector<PortNum *> lft_row(n);
    std::vector<std::uint8_t *> hops_row(n);
    for (SwitchIdx s = 0; s < n; ++s) lft_row[s] = t.lft[s].data(), hops_row[s] = t.hops[s].data();
    // Forwarding entries and route lengths of LID `lid` from used[] over layers L, and the
    // load: each switch sends one route per LID it has, summed down the tree (children before
    // parents: reverse BFS order). carried[] is zero outside this pass.
    auto commit = [&]<bool kTrack>(Lid lid, const LidTarget &tg, const Layers &L) {
        const std::uint8_t base = tg.is_switch ? 0 : 1;
        lft_row[tg.sw][lid] = tg.port;
        hops_row[tg.sw][lid] = base;
        std::uint64_t *cv = carried.data(), *wv = weight.data();
        std::uint64_t top = p2 + max_extra;
        for (std::size_t k = L.m - 1; k >= 1; --k) {
            const SwitchIdx x = L.bfs[k];
            const std::uint32_t i = used[x];
            lft_row[x][lid] = peer_port_of[i];
            hops_row[x][lid] = static_cast<std::uint8_t>(L.hops[k] + base);
            const std::uint64_t c = cv[x] + lids_at[x];
            cv[x] = 0;
            const std::uint64_t was = wv[i];
            top = std::max(top, wv[i] = was + c);
            cv[from[i]] += c;
            if constexpr (kTrack)
                if (was == lb_in[x] && --lb_count[x] == 0) refresh_lb(x);
        }
        cv[tg.sw] = 0;
        max_extra = top - p2;
    };
    // Whether routes to a destination over layers L are sure to stay minimal (see above).
    auto minimal = [&](const Layers &L) {
        if (L.max_hop != 0 && max_extra > (p2 - 1) / L.max_hop) return false;
        return (std::uint64_t{L.max_hop} + 1) * (p2 + max_extra) + 1 < kInf;
    };
    // Sets dist[] and used[] for the LID's switches over layers L up to L.end; returns where the
    // first tie is (L.end: none; L.m: all done) and sets last_tie to the last one. A tie leaves
    // costs as they are (only the link is in doubt), so the pass goes on past it.
    constexpr std::uint32_t kNoTie = ~std::uint32_t{0};
    std::uint32_t last_tie = 0;
    auto layered = [&](const Layers &L) -> std::uint32_t {
        std::uint32_t first_tie = kNoTie;
        const std::size_t m = L.end;
        const auto *cand = L.cand;
        const std::uint32_t *cand_off = L.cand_off;
        const SwitchIdx *bfs = L.bfs;
        std::uint64_t *dv = dist.data();
        const std::uint64_t *wv = weight.data();
        dv[bfs[0]] = 0;
        for (std::size_t k = 1; k < m; ++k) {
            // Each candidate as one word, link | peer << 32, and its order key cost << 32 |
            // the peer's cost: the least key wins, and equal keys from two peers tie. The
            // least key is kept with conditional moves (as a branch, cost against cost, it was
            // mispredicted about every third candidate); equal keys are rare enough to branch.
            static_assert(std::endian::native == std::endian::little);  // link in the low half
            const auto *c = cand + cand_off[k], *ce = cand + cand_off[k + 1];
            std::uint64_t sel = std::bit_cast<std::uint64_t>(*c);
            std::uint64_t bk = (dv[sel >> 32] + wv[static_cast<std::uint32_t>(sel)]) << 32 | dv[sel >> 32];
            std::uint64_t tie = 0;
            for (++c; c < ce; ++c) {
                const std::uint64_t e = std::bit_cast<std::uint64_t>(*c), dy = dv[e >> 32];
                const std::uint64_t key = (dy + wv[static_cast<std::uint32_t>(e)]) << 32 | dy;
                if (key == bk) [[unlikely]] {
                    // Parallel links from one peer: the lowest wins (on a tie any may stand,
                    // the replay decides).
                    tie |= (e ^ sel) >> 32;
                    if (static_cast<std::uint32_t>(e) < static_cast<std::uint32_t>(sel)) sel = e;
                }
                const bool lt = key < bk;
                bk = lt ? key : bk;
                sel = lt ? e : sel;
                tie = lt ? 0 : tie;
            }
            const std::uint64_t best = bk >> 32;
            const auto via = static_cast<std::uint32_t>(sel);
            if (tie) [[unlikely]] {
                if (first_tie == kNoTie) {
                    first_tie = static_cast<std::uint32_t>(k);
                    // From the last inner layer on, no replay can stop short of it: stop here.
                    if (L.hops[k] + 1u >= L.max_hop) {
                        last_tie = L.m - 1;
                        return first_tie;
                    }
                }
                last_tie = static_cast<std::uint32_t>(k);
            }
            dv[bfs[k]] = best, used[bfs[k]] = via;
        }
        return first_tie == kNoTie ? L.end : first_tie;
    };

    std::size_t done_lids = 0;
    for (Lid lid : order) {
        const LidTarget &tg = g.target(lid);
        const Layers v = layers_of(tg.sw);
        if (minimal(v)) {
            const std::uint32_t tie = layered(v);
            if (tie < v.m) {
                // (last_tie is this LID's only when tie < v.end.)
                if (tie < v.end && v.end == v.m && v.max_hop < kInfHops - 2u &&
                    v.hops[last_tie] < v.max_hop) {
                    const std::uint8_t hl = v.hops[last_tie];
                    // The ties end before the outermost layer: the queue only as far as the
                    // layer before the last one, whose order decides it; the layers after it
                    // keep the layered choices.
                    std::uint32_t pops = last_tie, reset = last_tie;
                    while (v.hops[pops - 1] == hl) --pops;
                    while (v.hops[reset] == hl) ++reset;
                    replay(tg, v, pops, reset);
                } else {
                    replay(tg, v, v.mid, v.inner);
                    decide_outer(v, std::max(tie, v.inner));
                }
            }
            if (track_lb)
                commit.operator()<true>(lid, tg, v);
            else
                commit.operator()<false>(lid, tg, v);
            if (progress && (++done_lids % 256 == 0)) progress(done_lids, order.size());
            continue;
        }
        dijkstra(tg);
        for (SwitchIdx s : settled) {
            if (s == tg.sw && tg.is_switch) {
                lft_row[s][lid] = 0;
                hops_row[s][lid] = 0;
            } else if (used[s] != kNoLink) {
                lft_row[s][lid] = used[s] == kCaLink ? tg.port : peer_port_of[used[s]];
                hops_row[s][lid] = len[s];
            }
        }
        for (SwitchIdx s : settled) carried[s] = lids_at[s];
        for (auto it = settled.rbegin(); it != settled.rend(); ++it) {
            const SwitchIdx s = *it;
            const std::uint32_t i = used[s];
            if (i == kNoLink || i == kCaLink) continue;
            weight[i] += carried[s];
            max_extra = std::max(max_extra, weight[i] - p2);
            carried[from[i]] += carried[s];
        }
        for (SwitchIdx s : settled) carried[s] = 0;
        if (track_lb)  // its loads bypassed the bounds' counts
            for (SwitchIdx s = 0; s < n; ++s)
                if (lb_in[s] != kUntracked) refresh_lb(s);
        if (progress && (++done_lids % 256 == 0)) progress(done_lids, order.size());
    }
}

}  // namespace weft::routing::engines
