// Nue's multicast trees (OpenSM: a spanning tree per group rooted at the switch the mcast manager
// suggests, preferring links with few unicast routes). The root is the switch whose largest hop
// count to the members is smallest (lowest GUID among equals, OpenSM's GUID-ordered switch scan);
// the tree is a Dijkstra tree from the root with link cost = 1 + unicast routes on the channel,
// pruned to the branches that lead to members.
#include <algorithm>
#include <queue>

#include "engines/nue/complete_cdg.hpp"
#include "weft/routing/nue.hpp"

namespace weft::routing {

using namespace engines;
using namespace engines::nue;

namespace {

// Routes per switch-to-switch channel: for each destination LID, the sources behind every switch
// (its CA ports) carried along the LFT next hops, farthest switches first.
std::vector<std::uint64_t> channel_loads(const Fabric &f, const SwitchGraph &g, const Channels &ch,
                                         const RoutingTables &t) {
    const std::size_t n = g.size();
    std::vector<std::uint64_t> load(ch.size(), 0), carried(n);
    std::vector<ChannelId> by_port;  // (switch, port) -> channel
    std::vector<std::uint32_t> port_base(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s)
        port_base[s + 1] = port_base[s] + f.node(f.switch_node(s)).num_ports + 1u;
    by_port.assign(port_base[n], kNoChannel);
    for (SwitchIdx s = 0; s < n; ++s)
        for (ChannelId c = ch.begin(s); c < ch.end(s); ++c) by_port[port_base[s] + ch.port(c)] = c;
    std::vector<SwitchIdx> order(n);
    for (Lid lid = 1; lid <= g.max_lid(); ++lid) {
        const LidTarget &tg = g.target(lid);
        if (tg.sw == kNoSwitch || tg.is_switch) continue;
        for (SwitchIdx s = 0; s < n; ++s) order[s] = s, carried[s] = g.end_ports(s) - (s == tg.sw ? 1u : 0u);
        std::sort(order.begin(), order.end(), [&](SwitchIdx a, SwitchIdx b) {
            return t.hops[a][lid] > t.hops[b][lid] && t.hops[a][lid] != kInfHops;
        });
        for (SwitchIdx s : order) {
            if (t.hops[s][lid] == kInfHops || s == tg.sw) continue;
            const PortNum p = t.lft[s][lid];
            if (p == kNoPort || p >= port_base[s + 1] - port_base[s]) continue;
            const ChannelId c = by_port[port_base[s] + p];
            if (c == kNoChannel) continue;
            load[c] += carried[s];
            carried[ch.head(c)] += carried[s];
        }
    }
    return load;
}

}  // namespace

HookResult build_nue_mcast_tree(const Fabric &f, const RoutingTables &t, const McastGroup &grp,
                                McastTree &out) {
    const SwitchGraph g(f);
    const std::size_t n = g.size();
    out.mlid = grp.mlid;
    out.ports.assign(n, {});
    if (grp.members.empty()) return HookResult::success();
    if (n == 0) return HookResult::failure("not a switched subnet");
    // Each member's switch and the port facing it (0 for a switch member).
    struct Leg {
        SwitchIdx sw;
        PortNum port;
        Lid lid;
    };
    std::vector<Leg> legs;
    for (const LidOwner &m : grp.members) {
        const Node &node = f.node(m.node);
        const Lid lid = f.port(m.node, node.is_switch() ? 0 : m.port).lid;
        if (node.is_switch()) {
            legs.push_back({node.sw, 0, lid});
            continue;
        }
        const Port &p = f.port(m.node, m.port);
        if (!p.linked() || !f.node(p.peer).is_switch())
            return HookResult::failure("multicast member " + node.desc + " port " + std::to_string(m.port) +
                                       " is not cabled to a switch");
        legs.push_back({f.node(p.peer).sw, p.peer_port, lid});
    }
    // Root: smallest largest hop count to the members (hops to the member's LID), GUID order.
    std::vector<SwitchIdx> by_guid(n);
    for (SwitchIdx s = 0; s < n; ++s) by_guid[s] = s;
    std::sort(by_guid.begin(), by_guid.end(), [&](SwitchIdx a, SwitchIdx b) {
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });
    SwitchIdx root = kNoSwitch;
    unsigned best = kInfHops + 1u;
    for (SwitchIdx s : by_guid) {
        unsigned worst = 0;
        for (const Leg &l : legs) {
            const unsigned h = (l.lid && l.lid < t.hops[s].size()) ? t.hops[s][l.lid] : kInfHops;
            worst = std::max(worst, h);
        }
        if (worst < best) best = worst, root = s;
    }
    if (root == kNoSwitch || best >= kInfHops)
        return HookResult::failure("no switch reaches every member of the group");

    const Channels ch(f, g);
    const auto load = channel_loads(f, g, ch, t);
    std::vector<std::uint64_t> dist(n, ~std::uint64_t{0});
    std::vector<ChannelId> parent(n, kNoChannel);  // channel from the parent into the switch
    using Item = std::pair<std::uint64_t, SwitchIdx>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    dist[root] = 0;
    heap.push({0, root});
    while (!heap.empty()) {
        const auto [d, v] = heap.top();
        heap.pop();
        if (d != dist[v]) continue;
        for (ChannelId c = ch.begin(v); c < ch.end(v); ++c) {
            const SwitchIdx w = ch.head(c);
            const std::uint64_t nd = d + 1 + load[c];
            if (nd < dist[w]) dist[w] = nd, parent[w] = c, heap.push({nd, w});
        }
    }
    std::vector<std::uint8_t> on_tree(n, 0);
    for (const Leg &l : legs) {
        if (dist[l.sw] == ~std::uint64_t{0})
            return HookResult::failure("multicast member behind switch " + f.node(f.switch_node(l.sw)).desc +
                                       " cannot be reached from the root");
        out.ports[l.sw].push_back(l.port);
        for (SwitchIdx s = l.sw; s != root && !on_tree[s]; s = ch.tail(parent[s])) {
            on_tree[s] = 1;
            out.ports[s].push_back(ch.port(ch.reverse(parent[s])));       // up toward the root
            out.ports[ch.tail(parent[s])].push_back(ch.port(parent[s]));  // down from the parent
        }
    }
    for (auto &ports : out.ports) {
        std::sort(ports.begin(), ports.end());
        ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
    }
    return HookResult::success();
}

}  // namespace weft::routing
