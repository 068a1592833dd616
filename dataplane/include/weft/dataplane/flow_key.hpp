// The flow key a parsed frame is hashed by, and the 32-bit flow hash that NHG member selection
// and (later) ARS macro-flow tables index with.
#pragma once

#include <cstdint>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

namespace weft::dataplane {

// Arn: an ARN frame (arn_tables.hpp), recognised by the worker, never by the parser alone.
enum class PacketKind : std::uint8_t { Ipv4 = 1, Ipv6 = 2, Iboe = 3, Arn = 4 };

// Fixed-size, zero-padded so that equal flows hash equally regardless of how they were parsed.
//   IPv4: src/dst hold the addresses in their first 4 bytes (network order).
//   IPv6: src/dst hold the 16-byte addresses.
//   IBoE: src/dst hold SGID/DGID when a GRH is present; src_port/dst_port carry SLID/DLID.
// Fragments keep only kind and addresses (and protocol), so every fragment of a datagram takes
// the same path. dest_qp is the RoCEv2/IBoE BTH destination QP, 0 when absent.
struct FlowKey {
    std::uint8_t src[16];
    std::uint8_t dst[16];
    std::uint32_t dest_qp;
    std::uint16_t src_port;
    std::uint16_t dst_port;
    std::uint8_t protocol;
    PacketKind kind;
    std::uint8_t pad[6];
};
static_assert(sizeof(FlowKey) == 48, "FlowKey is a fixed 48-byte record");

// Deterministic 32-bit hash of every field of the key (not the padding; no per-process seed:
// every worker and every restart must map a flow the same way). CRC32-C and one multiplication
// where the CPU has SSE 4.2, four multiplications otherwise; no table.
std::uint32_t flow_hash(const FlowKey &key) noexcept;

// flow_hash over the key's words, for a caller that holds them in registers (the worker's IPv4
// fast path hashes straight from the header it just read, with no key in memory):
//   src_lo/src_hi, dst_lo/dst_hi: bytes 0..7 and 8..15 of src/dst as little-endian words;
//   ports: dest_qp | (the two ports as they lie in a TCP/UDP header, network order) << 32, i.e.
//          dest_qp | bswap16(src_port) << 32 | bswap16(dst_port) << 48;
//   kind: protocol | kind << 8.
inline std::uint32_t flow_hash_words(std::uint64_t src_lo, std::uint64_t src_hi, std::uint64_t dst_lo,
                                     std::uint64_t dst_hi, std::uint64_t ports, std::uint64_t kind) noexcept {
    __extension__ typedef unsigned __int128 Wide;
    // Multiply and fold (wyhash's "mum"): every bit of both inputs reaches the 64-bit result in
    // one multiplication.
    auto mum = [](std::uint64_t a, std::uint64_t b) {
        const Wide p = static_cast<Wide>(a) * b;
        return static_cast<std::uint64_t>(p) ^ static_cast<std::uint64_t>(p >> 64);
    };
#if defined(__SSE4_2__)
    // Two independent CRC32-C chains (one instruction per word, 3 cycles each) compress the key
    // to 64 bits, and one multiplication mixes them. CRC alone is linear: flows whose fields
    // change in step (source and destination counting up together) would cancel out if the
    // chains were XORed, and sequential ports would land on only a few patterns of low bits;
    // the product of the two chains breaks that structure (seen spreading like a random hash
    // over sequential ports, addresses and both together into 3, 16 and 512 bins).
    std::uint64_t a = _mm_crc32_u64(0x9e3779b9u, src_lo);
    std::uint64_t b = _mm_crc32_u64(0x85ebca6bu, dst_lo);
    a = _mm_crc32_u64(a, src_hi);
    b = _mm_crc32_u64(b, dst_hi);
    a = _mm_crc32_u64(a, ports);
    b = _mm_crc32_u64(b, kind);
    const std::uint64_t h = mum(a ^ 0xa0761d6478bd642fULL, b ^ 0xe7037ed1a0b428dbULL);
#else
    // Three independent products and one final one mix the whole key.
    const std::uint64_t a = mum(src_lo ^ 0xa0761d6478bd642fULL, src_hi ^ 0xe7037ed1a0b428dbULL);
    const std::uint64_t b = mum(dst_lo ^ 0x8ebc6af09c88c6e3ULL, dst_hi ^ 0x589965cc75374cc3ULL);
    const std::uint64_t c = mum(ports ^ 0x1d8e4e27c47d124fULL, kind ^ 0x9e3779b97f4a7c15ULL);
    const std::uint64_t h = mum(a ^ c ^ 0xd6e8feb86659fd93ULL, b ^ 0xa0761d6478bd642fULL);
#endif
    return static_cast<std::uint32_t>(h ^ (h >> 32));
}

}  // namespace weft::dataplane
