// The light sweep between heavy ones (OpenSM's): Get(SwitchInfo) of every switch the last heavy
// sweep found, by the route it found it on. A switch whose PortStateChange is set (a port of it
// went up or down since the heavy sweep cleared the flag), or that no longer answers, or answers
// something that does not decode, means the fabric changed: a heavy sweep is due. Otherwise
// nothing else is sent: one SMP per switch.
#pragma once

#include <string>

#include "weft/sm/discovery.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

struct LightSweepReport {
    bool changed = false;
    std::string why;             // the first change seen, located ("PortStateChange on switch ...")
    std::size_t switches = 0;    // asked
    std::size_t flagged = 0;     // with PortStateChange set
    std::size_t unanswered = 0;  // no usable reply
    double seconds = 0;
    SmpCounters smps;
};

LightSweepReport light_sweep(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &last);

}  // namespace weft::sm
