// The sweep a trap 128 calls for, without discovering the whole fabric again. A resident SM
// knows the fabric from its last sweep; a trap names the switch whose port changed, so the SM
// reads only the trapping switches (SwitchInfo, which also clears PortStateChange, and every
// PortInfo), takes out the links that went down and puts back those that came up between two
// ports it knows (NodeInfo through the port says who is behind it), then runs the heavy sweep's
// later phases on that fabric: LIDs kept, routing (steered by the LFTs held), verification,
// programming of what changed.
//
// What it cannot place - a trap from a LID it does not know, a node it has not met, a host
// port, a switch that does not answer - is a heavy sweep's job: the result then has no report,
// and `why_not` says why.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "weft/sm/heavy_sweep.hpp"

namespace weft::sm {

struct TrapSweepResult {
    std::optional<SweepReport> report;
    std::string why_not;
};

TrapSweepResult trap_sweep(SmpEngine &engine, const SmClock &clock, const SweepOptions &options,
                           const DiscoveryResult &known, const std::vector<Lid> &trapped);

}  // namespace weft::sm
