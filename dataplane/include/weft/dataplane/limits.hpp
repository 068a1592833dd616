// Sizes fixed at compile time so that hot-path tables are flat arrays.
#pragma once

#include <cstddef>
#include <cstdint>

#include <rte_config.h>

namespace weft::dataplane {

inline constexpr std::uint16_t kMaxPorts = RTE_MAX_ETHPORTS;
inline constexpr std::size_t kMaxNhgMembers = 64;
// rte_fib/rte_fib6 with 2-byte next hops hold values below 2^15; the top value means "no route".
inline constexpr std::uint32_t kMaxNhgs = 32767;
inline constexpr std::uint32_t kNoRoute = 32767;
inline constexpr std::uint16_t kMaxUnicastLid = 0xBFFF;
inline constexpr std::uint16_t kFirstMulticastLid = 0xC000;
inline constexpr std::uint16_t kLastMulticastLid = 0xFFFE;
inline constexpr std::uint16_t kPermissiveLid = 0xFFFF;
// Seed 002's vLIDs: 18-bit LIDs with one of the two extra LRH bits set (parser.hpp), forwarded by
// the secondary LFT. The 16-bit space below them is IBA's.
inline constexpr std::uint32_t kFirstVlid = 0x10000;
inline constexpr std::uint32_t kMaxVlid = 0x3FFFF;
inline constexpr unsigned kNumSl = 16;
inline constexpr unsigned kNumVl = 16;
// IBA's management VL: subnet-management packets travel on it, outside any SL2VL mapping.
inline constexpr std::uint8_t kManagementVl = 15;
// ARS's remote quality slots on the dataplane's PortBoard (ARN: one per destination group and
// port).
inline constexpr std::size_t kArnRemoteSlots = 4096;

}  // namespace weft::dataplane
