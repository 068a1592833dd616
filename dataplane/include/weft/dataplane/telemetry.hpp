// DPDK telemetry commands under /weft/, readable with dpdk-telemetry.py:
//   /weft/ports                 port ids
//   /weft/port_stats,<port>     link state and per-port counters
//   /weft/routes                the published routes (up to 512, the lowest prefixes in order when
//                               the table is not larger): {prefix: [...], nhg: [...]}
//   /weft/nhg_stats             packets and bytes per NHG
//   /weft/quality               per-port TX bytes and backlog (the quality sampler's input)
//   /weft/drops                 drops by reason
//   /weft/ars_nhg[,<id>]        ARS counters of one ARS next-hop group, or of every one by id
//   /weft/ars_lag[,<id>]        the same for LAGs
//   /weft/ars_bands             the quality band (7 = best) and link of every port and LAG
//   /weft/arn                   ARN counters (show arn's) and each watched port's state
// Counters are cumulative (the CLI's `clear` does not reset them).
#pragma once

#include <cstdint>
#include <optional>

#include "weft/dataplane/dataplane.hpp"

namespace weft::dataplane {

// Registers the commands for `dp` (one dataplane per process; must outlive telemetry use).
void register_telemetry(Dataplane &dp);
class ArnAgent;
// Registers /weft/arn (arn_telemetry.cpp); both must outlive telemetry use.
void register_arn_telemetry(Dataplane &dp, ArnAgent &agent);

// A request's parameter as an id: decimal digits only, no sign, blank or leading zero, at most
// `max`. Nothing for anything else (null included).
std::optional<std::uint64_t> telemetry_id(const char *params, std::uint64_t max);

}  // namespace weft::dataplane
