// LID ranges of the IBA (16-bit LIDs): 0 is unassigned, 0x0001-0xBFFF unicast, 0xC000-0xFFFE
// multicast, 0xFFFF the permissive LID (directed-route SMPs' DrSLID/DrDLID, "this port").
#pragma once

#include <cstdint>

namespace weft::sm {

using Lid = std::uint16_t;

inline constexpr Lid kUnassignedLid = 0;
inline constexpr Lid kMaxUnicastLid = 0xBFFF;
inline constexpr Lid kFirstMulticastLid = 0xC000;
inline constexpr Lid kPermissiveLid = 0xFFFF;

constexpr bool is_unicast_lid(Lid lid) {
    return lid >= 1 && lid <= kMaxUnicastLid;
}
constexpr bool is_multicast_lid(Lid lid) {
    return lid >= kFirstMulticastLid && lid != kPermissiveLid;
}

// Port numbers: switches have up to 254 external ports (255 is reserved; in forwarding tables
// it means "no route").
using PortNum = std::uint8_t;
inline constexpr PortNum kMaxPortNum = 254;
inline constexpr PortNum kNoPort = 255;

}  // namespace weft::sm
