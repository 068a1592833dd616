// Escape paths of a virtual layer: a spanning tree rooted at the layer's central node. Routes
// along a tree never turn back, so no set of their dependencies can form a cycle; Nue marks the
// tree routes toward every destination of the layer as used before routing anything, so every
// destination can always fall back to them (an impasse never leaves a node unrouted).
#pragma once

#include <cstdint>
#include <vector>

#include "engines/nue/complete_cdg.hpp"

namespace weft::routing::engines::nue {

// Breadth-first search from a switch over the whole switch graph: hop distances, the number of
// shortest paths to each switch and the visiting order. Every layer of every partition Nue tries
// picks its central node from searches out of its members, and the even-spread floor searches
// out of every destination switch: each source is searched once, on first use, and kept.
// Searches from different sources may run on different threads at once (each writes only its own).
class ShortestPaths {
  public:
    static constexpr std::uint32_t kFar = ~std::uint32_t{0};
    struct From {
        const std::uint32_t *dist;  // kFar where unreachable
        const double *sigma;        // shortest paths from the source
        const SwitchIdx *order;     // reached switches, source first, by distance
        std::size_t reached;
    };
    explicit ShortestPaths(const SwitchGraph &g) : g_(g), from_(g.size()) {}
    From from(SwitchIdx s);

  private:
    struct Search {
        std::vector<std::uint32_t> dist;
        std::vector<double> sigma;
        std::vector<SwitchIdx> order;
    };
    const SwitchGraph &g_;
    std::vector<Search> from_;  // empty until searched
};

// The central node of the layer whose destinations sit on `members` (switches): the node of the
// convex subgraph (every shortest path between two members) with the highest betweenness
// centrality over member pairs (Brandes' accumulation, sources and targets restricted to the
// members). Ties and an all-zero centrality go to the smallest total distance to the members,
// then the lowest index.
SwitchIdx central_node(const SwitchGraph &g, const std::vector<SwitchIdx> &members, ShortestPaths &paths);

// central_node in two halves that may run on two threads: the accumulation from every other
// member (half 0 from the first, half 1 from the second), then the choice from both. central_node
// sums the same two halves, so either way gives the same node.
struct Centrality {
    std::vector<double> between;
    std::vector<std::uint64_t> distance_sum;
};
Centrality centrality_half(const SwitchGraph &g, const std::vector<SwitchIdx> &members, ShortestPaths &paths,
                           unsigned half);
SwitchIdx central_node(const SwitchGraph &g, const std::vector<SwitchIdx> &members, Centrality a,
                       const Centrality &b);

// OpenSM's central node of each layer: the switches of its destinations (members) and every
// switch on a shortest path between two switches already in the set (grown in OpenSM's node
// order), then the highest betweenness centrality within that set, where each switch and each
// CA destination behind it (terminals, per switch) counts as a target; the first of equals in
// node_order (OpenSM's: by LID in network byte order).
std::vector<SwitchIdx> osm_central_nodes(const Channels &ch, const std::vector<SwitchIdx> &node_order,
                                         const std::vector<std::vector<SwitchIdx>> &members,
                                         const std::vector<std::vector<std::uint32_t>> &terminals,
                                         ShortestPaths &paths);

class EscapeTree {
  public:
    // Breadth-first spanning forest: from root, then from each switch no earlier tree reached.
    EscapeTree(const SwitchGraph &g, const Channels &ch, SwitchIdx root);
    // OpenSM's spanning tree: Dijkstra from root over the channel weights the routes so far left
    // (a tree edge toward x weighs what x's traffic toward its parent weighs), so later layers
    // get other trees; ties as its heap leaves them, switches entering it in node_order.
    // in_weight as RouteTree's.
    static EscapeTree osm(const Channels &ch, SwitchIdx root, const std::vector<SwitchIdx> &node_order,
                          const std::vector<std::uint64_t> &in_weight);
    SwitchIdx root() const { return root_; }
    // Tree depth of each switch (0 at the root; each further tree of the forest from 0).
    const std::vector<std::uint32_t> &levels() const { return level_; }
    // next[s] = the tree channel s takes toward d; kNoChannel for d and switches not connected to d.
    // queue is the caller's scratch (the tree is shared by runs on several threads).
    void toward(SwitchIdx d, std::vector<ChannelId> &next, std::vector<SwitchIdx> &queue) const;
    // Marks the dependencies of the tree routes toward each destination switch as used.
    void mark(const std::vector<SwitchIdx> &dest_switches, CompleteCdg &cdg) const;
    // OpenSM's escape dependencies: every turn up the tree toward the root; every turn at the
    // root between two of its children; and from each destination switch up to the root the
    // turns down toward it and into it from the parent's other children.
    void mark_osm(const std::vector<SwitchIdx> &dest_switches, CompleteCdg &cdg) const;

  private:
    // The tree from parent[s] = the channel from s's parent into s (kNoChannel at roots).
    EscapeTree(const Channels &ch, SwitchIdx root, const std::vector<ChannelId> &parent);
    void build(const std::vector<ChannelId> &parent);

    const Channels &ch_;
    SwitchIdx root_;
    std::vector<std::uint32_t> tree_off_;  // tree channels out of each switch (CSR)
    std::vector<ChannelId> tree_;
    std::vector<std::uint32_t> level_;
    std::vector<ChannelId> parent_;    // channel from each switch's parent into it
    std::vector<SwitchIdx> by_level_;  // switches, roots first, each after its parent
};

}  // namespace weft::routing::engines::nue
