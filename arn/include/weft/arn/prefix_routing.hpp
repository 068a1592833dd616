// Prefix unicast and prefix multicast (seed 003, sections 3 and 4) over PrefixLabels.
//
// Unicast: at node v a packet for d leaves by the channel whose label is the longest prefix of
// L(d) (the up channel's empty label always is one); on a minimum tree that is up channels, at
// most one cross channel, then down channels. Multicast: a single head goes by prefix unicast to
// the node labelled with the longest common prefix (LCP) of the destinations' labels, and splits
// only from there, each destination keeping one head down the tree.
//
// Why no deadlock: every channel a route takes after an up channel is a cross, shortcut or down
// channel, and none after those is an up channel; up channels form a DAG toward the root, down
// channels one away from it. The routing library's credit-loop check is run over the channel
// dependencies of every route and multicast in tests/unit/arn and tests/unit/routing.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "weft/arn/prefix_labels.hpp"

namespace weft::arn {

// The index in labels.channels(v) of the channel toward `dest`: the longest matching label; among
// equals a tree channel before a shortcut, then the lowest port. Nothing at the destination
// itself, or when dest is in another tree.
std::optional<std::size_t> next_channel(const PrefixLabels &labels, NodeIndex v, const Label &dest);

struct RouteHop {
    NodeIndex node = kNoNodeIndex;
    PortNumber port = 0;  // of `node`
    NodeIndex next = kNoNodeIndex;
    PortNumber next_port = 0;  // the port of `next` it arrives on
    ChannelKind kind = ChannelKind::kUp;
    friend bool operator==(const RouteHop &, const RouteHop &) = default;
};

// The hops from s to d (none when s == d). Throws std::invalid_argument when d is in another tree.
std::vector<RouteHop> prefix_route(const PrefixLabels &labels, NodeIndex s, NodeIndex d);

// The longest common prefix of the nodes' labels (empty for none, or nodes of different trees).
Label longest_common_prefix(const PrefixLabels &labels, std::span<const NodeIndex> nodes);

// One node's part in a multicast: it took the packet in on `in_port` (kLocalPort at the source),
// hands it on by `out` and delivers it to itself when `deliver`. Up-phase steps carry the single
// head to the LCP; the LCP's step is the first of the down phase.
struct MulticastStep {
    NodeIndex node = kNoNodeIndex;
    PortNumber in_port = kLocalPort;
    std::vector<RouteHop> out;
    bool deliver = false;
    bool up_phase = false;
};

struct PrefixMulticast {
    NodeIndex source = kNoNodeIndex;
    NodeIndex lcp = kNoNodeIndex;      // the node the head splits at
    std::vector<MulticastStep> steps;  // in the order the packet reaches them
};

// The source delivers to itself when it is a destination. Throws std::invalid_argument when a
// destination is in another tree than the source.
PrefixMulticast prefix_multicast(const PrefixLabels &labels, NodeIndex source,
                                 std::span<const NodeIndex> dests);

// The tables a switch forwards ARN by: for every origin, the multicast of its news to every other
// node of its tree, as entries (origin, in port) -> out ports and whether to deliver. A node's
// entries are sorted by origin, then in port. Throws std::logic_error if two steps of one
// multicast met at a node on the same port (prefix routing never does that).
struct PrefixMcastEntry {
    NodeIndex origin = kNoNodeIndex;
    PortNumber in_port = kLocalPort;
    std::vector<PortNumber> out_ports;  // ascending
    bool deliver = false;
    friend bool operator==(const PrefixMcastEntry &, const PrefixMcastEntry &) = default;
};
std::vector<std::vector<PrefixMcastEntry>> flood_tables(const PrefixLabels &labels);
// The entry of (origin, in_port) in one node's table, or nullptr.
const PrefixMcastEntry *find_entry(std::span<const PrefixMcastEntry> table, NodeIndex origin,
                                   PortNumber in_port);

}  // namespace weft::arn
