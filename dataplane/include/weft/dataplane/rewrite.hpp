// Header rewrites on the forwarding path, in place on the frame's bytes.
#pragma once

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
// HC' = ~(~HC + ~m + m')), so the header is not summed again. The caller has checked TTL > 1.
inline void ipv4_decrement_ttl(std::uint8_t *ip) noexcept {
    const std::uint32_t old_word = (std::uint32_t{ip[8]} << 8) | ip[9];
    ip[8] = static_cast<std::uint8_t>(ip[8] - 1);
    const std::uint32_t new_word = (std::uint32_t{ip[8]} << 8) | ip[9];
    const std::uint32_t hc = (std::uint32_t{ip[10]} << 8) | ip[11];
    std::uint32_t sum = (~hc & 0xFFFFu) + (~old_word & 0xFFFFu) + new_word;
    sum = (sum & 0xFFFFu) + (sum >> 16);
    sum = (sum & 0xFFFFu) + (sum >> 16);
    const auto out = static_cast<std::uint16_t>(~sum);
    ip[10] = static_cast<std::uint8_t>(out >> 8);
    ip[11] = static_cast<std::uint8_t>(out);
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
