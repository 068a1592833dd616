// DPDK telemetry commands under /weft/, readable with dpdk-telemetry.py:
//   /weft/ports                 port ids
//   /weft/port_stats,<port>     link state and per-port counters
//   /weft/routes                the published routes: {prefix: [...], nhg: [...]}
//   /weft/nhg_stats             packets and bytes per NHG
//   /weft/quality               per-port TX bytes and backlog (the quality sampler's input)
//   /weft/drops                 drops by reason
#pragma once

#include "weft/dataplane/dataplane.hpp"

namespace weft::dataplane {

// Registers the commands for `dp` (one dataplane per process; must outlive telemetry use).
void register_telemetry(Dataplane &dp);

}  // namespace weft::dataplane
