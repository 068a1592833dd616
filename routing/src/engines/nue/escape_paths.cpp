#include "engines/nue/escape_paths.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>

#include "engines/nue/osm_heap.hpp"

namespace weft::routing::engines::nue {

namespace {

// The neighbours peer(0..degree-1) of a switch at distance dv that lie one hop nearer the source
// of dist, in that order, into out (room for every neighbour); returns how many. Without branches:
// which neighbours are nearer is a coin toss to the predictor, and Brandes' accumulation then
// divides for those only.
template <typename PeerAt>
std::size_t nearer(std::size_t degree, PeerAt peer, std::uint32_t dv, const std::uint32_t *dist,
                   SwitchIdx *out) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < degree; ++i) {
        const SwitchIdx u = peer(i);
        out[count] = u;
        count += dist[u] + 1 == dv;
    }
    return count;
}

}  // namespace

ShortestPaths::From ShortestPaths::from(SwitchIdx s) {
    Search &r = from_[s];
    if (r.order.empty()) {
        const std::size_t n = g_.size();
        r.dist.assign(n, kFar);
        r.sigma.assign(n, 0.0);
        r.order.reserve(n);  // one allocation, not a doubling per level
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

Centrality centrality_half(const SwitchGraph &g, const std::vector<SwitchIdx> &members, ShortestPaths &paths,
                           unsigned half) {
    const std::size_t n = g.size();
    Centrality c{std::vector<double>(n, 0.0), std::vector<std::uint64_t>(n, 0)};
    std::vector<double> delta(n);
    std::vector<std::uint8_t> member(n, 0);
    for (SwitchIdx m : members) member[m] = 1;
    std::size_t degree = 0;
    for (SwitchIdx v = 0; v < n; ++v) degree = std::max(degree, g.links(v).size());
    std::vector<SwitchIdx> preds(degree);
    for (std::size_t i = half; i < members.size(); i += 2) {
        const SwitchIdx s = members[i];
        // Shortest paths counted from s (sigma), then dependencies accumulated in reverse BFS
        // order with only member targets contributing.
        const ShortestPaths::From p = paths.from(s);
        std::fill(delta.begin(), delta.end(), 0.0);
        for (std::size_t k = p.reached; k-- > 0;) {
            const SwitchIdx w = p.order[k];
            const double carry = (member[w] && w != s ? 1.0 : 0.0) + delta[w];
            const std::span<const SwitchLink> links = g.links(w);
            const std::size_t count = nearer(
                links.size(), [links](std::size_t j) { return links[j].peer; }, p.dist[w], p.dist,
                preds.data());
            for (std::size_t j = 0; j < count; ++j) {
                const SwitchIdx u = preds[j];
                delta[u] += p.sigma[u] / p.sigma[w] * carry;
            }
            if (w != s) c.between[w] += delta[w];
        }
        for (SwitchIdx v = 0; v < n; ++v)  // unreachable: worse than any distance
            c.distance_sum[v] += p.dist[v] == ShortestPaths::kFar ? n : p.dist[v];
    }
    return c;
}

SwitchIdx central_node(const SwitchGraph &g, const std::vector<SwitchIdx> &members, ShortestPaths &paths) {
    return central_node(g, members, centrality_half(g, members, paths, 0),
                        centrality_half(g, members, paths, 1));
}

SwitchIdx central_node(const SwitchGraph &g, const std::vector<SwitchIdx> &members, Centrality a,
                       const Centrality &b) {
    const std::size_t n = g.size();
    std::vector<double> &between = a.between;
    std::vector<std::uint64_t> &distance_sum = a.distance_sum;
    for (SwitchIdx v = 0; v < n; ++v) between[v] += b.between[v], distance_sum[v] += b.distance_sum[v];
    std::vector<std::uint8_t> member(n, 0);
    for (SwitchIdx m : members) member[m] = 1;
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
                queue.push_back(w);
            }
        }
    };
    if (n) grow(root);
    for (SwitchIdx s = 0; s < n; ++s)
        if (!in_tree[s]) grow(s);
    build(parent);
}

EscapeTree::EscapeTree(const Channels &ch, SwitchIdx root, const std::vector<ChannelId> &parent)
    : ch_(ch), root_(root) {
    build(parent);
}

EscapeTree EscapeTree::osm(const Channels &ch, SwitchIdx root, const std::vector<SwitchIdx> &node_order,
                           const std::vector<std::uint64_t> &in_weight) {
    const std::size_t n = ch.switches();
    constexpr std::uint64_t kFar = ~std::uint64_t{0};
    std::vector<std::uint64_t> dist(n, kFar);
    std::vector<ChannelId> parent(n, kNoChannel);
    // OpenSM puts every switch in the heap first, unreached, then lowers the root's key.
    OsmHeap heap(n);
    for (const SwitchIdx s : node_order) heap.insert(s, kFar);
    dist[root] = 0;
    heap.change(root, 0);
    while (!heap.empty()) {
        const SwitchIdx v = heap.pop();
        if (dist[v] == kFar) continue;  // another component: no tree edge into it
        for (ChannelId c = ch.begin(v); c < ch.end(v); ++c) {
            const SwitchIdx w = ch.head(c);
            const std::uint64_t nd = dist[v] + in_weight[c];
            if (nd < dist[w]) {
                dist[w] = nd;
                parent[w] = c;
                heap.change(w, nd);
            }
        }
    }
    return EscapeTree(ch, root, parent);
}

void EscapeTree::build(const std::vector<ChannelId> &parent) {
    const std::size_t n = parent.size();
    parent_ = parent;
    // Levels: a switch's parent may come later in the index order, so walk up to a known one.
    constexpr std::uint32_t kUnknown = ~std::uint32_t{0};
    level_.assign(n, kUnknown);
    std::vector<SwitchIdx> path;
    for (SwitchIdx s = 0; s < n; ++s) {
        SwitchIdx x = s;
        path.clear();
        while (level_[x] == kUnknown && parent[x] != kNoChannel) path.push_back(x), x = ch_.tail(parent[x]);
        if (level_[x] == kUnknown) level_[x] = 0;  // a root
        for (auto it = path.rbegin(); it != path.rend(); ++it) level_[*it] = level_[x] + 1, x = *it;
    }
    // Switches by level: a stable counting sort.
    std::vector<std::uint32_t> start(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) ++start[level_[s] + 1];
    for (std::size_t l = 0; l < n; ++l) start[l + 1] += start[l];
    by_level_.resize(n);
    for (SwitchIdx s = 0; s < n; ++s) by_level_[start[level_[s]]++] = s;
    tree_off_.assign(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s)
        if (parent[s] != kNoChannel) ++tree_off_[ch_.tail(parent[s]) + 1], ++tree_off_[s + 1];
    for (std::size_t s = 0; s < n; ++s) tree_off_[s + 1] += tree_off_[s];
    tree_.resize(tree_off_[n]);
    std::vector<std::uint32_t> fill(tree_off_.begin(), tree_off_.end() - 1);
    // Any order of a switch's tree channels gives the same routes: a tree has one path between
    // two switches.
    for (SwitchIdx s = 0; s < n; ++s) {
        const ChannelId c = parent[s];
        if (c == kNoChannel) continue;
        tree_[fill[ch_.tail(c)]++] = c;
        tree_[fill[s]++] = ch_.reverse(c);
    }
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
    // The tree route from a toward d turns at w from a -> w into w -> b exactly when d lies
    // beyond b (in b's part of the tree without w). So each turn between two tree channels at w
    // is used iff a destination lies beyond its second one: one pass over member counts per
    // subtree instead of a route per destination. Every such turn agrees with the starting order
    // (see CompleteCdg::reset), so the order of the additions cannot matter.
    const std::size_t n = parent_.size();
    std::vector<std::uint32_t> below(n, 0);  // destinations in each switch's subtree
    for (const SwitchIdx d : dest_switches) ++below[d];
    for (std::size_t i = n; i-- > 0;) {  // children before their parents
        const SwitchIdx s = by_level_[i];
        if (parent_[s] != kNoChannel) below[ch_.tail(parent_[s])] += below[s];
    }
    std::vector<std::uint32_t> tree_total(n);  // destinations in each switch's tree of the forest
    for (const SwitchIdx s : by_level_)
        tree_total[s] = parent_[s] == kNoChannel ? below[s] : tree_total[ch_.tail(parent_[s])];
    for (SwitchIdx w = 0; w < n; ++w)
        for (std::uint32_t k = tree_off_[w]; k < tree_off_[w + 1]; ++k) {
            const ChannelId out = tree_[k];
            const SwitchIdx b = ch_.head(out);
            const std::uint32_t beyond = parent_[b] == out ? below[b] : tree_total[w] - below[w];
            if (beyond == 0) continue;
            for (std::uint32_t j = tree_off_[w]; j < tree_off_[w + 1]; ++j)
                if (j != k && cdg.try_add(ch_.reverse(tree_[j]), out) == CompleteCdg::Add::Cycle)
                    throw std::logic_error("nue: escape paths on a spanning tree closed a dependency cycle");
        }
}

void EscapeTree::mark_osm(const std::vector<SwitchIdx> &dest_switches, CompleteCdg &cdg) const {
    const std::size_t n = parent_.size();
    auto use = [&](ChannelId c1, ChannelId c2) {
        if (cdg.try_add(c1, c2) == CompleteCdg::Add::Cycle)
            throw std::logic_error("nue: escape paths on a spanning tree closed a dependency cycle");
    };
    // Up: from each switch x to its parent p and on to p's parent.
    for (SwitchIdx x = 0; x < n; ++x) {
        const ChannelId down = parent_[x];
        if (down == kNoChannel) continue;
        const ChannelId up_next = parent_[ch_.tail(down)];
        if (up_next != kNoChannel) use(ch_.reverse(down), ch_.reverse(up_next));
    }
    // At the root: from each child to each other child.
    for (std::uint32_t i = tree_off_[root_]; i < tree_off_[root_ + 1]; ++i)
        for (std::uint32_t j = tree_off_[root_]; j < tree_off_[root_ + 1]; ++j)
            if (i != j) use(ch_.reverse(tree_[i]), tree_[j]);
    // Down toward each destination switch, below the root.
    for (const SwitchIdx d : dest_switches)
        for (SwitchIdx x = d; parent_[x] != kNoChannel;) {
            const ChannelId down = parent_[x];
            const SwitchIdx p = ch_.tail(down);
            if (parent_[p] == kNoChannel) break;  // p is the root: done above
            use(parent_[p], down);
            for (std::uint32_t k = tree_off_[p]; k < tree_off_[p + 1]; ++k) {
                const ChannelId c = tree_[k];  // out of p: to its parent or a child
                if (c != down && c != ch_.reverse(parent_[p])) use(ch_.reverse(c), down);
            }
            x = p;
        }
}

namespace {

// OpenSM's convex hull of one layer's member switches (see osm_central_nodes).
std::vector<std::uint8_t> osm_hull(const Channels &ch, const std::vector<SwitchIdx> &node_order,
                                   const std::vector<SwitchIdx> &members, ShortestPaths &paths) {
    const std::size_t n = ch.switches();
    std::vector<std::uint8_t> hull(n, 0), processed(n, 0);
    for (const SwitchIdx m : members) hull[m] = 1;
    std::vector<SwitchIdx> queue;
    queue.reserve(n);
    // The hull grows while OpenSM walks it: a switch added behind the one being walked is walked
    // too. Once it holds every switch, walking on adds nothing.
    std::size_t in_hull = 0;
    for (const std::uint8_t h : hull) in_hull += h;
    for (const SwitchIdx a : node_order) {
        if (in_hull == n) break;
        if (!hull[a]) continue;
        const std::uint32_t *const dist = paths.from(a).dist;
        std::fill(processed.begin(), processed.end(), 0);
        processed[a] = 1;
        for (const SwitchIdx b : node_order) {
            if (!hull[b] || processed[b]) continue;
            processed[b] = 1;
            queue.assign(1, b);
            for (std::size_t i = 0; i < queue.size(); ++i) {
                const SwitchIdx v = queue[i];
                for (ChannelId c = ch.begin(v); c < ch.end(v); ++c) {
                    const SwitchIdx u = ch.head(c);
                    if (processed[u] || dist[u] == ShortestPaths::kFar || dist[u] + 1 != dist[v]) continue;
                    in_hull += !hull[u];
                    hull[u] = processed[u] = 1;
                    queue.push_back(u);
                }
            }
        }
    }
    return hull;
}

}  // namespace

std::vector<SwitchIdx> osm_central_nodes(const Channels &ch, const std::vector<SwitchIdx> &node_order,
                                         const std::vector<std::vector<SwitchIdx>> &members,
                                         const std::vector<std::vector<std::uint32_t>> &terminals,
                                         ShortestPaths &paths) {
    const std::size_t n = ch.switches(), layers = members.size();
    constexpr std::uint32_t kFar = ShortestPaths::kFar;
    std::vector<std::vector<std::uint8_t>> hull(layers);
    std::vector<std::size_t> whole, part;  // layers whose hull holds every switch, and the others
    for (std::size_t l = 0; l < layers; ++l) {
        hull[l] = osm_hull(ch, node_order, members[l], paths);
        (std::all_of(hull[l].begin(), hull[l].end(), [](std::uint8_t h) { return h != 0; }) ? whole : part)
            .push_back(l);
    }
    // Brandes' accumulation inside the hull, in OpenSM's arithmetic: every switch is a target,
    // and so is each terminal (as one more target on its switch). OpenSM repeats it for each of
    // the source's terminals, which changes only the source's own delta (it comes last): one
    // pass, then the same additions, in order; each delta[u] takes its shares in the order
    // OpenSM adds them (by v, reverse search order). Hulls of every switch search as the whole
    // graph does: the shared searches serve, and those layers accumulate side by side, each
    // share divided once (path counts are exact in doubles).
    std::vector<std::vector<double>> between(layers, std::vector<double>(n, 0.0));
    std::vector<double> delta(std::max<std::size_t>(whole.size(), 1) * n), own_sigma(n);
    std::vector<std::uint32_t> own_dist(n);
    std::vector<SwitchIdx> queue, preds(ch.max_degree());
    queue.reserve(n);
    // Accumulates from source s into the layers ls (delta holds one row per layer of ls).
    auto accumulate = [&](SwitchIdx s, const std::vector<std::size_t> &ls, const std::uint32_t *dist,
                          const double *sigma, const SwitchIdx *order, std::size_t reached) {
        const std::size_t w = ls.size();
        std::fill(delta.begin(), delta.begin() + w * n, 0.0);
        for (std::size_t i = reached; i-- > 1;) {
            const SwitchIdx v = order[i];
            for (std::size_t j = 0; j < w; ++j)
                for (std::uint32_t k = 0; k < terminals[ls[j]][v]; ++k) delta[j * n + v] += 1.0;
            const SwitchIdx *const heads = ch.heads() + ch.begin(v);
            const std::size_t count = nearer(
                ch.end(v) - ch.begin(v), [heads](std::size_t j) { return heads[j]; }, dist[v], dist,
                preds.data());
            for (std::size_t q = 0; q < count; ++q) {
                const SwitchIdx u = preds[q];
                const double share = (1.0 * sigma[u]) / sigma[v];
                for (std::size_t j = 0; j < w; ++j) delta[j * n + u] += share * (1 + delta[j * n + v]);
            }
            for (std::size_t j = 0; j < w; ++j)
                for (std::uint32_t k = 0; k <= terminals[ls[j]][s]; ++k)
                    between[ls[j]][v] += delta[j * n + v];
        }
        // The source itself counts from the second pass on, with one terminal fewer.
        for (std::size_t j = 0; j < w; ++j) {
            const std::uint32_t t = terminals[ls[j]][s];
            double own = delta[j * n + s];
            for (std::uint32_t k = 1; k < t; ++k) own += 1.0;
            for (std::uint32_t k = 1; k <= t; ++k) between[ls[j]][s] += own;
        }
    };
    std::vector<std::size_t> one(1);
    for (const SwitchIdx s : node_order) {
        if (!whole.empty()) {
            const ShortestPaths::From p = paths.from(s);
            accumulate(s, whole, p.dist, p.sigma, p.order, p.reached);
        }
        for (const std::size_t l : part) {
            if (!hull[l][s]) continue;
            std::fill(own_dist.begin(), own_dist.end(), kFar);
            std::fill(own_sigma.begin(), own_sigma.end(), 0.0);
            own_dist[s] = 0;
            own_sigma[s] = 1;
            queue.assign(1, s);
            for (std::size_t i = 0; i < queue.size(); ++i) {
                const SwitchIdx u = queue[i];
                for (ChannelId c = ch.begin(u); c < ch.end(u); ++c) {
                    const SwitchIdx v = ch.head(c);
                    if (!hull[l][v]) continue;
                    if (own_dist[v] == kFar) own_dist[v] = own_dist[u] + 1, queue.push_back(v);
                    if (own_dist[v] == own_dist[u] + 1) own_sigma[v] += own_sigma[u];
                }
            }
            one[0] = l;
            accumulate(s, one, own_dist.data(), own_sigma.data(), queue.data(), queue.size());
        }
    }
    std::vector<SwitchIdx> roots(layers, 0);
    for (std::size_t l = 0; l < layers; ++l) {
        double most = -1.0;
        for (const SwitchIdx s : node_order)
            if (hull[l][s] && most < between[l][s]) roots[l] = s, most = between[l][s];
    }
    return roots;
}

}  // namespace weft::routing::engines::nue
