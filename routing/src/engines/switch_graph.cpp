#include "engines/switch_graph.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace weft::routing::engines {

[[gnu::hot]] SwitchGraph::SwitchGraph(const Fabric &f) {
    const std::size_t n = f.switch_count();
    assign_filled(begin_, n + 1, std::uint32_t{0});
    assign_filled(end_ports_, n, std::uint32_t{0});
    std::size_t radix_sum = 0;
    for (SwitchIdx s = 0; s < n; ++s) radix_sum += f.node(f.switch_node(s)).num_ports;
    links_.reserve(radix_sum);
    for (SwitchIdx s = 0; s < n; ++s) {
        const NodeIdx node = f.switch_node(s);
        const auto ports = f.ports(node);
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &x = ports[p];
            if (!x.linked() || x.peer == node) continue;  // loopback cables carry no routes
            const Node &peer = f.node(x.peer);
            if (peer.is_switch()) {
                links_.push_back({p, x.peer_port, peer.sw});
            } else if (f.port(x.peer, x.peer_port).lid != 0) {
                ++end_ports_[s];
            }
        }
        begin_[s + 1] = static_cast<std::uint32_t>(links_.size());
    }
    assign_filled(targets_, std::size_t{f.max_lid()} + 1, LidTarget{});
    for (Lid l = 1; l <= f.max_lid(); ++l) {
        auto o = f.lid_owner(l);
        if (!o) continue;
        LidTarget &t = targets_[l];
        t.node = o->node;
        t.node_port = o->port;
        const Node &owner = f.node(o->node);
        if (owner.is_switch()) {
            t.sw = owner.sw;
            t.is_switch = true;
            continue;
        }
        const Port &x = f.port(o->node, o->port);
        if (!x.linked() || !f.node(x.peer).is_switch()) continue;
        t.sw = f.node(x.peer).sw;
        t.port = x.peer_port;
    }
}

namespace {

[[gnu::hot]] void min_hops_by_bitsets(const SwitchGraph &g, HopMatrix &m) {
    // BFS from each destination, a level at a time on bitsets: the next level is the union of
    // the neighbour sets of the current one minus what was reached. The same distances as the
    // queue BFS, with n/64 words of work per reached switch instead of a step per link.
    const std::size_t n = g.size();
    const std::size_t words = (n + 63) / 64;
    std::vector<std::uint64_t> adj(n * words, 0);
    for (SwitchIdx u = 0; u < n; ++u)
        for (const SwitchLink &l : g.links(u))
            adj[u * words + l.peer / 64] |= std::uint64_t{1} << (l.peer % 64);
    std::vector<std::uint64_t> bufs(3 * words);
    std::uint64_t *seen = bufs.data(), *level = seen + words, *next = level + words;
    const std::uint64_t *const rows = adj.data();
    std::uint8_t *const v = m.v.data();
    for (SwitchIdx d = 0; d < n; ++d) {
        std::fill(seen, seen + words, 0);
        std::fill(level, level + words, 0);
        seen[d / 64] = level[d / 64] = std::uint64_t{1} << (d % 64);
        v[std::size_t{d} * m.stride + d] = 0;
        for (unsigned hops = 1; hops < kInfHops; ++hops) {
            std::fill(next, next + words, 0);
            for (std::size_t w = 0; w < words; ++w)
                for (std::uint64_t bits = level[w]; bits; bits &= bits - 1) {
                    const std::uint64_t *a =
                        rows + (w * 64 + static_cast<unsigned>(std::countr_zero(bits))) * words;
                    for (std::size_t x = 0; x < words; ++x) next[x] |= a[x];
                }
            bool any = false;
            for (std::size_t w = 0; w < words; ++w) {
                next[w] &= ~seen[w];
                seen[w] |= next[w];
                any |= next[w] != 0;
                for (std::uint64_t bits = next[w]; bits; bits &= bits - 1)
                    v[(w * 64 + static_cast<unsigned>(std::countr_zero(bits))) * m.stride + d] =
                        static_cast<std::uint8_t>(hops);
            }
            if (!any) break;
            std::swap(level, next);
        }
    }
}

[[gnu::hot]] void min_hops_by_word(const SwitchGraph &g, HopMatrix &m) {
    // min_hops_by_bitsets for up to 64 switches: each set is one word, so a level is a few ORs.
    const std::size_t n = g.size();
    std::uint64_t adj[64] = {};
    for (SwitchIdx u = 0; u < n; ++u)
        for (const SwitchLink &l : g.links(u)) adj[u] |= std::uint64_t{1} << l.peer;
    for (SwitchIdx d = 0; d < n; ++d) {
        // Row d: links are symmetric, so hops from d to x are hops from x to d.
        std::uint8_t *const v = m.v.data() + std::size_t{d} * m.stride;
        std::uint64_t seen = std::uint64_t{1} << d, level = seen;
        v[d] = 0;
        for (unsigned hops = 1; hops < kInfHops; ++hops) {
            std::uint64_t next = 0;
            for (std::uint64_t bits = level; bits; bits &= bits - 1)
                next |= adj[static_cast<unsigned>(std::countr_zero(bits))];
            next &= ~seen;
            if (!next) break;
            seen |= next;
            for (std::uint64_t bits = next; bits; bits &= bits - 1)
                v[std::countr_zero(bits)] = static_cast<std::uint8_t>(hops);
            level = next;
        }
    }
}

[[gnu::hot]] void min_hops_by_queue(const SwitchGraph &g, HopMatrix &m) {
    const std::size_t n = g.size();
    std::vector<SwitchIdx> queue(n);
    std::vector<std::uint8_t> dist(n);
    for (SwitchIdx d = 0; d < n; ++d) {
        std::fill(dist.begin(), dist.end(), kInfHops);
        dist[d] = 0;
        std::size_t head = 0, tail = 0;
        queue[tail++] = d;
        while (head < tail) {
            const SwitchIdx u = queue[head++];
            const std::uint8_t next = static_cast<std::uint8_t>(dist[u] + 1);
            if (next == kInfHops) continue;
            for (const SwitchLink &l : g.links(u))
                if (dist[l.peer] == kInfHops) dist[l.peer] = next, queue[tail++] = l.peer;
        }
        for (SwitchIdx s = 0; s < n; ++s) m.at(s, d) = dist[s];
    }
}

}  // namespace

[[gnu::hot]] HopMatrix switch_min_hops(const SwitchGraph &g, std::size_t row_stride) {
    // Links are symmetric (both ends active), so a BFS from d gives hops *to* d. Bitsets win
    // while a switch's neighbour set (n/64 words) is not much longer than its link list.
    HopMatrix m;
    const std::size_t n = g.size();
    m.assign(n, row_stride);
    if (n == 0) return m;
    const std::size_t words = (n + 63) / 64;
    std::size_t total = 0;
    for (SwitchIdx u = 0; u < n; ++u) total += g.links(u).size();
    if (words == 1)
        min_hops_by_word(g, m);
    else if (words <= 2 * (total / n + 1))
        min_hops_by_bitsets(g, m);
    else
        min_hops_by_queue(g, m);
    return m;
}

[[gnu::hot]] void fill_lid_hops(const SwitchGraph &g, const HopMatrix &m, RoutingTables &t) {
    const std::size_t n = g.size();
    // Per LID an index into a per-switch table: d for switch d's own LID, n + d for a CA on
    // switch d (one hop more), 2n for an unrouted LID. Each row is then one table lookup per
    // LID, with no branch; the table is the switch's matrix row twice, the second copy + 1.
    const Lid max = g.max_lid();
    std::vector<std::uint32_t> code(std::size_t{max} + 1, static_cast<std::uint32_t>(2 * n));
    for (Lid l = 1; l <= max; ++l) {
        const LidTarget &tg = g.target(l);
        if (tg.sw != kNoSwitch) code[l] = tg.sw + (tg.is_switch ? 0 : static_cast<std::uint32_t>(n));
    }
    const std::size_t chunks = (n + 15) / 16;
    std::vector<std::uint8_t> tab(2 * n + 16, kInfHops);  // + 16: room for the last chunk's spill
    const std::uint32_t *const c = code.data();
    std::uint8_t *const tb = tab.data();
    for (SwitchIdx s = 0; s < n; ++s) {
        const std::uint8_t *const dist = m.row(s);
        std::memcpy(tb, dist, n);
        // One more hop, saturating at kInfHops (the whole chunk: what lands past 2n is rewritten).
        for (std::size_t b = 0; b + 1 < chunks; ++b) {
            detail::Bytes16 x;
            std::memcpy(&x, dist + b * 16, 16);
            const detail::Bytes16 r = (x + 1) | reinterpret_cast<detail::Bytes16>(x == kInfHops);
            std::memcpy(tb + n + b * 16, &r, 16);
        }
        for (std::size_t d = (chunks - 1) * 16; d < n; ++d)
            tb[n + d] = dist[d] == kInfHops ? kInfHops : static_cast<std::uint8_t>(dist[d] + 1);
        tb[2 * n] = kInfHops;
        std::uint8_t *const row = t.hops[s].data();
        Lid l = 1;
        for (; l + 3 <= max; l += 4) {  // unrolled: the loop is a few instructions per LID
            const std::uint8_t a = tb[c[l]], b = tb[c[l + 1]], x = tb[c[l + 2]], y = tb[c[l + 3]];
            row[l] = a, row[l + 1] = b, row[l + 2] = x, row[l + 3] = y;
        }
        for (; l <= max; ++l) row[l] = tb[c[l]];
    }
}

}  // namespace weft::routing::engines
