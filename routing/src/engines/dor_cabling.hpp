// What dimension-order routing needs from the cabling (OpenSM's dor section): port numbers name
// dimensions. A hypercube dimension is one port number used at both ends of its cables; a mesh
// dimension is a pair of port numbers, "+" at one end of each cable and "-" at the other, all
// along the dimension. Parallel cables between two switches count as one dimension. Lower
// dimensions must sit on lower ports at every switch, because dor takes the lowest min-hop port.
//
// check_dor_cabling finds the port classes (dimensions) and reports, naming switches and ports,
// whatever breaks that picture, and each mesh dimension that closes into a ring (a torus: dor
// alone does not keep rings free of credit loops).
#pragma once

#include <string>
#include <vector>

#include "engines/switch_graph.hpp"

namespace weft::routing::engines {

struct DorCabling {
    std::vector<std::string> problems;  // inconsistencies, first ones found, one line each
    std::vector<std::string> rings;     // mesh dimensions that wrap around
    unsigned dimensions = 0;            // port classes carrying switch-to-switch cables
};

DorCabling check_dor_cabling(const Fabric &f, const SwitchGraph &g);

}  // namespace weft::routing::engines
