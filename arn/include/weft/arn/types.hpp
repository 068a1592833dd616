// Basic vocabulary of the ARN library: time, and the names of switches, ports, groups and links.
#pragma once

#include <compare>
#include <cstdint>

namespace weft::arn {

// Time is a parameter everywhere, as in ars/: TSC ticks in the switch, simulated ticks in tests
// and weft-sim. Settings in microseconds are turned into ticks with the caller's ticks per us.
using Ticks = std::uint64_t;

// A switch of the fabric, by the GUID the subnet manager (or the configuration) knows it by.
using SwitchId = std::uint64_t;
// A switch's port as the fabric numbers it (IB port numbers; weft port p is IB port p + 1).
using PortNumber = std::uint16_t;
// A dragonfly group.
using GroupId = std::uint16_t;

// One direction of a link: the port it leaves from. Congestion and failure are reported by the
// switch that owns the port.
struct LinkRef {
    SwitchId sw = 0;
    PortNumber port = 0;
    friend constexpr auto operator<=>(const LinkRef &, const LinkRef &) = default;
};

}  // namespace weft::arn
