// OpenSM's mesh analysis for lash (--do_mesh_analysis). Parallel cables between two switches
// become one logical link. Each switch with at most 8 neighbours is classified by the
// characteristic polynomial of the distances between its neighbours (paths avoiding the switch)
// against the polynomials of the local shape of 1- to 8-dimensional meshes and tori. When the
// most common class is such a shape, axes (+x, -x, +y, ...) are seeded on one switch of that
// class, spread to the others through opposite links, cable ends and square corners, and
// coordinates follow from the axes. Then every switch lists its links dimension by dimension
// (largest dimension first, toward the origin first), and the switches are numbered by their
// coordinates, which is the order lash grows its trees and forms its pairs in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/switch_graph.hpp"

namespace weft::routing::engines {

struct MeshLink {
    SwitchIdx peer = kNoSwitch;
    std::vector<std::uint8_t> cables;  // indices into SwitchGraph::links(s), in port order
};

struct MeshAnalysis {
    bool found = false;                        // a mesh shape was recognised and applied
    std::vector<unsigned> size;                // measured extent per dimension (when found)
    std::string shape;                         // e.g. "6+ x 6+ x 6+" (the classified local shape)
    std::vector<SwitchIdx> order;              // lash's switch order
    std::vector<std::vector<MeshLink>> links;  // per switch (SwitchIdx), in lash's link order
};

// `by_guid`: the switches in GUID order (lash's order without the analysis).
MeshAnalysis analyse_mesh(const SwitchGraph &g, const std::vector<SwitchIdx> &by_guid);

}  // namespace weft::routing::engines
