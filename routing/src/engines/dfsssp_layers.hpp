// dfsssp's virtual-layer assignment (OpenSM's dfsssp_remove_deadlocks, our own code): every route
// from a CA starts in layer 0; while a layer's channel dependency graph has a cycle, the routes
// behind the cycle's least-used dependency move up one layer. A route's channels are read off the
// LFTs each time they are needed, nothing kept per route: stored paths would be memory in
// proportion to routes x hops (gigabytes on the largest fabrics), and walking the LFTs again
// costs less than writing them down.
#pragma once

#include <string>

#include "engines/switch_graph.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing::engines {

struct DfssspLayers {
    unsigned used = 0;  // 0: failed, `error` says why (t's path_sl is then incomplete)
    std::string error;
};

// Assigns t.path_sl (the layer of every route from a CA LID, by source switch and destination
// LID) from t.lft, in at most max_layers layers.
DfssspLayers assign_dfsssp_layers(const SwitchGraph &g, RoutingTables &t, unsigned max_layers);

}  // namespace weft::routing::engines
