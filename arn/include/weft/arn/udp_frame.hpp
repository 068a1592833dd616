// An ARN in a UDP datagram (arn/ARN_FORMAT.md, "In UDP"): Ethernet, IPv4 or IPv6, UDP to the
// configured port, the message as the whole payload. Like the Ethernet form it never leaves the
// link: it is sent to the link's all-nodes address (IPv4 limited broadcast 255.255.255.255, IPv6
// ff02::1; both never forwarded by a router) with TTL / hop limit 255 and DSCP CS6, and taken only
// with 255 (RFC 5082's GTSM), checksums right and nothing after the message but Ethernet padding.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "weft/arn/frame.hpp"

namespace weft::arn {

inline constexpr std::uint8_t kArnIpTtl = 255;
inline constexpr std::uint8_t kArnDscp = 48;  // CS6, network control

struct ArnUdpConfig {
    std::uint16_t port = kArnUdpPort;
    friend bool operator==(const ArnUdpConfig &, const ArnUdpConfig &) = default;
};

struct ArnUdpHeaders {
    bool ipv6 = false;
    MacAddr src_mac{};
    // The sender's address: IPv4 in the first 4 bytes (0.0.0.0 when the port has none); IPv6 a
    // link-local address (all zero: the encoder makes fe80::/64 of src_mac, EUI-64).
    std::array<std::uint8_t, 16> src_ip{};
    std::uint16_t src_port = kArnUdpPort;
};

// The bytes encode_arn_udp_frame writes (at least 60).
std::size_t arn_udp_frame_size(const ArnMessage &m, bool ipv6);

// Writes the frame (IPv4 header and UDP checksums filled in) and returns its size; throws
// std::invalid_argument as encode_arn does, or when `out` is too small.
std::size_t encode_arn_udp_frame(const ArnUdpHeaders &h, const ArnMessage &m, std::span<std::uint8_t> out,
                                 const ArnUdpConfig &config = {});
std::vector<std::uint8_t> encode_arn_udp_frame(const ArnUdpHeaders &h, const ArnMessage &m,
                                               const ArnUdpConfig &config = {});

// Reads a frame from the wire: up to two VLAN tags, IPv4 (no fragment, any options) or IPv6 (UDP
// as the next header), TTL / hop limit 255, UDP to the configured port, checksums (a UDP checksum
// of 0 only over IPv4), the message filling the datagram exactly. Error offsets count from the
// frame's first byte; arn_offset is the message's.
ArnFrameDecode decode_arn_udp_frame(std::span<const std::uint8_t> frame, const ArnUdpConfig &config = {});

}  // namespace weft::arn
