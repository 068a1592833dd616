// The worker's fast path for common IPv6 frames: untagged Ethernet, IPv6 whose next header is
// TCP or UDP (RoCEv2 included) with no extension header. Like the IPv4 fast path it checks
// exactly what parse_frame checks for such a frame and hashes the flow key from the header, so
// it gives parse_frame's kind, L3 offset, hop limit and flow hash without building the
// ParsedPacket; everything else is declined (returns false) to parse_frame. A unit test and the
// parser's fuzz target compare the two.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "fast_l4.hpp"
#include "weft/dataplane/flow_key.hpp"
#include "ipv4_fast_parse.hpp"
#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {

// What the forwarding stage needs of an IPv6 frame the fast path accepts.
struct FastParsed6 {
    std::uint32_t hash;
    std::uint8_t hop_limit;
    const std::uint8_t *dst;  // the 16-byte destination address inside the frame (for the FIB)
};

[[gnu::always_inline]] inline bool parse_ipv6_fast(const std::uint8_t *f, std::size_t len,
                                                   FastParsed6 &out) noexcept {
    constexpr std::size_t kL3 = kFastL3Offset;
    if (len < kL3 + 40 + 8) return false;  // the L4 step reads 8 bytes past the header
    // EtherType 0x86DD and version 6, in one comparison of bytes 12-14's bits.
    std::uint32_t w;
    std::memcpy(&w, f + 12, 4);
    if ((w & 0xF0FFFF) != 0x60DD86) return false;
    const std::uint8_t *h = f + kL3;
    std::uint16_t payload_be;
    std::memcpy(&payload_be, h + 4, 2);
    const std::size_t payload = __builtin_bswap16(payload_be);
    if (40 + payload > len - kL3) return false;
    const std::uint8_t next = h[6];
    if (next != 17 && next != 6) return false;  // extension headers, fragments and the rest
    std::uint64_t ports;
    if (!fast_l4_ports(next, h + 40, payload, ports)) return false;
    const std::uint64_t kind = next | (std::uint64_t{static_cast<std::uint8_t>(PacketKind::Ipv6)} << 8);
    out.hash = flow_hash_words(load_le64(h + 8), load_le64(h + 16), load_le64(h + 24), load_le64(h + 32),
                               ports, kind);
    out.hop_limit = h[7];
    out.dst = h + 24;
    return true;
}

}  // namespace weft::dataplane
