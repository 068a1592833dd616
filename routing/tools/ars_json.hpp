// weft-route's --ars-groups file: every switch's ARS next-hop groups and the compiler's summary,
// as JSON. The fabric tests compare each switch's routes and `show ars nhg` against it.
#pragma once

#include <ostream>

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing::tools {

// Streams the document: one line per switch, so a fabric of thousands of switches is never held
// as one JSON tree.
void write_ars_groups_json(std::ostream &out, const Fabric &f, const std::string &engine, const ArsGroups &g,
                           const ArsCompileReport &r, const CreditLoopReport &union_check);

}  // namespace weft::routing::tools
