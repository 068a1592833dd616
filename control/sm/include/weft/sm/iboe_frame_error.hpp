// Why an IB-over-Ethernet frame was refused: one reason per check the decoder makes, where in the
// frame it failed (byte offset) and what it found, and a counter per reason. Frames come from the
// wire (a punted frame, a packet socket): refusing one is counted, never thrown.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace weft::sm {

enum class FrameDrop : std::uint8_t {
    kEthTruncated,        // shorter than an Ethernet header
    kVlanTruncated,       // an 802.1Q/802.1ad tag cut short
    kNotIboe,             // another EtherType than the configured one
    kLrhTruncated,        // fewer than 8 bytes of LRH
    kLrhBadVersion,       // LVer not 0
    kLrhRawPacket,        // LNH 0 or 1: raw IPv6 or raw packet, no BTH
    kLrhBadPktLen,        // PktLen shorter than the headers it announces plus the ICRC
    kLrhPktLenPastFrame,  // PktLen longer than the frame
    kGrhTruncated,        // LNH 3 and fewer than 40 bytes of GRH
    kGrhBadVersion,       // IPVer not 6
    kGrhNotIba,           // GRH NxtHdr not 0x1B (an IBA transport header)
    kBthTruncated,        // fewer than 12 bytes of BTH
    kBthNotUdSendOnly,    // an opcode other than UD SEND_ONLY (0x64)
    kBthBadVersion,       // TVer not 0
    kDethTruncated,       // fewer than 8 bytes of DETH
    kPadPastPayload,      // PadCnt more than the bytes left for the payload
    kBadIcrc,             // the ICRC does not match the frame
    kMadBadLength,        // QP0/QP1: the payload is not one 256-byte MAD
    kVl15NotQp0,          // on VL15 but not for QP0: only SMPs may use VL15
    kQp0NotVl15,          // for QP0 but not on VL15: SMPs travel on VL15 only
    kNotManagementQp,     // a MAD frame for a QP other than 0 (SMI) and 1 (GSI)
    kCount
};

inline constexpr std::size_t kFrameDropCount = static_cast<std::size_t>(FrameDrop::kCount);

// "lrh_pkt_len_past_frame": a name for counters and JSON.
const char *frame_drop_name(FrameDrop reason);
// "LRH.PktLen": the field the check reads.
const char *frame_drop_field(FrameDrop reason);

struct FrameError {
    FrameDrop reason = FrameDrop::kCount;
    std::size_t offset = 0;   // of the field, from the first byte of the frame
    std::uint64_t value = 0;  // what was found there

    // "LRH.PktLen at byte 18 = 0x48: lrh_pkt_len_past_frame"
    std::string message() const;
    friend bool operator==(const FrameError &, const FrameError &) = default;
};

struct FrameDropCounters {
    std::array<std::uint64_t, kFrameDropCount> by_reason{};

    void add(FrameDrop reason) { ++by_reason[static_cast<std::size_t>(reason)]; }
    std::uint64_t operator[](FrameDrop reason) const { return by_reason[static_cast<std::size_t>(reason)]; }
    std::uint64_t total() const;
};

}  // namespace weft::sm
