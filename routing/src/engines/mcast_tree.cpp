// The default multicast spanning tree (OpenSM's mcast manager) and the chain-level entry that
// lets the engine which routed build its own. The tree is built top-down: the members still to
// reach from a switch are split over its ports, each going through the lowest-numbered port one
// hop closer to the member's switch and never balanced, so that branches toward different
// members cannot meet again (on a shortest-path metric the first such port is the same for
// every member behind a common switch).
#include <algorithm>
#include <cstdio>

#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

using engines::switch_name;

struct Member {
    SwitchIdx sw = kNoSwitch;  // the member switch, or the switch a CA port is cabled to
    PortNum at = 0;            // port of sw facing the CA; 0 for a switch member
    Lid target = 0;            // base LID of sw: hops are taken to the member's switch
    bool ca = false;
    std::string name;
};

struct Branch {
    SwitchIdx sw;
    PortNum upstream;  // 0 at the root
    std::vector<std::uint32_t> members;
};

}  // namespace

HookResult build_minhop_mcast_tree(const Fabric &f, const RoutingTables &t, const McastGroup &g,
                                   McastTree &out) {
    out.mlid = g.mlid;
    out.ports.assign(f.switch_count(), {});
    std::vector<Member> members;
    for (const LidOwner &o : g.members) {
        if (o.node >= f.node_count())
            return HookResult::failure("member node " + std::to_string(o.node) + " does not exist");
        const Node &n = f.node(o.node);
        Member m;
        if (n.is_switch()) {
            m.sw = n.sw;
            m.name = "switch " + switch_name(f, n.sw);
        } else {
            if (o.port == 0 || o.port > n.num_ports)
                return HookResult::failure("member '" + n.desc + "' has no port " + std::to_string(o.port));
            const Port &x = f.port(o.node, o.port);
            m.name = "'" + n.desc + "' port " + std::to_string(o.port);
            if (!x.linked() || !f.node(x.peer).is_switch())
                return HookResult::failure("member " + m.name + " is not cabled to a switch");
            m.sw = f.node(x.peer).sw;
            m.at = x.peer_port;
            m.ca = true;
        }
        m.target = f.port(f.switch_node(m.sw), 0).lid;
        const bool dup = std::any_of(members.begin(), members.end(),
                                     [&](const Member &y) { return y.sw == m.sw && y.at == m.at; });
        if (!dup) members.push_back(std::move(m));
    }
    if (members.size() < 2) return HookResult::success();  // OpenSM: nothing to do
    for (const Member &m : members)
        if (m.target == 0 || m.target >= t.hops.front().size())
            return HookResult::failure("the switch of member " + m.name + " has no LID");

    // Root: the smallest largest hop count to the members' switches (+1 for a CA behind it),
    // first in GUID order among equals.
    std::vector<SwitchIdx> by_guid(f.switch_count());
    for (SwitchIdx s = 0; s < by_guid.size(); ++s) by_guid[s] = s;
    std::sort(by_guid.begin(), by_guid.end(), [&](SwitchIdx a, SwitchIdx b) {
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });
    SwitchIdx root = kNoSwitch;
    unsigned best = ~0u;
    for (SwitchIdx s : by_guid) {
        unsigned worst = 0;
        for (const Member &m : members) {
            const unsigned h = m.sw == s ? 0 : t.hops[s][m.target];
            if (h == kInfHops) {
                worst = ~0u;
                break;
            }
            worst = std::max(worst, h + (m.ca ? 1u : 0u));
        }
        if (worst < best) best = worst, root = s;
    }
    if (root == kNoSwitch)
        return HookResult::failure("no switch reaches every member of MLID " + std::to_string(g.mlid));

    std::vector<bool> on_tree(f.switch_count(), false);
    std::vector<Branch> todo;
    todo.push_back({root, 0, {}});
    for (std::uint32_t i = 0; i < members.size(); ++i) todo.back().members.push_back(i);
    std::vector<std::vector<std::uint32_t>> by_port;
    while (!todo.empty()) {
        Branch b = std::move(todo.back());
        todo.pop_back();
        if (on_tree[b.sw])
            return HookResult::failure("MLID " + std::to_string(g.mlid) + ": two branches meet at switch " +
                                       switch_name(f, b.sw) +
                                       " (the hop matrix is not a shortest-path metric)");
        on_tree[b.sw] = true;
        const NodeIdx node = f.switch_node(b.sw);
        const PortNum radix = f.node(node).num_ports;
        by_port.assign(std::size_t{radix} + 1, {});
        for (std::uint32_t k : b.members) {
            const Member &m = members[k];
            PortNum port = kNoPort;
            if (m.sw == b.sw) {
                port = m.at;
            } else {
                const std::uint8_t least = t.hops[b.sw][m.target];
                for (PortNum p = 1; p <= radix && least != kInfHops; ++p) {
                    const Port &x = f.port(node, p);
                    if (!x.linked() || x.peer == node || !f.node(x.peer).is_switch()) continue;
                    const std::uint8_t there = t.hops[f.node(x.peer).sw][m.target];
                    if (there != kInfHops && there + 1 == least) {
                        port = p;
                        break;
                    }
                }
            }
            if (port == kNoPort)
                return HookResult::failure("MLID " + std::to_string(g.mlid) + ": no path from switch " +
                                           switch_name(f, b.sw) + " to member " + m.name);
            by_port[port].push_back(k);
        }
        auto &mine = out.ports[b.sw];
        if (b.upstream) mine.push_back(b.upstream);
        for (PortNum p = 0; p <= radix; ++p) {
            if (by_port[p].empty()) continue;
            mine.push_back(p);
            if (p == 0) continue;
            const Port &x = f.port(node, p);
            if (f.node(x.peer).is_switch())
                todo.push_back({f.node(x.peer).sw, x.peer_port, std::move(by_port[p])});
        }
        std::sort(mine.begin(), mine.end());
        mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    }
    return HookResult::success();
}

HookResult build_mcast_tree(const ChainResult &routed, const Fabric &f, const RoutingOptions &o,
                            const RoutingTables &t, const McastGroup &g, McastTree &out) {
    Engine *e = routed.routed_by.get();
    if (!e || !e->provides_mcast_tree()) return build_minhop_mcast_tree(f, t, g, out);
    RoutingContext ctx{f, o, {}};
    out.mlid = g.mlid;
    out.ports.assign(f.switch_count(), {});
    try {
        return e->build_mcast_tree(ctx, t, g, out);
    } catch (const std::exception &ex) {
        return HookResult::failure(ex.what());
    }
}

McastRouting route_mcast_groups(const ChainResult &routed, const Fabric &f, const RoutingOptions &o,
                                const RoutingTables &t, const std::vector<McastGroup> &groups) {
    McastRouting r;
    for (const McastGroup &g : groups) {
        char mlid[8];
        std::snprintf(mlid, sizeof mlid, "0x%04x", static_cast<unsigned>(g.mlid));
        McastTree tree;
        const HookResult h = build_mcast_tree(routed, f, o, t, g, tree);
        if (!h.ok) {
            r.failures.push_back(std::string("group ") + mlid + ": no tree: " + h.error);
            continue;
        }
        tree.mlid = g.mlid;
        const McastTreeReport check = verify_mcast_tree(f, g, tree);
        if (!check.ok()) {
            r.failures.push_back(std::string("group ") + mlid +
                                 ": the tree fails its check: " + check.problems.front());
            continue;
        }
        r.trees.push_back(std::move(tree));
    }
    return r;
}

}  // namespace weft::routing
