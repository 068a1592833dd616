// Node and channel labels of prefix routing (seed 003, section 3) over a spanning tree.
//
// The root is labelled 1; the k-th child of v (children numbered in the order of v's ports) is
// labelled L(v)k. A tree channel from parent to child carries the child's label (down), from child
// to parent the empty label (up); a channel off the tree from v to u carries L(u): a cross
// channel when neither end is an ancestor of the other, a shortcut otherwise (down_shortcut away
// from the root, up_shortcut toward it; only a non-minimum tree has them). L(s) is a prefix of
// L(d) exactly when s is an ancestor of d.
//
// A graph in several pieces gets a tree per piece, their roots labelled 1, 2, ... (the root
// asked for first, then the others in node order); nothing routes between pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "weft/arn/prefix_graph.hpp"

namespace weft::arn {

// A label: the child numbers from the root down (the root's own number first).
using Label = std::vector<std::uint16_t>;

bool is_prefix(const Label &prefix, const Label &of);
Label common_prefix(const Label &a, const Label &b);
// "121" as the paper writes it when every number is a digit, "1.12.3" otherwise; "e" when empty.
std::string label_text(const Label &l);

enum class ChannelKind : std::uint8_t { kUp, kDown, kCross, kUpShortcut, kDownShortcut };
const char *channel_kind_name(ChannelKind k);

struct PrefixChannel {
    PortNumber port = 0;  // of the node it leaves
    NodeIndex to = kNoNodeIndex;
    PortNumber to_port = 0;
    ChannelKind kind = ChannelKind::kCross;
    Label label;  // empty for an up channel
};

class PrefixLabels {
  public:
    // The breadth-first spanning tree from `root`: every node reached by a shortest path (a
    // minimum spanning tree in the paper's words), the parent of a node being the first node of
    // the previous level, in visiting order, that links to it.
    static PrefixLabels minimum(const PrefixGraph &g, NodeIndex root);
    // The spanning tree given by each node's port toward its parent (kLocalPort for roots), such as
    // a non-minimum tree. Throws std::invalid_argument when those ports do not form a forest of
    // the graph's links or `root` is not a root.
    static PrefixLabels from_tree(const PrefixGraph &g, NodeIndex root, std::vector<PortNumber> up_port);

    const PrefixGraph &graph() const { return graph_; }
    std::size_t size() const { return labels_.size(); }
    NodeIndex root() const { return roots_.front(); }
    const std::vector<NodeIndex> &roots() const { return roots_; }
    const Label &label(NodeIndex n) const { return labels_[n]; }
    NodeIndex parent(NodeIndex n) const { return parent_[n]; }
    PortNumber up_port(NodeIndex n) const { return up_port_[n]; }
    std::size_t depth(NodeIndex n) const { return labels_[n].size() - 1; }
    bool tree_link(NodeIndex n, PortNumber p) const;
    // n's outgoing channels in port order.
    std::span<const PrefixChannel> channels(NodeIndex n) const { return channels_[n]; }
    std::optional<NodeIndex> node_of(const Label &l) const;
    bool same_tree(NodeIndex a, NodeIndex b) const { return labels_[a].front() == labels_[b].front(); }

  private:
    PrefixLabels(const PrefixGraph &g, std::vector<NodeIndex> roots, std::vector<PortNumber> up_port);

    PrefixGraph graph_;
    std::vector<NodeIndex> roots_;
    std::vector<PortNumber> up_port_;
    std::vector<NodeIndex> parent_;
    std::vector<Label> labels_;
    std::vector<std::vector<PrefixChannel>> channels_;
    std::map<Label, NodeIndex> by_label_;
};

// Seed 003's reconfiguration after the link on (node, port) fails (section 5): a link off the
// tree loses its two channels and nothing else changes; a tree link makes `node`, the end that
// detected the failure, the root of a new minimum spanning tree. Throws std::invalid_argument
// when there is no link on (node, port).
PrefixLabels relabel_after_failure(const PrefixLabels &labels, NodeIndex node, PortNumber port);

}  // namespace weft::arn
