// The flow key a parsed frame is hashed by, and the 32-bit flow hash that NHG member selection
// and (later) ARS macro-flow tables index with.
#pragma once

#include <cstdint>

namespace weft::dataplane {

enum class PacketKind : std::uint8_t { Ipv4 = 1, Ipv6 = 2, Iboe = 3 };

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
// every worker and every restart must map a flow the same way). Four multiplications, three of
// them independent, and no table.
std::uint32_t flow_hash(const FlowKey &key) noexcept;

}  // namespace weft::dataplane
