// The `auto` routing choice (see weft/routing/auto_choice.hpp for the recognition rules).
#include "weft/routing/auto_choice.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engines/dor_cabling.hpp"
#include "engines/switch_graph.hpp"

namespace weft::routing {
namespace {

// The switch graph as a simple graph: distinct switch neighbours (sorted), hosts per switch.
struct Simple {
    std::vector<std::vector<SwitchIdx>> adj;
    std::vector<unsigned> hosts;
    std::size_t edges = 0;
    std::size_t size() const { return adj.size(); }
    bool linked(SwitchIdx a, SwitchIdx b) const {
        return std::binary_search(adj[a].begin(), adj[a].end(), b);
    }
    // Common neighbours of a and b other than `except`, counted up to `cap`.
    unsigned common(SwitchIdx a, SwitchIdx b, SwitchIdx except, unsigned cap,
                    SwitchIdx *first = nullptr) const {
        unsigned n = 0;
        auto i = adj[a].begin(), j = adj[b].begin();
        while (i != adj[a].end() && j != adj[b].end() && n < cap) {
            if (*i < *j)
                ++i;
            else if (*j < *i)
                ++j;
            else {
                if (*i != except) {
                    if (n == 0 && first) *first = *i;
                    ++n;
                }
                ++i, ++j;
            }
        }
        return n;
    }
};

Simple simple_graph(const Fabric &f) {
    Simple g;
    const std::size_t S = f.switch_count();
    g.adj.resize(S);
    g.hosts.assign(S, 0);
    for (SwitchIdx s = 0; s < S; ++s) {
        const NodeIdx n = f.switch_node(s);
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (!x.linked()) continue;
            const Node &peer = f.node(x.peer);
            if (!peer.is_switch())
                ++g.hosts[s];
            else if (peer.sw != s)
                g.adj[s].push_back(peer.sw);
        }
        auto &a = g.adj[s];
        std::sort(a.begin(), a.end());
        a.erase(std::unique(a.begin(), a.end()), a.end());
        g.edges += a.size();
    }
    g.edges /= 2;
    return g;
}

std::string num(std::size_t v) {
    return std::to_string(v);
}

// ---- fat trees --------------------------------------------------------------------------

struct TreeSeen {
    bool ok = false;
    std::string evidence;
};

TreeSeen recognise_tree(const Fabric &f, const Simple &g, const RoutingOptions &o) {
    TreeSeen out;
    const std::size_t S = g.size();
    std::vector<SwitchIdx> seeds;
    std::string from;
    bool from_roots = false;
    if (!o.root_guids.empty()) {
        for (Guid guid : o.root_guids)
            if (auto n = f.find_guid(guid); n && f.node(*n).is_switch()) seeds.push_back(f.node(*n).sw);
        from = "the " + num(seeds.size()) + " root switches of the root GUID file";
        from_roots = true;
    } else if (!o.cn_guids.empty()) {
        for (Guid guid : o.cn_guids)
            if (auto owner = f.find_port_guid(guid)) {
                const Port &x = f.port(owner->node, owner->port);
                if (x.linked() && f.node(x.peer).is_switch()) seeds.push_back(f.node(x.peer).sw);
            }
        from = "the switches of the compute nodes of the CN GUID file";
    } else {
        for (SwitchIdx s = 0; s < S; ++s)
            if (g.hosts[s]) seeds.push_back(s);
        from = "the host switches";
    }
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    if (seeds.empty() || g.edges == 0) return out;
    std::vector<unsigned> rank(S, ~0u);
    std::queue<SwitchIdx> q;
    for (SwitchIdx s : seeds) rank[s] = 0, q.push(s);
    while (!q.empty()) {
        const SwitchIdx s = q.front();
        q.pop();
        for (SwitchIdx t : g.adj[s])
            if (rank[t] == ~0u) rank[t] = rank[s] + 1, q.push(t);
    }
    unsigned top = 0;
    for (SwitchIdx s = 0; s < S; ++s) {
        if (rank[s] == ~0u) return out;  // not connected to the seeds: not one tree
        top = std::max(top, rank[s]);
    }
    for (SwitchIdx s = 0; s < S; ++s)
        for (SwitchIdx t : g.adj[s])
            if (rank[t] == rank[s]) return out;  // a link inside a level
    // Hosts only on the leaf level (a CN file allows I/O hosts elsewhere; roots seed from the top).
    std::vector<std::size_t> per(top + 1, 0);
    for (SwitchIdx s = 0; s < S; ++s) {
        ++per[rank[s]];
        if (o.cn_guids.empty() && g.hosts[s] && rank[s] != (from_roots ? top : 0)) return out;
    }
    std::string levels;
    for (unsigned r = 0; r <= top; ++r) levels += (r ? "/" : "") + num(per[from_roots ? top - r : r]);
    out.ok = true;
    out.evidence = num(top + 1) + " levels of " + levels + " switches (leaves first) ranked from " + from +
                   ", every one of the " + num(g.edges) + " switch links joins adjacent levels";
    return out;
}

// ---- tori, meshes, hypercubes -----------------------------------------------------------

struct UnionFind {
    std::vector<std::uint32_t> up;
    explicit UnionFind(std::size_t n) : up(n) { std::iota(up.begin(), up.end(), 0u); }
    std::uint32_t find(std::uint32_t x) {
        while (up[x] != x) x = up[x] = up[up[x]];
        return x;
    }
    void join(std::uint32_t a, std::uint32_t b) { up[find(a)] = find(b); }
};

struct GridSeen {
    bool ok = false;
    bool rings = false, all_radix2 = false;
    bool complete = false;  // no position empty, no link missing
    std::string dims, evidence, why_not;
};

GridSeen recognise_grid(const Simple &g) {
    GridSeen out;
    auto no = [&](std::string why) {
        out.why_not = std::move(why);
        return out;
    };
    const std::size_t S = g.size();
    if (S < 4 || g.edges == 0) return no("fewer than 4 switches");
    constexpr std::size_t kMaxDegree = 24;  // 12 dimensions
    // Edge ids: slot i of the CSR of the sorted adjacency lists.
    std::vector<std::uint32_t> begin(S + 1, 0);
    for (SwitchIdx s = 0; s < S; ++s) {
        if (g.adj[s].size() > kMaxDegree) return no("a switch with more than 24 switch neighbours");
        begin[s + 1] = begin[s] + static_cast<std::uint32_t>(g.adj[s].size());
    }
    auto slot = [&](SwitchIdx a, SwitchIdx b) {
        return begin[a] + static_cast<std::uint32_t>(std::lower_bound(g.adj[a].begin(), g.adj[a].end(), b) -
                                                     g.adj[a].begin());
    };
    // One id per undirected edge: the slot at its lower end.
    auto edge = [&](SwitchIdx a, SwitchIdx b) { return a < b ? slot(a, b) : slot(b, a); };
    // Opposite sides of a 4-cycle are parallel: `dim` first holds these classes (the cuts of a
    // product graph), then joins consecutive cuts along the lines.
    UnionFind dim(begin[S]);
    std::size_t squares = 0;
    std::vector<int> partners;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> straight;  // candidate joins, edge ids
    for (SwitchIdx u = 0; u < S; ++u) {
        const auto &nb = g.adj[u];
        const std::size_t k = nb.size();
        // partners[i]: the one incident link sharing no 4-cycle with link i (-1 none, -2 several).
        partners.assign(k, -1);
        for (std::size_t i = 0; i < k; ++i)
            for (std::size_t j = i + 1; j < k; ++j) {
                if (g.linked(nb[i], nb[j])) return no("triangles");
                SwitchIdx x = kNoSwitch;
                const unsigned c = g.common(nb[i], nb[j], u, 3, &x);
                if (c >= 2) return no("two switches two links apart with three common neighbours");
                if (c == 1) {
                    // u-nb[i]-x-nb[j]: opposite sides are parallel.
                    if (u < x) {  // each 4-cycle once per diagonal is enough
                        dim.join(edge(u, nb[i]), edge(nb[j], x));
                        dim.join(edge(u, nb[j]), edge(nb[i], x));
                    }
                    ++squares;
                    continue;
                }
                partners[i] = partners[i] == -1 ? static_cast<int>(j) : -2;
                partners[j] = partners[j] == -1 ? static_cast<int>(i) : -2;
            }
        // Straight on: two links that are each other's only partner continue one line. Not at
        // a switch with two links: on a grid that is a corner whose 4-cycle a failure broke.
        for (std::size_t i = 0; k >= 3 && i < k; ++i)
            if (partners[i] >= 0 && partners[static_cast<std::size_t>(partners[i])] == static_cast<int>(i) &&
                static_cast<std::size_t>(partners[i]) > i)
                straight.emplace_back(edge(u, nb[i]), edge(u, nb[static_cast<std::size_t>(partners[i])]));
    }
    // A failed link can leave two links of different dimensions that share no 4-cycle and look
    // straight. A real continuation is seen at every switch of a cut, a false one at one; and a
    // false one would put three or four links of the joined class at a switch. So candidates
    // join in order of their support (the share of the smaller cut's links that vote for the
    // pair), and a join that would put three links of one class at a switch is refused.
    std::vector<std::unordered_map<SwitchIdx, unsigned>> at(begin[S]);  // class root -> links per switch
    for (SwitchIdx a = 0; a < S; ++a)
        for (SwitchIdx b : g.adj[a])
            if (a < b) {
                auto &m = at[dim.find(slot(a, b))];
                ++m[a], ++m[b];
            }
    // The two cuts a candidate joins, smaller first.
    auto cuts = [&](std::uint32_t e1, std::uint32_t e2) {
        const std::uint32_t a = dim.find(e1), b = dim.find(e2);
        return std::pair<std::uint32_t, std::uint32_t>{std::min(a, b), std::max(a, b)};
    };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> votes;
    for (auto [e1, e2] : straight) votes.push_back(cuts(e1, e2));
    std::sort(votes.begin(), votes.end());
    struct Candidate {
        double support;
        std::uint32_t e1, e2;
    };
    std::vector<Candidate> ranked;
    for (auto [e1, e2] : straight) {
        const auto p = cuts(e1, e2);
        const auto r = std::equal_range(votes.begin(), votes.end(), p);
        const std::size_t smaller = std::min(at[p.first].size(), at[p.second].size());
        ranked.push_back({static_cast<double>(r.second - r.first) / static_cast<double>(smaller), e1, e2});
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](auto &x, auto &y) { return x.support > y.support; });
    for (const Candidate &c : ranked) {
        std::uint32_t a = dim.find(c.e1), b = dim.find(c.e2);
        if (a != b) {
            if (at[a].size() > at[b].size()) std::swap(a, b);
            const bool fits = std::all_of(at[a].begin(), at[a].end(), [&](const auto &kv) {
                const auto it = at[b].find(kv.first);
                return kv.second + (it == at[b].end() ? 0 : it->second) <= 2;
            });
            if (!fits) continue;
            for (const auto &[sw, n] : at[a]) at[b][sw] += n;
            at[a].clear();
            dim.up[a] = b;
        }
    }
    // Per dimension: at most two links at any switch; its lines are paths or rings.
    std::vector<std::uint32_t> edge_ids;
    for (SwitchIdx a = 0; a < S; ++a)
        for (SwitchIdx b : g.adj[a])
            if (a < b) edge_ids.push_back(slot(a, b));
    std::vector<std::uint32_t> dim_of(begin[S], 0);
    std::vector<std::uint32_t> dims;
    for (auto e : edge_ids) dims.push_back(dim_of[e] = dim.find(e));
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    if (dims.size() > 32) return no("more than 32 classes of parallel links");
    const std::size_t D = dims.size();
    auto dim_index = [&](std::uint32_t root) {
        return static_cast<std::size_t>(std::lower_bound(dims.begin(), dims.end(), root) - dims.begin());
    };
    // A line is what the links of one dimension join: at a switch, its (at most two) links
    // of a dimension continue one line.
    std::vector<unsigned> per_switch(S * D, 0);
    std::vector<std::uint32_t> first(S * D, 0);
    UnionFind line(begin[S]);
    for (SwitchIdx a = 0; a < S; ++a)
        for (SwitchIdx b : g.adj[a]) {
            const auto e = edge(a, b);
            const std::size_t d = dim_index(dim_of[e]);
            if (++per_switch[a * D + d] > 2) return no("three links of one dimension at a switch");
            if (per_switch[a * D + d] == 2)
                line.join(first[a * D + d], e);
            else
                first[a * D + d] = e;
        }
    std::vector<std::uint32_t> line_of(begin[S], 0);
    for (auto e : edge_ids) line_of[e] = line.find(e);
    // Lines: vertex and edge counts.
    struct Line {
        std::size_t dim = 0, edges = 0;
        std::unordered_set<SwitchIdx> at;
    };
    std::vector<Line> lines;
    std::vector<std::int32_t> line_index(begin[S], -1);
    for (SwitchIdx a = 0; a < S; ++a)
        for (SwitchIdx b : g.adj[a]) {
            if (a > b) continue;
            const auto e = slot(a, b);
            const std::size_t d = dim_index(dim_of[e]);
            auto &li = line_index[line_of[e]];
            if (li < 0) {
                li = static_cast<std::int32_t>(lines.size());
                lines.push_back({d, 0, {}});
            }
            Line &l = lines[static_cast<std::size_t>(li)];
            ++l.edges;
            l.at.insert(a), l.at.insert(b);
        }
    std::vector<std::size_t> radix(D, 0), rings(D, 0), links(D, 0);
    for (const Line &l : lines) {
        radix[l.dim] = std::max(radix[l.dim], l.at.size());
        links[l.dim] += l.edges;
        if (l.edges == l.at.size() && l.at.size() >= 3) ++rings[l.dim];
    }
    // Failures leave debris: a few links whose 4-cycles and straight continuations are all
    // broken form classes of their own. Dimensions are the classes with at least an eighth of
    // the links of the largest; the debris may hold a few links in all, no more.
    const std::size_t most = *std::max_element(links.begin(), links.end());
    std::size_t major_links = 0;
    std::vector<std::size_t> order;
    for (std::size_t d = 0; d < D; ++d)
        if (links[d] * 8 >= most) order.push_back(d), major_links += links[d];
    const std::size_t debris = g.edges - major_links;
    if (debris > std::max<std::size_t>(2, g.edges / 20))
        return no(num(debris) + " links outside the " + num(order.size()) + " main dimensions");
    // Dimensions largest first, as a torus is usually written.
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return radix[a] > radix[b]; });
    double positions = 1;
    out.all_radix2 = true;
    std::vector<bool> ring_dim(D, false);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::size_t d = order[i];
        positions *= static_cast<double>(radix[d]);
        const bool ring = rings[d] > 0;  // a failure opens a ring; nothing closes a mesh line
        ring_dim[d] = ring;
        // A ring of 4 is a 4-cycle, two radix-2 dimensions: no evidence of a torus.
        const bool square = ring && radix[d] == 4;
        out.rings = out.rings || (ring && !square);
        out.all_radix2 = out.all_radix2 && (radix[d] == 2 || square);
        out.dims += (i ? "x" : "") + (square ? std::string("2x2") : num(radix[d]) + (ring ? "t" : ""));
    }
    // The product of the radices is the number of positions; failed switches leave a few empty.
    if (positions < static_cast<double>(S) || positions > static_cast<double>(S) / 0.9 + 1)
        return no("dimensions " + out.dims + " give " + num(static_cast<std::size_t>(positions)) +
                  " positions for " + num(S) + " switches");
    // Complete: every position filled and every link of the product there.
    double full_links = 0;
    for (std::size_t d : order)
        full_links += positions / static_cast<double>(radix[d]) *
                      static_cast<double>(ring_dim[d] ? radix[d] : radix[d] - 1);
    out.complete =
        debris == 0 && positions == static_cast<double>(S) && full_links == static_cast<double>(g.edges);
    const double missing = std::max(0.0, full_links - static_cast<double>(g.edges));
    out.ok = true;
    out.evidence = "no triangles, " + num(squares) + " 4-cycle corners; the " + num(g.edges) +
                   " switch links form " +
                   num(static_cast<std::size_t>(std::count(out.dims.begin(), out.dims.end(), 'x')) + 1) +
                   " dimensions " + out.dims + " (t: lines close into rings), " + num(S) + " switches on " +
                   num(static_cast<std::size_t>(positions)) + " positions" +
                   (missing > 0 ? ", " + num(static_cast<std::size_t>(missing)) + " links missing" : "") +
                   (debris ? ", " + num(debris) + " links off the dimensions around failures" : "");
    return out;
}

// ---- dragonflies ------------------------------------------------------------------------

struct DragonflySeen {
    bool ok = false;
    std::string evidence;
    std::vector<std::uint32_t> group;  // per switch
};

// local(a, b): is the link a-b inside a group. plus: groups are leaf-spine bipartite, else cliques.
template <class Local>
DragonflySeen recognise_groups(const Simple &g, Local local, bool plus) {
    DragonflySeen out;
    const std::size_t S = g.size();
    UnionFind uf(S);
    for (SwitchIdx a = 0; a < S; ++a)
        for (SwitchIdx b : g.adj[a])
            if (a < b && local(a, b)) uf.join(a, b);
    std::vector<std::uint32_t> group(S), roots;
    for (SwitchIdx s = 0; s < S; ++s) roots.push_back(group[s] = uf.find(s));
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    const std::size_t G = roots.size();
    if (G < 3 || G * 2 > S) return out;
    std::vector<std::size_t> size(G, 0), leaves(G, 0), inner(G, 0);
    for (SwitchIdx s = 0; s < S; ++s) {
        group[s] = static_cast<std::uint32_t>(std::lower_bound(roots.begin(), roots.end(), group[s]) -
                                              roots.begin());
        ++size[group[s]];
        if (g.hosts[s]) ++leaves[group[s]];
    }
    std::vector<bool> joined(G * G, false);
    for (SwitchIdx a = 0; a < S; ++a)
        for (SwitchIdx b : g.adj[a]) {
            if (a > b) continue;
            if (group[a] == group[b]) {
                if (!local(a, b)) return out;  // a global link inside a group
                ++inner[group[a]];
            } else {
                joined[group[a] * G + group[b]] = joined[group[b] * G + group[a]] = true;
            }
        }
    const std::size_t biggest = *std::max_element(size.begin(), size.end());
    std::size_t links = 0, full = 0;  // a failed link or two, no more
    for (std::size_t i = 0; i < G; ++i) {
        if (size[i] * 4 < biggest * 3) return out;  // groups of about one size
        const std::size_t want = plus ? leaves[i] * (size[i] - leaves[i]) : size[i] * (size[i] - 1) / 2;
        if (plus && (leaves[i] == 0 || leaves[i] == size[i])) return out;
        if (inner[i] * 4 < want * 3) return out;  // nearly complete inside
        links += inner[i], full += want;
    }
    if (links * 10 < full * 9) return out;
    std::size_t pairs = 0;
    for (std::size_t i = 0; i < G; ++i)
        for (std::size_t j = i + 1; j < G; ++j) pairs += joined[i * G + j];
    const std::size_t all = G * (G - 1) / 2;
    if (pairs * 10 < all * 8) return out;  // nearly every group pair joined
    out.ok = true;
    out.group = std::move(group);
    out.evidence = num(G) + " groups of " + num(biggest) + " switches" +
                   (plus ? " (host leaves x spines)" : " (all-to-all)") + ", " + num(links) + " of " +
                   num(full) + " links inside groups, " + num(pairs) + " of " + num(all) +
                   " group pairs joined by global links";
    return out;
}

// ---- chains -----------------------------------------------------------------------------

// The general chain, for fabrics whose shortest routes can close credit loops. Virtual layers
// only stay apart where the switches' SL2VL maps keep them so, and those are programmed only
// with QoS on (OpenSM's -Q; its documentation runs dfsssp as '-R dfsssp -Q'): with QoS and more
// than one VL, dfsssp layers balanced shortest paths; nue fits whatever VLs it may use (one
// without QoS) and stays balanced; updn is OpenSM's one-VL classic, whose min-hop root
// detection can fail where every switch has hosts.
void general_chain(const RoutingOptions &o, AutoChoice &c, const std::string &lead) {
    const unsigned vls = o.qos && o.qos_max_vls ? std::min(o.qos_max_vls, o.max_vls) : o.max_vls;
    if (o.qos && vls > 1) {
        c.chain = "dfsssp,nue,updn";
        c.why = lead + "dfsssp: shortest paths balanced over the links, credit loops broken on up to " +
                num(vls) + " VLs (QoS on, so SL2VL maps keep the layers apart); nue if that is not enough " +
                "VLs (it fits any number); updn as the last resort";
    } else {
        c.chain = "nue,updn";
        c.why =
            lead +
            (o.qos ? std::string("one VL (--max_vls/--qos_max_vls 1) leaves dfsssp nothing to layer")
                   : std::string(
                         "without QoS (no -Q) OpenSM programs no SL2VL maps to keep dfsssp's virtual layers "
                         "apart")) +
            ": nue, balanced and credit-loop free in the VLs it may use; updn as the last resort";
    }
}

}  // namespace

std::string AutoChoice::describe() const {
    return shape + " (" + evidence + ") -> " + chain + ": " + why;
}

AutoChoice choose_routing(const Fabric &f, const RoutingOptions &o) {
    AutoChoice c;
    const Simple g = simple_graph(f);
    const std::size_t S = g.size();
    if (S == 0) {
        c = {"no switches",
             "the fabric has no switch",
             "minhop",
             "nothing to route through; minhop reports it",
             {}};
        return c;
    }
    if (g.edges == 0) {
        c = {"single switch",
             num(S) + " switch(es), no switch-to-switch links",
             "minhop",
             "one switch cannot close a credit loop, and minhop is OpenSM's default",
             {}};
        return c;
    }
    if (const TreeSeen t = recognise_tree(f, g, o); t.ok) {
        c.shape = "fat tree";
        c.evidence = t.evidence;
        general_chain(o, c, "");
        c.chain = "ftree," + c.chain;
        c.why = std::string(
                    "ftree spreads the routes evenly over the up links and is credit-loop free; its "
                    "own fat-tree check refuses what it cannot route (a degraded or irregular tree") +
                (o.lmc > 0 ? ", and LMC > 0 here, which ftree does not support); then " : "); then ") + c.why;
        return c;
    }
    const GridSeen gr = recognise_grid(g);
    if (gr.ok) {
        c.shape = gr.rings ? "torus" : gr.all_radix2 ? "hypercube" : "mesh";
        c.evidence = gr.evidence;
        std::string head, lead;
        if (!o.torus_config.empty() && o.qos) {
            head = "torus-2QoS,";
            lead =
                "torus-2QoS (torus-2QoS.conf given, QoS on) routes by dimension order around failures "
                "with its SL2VL maps; if it refuses the fabric: ";
        }
        bool rings = gr.rings;
        if (!rings) {
            // dor needs port numbers that name dimensions (OpenSM's dor); check the cabling.
            const engines::SwitchGraph sg(f);
            const engines::DorCabling cab = engines::check_dor_cabling(f, sg);
            if (cab.problems.empty() && cab.rings.empty() && gr.complete) {
                general_chain(o, c, "");
                c.chain = head + "dor," + c.chain;
                c.why = lead +
                        "dor: the port numbers name the dimensions, so dimension order is minimal and "
                        "credit-loop free in one VL; if it fails, " +
                        c.why;
                return c;
            }
            if (cab.problems.empty() && !cab.rings.empty()) {
                // Radix-4 rings are 4-cycles: the graph reads as radix-2 dimensions, the cabling
                // shows the rings.
                rings = true;
                c.shape = "torus";
                c.evidence += "; the cabling closes rings (" + cab.rings.front() + ")";
            } else if (!cab.problems.empty()) {
                lead += "the port numbers do not name the dimensions (" + cab.problems.front() +
                        "), so dor's order would not be dimension order. ";
            } else {
                lead +=
                    "switches or links are missing, so dor's routes around them would leave dimension "
                    "order and could close credit loops. ";
            }
        }
        if (rings && head.empty())
            lead += std::string("rings close credit loops under dimension order; torus-2QoS needs ") +
                    (o.torus_config.empty() ? "a torus-2QoS.conf (--torus_config)" : "") +
                    (o.torus_config.empty() && !o.qos ? " and " : "") + (!o.qos ? "QoS (-Q)" : "") + ". ";
        general_chain(o, c, lead);
        c.chain = head + c.chain;
        return c;
    }
    const auto on_triangle = [&](SwitchIdx a, SwitchIdx b) { return g.common(a, b, kNoSwitch, 1) > 0; };
    const auto touches_hosts = [&](SwitchIdx a, SwitchIdx b) { return g.hosts[a] > 0 || g.hosts[b] > 0; };
    DragonflySeen d = recognise_groups(g, on_triangle, false);
    c.shape = "dragonfly";
    if (!d.ok) {
        d = recognise_groups(g, touches_hosts, true);
        c.shape = "dragonfly+";
    }
    if (d.ok) {
        c.evidence = d.evidence;
        c.groups = std::move(d.group);
        general_chain(o, c, "minimal routes between groups close credit loops. ");
        return c;
    }
    c.shape = "irregular";
    c.evidence = num(S) + " switches, " + num(g.edges) +
                 " switch links: not a layered tree; not a product of rings or lines (" + gr.why_not +
                 "); no dragonfly groups";
    general_chain(o, c, "no shape recognised, so the general chain: ");
    return c;
}

}  // namespace weft::routing
