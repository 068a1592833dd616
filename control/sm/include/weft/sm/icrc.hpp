// The Invariant CRC of an InfiniBand packet (IBA 7.8.1): CRC-32 with Ethernet's polynomial, seed
// and final inversion, over the packet from the first byte of the LRH through the payload and
// its pad, with the fields a switch or router may change replaced by ones — the LRH's VL, the
// GRH's TClass, FlowLabel and HopLmt, and the BTH's reserved byte 4 (resv8a). weft's dataplane
// rewrites the VL on every hop (SL2VL), so the ICRC holds end to end. It goes on the wire least
// significant byte first, as the Ethernet FCS does.
#pragma once

#include <cstdint>
#include <span>

namespace weft::sm {

// `packet` starts at the LRH and ends before the ICRC; its LNH (2 or 3) says where the BTH is.
// A packet too short for the headers its LNH announces is summed as far as it goes.
std::uint32_t iba_icrc(std::span<const std::uint8_t> packet);

}  // namespace weft::sm
