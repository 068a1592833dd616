// The `auto` routing choice: recognise the fabric's shape from its topology alone and pick the
// engine chain that suits it. `-R auto` (alone or inside a list) expands to that chain in
// run_chain, which then falls back exactly as for a written list; ChainResult::auto_choice says
// what was recognised, from what evidence, and why that chain.
//
// Recognition, cheapest first; the first that holds wins, and a fabric none of them recognises
// gets the general chain (every engine in it is free of credit loops on any topology):
//   fat tree   switches ranked by distance from the host switches (or from the -a roots, or the
//              switches of the -u compute nodes): every switch link joins adjacent ranks
//   torus/mesh/hypercube
//              no triangles; at each switch the links pair up into straight lines (two links
//              that share no 4-cycle), parallel lines (opposite sides of 4-cycles) form
//              dimensions, and the dimensions' radices multiply to about the switch count; a
//              dimension whose lines close is a ring (torus). A radix-4 ring is a 4-cycle and
//              reads as two radix-2 dimensions (a 4x4 torus is the 4-cube: the same graph).
//   dragonfly  groups joined inside by links on triangles (all-to-all), or for dragonfly+ by
//              the leaf-spine links of host switches; three or more groups of about one size,
//              nearly complete inside, nearly every pair of groups joined by global links
// Degraded fabrics (a few failed links or switches) keep these properties closely enough; the
// thresholds let a few percent go missing and no more.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/fabric.hpp"

namespace weft::routing {

// The token in an -R list.
inline constexpr std::string_view kAutoEngine = "auto";

struct AutoChoice {
    // "fat tree", "torus", "mesh", "hypercube", "dragonfly", "dragonfly+", "irregular",
    // "single switch", "no switches"
    std::string shape;
    std::string evidence;  // what in the topology showed the shape
    std::string chain;     // the -R list auto runs, e.g. "ftree,updn"
    std::string why;       // why that chain for this shape and these options
    // Dragonfly and dragonfly+: each switch's group (by SwitchIdx, groups numbered from 0);
    // empty for every other shape.
    std::vector<std::uint32_t> groups;
    // "<shape> (<evidence>) -> <chain>: <why>", the line tools log.
    std::string describe() const;
};

// What `auto` chooses for this fabric with these options (QoS, VL budget, torus-2QoS.conf,
// root/CN GUIDs, LMC). Pure: reads only the fabric's cabling and the options.
AutoChoice choose_routing(const Fabric &f, const RoutingOptions &o);

}  // namespace weft::routing
