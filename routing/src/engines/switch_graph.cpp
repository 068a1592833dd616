#include "engines/switch_graph.hpp"

namespace weft::routing::engines {

SwitchGraph::SwitchGraph(const Fabric &f) {
    const std::size_t n = f.switch_count();
    begin_.assign(n + 1, 0);
    end_ports_.assign(n, 0);
    for (SwitchIdx s = 0; s < n; ++s) {
        const NodeIdx node = f.switch_node(s);
        const auto ports = f.ports(node);
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &x = ports[p];
            if (!x.linked() || x.peer == node) continue;  // loopback cables carry no routes
            const Node &peer = f.node(x.peer);
            if (peer.is_switch()) {
                links_.push_back({p, x.peer_port, peer.sw});
            } else if (f.port(x.peer, x.peer_port).lid != 0) {
                ++end_ports_[s];
            }
        }
        begin_[s + 1] = static_cast<std::uint32_t>(links_.size());
    }
    targets_.assign(std::size_t{f.max_lid()} + 1, LidTarget{});
    for (Lid l = 1; l <= f.max_lid(); ++l) {
        auto o = f.lid_owner(l);
        if (!o) continue;
        LidTarget &t = targets_[l];
        t.node = o->node;
        t.node_port = o->port;
        const Node &owner = f.node(o->node);
        if (owner.is_switch()) {
            t.sw = owner.sw;
            t.is_switch = true;
            continue;
        }
        const Port &x = f.port(o->node, o->port);
        if (!x.linked() || !f.node(x.peer).is_switch()) continue;
        t.sw = f.node(x.peer).sw;
        t.port = x.peer_port;
    }
}

HopMatrix switch_min_hops(const SwitchGraph &g) {
    HopMatrix m;
    const std::size_t n = g.size();
    m.assign(n);
    std::vector<SwitchIdx> queue(n);
    std::vector<std::uint8_t> dist(n);
    for (SwitchIdx d = 0; d < n; ++d) {
        // Links are symmetric (both ends active), so a BFS from d gives hops *to* d.
        std::fill(dist.begin(), dist.end(), kInfHops);
        dist[d] = 0;
        std::size_t head = 0, tail = 0;
        queue[tail++] = d;
        while (head < tail) {
            const SwitchIdx u = queue[head++];
            const std::uint8_t next = static_cast<std::uint8_t>(dist[u] + 1);
            if (next == kInfHops) continue;
            for (const SwitchLink &l : g.links(u))
                if (dist[l.peer] == kInfHops) dist[l.peer] = next, queue[tail++] = l.peer;
        }
        for (SwitchIdx s = 0; s < n; ++s) m.at(s, d) = dist[s];
    }
    return m;
}

void fill_lid_hops(const SwitchGraph &g, const HopMatrix &m, RoutingTables &t) {
    const std::size_t n = g.size();
    // The routed LIDs with their switch and extra hop, gathered once for all rows.
    std::vector<Lid> lids;
    std::vector<SwitchIdx> sw;
    std::vector<std::uint8_t> extra;
    for (Lid l = 1; l <= g.max_lid(); ++l) {
        const LidTarget &tg = g.target(l);
        if (tg.sw == kNoSwitch) continue;
        lids.push_back(l), sw.push_back(tg.sw), extra.push_back(tg.is_switch ? 0 : 1);
    }
    for (SwitchIdx s = 0; s < n; ++s) {
        std::uint8_t *row = t.hops[s].data();
        const std::uint8_t *dist = m.v.data() + std::size_t{s} * m.n;
        for (std::size_t i = 0; i < lids.size(); ++i) {
            const unsigned h = dist[sw[i]] + unsigned{extra[i]};
            row[lids[i]] = h >= kInfHops ? kInfHops : static_cast<std::uint8_t>(h);
        }
    }
}

}  // namespace weft::routing::engines
