// torus-2QoS multicast: one master spanning tree for all groups, rooted near the centre of the
// torus (with respect to the datelines) at a switch whose x and y rings are whole, in a z plane
// with no missing switch. Branches run along x from the root, along y from every switch of the
// root's x line, and along z from every switch of the root's z plane, so every root-to-tip turn
// is a legal x-y-z turn. A branch crosses a dateline only on a ring a failure has broken. Each
// group's tree is the part of the master tree that leads to its members.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engines/torus/torus_topology.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::torus {

struct MasterTree {
    SwitchIdx root = kNoSwitch;
    std::vector<int> to_root;                       // by switch: port group towards the root, -1 at the root
    std::vector<std::array<bool, kGroups>> to_tip;  // by switch: groups leading to children
};

bool build_master_tree(const Fabric &f, const Torus &t, MasterTree &m, std::string &why);

// The group's tree: member switches' ports in port order; a switch member joins with port 0.
// Fails naming a member that is not on the torus.
bool group_tree(const Fabric &f, const Torus &t, const MasterTree &m, const McastGroup &g, McastTree &out,
                std::string &why);

}  // namespace weft::routing::torus
