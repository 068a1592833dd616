// The worker's fast path for the most common frame: untagged Ethernet, IPv4 without options,
// not a fragment, TCP/UDP (not RoCEv2) or another protocol. It reads the header once, checks
// exactly what parse_frame checks for such a frame and hashes the flow key from registers, so
// it yields the same result as parse_frame (kind, L3 offset, TTL, flow hash) without building
// the 80-byte ParsedPacket. Any other frame, and any frame parse_frame would drop, is declined
// (returns false) and goes through parse_frame, which decides it. A unit test compares the two.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

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

// The header is read as five 32-bit words, straight into registers; its fields are taken from
// those words (x86 byte order: byte 0 is the low byte of word 0).
[[gnu::always_inline]] inline bool parse_ipv4_fast(const std::uint8_t *f, std::size_t len,
                                                   bool verify_checksum, FastParsed &out) noexcept {
    static_assert(std::endian::native == std::endian::little, "the fast path reads little-endian words");
    constexpr std::size_t kL3 = kFastL3Offset;
    auto load32 = [](const std::uint8_t *p) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    };
    if (len < kL3 + 20) return false;
    std::uint16_t type;
    std::memcpy(&type, f + 12, 2);
    if (type != 0x0008) return false;  // 0x0800 as it lies in memory
    const std::uint8_t *h = f + kL3;
    const std::uint32_t w0 = load32(h), w1 = load32(h + 4), w2 = load32(h + 8), w3 = load32(h + 12),
                        w4 = load32(h + 16);
    if ((w0 & 0xFF) != 0x45) return false;  // version 4, no options
    const std::size_t total = __builtin_bswap16(static_cast<std::uint16_t>(w0 >> 16));
    if (total < 20 || total > len - kL3) return false;
    if (verify_checksum) {
        // The header's one's-complement sum is 0xFFFF exactly when the plain sum of its words is
        // a nonzero multiple of 65535 (2^16 = 1 modulo 65535, so folding the carries back in
        // keeps the value modulo 65535, and so do 32-bit words and either byte order, 256 being
        // invertible modulo 65535). The sum is nonzero here: w0 holds 0x45. The divisibility
        // test is a multiplication and a comparison, instead of four folding steps.
        const std::uint64_t sum = std::uint64_t{w0} + w1 + w2 + w3 + w4;
        if (sum % 0xFFFF != 0) return false;
    }
    if (((w1 >> 16) & 0xFF3F) != 0) return false;  // MF flag or a fragment offset (bytes 6-7)
    const std::uint8_t proto = static_cast<std::uint8_t>(w2 >> 8);
    const std::uint8_t *l4 = h + 20;
    const std::size_t l4_len = total - 20;
    std::uint64_t ports = 0;
    if (proto == 6 || proto == 17) {
        if (l4_len < (proto == 6 ? 20u : 8u)) return false;
        const std::uint32_t pw = load32(l4);  // source and destination port, network order
        if (proto == 6) {                     // TCP
            const std::size_t doff = l4[12] >> 4;
            if (doff < 5 || doff * 4 > l4_len) return false;
        } else {  // UDP
            const std::size_t udp_len = (std::size_t{l4[4]} << 8) | l4[5];
            if (udp_len < 8 || udp_len > l4_len) return false;
            if ((pw >> 16) == __builtin_bswap16(kRoceV2UdpPort)) return false;  // a BTH follows
        }
        const std::uint64_t sport = __builtin_bswap16(static_cast<std::uint16_t>(pw));
        const std::uint64_t dport = __builtin_bswap16(static_cast<std::uint16_t>(pw >> 16));
        ports = (sport << 32) | (dport << 48);
    }
    const std::uint64_t kind = proto | (std::uint64_t{static_cast<std::uint8_t>(PacketKind::Ipv4)} << 8);
    out.hash = flow_hash_words(w3, 0, w4, 0, ports, kind);
    out.dst4 = __builtin_bswap32(w4);
    out.ttl = static_cast<std::uint8_t>(w2);
    return true;
}

}  // namespace weft::dataplane
