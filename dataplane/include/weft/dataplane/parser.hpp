// Frame parser: a pure function over a byte span. It validates every length it follows, so a
// hostile frame can only ever produce a DropReason, never a read past the span.
#pragma once

#include <cstdint>
#include <span>

#include "weft/dataplane/drop_reason.hpp"
#include "weft/dataplane/flow_key.hpp"

namespace weft::dataplane {

inline constexpr std::uint16_t kDefaultIboeEtherType = 0x88B5;
inline constexpr std::uint16_t kRoceV2UdpPort = 4791;

struct ParserConfig {
    std::uint16_t iboe_ethertype = kDefaultIboeEtherType;
    bool verify_ipv4_checksum = true;
};

// What the forwarding stage needs to know about a frame that parsed cleanly. Offsets are from
// the start of the frame.
struct ParsedPacket {
    PacketKind kind{};
    bool has_vlan = false;
    bool fragment = false;  // IPv4 MF/offset or an IPv6 fragment header
    bool roce = false;      // UDP 4791 with a BTH
    bool has_grh = false;   // IBoE with LNH = IBA global
    bool has_bth = false;
    std::uint16_t vlan_tci = 0;    // outermost tag
    std::uint16_t ether_type = 0;  // after the tags (also set for UnknownEtherType)
    std::uint16_t l3_offset = 0;   // IP header or LRH
    std::uint16_t l4_offset = 0;   // TCP/UDP header or BTH; 0 when absent
    std::uint8_t l4_protocol = 0;  // IP protocol / final IPv6 next header
    std::uint8_t ttl = 0;          // IPv4 TTL or IPv6 hop limit
    // IBoE fields from the LRH.
    std::uint8_t sl = 0;
    std::uint8_t vl = 0;
    std::uint8_t lnh = 0;
    // 18-bit LIDs (seed 002's extended LID space, IBOE_SMP.md): the LRH's 16 bits and two of its
    // reserved bits each, DLID bits 16-17 in byte 1 bits 2-3 (between SL and LNH) and SLID bits
    // 16-17 in byte 4 bits 6-7 (above PktLen). A frame that leaves them zero is IBA's 16-bit
    // frame; a DLID of kFirstVlid or more is a vLID, forwarded by the secondary LFT. The flow key
    // keeps the 16 low bits in its ports and the high bits beside LNH in its protocol byte.
    std::uint32_t dlid = 0;
    std::uint32_t slid = 0;
    FlowKey key{};  // its dest_qp: the BTH's destination QP (RoCEv2, IBoE)
    std::uint32_t hash = 0;
};
// Cleared for every frame the full parser takes: five 16-byte stores.
static_assert(sizeof(ParsedPacket) == 80, "ParsedPacket grew past 80 bytes");

// Parses `frame`. Returns DropReason::None and fills `out` when the frame can be forwarded;
// otherwise returns the reason it must be dropped (`out` is then unspecified).
DropReason parse_frame(std::span<const std::uint8_t> frame, const ParserConfig &config,
                       ParsedPacket &out) noexcept;

}  // namespace weft::dataplane
