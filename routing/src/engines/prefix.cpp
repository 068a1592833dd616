// The `prefix` engine (seed 003): prefix routing over a breadth-first spanning tree of the
// switches. Every switch forwards a LID by the channel whose label is the longest prefix of the
// label of the LID's switch: up the tree, at most one cross channel, down the tree, so one VL is
// deadlock-free without SLs. Multicast groups get the part of the same tree below the longest
// common prefix of their switches (prefix multicast's down phase). Routes are not minimal; the
// hops describe them (hops_from_lfts).
#include <algorithm>
#include <deque>
#include <limits>

#include "engines/engines.hpp"
#include "weft/routing/prefix.hpp"

namespace weft::routing {

namespace {

// Largest hop count from s to any switch it reaches.
unsigned eccentricity(const arn::PrefixGraph &g, arn::NodeIndex s, std::vector<unsigned> &dist) {
    dist.assign(g.size(), std::numeric_limits<unsigned>::max());
    std::deque<arn::NodeIndex> q{s};
    dist[s] = 0;
    unsigned far = 0;
    while (!q.empty()) {
        const arn::NodeIndex v = q.front();
        q.pop_front();
        far = std::max(far, dist[v]);
        for (const auto &a : g.links(v))
            if (dist[a.peer] == std::numeric_limits<unsigned>::max()) {
                dist[a.peer] = dist[v] + 1;
                q.push_back(a.peer);
            }
    }
    return far;
}

}  // namespace

arn::PrefixGraph prefix_switch_graph(const Fabric &f) {
    arn::PrefixGraph g(f.switch_count());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const NodeIdx n = f.switch_node(s);
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (!x.linked() || !f.node(x.peer).is_switch() || x.peer == n) continue;
            const SwitchIdx t = f.node(x.peer).sw;
            if (std::pair(t, x.peer_port) < std::pair(s, p)) continue;  // each cable once
            g.connect(s, p, t, x.peer_port);
        }
    }
    return g;
}

arn::PrefixLabels prefix_labels(const Fabric &f, const RoutingOptions &o) {
    const arn::PrefixGraph g = prefix_switch_graph(f);
    for (Guid guid : o.root_guids) {
        const auto n = f.find_guid(guid);
        if (n && f.node(*n).is_switch()) return arn::PrefixLabels::minimum(g, f.node(*n).sw);
    }
    std::vector<SwitchIdx> by_guid(f.switch_count());
    for (SwitchIdx s = 0; s < by_guid.size(); ++s) by_guid[s] = s;
    std::sort(by_guid.begin(), by_guid.end(), [&](SwitchIdx a, SwitchIdx b) {
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });
    SwitchIdx root = by_guid.front();
    unsigned best = std::numeric_limits<unsigned>::max();
    std::vector<unsigned> dist;
    for (SwitchIdx s : by_guid) {
        const unsigned e = eccentricity(g, s, dist);
        if (e < best) best = e, root = s;
    }
    return arn::PrefixLabels::minimum(g, root);
}

void append_turns(const Fabric &f, std::span<const arn::RouteHop> hops, std::vector<ChannelTurn> &out) {
    for (std::size_t i = 1; i < hops.size(); ++i)
        out.push_back({f.switch_node(hops[i].node), static_cast<PortNum>(hops[i - 1].next_port),
                       static_cast<PortNum>(hops[i].port), 0, 0});
}

void append_turns(const Fabric &f, const arn::PrefixMulticast &m, std::vector<ChannelTurn> &out) {
    for (const arn::MulticastStep &s : m.steps) {
        if (s.in_port == arn::kLocalPort) continue;
        for (const arn::RouteHop &h : s.out)
            out.push_back(
                {f.switch_node(s.node), static_cast<PortNum>(s.in_port), static_cast<PortNum>(h.port), 0, 0});
    }
}

namespace engines {
namespace {

class Prefix final : public Engine {
  public:
    std::string_view name() const override { return "prefix"; }
    // No min-hop matrices first: the hops come from the routes.
    bool provides_lid_matrices() const override { return true; }
    HookResult build_lid_matrices(RoutingContext &, RoutingTables &) override {
        return HookResult::success();
    }
    bool provides_fwd_tables() const override { return true; }
    HookResult build_fwd_tables(RoutingContext &ctx, RoutingTables &t) override {
        const Fabric &f = ctx.fabric;
        if (f.switch_count() == 0) return HookResult::failure("not a switched subnet");
        labels_.emplace(prefix_labels(f, ctx.options));
        const arn::PrefixLabels &l = *labels_;
        const std::size_t S = f.switch_count();
        // Each LID's switch and the port of that switch facing its owner (0: the switch itself).
        const Lid max = f.max_lid();
        std::vector<SwitchIdx> dest(max + 1, kNoSwitch);
        std::vector<PortNum> last(max + 1, 0);
        for (Lid lid = 1; lid <= max; ++lid) {
            const auto owner = f.lid_owner(lid);
            const NodeIdx at = owner ? f.attached_switch(lid) : kNoNode;
            if (at == kNoNode) continue;
            dest[lid] = f.node(at).sw;
            if (!f.node(owner->node).is_switch()) last[lid] = f.port(owner->node, owner->port).peer_port;
        }
        // Per source, the port toward each switch (kNoPort across trees), then its LFT row.
        std::vector<PortNum> toward(S);
        for (SwitchIdx s = 0; s < S; ++s) {
            for (SwitchIdx d = 0; d < S; ++d) {
                const auto c = s == d ? std::nullopt : arn::next_channel(l, s, l.label(d));
                toward[d] = c ? static_cast<PortNum>(l.channels(s)[*c].port) : kNoPort;
            }
            for (Lid lid = 1; lid <= max; ++lid)
                if (dest[lid] != kNoSwitch) t.lft[s][lid] = dest[lid] == s ? last[lid] : toward[dest[lid]];
            if (ctx.progress) ctx.progress(s + 1, S);
        }
        hops_from_lfts(f, t);
        return HookResult::success();
    }

    // The part of the prefix tree below the LCP of the members' switches, with the members' ports.
    bool provides_mcast_tree() const override { return true; }
    HookResult build_mcast_tree(RoutingContext &ctx, const RoutingTables &, const McastGroup &g,
                                McastTree &out) override {
        const Fabric &f = ctx.fabric;
        if (!labels_) labels_.emplace(prefix_labels(f, ctx.options));
        const arn::PrefixLabels &l = *labels_;
        std::vector<std::pair<SwitchIdx, PortNum>> members;  // the switch and the port facing it
        for (const LidOwner &o : g.members) {
            if (o.node >= f.node_count()) return HookResult::failure("a member node that does not exist");
            const Node &n = f.node(o.node);
            if (n.is_switch()) {
                members.emplace_back(n.sw, 0);
                continue;
            }
            if (o.port == 0 || o.port > n.num_ports || !f.port(o.node, o.port).linked() ||
                !f.node(f.port(o.node, o.port).peer).is_switch())
                return HookResult::failure("member '" + n.desc + "' port " + std::to_string(o.port) +
                                           " is not cabled to a switch");
            const Port &x = f.port(o.node, o.port);
            members.emplace_back(f.node(x.peer).sw, x.peer_port);
        }
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        if (members.size() < 2) return HookResult::success();  // as OpenSM: nothing to do
        std::vector<arn::NodeIndex> switches;
        for (const auto &m : members) switches.push_back(m.first);
        for (arn::NodeIndex s : switches)
            if (!l.same_tree(s, switches.front()))
                return HookResult::failure("the members' switches are not connected");
        const arn::NodeIndex lcp = *l.node_of(arn::longest_common_prefix(l, switches));
        auto add = [&](SwitchIdx s, PortNum p) { out.ports[s].push_back(p); };
        for (const auto &[s, p] : members) {
            add(s, p);
            // Up the tree to the LCP, both ends of each link.
            for (arn::NodeIndex v = s; v != lcp; v = l.parent(v)) {
                add(v, static_cast<PortNum>(l.up_port(v)));
                add(l.parent(v), f.port(f.switch_node(v), static_cast<PortNum>(l.up_port(v))).peer_port);
            }
        }
        for (auto &ports : out.ports) {
            std::sort(ports.begin(), ports.end());
            ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
        }
        return HookResult::success();
    }

  private:
    std::optional<arn::PrefixLabels> labels_;
};

}  // namespace

std::unique_ptr<Engine> make_prefix() {
    return std::make_unique<Prefix>();
}

}  // namespace engines
}  // namespace weft::routing
