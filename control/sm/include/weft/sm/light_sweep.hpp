// The light sweep between heavy ones (OpenSM's): Get(SwitchInfo) of every switch the last heavy
// sweep found, by the route it found it on. A switch whose PortStateChange is set (a port of it
// went up or down since the heavy sweep cleared the flag), or that no longer answers, or answers
// something that does not decode, means the fabric changed: a heavy sweep is due. Otherwise
// nothing else is sent: one SMP per switch.
// In Ethernet mode the weft switches' host subnets are part of the fabric too: given the
// versions the SM last read them at, each of those switches' WeftFibState is read beside its
// SwitchInfo, and a new subnets version (an address added or removed on a host port) also makes
// a heavy sweep due.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "weft/sm/discovery.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

struct LightSweepReport {
    bool changed = false;
    std::string why;                  // the first change seen, located ("PortStateChange on switch ...")
    std::size_t switches = 0;         // asked
    std::size_t flagged = 0;          // with PortStateChange set
    std::size_t unanswered = 0;       // no usable reply
    std::size_t subnets_changed = 0;  // weft switches whose host subnets moved on
    double seconds = 0;
    SmpCounters smps;
};

// Node GUID -> the host-subnets version the SM last read (Ethernet mode only).
using SubnetVersions = std::unordered_map<std::uint64_t, std::uint16_t>;

LightSweepReport light_sweep(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &last,
                             const SubnetVersions *subnets = nullptr);

}  // namespace weft::sm
