// An ARN in an Ethernet frame: destination and source MAC, an optional 802.1Q tag (PCP 7 on
// send), the configured EtherType, the message, zero padding to the minimum frame size
// (arn/ARN_FORMAT.md). The UDP form is udp_frame.hpp's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "weft/arn/codec.hpp"

namespace weft::arn {

using MacAddr = std::array<std::uint8_t, 6>;

inline constexpr std::uint16_t kArnEtherType = 0x88B6;  // IEEE 802 local experimental EtherType 2
inline constexpr std::uint16_t kArnUdpPort = 49400;     // from the dynamic range, never assigned
// IEEE 802.1Q's "nearest bridge" group address: no bridge forwards it, so an ARN frame never
// leaves the link it was sent on (a switch that forwards an ARN sends a frame of its own).
inline constexpr MacAddr kArnDstMac = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x0E};
inline constexpr std::uint8_t kArnPcp = 7;
inline constexpr std::size_t kArnEthHeaderSize = 14;
inline constexpr std::size_t kArnVlanTagSize = 4;
inline constexpr std::size_t kArnMinFrameSize = 60;  // without the FCS

struct ArnEthernetConfig {
    std::uint16_t ethertype = kArnEtherType;
};

struct ArnFrameHeaders {
    MacAddr dst_mac = kArnDstMac;
    MacAddr src_mac{};
    std::optional<std::uint16_t> vlan_tci;  // the outer tag's TCI; encode: one 802.1Q tag
    friend bool operator==(const ArnFrameHeaders &, const ArnFrameHeaders &) = default;
};

struct ArnFrameDecode {
    ArnFrameHeaders headers;
    ArnMessage message;
    std::size_t arn_offset = 0;  // where the message starts (14, 18 or 22)
    std::optional<ArnError> error;

    bool ok() const { return !error; }
    explicit operator bool() const { return ok(); }
};

// A tag's TCI with priority `pcp` (3 bits) and VLAN id `vid` (12 bits).
constexpr std::uint16_t vlan_tci(std::uint8_t pcp, std::uint16_t vid) {
    return static_cast<std::uint16_t>(((pcp & 7u) << 13) | (vid & 0x0FFFu));
}

// The bytes encode_arn_frame writes (at least 60).
std::size_t arn_frame_size(const ArnMessage &m, bool vlan_tag);

// Writes the frame and returns its size; throws std::invalid_argument as encode_arn does, or
// when `out` is too small.
std::size_t encode_arn_frame(const ArnFrameHeaders &h, const ArnMessage &m, std::span<std::uint8_t> out,
                             const ArnEthernetConfig &config = {});
std::vector<std::uint8_t> encode_arn_frame(const ArnFrameHeaders &h, const ArnMessage &m,
                                           const ArnEthernetConfig &config = {});

// Reads a frame from the wire: up to two VLAN tags, the configured EtherType, the message, and
// nothing but zeros after it. Error offsets count from the frame's first byte.
ArnFrameDecode decode_arn_frame(std::span<const std::uint8_t> frame, const ArnEthernetConfig &config = {});

}  // namespace weft::arn
