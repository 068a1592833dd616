#include "weft/routing/tables.hpp"

#include <algorithm>

namespace weft::routing {

void RoutingTables::reset(const Fabric &f) {
    const std::size_t lids = std::size_t{f.max_lid()} + 1;
    lft.resize(f.switch_count());
    hops.resize(f.switch_count());
    for (auto &row : lft) row.assign(lids, kNoPort);
    for (auto &row : hops) row.assign(lids, kInfHops);
    path_sl.clear();
    sl2vl.clear();
    sl2vl_all.reset();
    vls_used = 1;
    warnings.clear();
    engine.clear();
}

std::vector<PortNum> equal_cost_ports(const Fabric &f, const RoutingTables &t, SwitchIdx s, Lid lid) {
    std::vector<PortNum> out;
    const std::uint8_t here = t.hops[s][lid];
    if (here == kInfHops || here == 0) return out;
    const NodeIdx n = f.switch_node(s);
    const auto ports = f.ports(n);
    for (PortNum p = 1; p < ports.size(); ++p) {
        const Port &x = ports[p];
        if (!x.linked()) continue;
        const Node &peer = f.node(x.peer);
        // One hop left: the peer is the destination itself (a CA port or the target switch).
        std::uint8_t there;
        if (peer.is_switch()) {
            there = t.hops[peer.sw][lid];
        } else {
            auto o = f.lid_owner(lid);
            there = (o && o->node == x.peer && o->port == x.peer_port) ? 0 : kInfHops;
        }
        if (there != kInfHops && there + 1 == here) out.push_back(p);
    }
    return out;
}

}  // namespace weft::routing
