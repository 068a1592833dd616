#include "weft/arn/prefix_routing.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>
#include <utility>

namespace weft::arn {

namespace {

RouteHop hop_of(NodeIndex v, const PrefixChannel &c) {
    return {v, c.port, c.to, c.to_port, c.kind};
}

bool is_shortcut(ChannelKind k) {
    return k == ChannelKind::kUpShortcut || k == ChannelKind::kDownShortcut;
}

}  // namespace

std::optional<std::size_t> next_channel(const PrefixLabels &labels, NodeIndex v, const Label &dest) {
    if (labels.label(v) == dest) return std::nullopt;
    std::optional<std::size_t> best;
    const auto channels = labels.channels(v);
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const PrefixChannel &c = channels[i];
        if (!is_prefix(c.label, dest)) continue;
        if (!best) {
            best = i;
            continue;
        }
        const PrefixChannel &b = channels[*best];
        // Longer first; on equal labels a tree channel before a shortcut; ports are in order.
        if (c.label.size() > b.label.size() ||
            (c.label.size() == b.label.size() && is_shortcut(b.kind) && !is_shortcut(c.kind)))
            best = i;
    }
    // The root of another tree: no channel leads there.
    if (best && channels[*best].kind == ChannelKind::kUp && dest.front() != labels.label(v).front())
        return {};
    return best;
}

std::vector<RouteHop> prefix_route(const PrefixLabels &labels, NodeIndex s, NodeIndex d) {
    if (!labels.same_tree(s, d)) throw std::invalid_argument("prefix route: destination in another tree");
    std::vector<RouteHop> hops;
    const Label &dest = labels.label(d);
    for (NodeIndex v = s; v != d;) {
        const auto c = next_channel(labels, v, dest);
        // Livelock freedom (seed 003, theorem 1): a route ends within a walk up and one down.
        if (!c || hops.size() > 2 * labels.size()) throw std::logic_error("prefix route: no way on");
        hops.push_back(hop_of(v, labels.channels(v)[*c]));
        v = hops.back().next;
    }
    return hops;
}

Label longest_common_prefix(const PrefixLabels &labels, std::span<const NodeIndex> nodes) {
    if (nodes.empty()) return {};
    Label lcp = labels.label(nodes.front());
    for (NodeIndex n : nodes.subspan(1)) lcp = common_prefix(lcp, labels.label(n));
    return lcp;
}

PrefixMulticast prefix_multicast(const PrefixLabels &labels, NodeIndex source,
                                 std::span<const NodeIndex> dests) {
    PrefixMulticast m;
    m.source = source;
    std::vector<NodeIndex> others;
    bool to_self = false;
    for (NodeIndex d : dests) {
        if (!labels.same_tree(source, d))
            throw std::invalid_argument("prefix multicast: destination in another tree");
        if (d == source) {
            to_self = true;
        } else if (std::find(others.begin(), others.end(), d) == others.end()) {
            others.push_back(d);
        }
    }
    if (others.empty()) {
        m.lcp = source;
        m.steps.push_back({source, kLocalPort, {}, to_self, false});
        return m;
    }
    m.lcp = *labels.node_of(longest_common_prefix(labels, others));

    // Up phase: one head, by prefix unicast, to the LCP.
    PortNumber in = kLocalPort;
    bool deliver = to_self;
    for (const RouteHop &h : prefix_route(labels, source, m.lcp)) {
        m.steps.push_back({h.node, in, {h}, deliver, true});
        deliver = false;
        in = h.next_port;
    }
    // Down phase: from the LCP, each node hands each destination below it to the channel prefix
    // routing picks for it; destinations sharing a channel share a head.
    struct Pending {
        NodeIndex node;
        PortNumber in;
        std::vector<NodeIndex> dests;
        bool deliver_here;
    };
    std::deque<Pending> queue;
    queue.push_back({m.lcp, in, others, m.lcp == source && to_self});
    while (!queue.empty()) {
        Pending p = std::move(queue.front());
        queue.pop_front();
        MulticastStep step{p.node, p.in, {}, p.deliver_here, false};
        std::map<std::size_t, std::vector<NodeIndex>> by_channel;
        for (NodeIndex d : p.dests) {
            if (d == p.node) {
                step.deliver = true;
                continue;
            }
            const auto c = next_channel(labels, p.node, labels.label(d));
            if (!c) throw std::logic_error("prefix multicast: no way on");
            by_channel[*c].push_back(d);
        }
        for (auto &[c, ds] : by_channel) {
            const RouteHop h = hop_of(p.node, labels.channels(p.node)[c]);
            step.out.push_back(h);
            queue.push_back({h.next, h.next_port, std::move(ds), false});
        }
        m.steps.push_back(std::move(step));
    }
    return m;
}

std::vector<std::vector<PrefixMcastEntry>> flood_tables(const PrefixLabels &labels) {
    std::vector<std::vector<PrefixMcastEntry>> tables(labels.size());
    for (NodeIndex origin = 0; origin < labels.size(); ++origin) {
        std::vector<NodeIndex> dests;
        for (NodeIndex n = 0; n < labels.size(); ++n)
            if (n != origin && labels.same_tree(origin, n)) dests.push_back(n);
        if (dests.empty()) continue;
        for (const MulticastStep &s : prefix_multicast(labels, origin, dests).steps) {
            PrefixMcastEntry e{origin, s.in_port, {}, s.deliver};
            for (const RouteHop &h : s.out) e.out_ports.push_back(h.port);
            std::sort(e.out_ports.begin(), e.out_ports.end());
            auto &t = tables[s.node];
            if (find_entry(t, origin, s.in_port))
                throw std::logic_error("prefix flood: a node reached twice on one port");
            t.push_back(std::move(e));
        }
    }
    for (auto &t : tables)
        std::sort(t.begin(), t.end(), [](const PrefixMcastEntry &a, const PrefixMcastEntry &b) {
            return std::pair(a.origin, a.in_port) < std::pair(b.origin, b.in_port);
        });
    return tables;
}

const PrefixMcastEntry *find_entry(std::span<const PrefixMcastEntry> table, NodeIndex origin,
                                   PortNumber in_port) {
    for (const PrefixMcastEntry &e : table)
        if (e.origin == origin && e.in_port == in_port) return &e;
    return nullptr;
}

}  // namespace weft::arn
