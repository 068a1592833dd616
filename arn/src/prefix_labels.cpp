#include "weft/arn/prefix_labels.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

namespace weft::arn {

bool is_prefix(const Label &prefix, const Label &of) {
    return prefix.size() <= of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

Label common_prefix(const Label &a, const Label &b) {
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    (void)ib;
    return Label(a.begin(), ia);
}

std::string label_text(const Label &l) {
    if (l.empty()) return "e";
    const bool digits = std::all_of(l.begin(), l.end(), [](std::uint16_t k) { return k < 10; });
    std::string s;
    for (std::size_t i = 0; i < l.size(); ++i) {
        if (!digits && i != 0) s += '.';
        s += std::to_string(l[i]);
    }
    return s;
}

const char *channel_kind_name(ChannelKind k) {
    switch (k) {
        case ChannelKind::kUp:
            return "up";
        case ChannelKind::kDown:
            return "down";
        case ChannelKind::kCross:
            return "cross";
        case ChannelKind::kUpShortcut:
            return "up_shortcut";
        case ChannelKind::kDownShortcut:
            return "down_shortcut";
    }
    return "?";
}

PrefixLabels PrefixLabels::minimum(const PrefixGraph &g, NodeIndex root) {
    if (root >= g.size()) throw std::invalid_argument("prefix labels: no such root");
    std::vector<PortNumber> up(g.size(), kLocalPort);
    std::vector<bool> seen(g.size(), false);
    std::vector<NodeIndex> roots;
    std::deque<NodeIndex> queue;
    // One tree per piece of the graph: `root`'s first, then from the lowest node not reached.
    for (NodeIndex start = root, next = 0; start != kNoNodeIndex;) {
        roots.push_back(start);
        seen[start] = true;
        queue.push_back(start);
        while (!queue.empty()) {
            const NodeIndex v = queue.front();
            queue.pop_front();
            for (const PrefixGraph::Adjacency &a : g.links(v)) {
                if (seen[a.peer]) continue;
                seen[a.peer] = true;
                up[a.peer] = a.peer_port;
                queue.push_back(a.peer);
            }
        }
        while (next < g.size() && seen[next]) ++next;
        start = next < g.size() ? next : kNoNodeIndex;
    }
    return PrefixLabels(g, std::move(roots), std::move(up));
}

PrefixLabels PrefixLabels::from_tree(const PrefixGraph &g, NodeIndex root, std::vector<PortNumber> up_port) {
    if (up_port.size() != g.size()) throw std::invalid_argument("prefix labels: one up port per node");
    if (root >= g.size() || up_port[root] != kLocalPort)
        throw std::invalid_argument("prefix labels: the root has a parent");
    std::vector<NodeIndex> roots{root};
    for (NodeIndex n = 0; n < g.size(); ++n)
        if (n != root && up_port[n] == kLocalPort) roots.push_back(n);
    return PrefixLabels(g, std::move(roots), std::move(up_port));
}

PrefixLabels::PrefixLabels(const PrefixGraph &g, std::vector<NodeIndex> roots,
                           std::vector<PortNumber> up_port)
    : graph_(g),
      roots_(std::move(roots)),
      up_port_(std::move(up_port)),
      parent_(g.size(), kNoNodeIndex),
      labels_(g.size()),
      channels_(g.size()) {
    // Children of each node, in the order of the node's ports.
    std::vector<std::vector<std::pair<PortNumber, NodeIndex>>> children(g.size());
    for (NodeIndex v = 0; v < g.size(); ++v) {
        if (up_port_[v] == kLocalPort) continue;
        const auto adj = g.link(v, up_port_[v]);
        if (!adj) throw std::invalid_argument("prefix labels: an up port without a link");
        parent_[v] = adj->peer;
        children[adj->peer].emplace_back(adj->peer_port, v);
    }
    for (auto &c : children) std::sort(c.begin(), c.end());
    std::size_t labelled = 0;
    std::deque<NodeIndex> queue;
    for (std::size_t i = 0; i < roots_.size(); ++i) {
        labels_[roots_[i]] = Label{static_cast<std::uint16_t>(i + 1)};
        queue.push_back(roots_[i]);
    }
    while (!queue.empty()) {
        const NodeIndex v = queue.front();
        queue.pop_front();
        ++labelled;
        if (children[v].size() > 0xFFFF)
            throw std::invalid_argument("prefix labels: more than 65535 children");
        for (std::size_t k = 0; k < children[v].size(); ++k) {
            const NodeIndex c = children[v][k].second;
            labels_[c] = labels_[v];
            labels_[c].push_back(static_cast<std::uint16_t>(k + 1));
            queue.push_back(c);
        }
    }
    // A node the roots do not reach sits on a cycle of up ports.
    if (labelled != g.size()) throw std::invalid_argument("prefix labels: the up ports form a cycle");

    for (NodeIndex v = 0; v < g.size(); ++v) {
        by_label_.emplace(labels_[v], v);
        for (const PrefixGraph::Adjacency &a : g.links(v)) {
            PrefixChannel c{a.port, a.peer, a.peer_port, ChannelKind::kCross, labels_[a.peer]};
            if (a.port == up_port_[v]) {
                c.kind = ChannelKind::kUp;
                c.label.clear();
            } else if (parent_[a.peer] == v && up_port_[a.peer] == a.peer_port) {
                c.kind = ChannelKind::kDown;
            } else if (is_prefix(labels_[v], labels_[a.peer])) {
                c.kind = ChannelKind::kDownShortcut;
            } else if (is_prefix(labels_[a.peer], labels_[v])) {
                c.kind = ChannelKind::kUpShortcut;
            }
            channels_[v].push_back(std::move(c));
        }
    }
}

bool PrefixLabels::tree_link(NodeIndex n, PortNumber p) const {
    if (p == up_port_[n]) return true;
    const auto a = graph_.link(n, p);
    return a && parent_[a->peer] == n && up_port_[a->peer] == a->peer_port;
}

std::optional<NodeIndex> PrefixLabels::node_of(const Label &l) const {
    const auto it = by_label_.find(l);
    if (it == by_label_.end()) return std::nullopt;
    return it->second;
}

PrefixLabels relabel_after_failure(const PrefixLabels &labels, NodeIndex node, PortNumber port) {
    if (!labels.graph().link(node, port)) throw std::invalid_argument("relabel: no link on that port");
    const bool on_tree = labels.tree_link(node, port);
    PrefixGraph g = labels.graph();
    g.disconnect(node, port);
    if (on_tree) return PrefixLabels::minimum(g, node);
    std::vector<PortNumber> up(labels.size());
    for (NodeIndex n = 0; n < labels.size(); ++n) up[n] = labels.up_port(n);
    return PrefixLabels::from_tree(g, labels.root(), std::move(up));
}

}  // namespace weft::arn
