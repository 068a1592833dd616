// The networks of seed 003's figures, as prefix graphs (nodes a..f are 0..5; each node's ports
// numbered from 1 in the order its links are listed).
#pragma once

#include <utility>
#include <vector>

#include "weft/arn/prefix_graph.hpp"

namespace weft::arn::figures {

enum : NodeIndex { a, b, c, d, e, f };

// Links as node pairs; ports are handed out in this order.
inline PrefixGraph graph_of(std::size_t nodes, const std::vector<std::pair<NodeIndex, NodeIndex>> &links) {
    PrefixGraph g(nodes);
    std::vector<PortNumber> next(nodes, 1);
    for (auto [x, y] : links) g.connect(x, next[x]++, y, next[y]++);
    return g;
}

// Figures 2, 4 and 6(a): the tree a-b, a-c, b-d, b-e, c-f (table 1's labels 1, 11, 12, 111, 112,
// 121 under a breadth-first tree from a), cross links b-c (figure 4's path 11 -> 12 -> 121), c-e
// (112 -> 12 -> 121) and d-e (figure 6(a)'s link off the tree).
inline PrefixGraph figure4() {
    return graph_of(6, {{a, b}, {a, c}, {b, d}, {b, e}, {b, c}, {c, f}, {c, e}, {d, e}});
}

// Figure 5: a line a-b-c-d-e-f as a non-minimum spanning tree, and the links b-d and b-e the
// paper's routes take (1 -> 11 -> 11111 -> 111111, 11111 -> 11 -> 111).
inline PrefixGraph figure5() {
    return graph_of(6, {{a, b}, {b, c}, {c, d}, {d, e}, {e, f}, {b, d}, {b, e}});
}

// Figure 5's tree: every node's parent is the one before it on the line (port 1 of each node
// but a leads back).
inline std::vector<PortNumber> figure5_line() {
    return {kLocalPort, 1, 1, 1, 1, 1};
}

}  // namespace weft::arn::figures
