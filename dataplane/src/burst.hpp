// One RX burst on its way through the worker's stages: what each stage leaves for the next.
#pragma once

#include <rte_mbuf.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ipv4_fast_parse.hpp"
#include "tx_buffers.hpp"
#include "weft/ars/acl_policy.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/dataplane/worker.hpp"

namespace weft::dataplane {

// What the stages after the parse need of a frame: 8 bytes, so a burst's records fill a few
// cache lines.
struct FrameInfo {
    std::uint32_t hash;      // flow hash, for member selection
    std::uint8_t l3_offset;  // IP header or LRH (at most 14 + two VLAN tags)
    PacketKind kind;         // meaningful when verdict is None
    std::uint8_t ttl;        // IPv4 TTL or IPv6 hop limit
    DropReason verdict;      // the parser's verdict, then select's

    // Writes the record of a frame the IPv4 fast parse took, built in a register and stored as
    // one word.
    void set_fast_ipv4(std::uint32_t h, std::uint8_t t) noexcept {
        constexpr std::uint64_t kFixed = std::uint64_t{kFastL3Offset} << 32 |
                                         std::uint64_t{static_cast<std::uint8_t>(PacketKind::Ipv4)} << 40 |
                                         std::uint64_t{static_cast<std::uint8_t>(DropReason::None)} << 56;
        const std::uint64_t w = h | kFixed | std::uint64_t{t} << 48;
        std::memcpy(static_cast<void *>(this), &w, sizeof w);
    }
};
static_assert(sizeof(FrameInfo) == 8 && offsetof(FrameInfo, l3_offset) == 4 && offsetof(FrameInfo, ttl) == 6);

// Where a frame leaves and how its Ethernet header changes: made once per group member for a
// burst, or once for a frame decided on its own.
struct Hop {
    std::uint64_t mac_lo;  // header bytes 0-7: the next hop's MAC, then the port's first 2 bytes
    std::uint32_t mac_hi;  // header bytes 8-11: the port MAC's last 4 bytes
    std::uint16_t port;
    std::uint8_t vl;          // IBoE: the LRH's new VL (the port's SL2VL for the frame's SL)
    std::uint32_t nhg_index;  // the group the frame is counted under; kNoRoute for none
    TxBuffer *tx;
};

struct Burst {
    unsigned n = 0;
    std::uint16_t in_port = 0;
    // One more than a burst: the parse prefetches frame i + 1 and reads pkts[n] at the last.
    rte_mbuf *pkts[kMaxBurst + 1];
    FrameInfo info[kMaxBurst];
    // The parse gathers the destinations of the IPv4 and of the IPv6 frames, in frame order,
    // for one bulk lookup each; the lookup leaves each IP frame's route (an NHG index, or
    // kNoRoute) in nh, indexed by frame.
    unsigned n4 = 0, n6 = 0;
    unsigned fast4 = 0;  // frames the IPv4 fast parse took (their IPv4 header at kFastL3Offset)
    std::uint32_t dst4[kMaxBurst];
    std::uint8_t dst6[kMaxBurst][16];
    std::uint64_t nh4[kMaxBurst], nh6[kMaxBurst], nh_by_frame[kMaxBurst];
    const std::uint64_t *nh = nullptr;  // nh4 itself when every frame is IPv4
    // Frames the fast parse declined, parsed in full (the ACL and IBoE stages read these).
    ParsedPacket parsed[kMaxBurst];
    ars::AclVerdict verdict[kMaxBurst];  // with ACL rules only
};

}  // namespace weft::dataplane
