#include "engines/switch_graph.hpp"

#include <algorithm>
#include <bit>

namespace weft::routing::engines {

SwitchGraph::SwitchGraph(const Fabric &f) {
    const std::size_t n = f.switch_count();
    begin_.assign(n + 1, 0);
    end_ports_.assign(n, 0);
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
    targets_.assign(std::size_t{f.max_lid()} + 1, LidTarget{});
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

void min_hops_by_bitsets(const SwitchGraph &g, HopMatrix &m) {
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

void min_hops_by_queue(const SwitchGraph &g, HopMatrix &m) {
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

HopMatrix switch_min_hops(const SwitchGraph &g, std::size_t row_stride) {
    // Links are symmetric (both ends active), so a BFS from d gives hops *to* d. Bitsets win
    // while a switch's neighbour set (n/64 words) is not much longer than its link list.
    HopMatrix m;
    const std::size_t n = g.size();
    m.assign(n, row_stride);
    if (n == 0) return m;
    const std::size_t words = (n + 63) / 64;
    std::size_t total = 0;
    for (SwitchIdx u = 0; u < n; ++u) total += g.links(u).size();
    if (words <= 2 * (total / n + 1))
        min_hops_by_bitsets(g, m);
    else
        min_hops_by_queue(g, m);
    return m;
}

std::string switch_name(const Fabric &f, SwitchIdx s) {
    const Node &n = f.node(f.switch_node(s));
    return "'" + n.desc + "' (" + guid_text(n.guid) + ")";
}

void fill_lid_hops(const SwitchGraph &g, const HopMatrix &m, RoutingTables &t) {
    const std::size_t n = g.size();
    // Per LID an index into a per-switch table: d for switch d's own LID, n + d for a CA on
    // switch d (one hop more), 2n for an unrouted LID; each row is then one lookup per LID.
    const Lid max = g.max_lid();
    std::vector<std::uint32_t> code(std::size_t{max} + 1, static_cast<std::uint32_t>(2 * n));
    for (Lid l = 1; l <= max; ++l) {
        const LidTarget &tg = g.target(l);
        if (tg.sw != kNoSwitch) code[l] = tg.sw + (tg.is_switch ? 0 : static_cast<std::uint32_t>(n));
    }
    std::vector<std::uint8_t> tab(2 * n + 1, kInfHops);
    for (SwitchIdx s = 0; s < n; ++s) {
        const std::uint8_t *const dist = m.row(s);
        for (std::size_t d = 0; d < n; ++d) {
            tab[d] = dist[d];
            tab[n + d] = dist[d] == kInfHops ? kInfHops : static_cast<std::uint8_t>(dist[d] + 1);
        }
        std::uint8_t *const row = t.hops[s].data();
        for (Lid l = 1; l <= max; ++l) row[l] = tab[code[l]];
    }
}

}  // namespace weft::routing::engines
