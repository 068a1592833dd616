// Test fixtures: small fabrics with hand-written LFTs, so every expected number can be worked
// out on paper.
#pragma once

#include "weft/routing/fabric.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::testing {

// Ring of three switches; port 1 leads clockwise (s -> s+1), port 2 counter-clockwise, port 3
// to the switch's host. LFTs send everything clockwise: deadlock-prone by construction.
struct Ring3 {
    Fabric f;
    NodeIdx sw[3], host[3];
    RoutingTables t;
    Ring3() {
        for (int i = 0; i < 3; ++i)
            sw[i] = f.add_node(NodeType::Switch, 0x100 + i, 4, "ring" + std::to_string(i));
        for (int i = 0; i < 3; ++i) {
            host[i] = f.add_node(NodeType::Ca, 0x200 + 16 * i, 1, "h" + std::to_string(i));
            f.set_port_guid(host[i], 1, 0x200 + 16 * i + 1);
        }
        for (int i = 0; i < 3; ++i) f.connect(sw[i], 1, sw[(i + 1) % 3], 2);
        for (int i = 0; i < 3; ++i) f.connect(sw[i], 3, host[i], 1);
        assign_lids(f, {});
        t.reset(f);
        for (int s = 0; s < 3; ++s) {
            for (Lid l = 1; l <= f.max_lid(); ++l) {
                const NodeIdx owner = f.lid_owner(l)->node;
                if (owner == sw[s])
                    t.lft[s][l] = 0;
                else if (owner == host[s])
                    t.lft[s][l] = 3;
                else
                    t.lft[s][l] = 1;
            }
        }
    }
    Lid host_lid(int i) const { return f.port(host[i], 1).lid; }
};

// Two-level fat tree: `leaves` leaves with `per_leaf` hosts each and `roots` roots, one cable
// from every leaf to every root. LFTs: destination host number d goes up to root d mod roots
// (D-mod-K), then straight down.
struct TwoLevel {
    Fabric f;
    std::vector<NodeIdx> leaf, root, host;
    RoutingTables t;
    TwoLevel(unsigned leaves, unsigned per_leaf, unsigned roots) {
        for (unsigned r = 0; r < roots; ++r)
            root.push_back(f.add_node(NodeType::Switch, 0x1000 + r, leaves, "root"));
        for (unsigned l = 0; l < leaves; ++l)
            leaf.push_back(f.add_node(NodeType::Switch, 0x2000 + l, per_leaf + roots, "leaf"));
        for (unsigned h = 0; h < leaves * per_leaf; ++h) {
            host.push_back(f.add_node(NodeType::Ca, 0x10000 + 16 * h, 1, "host"));
            f.set_port_guid(host.back(), 1, 0x10000 + 16 * h + 1);
            f.connect(host.back(), 1, leaf[h / per_leaf], 1 + h % per_leaf);
        }
        for (unsigned l = 0; l < leaves; ++l)
            for (unsigned r = 0; r < roots; ++r) f.connect(leaf[l], per_leaf + 1 + r, root[r], 1 + l);
        assign_lids(f, {});
        t.reset(f);
        for (Lid lid = 1; lid <= f.max_lid(); ++lid) {
            const NodeIdx owner = f.lid_owner(lid)->node;
            for (unsigned r = 0; r < roots; ++r) {
                const SwitchIdx s = f.node(root[r]).sw;
                if (owner == root[r])
                    t.lft[s][lid] = 0;
                else if (f.node(owner).is_switch() && owner != root[r])
                    t.lft[s][lid] = owner >= leaf[0] ? static_cast<PortNum>(1 + (owner - leaf[0])) : 1;
                else
                    t.lft[s][lid] = static_cast<PortNum>(1 + (owner - host[0]) / per_leaf);
            }
            for (unsigned l = 0; l < leaves; ++l) {
                const SwitchIdx s = f.node(leaf[l]).sw;
                if (owner == leaf[l]) {
                    t.lft[s][lid] = 0;
                } else if (!f.node(owner).is_switch() && (owner - host[0]) / per_leaf == l) {
                    t.lft[s][lid] = static_cast<PortNum>(1 + (owner - host[0]) % per_leaf);
                } else {
                    const unsigned d = f.node(owner).is_switch() ? 0 : owner - host[0];
                    const unsigned r = owner < leaf[0] ? owner - root[0] : d % roots;  // roots: directly
                    t.lft[s][lid] = static_cast<PortNum>(per_leaf + 1 + r);
                }
            }
        }
    }
};

}  // namespace weft::routing::testing
