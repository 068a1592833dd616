// weft-route --migrate / --migrate-pattern: a sequence of VM migrations on the routed fabric,
// each planned three ways (full re-route, ItRC, FTreeMinRC) and printed with its switches and
// SMPs, one of them applied (--reconfig), the tables checked after each step (--migrate-check).
#pragma once

#include "route_args.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::tools {

// Returns 1 when a check failed after some step, else 0. Throws UsageError for a refused step
// (unknown VM, full hypervisor, ...), ParseError for a bad migration file.
int run_migrations(const Args &a, Fabric &f, RoutingTables &t, const RoutingOptions &o);

}  // namespace weft::routing::tools
