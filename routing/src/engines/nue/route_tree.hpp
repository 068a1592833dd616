// What nue's two path searches (cdg_dijkstra, osm_cdg_dijkstra) share about their result: a
// destination's routes form a tree of next channels toward it. Helpers to size the switches a
// search must reach, to lay a tree out in settling order, and to put its routes' load on the
// channel weights.
#pragma once

#include <cstdint>
#include <vector>

#include "engines/nue/complete_cdg.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::engines::nue {

// Per switch, how many switches its connected component holds (itself included): a search
// that settles fewer hit an impasse rather than a switch it cannot reach at all.
std::vector<std::uint32_t> reachable_switches(const Channels &ch);

// Settling order along the tree `next` from d (d first, children after their parents) and each
// switch's hops to d; switches off the tree keep kInfHops and are left out of `order`.
void settle_along_tree(const Channels &ch, SwitchIdx d, const std::vector<ChannelId> &next,
                       std::vector<std::uint8_t> &hops, std::vector<SwitchIdx> &order);

// Adds each route's load (sources per switch, carried toward d) to the channel weights, walking
// `order` (settling order) backwards; `carried` is scratch of one entry per switch. Returns the
// largest weight it changed (0 if none).
std::uint64_t add_tree_load(const Channels &ch, const std::vector<SwitchIdx> &order,
                            const std::vector<ChannelId> &next, const std::vector<std::uint64_t> &sources,
                            std::vector<std::uint64_t> &carried, std::vector<std::uint64_t> &weight);

}  // namespace weft::routing::engines::nue
