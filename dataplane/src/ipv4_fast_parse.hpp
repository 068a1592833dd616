// The worker's fast path for the most common frames: untagged Ethernet, IPv4 without options,
// not a fragment, TCP, UDP, RoCEv2 (UDP to 4791 with its BTH) or another protocol. It reads the
// header once, checks exactly what parse_frame checks for such a frame and hashes the flow key
// from registers, so it yields the same result as parse_frame (kind, L3 offset, TTL, flow hash)
// without building the 80-byte ParsedPacket. Any other frame, and any frame parse_frame would
// drop, is declined (returns false) and goes through parse_frame, which decides it. A unit test
// compares the two.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "fast_l4.hpp"
#include "weft/dataplane/flow_key.hpp"
#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {

// Where the IPv4 header of a frame the fast path accepts starts.
inline constexpr std::uint16_t kFastL3Offset = 14;

// What the forwarding stage needs of a parsed IP frame.
struct FastParsed {
    std::uint32_t hash;
    std::uint32_t dst4;  // IPv4 destination, host order (for the FIB)
    std::uint8_t ttl;
};

// The EtherType and the header are read as three 64-bit words, straight into registers; the
// fields are taken from those words (x86 byte order: byte 0 is the low byte of a word). A frame
// shorter than Ethernet + IPv4 + 8 bytes is declined (no Ethernet frame is: the minimum is 60).
[[gnu::always_inline]] inline bool parse_ipv4_fast(const std::uint8_t *f, std::size_t len,
                                                   bool verify_checksum, FastParsed &out) noexcept {
    constexpr std::size_t kL3 = kFastL3Offset;
    if (len < kL3 + 28) return false;
    const std::uint64_t q0 = load_le64(f + 12);  // EtherType, header bytes 0-5
    const std::uint64_t q1 = load_le64(f + 20);  // header bytes 6-13
    const std::uint64_t q2 = load_le64(f + 26);  // header bytes 12-19: source, destination address
    // EtherType 0x0800, version 4 without options, in one comparison (bytes 08 00 45).
    if ((q0 & 0xFFFFFF) != 0x450008) return false;
    const std::size_t total = __builtin_bswap16(static_cast<std::uint16_t>(q0 >> 32));
    if (total - 20 > len - kL3 - 20) return false;  // 20 <= total <= len - kL3, in one comparison
    if (verify_checksum) {
        // The header's one's-complement sum is 0xFFFF exactly when the plain sum of its 16-bit
        // words is a nonzero multiple of 65535 (2^16 = 1 modulo 65535, so folding the carries
        // back in keeps the value modulo 65535; so do wider words and either byte order, 256
        // being invertible modulo 65535). Here the words are bytes 0-5 (q0 past the EtherType),
        // 6-11 (q1's low 48 bits) and 12-19 (q2 as two 32-bit halves, so nothing overflows); the
        // sum is nonzero: it holds 0x45. The divisibility test is a multiplication and a
        // comparison, instead of four folding steps: x is a multiple of the odd 0xFFFF exactly
        // when x times its inverse modulo 2^64 is at most (2^64 - 1) / 0xFFFF (written out, so
        // that the compiler does not turn it into a remainder when it merges the tests).
        const std::uint64_t sum = (q0 >> 16) + (q1 & 0xFFFFFFFFFFFFull) + (q2 & 0xFFFFFFFFull) + (q2 >> 32);
        static_assert(0xFFFFull * 0xFFFEFFFEFFFEFFFFull == 1);
        if (sum * 0xFFFEFFFEFFFEFFFFull > 0x0001000100010001ull) return false;
    }
    if ((q1 & 0xFF3F) != 0) return false;  // MF flag or a fragment offset (bytes 6-7)
    const std::uint8_t proto = static_cast<std::uint8_t>(q1 >> 24);
    const std::uint8_t *l4 = f + kL3 + 20;
    const std::size_t l4_len = total - 20;
    std::uint64_t ports;
    if (!fast_l4_ports(proto, l4, l4_len, ports)) return false;
    const std::uint64_t kind = proto | (std::uint64_t{static_cast<std::uint8_t>(PacketKind::Ipv4)} << 8);
    const std::uint32_t src = static_cast<std::uint32_t>(q2), dst = static_cast<std::uint32_t>(q2 >> 32);
    out.hash = flow_hash_words(src, 0, dst, 0, ports, kind);
    out.dst4 = __builtin_bswap32(dst);
    out.ttl = static_cast<std::uint8_t>(q1 >> 16);
    return true;
}

}  // namespace weft::dataplane
