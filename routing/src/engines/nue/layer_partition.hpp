// Step 2 of Nue: the destinations split into one subset per virtual layer. METIS cuts the switch
// graph (vertex weight = destinations on the switch, edge weight = cables between two switches)
// into k parts of about equal destination count, so each layer's destinations sit close together
// and its escape paths stay short. Without METIS (or when it fails) a seeded shuffle of the
// destinations is dealt round-robin over the layers, OpenSM's semi-random fallback.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/switch_graph.hpp"

namespace weft::routing::engines::nue {

struct LayerPartition {
    std::vector<std::uint8_t> layer;  // by LID; only destinations are meaningful
    unsigned used = 1;                // non-empty layers, numbered 0..used-1
    bool metis = false;
    std::string note;  // why METIS was not used when asked for
};

// `dests` in routing order; `layers` >= 1. use_metis: try METIS first; metis_only: fail (note
// set, used = 0) instead of falling back.
LayerPartition partition_layers(const SwitchGraph &g, const std::vector<Lid> &dests, unsigned layers,
                                bool use_metis, bool metis_only, std::uint64_t seed);

// OpenSM built without METIS (Debian's 3.3.23): the destinations in the given order (OpenSM's: by
// port GUID) dealt round-robin over the layers, the first to layer 0.
LayerPartition deal_round_robin(const SwitchGraph &g, const std::vector<Lid> &ordered, unsigned layers);

// Whether this build has METIS.
bool metis_available();

}  // namespace weft::routing::engines::nue
