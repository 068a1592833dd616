// Header rewrites on the forwarding path, in place on the frame's bytes.
#pragma once

#include <rte_byteorder.h>
#include <rte_ether.h>

#include <cstdint>
#include <cstring>

namespace weft::dataplane {

inline void set_macs(std::uint8_t *frame, const rte_ether_addr &src, const rte_ether_addr &dst) noexcept {
    std::memcpy(frame, dst.addr_bytes, RTE_ETHER_ADDR_LEN);
    std::memcpy(frame + RTE_ETHER_ADDR_LEN, src.addr_bytes, RTE_ETHER_ADDR_LEN);
}

inline void set_src_mac(std::uint8_t *frame, const rte_ether_addr &src) noexcept {
    std::memcpy(frame + RTE_ETHER_ADDR_LEN, src.addr_bytes, RTE_ETHER_ADDR_LEN);
}

// Decrements the IPv4 TTL and updates the header checksum incrementally (RFC 1624, eqn. 3:
// HC' = ~(~HC + ~m + m')), so the header is not summed again. The caller has checked TTL > 1,
// so the word m = TTL|protocol drops by exactly 0x0100 and HC' = ~(~HC + 0xFEFF), which in
// one's-complement arithmetic is HC + 0x0100 with the end-around carry: a checksum of 0xFFFF
// or more after the addition wraps to the next value (the same answer for all 65,536 values of
// HC as the three-step form, checked exhaustively). The one's-complement sum does not depend
// on byte order: the checksum is updated as it lies in memory (host order) with the constant
// byte-swapped to match. The wrap test is a carry out of 16 bits: sum >= 0xFFFF exactly when
// sum + 1 reaches 0x10000 (sum is at most 0x10000 + 0xFF), which is two instructions fewer than
// a comparison.
inline void ipv4_decrement_ttl(std::uint8_t *ip) noexcept {
    ip[8] = static_cast<std::uint8_t>(ip[8] - 1);
    std::uint16_t hc;
    std::memcpy(&hc, ip + 10, 2);
    const std::uint32_t sum = static_cast<std::uint32_t>(hc) + rte_cpu_to_be_16(0x0100);
    hc = static_cast<std::uint16_t>(sum + ((sum + 1) >> 16));
    std::memcpy(ip + 10, &hc, 2);
}

// IPv6 has no header checksum.
inline void ipv6_decrement_hop_limit(std::uint8_t *ip) noexcept {
    ip[7] = static_cast<std::uint8_t>(ip[7] - 1);
}

// An IB switch sets the LRH VL to the output port's SL2VL mapping.
inline void lrh_set_vl(std::uint8_t *lrh, std::uint8_t vl) noexcept {
    lrh[0] = static_cast<std::uint8_t>((vl << 4) | (lrh[0] & 0x0F));
}

}  // namespace weft::dataplane
