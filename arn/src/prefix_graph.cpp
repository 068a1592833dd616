#include "weft/arn/prefix_graph.hpp"

#include <algorithm>
#include <stdexcept>

namespace weft::arn {

std::optional<PrefixGraph::Adjacency> PrefixGraph::link(NodeIndex n, PortNumber p) const {
    if (n >= links_.size()) return std::nullopt;
    const auto &l = links_[n];
    const auto it =
        std::lower_bound(l.begin(), l.end(), p, [](const Adjacency &a, PortNumber x) { return a.port < x; });
    if (it == l.end() || it->port != p) return std::nullopt;
    return *it;
}

void PrefixGraph::connect(NodeIndex a, PortNumber pa, NodeIndex b, PortNumber pb) {
    if (a >= size() || b >= size()) throw std::invalid_argument("prefix graph: no such node");
    if (a == b) throw std::invalid_argument("prefix graph: a link of a node to itself");
    if (pa == kLocalPort || pb == kLocalPort)
        throw std::invalid_argument("prefix graph: port 0 is the node itself");
    if (link(a, pa) || link(b, pb)) throw std::invalid_argument("prefix graph: port already linked");
    auto insert = [](std::vector<Adjacency> &l, Adjacency x) {
        l.insert(std::upper_bound(l.begin(), l.end(), x.port,
                                  [](PortNumber p, const Adjacency &y) { return p < y.port; }),
                 x);
    };
    insert(links_[a], {pa, b, pb});
    insert(links_[b], {pb, a, pa});
}

bool PrefixGraph::disconnect(NodeIndex n, PortNumber p) {
    const auto adj = link(n, p);
    if (!adj) return false;
    auto drop = [](std::vector<Adjacency> &l, PortNumber port) {
        l.erase(std::find_if(l.begin(), l.end(), [&](const Adjacency &a) { return a.port == port; }));
    };
    drop(links_[n], p);
    drop(links_[adj->peer], adj->peer_port);
    return true;
}

}  // namespace weft::arn
