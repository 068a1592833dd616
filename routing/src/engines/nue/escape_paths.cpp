#include "engines/nue/escape_paths.hpp"

#include <algorithm>
#include <stdexcept>

namespace weft::routing::engines::nue {

ShortestPaths::From ShortestPaths::from(SwitchIdx s) {
    Search &r = from_[s];
    if (r.order.empty()) {
        const std::size_t n = g_.size();
        r.dist.assign(n, kFar);
        r.sigma.assign(n, 0.0);
        r.order.assign(1, s);
        r.dist[s] = 0;
        r.sigma[s] = 1;
        for (std::size_t i = 0; i < r.order.size(); ++i) {
            const SwitchIdx v = r.order[i];
            for (const SwitchLink &l : g_.links(v)) {
                if (r.dist[l.peer] == kFar) r.dist[l.peer] = r.dist[v] + 1, r.order.push_back(l.peer);
                if (r.dist[l.peer] == r.dist[v] + 1) r.sigma[l.peer] += r.sigma[v];
            }
        }
    }
    return {r.dist.data(), r.sigma.data(), r.order.data(), r.order.size()};
}

SwitchIdx central_node(const SwitchGraph &g, const std::vector<SwitchIdx> &members, ShortestPaths &paths) {
    const std::size_t n = g.size();
    std::vector<double> between(n, 0.0), delta(n);
    std::vector<std::uint64_t> distance_sum(n, 0);
    std::vector<std::uint8_t> member(n, 0);
    for (SwitchIdx m : members) member[m] = 1;
    for (SwitchIdx s : members) {
        // Shortest paths counted from s (sigma), then dependencies accumulated in reverse BFS
        // order with only member targets contributing.
        const ShortestPaths::From p = paths.from(s);
        std::fill(delta.begin(), delta.end(), 0.0);
        for (std::size_t i = p.reached; i-- > 0;) {
            const SwitchIdx w = p.order[i];
            const double carry = (member[w] && w != s ? 1.0 : 0.0) + delta[w];
            for (const SwitchLink &l : g.links(w))
                if (p.dist[l.peer] + 1 == p.dist[w]) delta[l.peer] += p.sigma[l.peer] / p.sigma[w] * carry;
            if (w != s) between[w] += delta[w];
        }
        for (SwitchIdx v = 0; v < n; ++v)  // unreachable: worse than any distance
            distance_sum[v] += p.dist[v] == ShortestPaths::kFar ? n : p.dist[v];
    }
    // Candidates: the convex subgraph (positive centrality: on a shortest member-member path)
    // and the members themselves.
    SwitchIdx best = kNoSwitch;
    for (SwitchIdx v = 0; v < n; ++v) {
        if (!member[v] && between[v] <= 0) continue;
        if (best == kNoSwitch || between[v] > between[best] + 1e-9 ||
            (between[v] >= between[best] - 1e-9 && distance_sum[v] < distance_sum[best]))
            best = v;
    }
    return best == kNoSwitch ? 0 : best;
}

EscapeTree::EscapeTree(const SwitchGraph &g, const Channels &ch, SwitchIdx root) : ch_(ch), root_(root) {
    const std::size_t n = g.size();
    std::vector<ChannelId> parent(n, kNoChannel);  // channel from the parent into the switch
    std::vector<std::uint8_t> in_tree(n, 0);
    level_.assign(n, 0);
    std::vector<std::pair<ChannelId, ChannelId>> edges;  // tree cables, both directions
    std::vector<SwitchIdx> queue;
    auto grow = [&](SwitchIdx start) {
        in_tree[start] = 1;
        queue.assign(1, start);
        for (std::size_t i = 0; i < queue.size(); ++i) {
            const SwitchIdx v = queue[i];
            for (ChannelId c = ch.begin(v); c < ch.end(v); ++c) {
                const SwitchIdx w = ch.head(c);
                if (in_tree[w]) continue;
                in_tree[w] = 1;
                parent[w] = c;
                level_[w] = level_[v] + 1;
                edges.emplace_back(c, ch.reverse(c));
                queue.push_back(w);
            }
        }
    };
    if (n) grow(root);
    for (SwitchIdx s = 0; s < n; ++s)
        if (!in_tree[s]) grow(s);
    tree_off_.assign(n + 1, 0);
    for (auto [a, b] : edges) ++tree_off_[ch.tail(a) + 1], ++tree_off_[ch.tail(b) + 1];
    for (std::size_t s = 0; s < n; ++s) tree_off_[s + 1] += tree_off_[s];
    tree_.resize(tree_off_[n]);
    std::vector<std::uint32_t> fill(tree_off_.begin(), tree_off_.end() - 1);
    for (auto [a, b] : edges) tree_[fill[ch.tail(a)]++] = a, tree_[fill[ch.tail(b)]++] = b;
}

void EscapeTree::toward(SwitchIdx d, std::vector<ChannelId> &next, std::vector<SwitchIdx> &queue) const {
    next.assign(tree_off_.size() - 1, kNoChannel);
    queue.assign(1, d);
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const SwitchIdx v = queue[i];
        for (std::uint32_t k = tree_off_[v]; k < tree_off_[v + 1]; ++k) {
            const SwitchIdx w = ch_.head(tree_[k]);
            if (w == d || next[w] != kNoChannel) continue;
            next[w] = ch_.reverse(tree_[k]);
            queue.push_back(w);
        }
    }
}

void EscapeTree::mark(const std::vector<SwitchIdx> &dest_switches, CompleteCdg &cdg) const {
    std::vector<ChannelId> next;
    std::vector<SwitchIdx> queue;
    for (SwitchIdx d : dest_switches) {
        toward(d, next, queue);
        for (SwitchIdx v = 0; v < next.size(); ++v) {
            if (next[v] == kNoChannel) continue;
            const SwitchIdx w = ch_.head(next[v]);
            if (w == d) continue;
            if (cdg.try_add(next[v], next[w]) == CompleteCdg::Add::Cycle)
                throw std::logic_error("nue: escape paths on a spanning tree closed a dependency cycle");
        }
    }
}

}  // namespace weft::routing::engines::nue
