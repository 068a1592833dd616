// What the worker's fast parses (IPv4 and IPv6) share: a little-endian word load, and the L4 step,
// the ports word of a TCP or UDP header, with a RoCEv2 BTH's destination QP, as flow_hash_words
// takes it, after exactly the checks the full parser makes (parse_l4); false declines the frame
// to the full parser.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {

static_assert(std::endian::native == std::endian::little, "the fast parses read little-endian words");

// Eight bytes at p as one little-endian word (x86 byte order: byte 0 is the low byte).
[[gnu::always_inline]] inline std::uint64_t load_le64(const std::uint8_t *p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

// `l4` points at the L4 header, `l4_len` is what the IP header says follows it (the frame holds
// at least 8 bytes there: the caller checked). Any protocol but TCP and UDP gives ports 0.
[[gnu::always_inline]] inline bool fast_l4_ports(std::uint8_t proto, const std::uint8_t *l4,
                                                 std::size_t l4_len, std::uint64_t &ports) noexcept {
    ports = 0;
    if (proto == 17) {  // UDP
        // 8 <= UDP length <= l4_len says the IP payload holds the header.
        std::uint32_t pw;  // source and destination port, network order
        std::memcpy(&pw, l4, 4);
        std::uint16_t udp_len_be;
        std::memcpy(&udp_len_be, l4 + 4, 2);
        const std::size_t udp_len = __builtin_bswap16(udp_len_be);
        if (udp_len < 8 || udp_len > l4_len) return false;
        ports = std::uint64_t{pw} << 32;  // flow_hash_words takes them in network order
        if ((pw >> 16) == __builtin_bswap16(kRoceV2UdpPort)) {
            // RoCEv2, the fabric's own traffic: the BTH follows, and its destination QP joins the
            // key (one flow per queue pair). A UDP length that holds the BTH also says the frame
            // does; a shorter one is declined (the full parse drops it as a truncated BTH).
            if (udp_len < 8 + 12) return false;
            std::uint32_t qp;  // BTH bytes 4-7: reserved, then the 24-bit QP in network order
            std::memcpy(&qp, l4 + 8 + 4, 4);
            ports |= __builtin_bswap32(qp) & 0xFFFFFF;
        }
    } else if (proto == 6) {  // TCP
        if (l4_len < 20) return false;
        std::uint32_t pw;
        std::memcpy(&pw, l4, 4);
        const std::size_t doff = l4[12] >> 4;
        if (doff < 5 || doff * 4 > l4_len) return false;
        ports = std::uint64_t{pw} << 32;
    }
    return true;
}

}  // namespace weft::dataplane
