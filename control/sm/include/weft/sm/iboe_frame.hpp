// weft's IB-over-Ethernet frame carrying one UD datagram (../shared/DESIGN.md, "IB-over-Ethernet";
// the wire format is written down in control/sm/IBOE_SMP.md): Ethernet header (an optional
// 802.1Q/802.1ad tag or two on decode, the configured EtherType), LRH, an optional GRH (decode
// only), BTH with opcode UD SEND_ONLY, DETH, the payload and its pad, the ICRC. This is what an
// SMP travels in between weft switches and end nodes, and what an end node's data frames are.
//
// Pure C++20. Decoding takes outside input and refuses anything malformed with a FrameError
// (reason, byte offset, value found); encoding takes our own headers and throws on a field out of
// range, a bug of the caller.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "weft/sm/iboe_frame_error.hpp"
#include "weft/sm/lid.hpp"

namespace weft::sm {

using MacAddr = std::array<std::uint8_t, 6>;

inline constexpr std::uint16_t kIboeEtherType = 0x88B5;  // IEEE local experimental
inline constexpr std::uint8_t kBthOpUdSendOnly = 0x64;
inline constexpr std::uint16_t kDefaultPKey = 0xFFFF;

inline constexpr std::size_t kEthHeaderSize = 14;
inline constexpr std::size_t kVlanTagSize = 4;
inline constexpr std::size_t kLrhSize = 8;
inline constexpr std::size_t kGrhSize = 40;
inline constexpr std::size_t kBthSize = 12;
inline constexpr std::size_t kDethSize = 8;
inline constexpr std::size_t kIcrcSize = 4;
inline constexpr std::size_t kMinEthFrameSize = 60;  // without the FCS: shorter frames are padded
// PktLen is 11 bits of 4-byte words and counts LRH through ICRC.
inline constexpr std::size_t kMaxPktLenWords = 0x7FF;
inline constexpr std::size_t kMaxIboePayload =
    kMaxPktLenWords * 4 - kLrhSize - kBthSize - kDethSize - kIcrcSize;

struct IboeFrameConfig {
    std::uint16_t ethertype = kIboeEtherType;
    bool check_icrc = true;  // decode: refuse a frame whose ICRC does not match
};

struct IboeHeaders {
    MacAddr dst_mac{};
    MacAddr src_mac{};
    std::optional<std::uint16_t> vlan_tci;  // the outer tag's TCI; encode: one 802.1Q tag
    std::uint8_t vl = 0;                    // 4 bits; 15 for SMPs
    std::uint8_t sl = 0;                    // 4 bits
    Lid dlid = 0;
    Lid slid = 0;
    bool grh = false;  // decode: LNH 3, the GRH was skipped. Encode: must be false (LNH 2)
    bool solicited = false;
    std::uint16_t p_key = kDefaultPKey;
    std::uint32_t dest_qp = 0;  // 24 bits
    std::uint32_t psn = 0;      // 24 bits
    std::uint32_t q_key = 0;
    std::uint32_t src_qp = 0;  // 24 bits

    friend bool operator==(const IboeHeaders &, const IboeHeaders &) = default;
};

struct IboePacket {
    IboeHeaders headers;
    std::span<const std::uint8_t> payload;  // into the decoded frame, without the pad
    std::size_t lrh_offset = 0;             // where the LRH starts (14, 18 or 22)
};

struct IboeDecode {
    IboePacket packet;
    std::optional<FrameError> error;

    bool ok() const { return !error; }
    explicit operator bool() const { return ok(); }
};

// The bytes encode_iboe_frame writes for `payload_size` payload bytes (at least 60).
std::size_t iboe_frame_size(std::size_t payload_size, bool vlan_tag);

// Writes the frame into `out` and returns its size. Throws std::invalid_argument when a field is
// out of range, the payload is over kMaxIboePayload or `out` is too small.
std::size_t encode_iboe_frame(const IboeHeaders &h, std::span<const std::uint8_t> payload,
                              std::span<std::uint8_t> out, const IboeFrameConfig &config = {});
std::vector<std::uint8_t> encode_iboe_frame(const IboeHeaders &h, std::span<const std::uint8_t> payload,
                                            const IboeFrameConfig &config = {});

// Reads a frame from the wire. Bytes past PktLen (Ethernet padding) are ignored.
IboeDecode decode_iboe_frame(std::span<const std::uint8_t> frame, const IboeFrameConfig &config = {});

}  // namespace weft::sm
