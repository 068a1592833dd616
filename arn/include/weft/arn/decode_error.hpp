// Why a received ARN (or the frame carrying it) was refused: one reason per check the decoder
// makes, where it failed (byte offset) and what it found there, and a counter per reason. ARNs
// come from the wire; a refusal is counted, never thrown.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace weft::arn {

enum class ArnDrop : std::uint8_t {
    // The frame around the message (frame.hpp).
    kEthTruncated,   // shorter than an Ethernet header
    kVlanTruncated,  // an 802.1Q/802.1ad tag cut short
    kNotArn,         // another EtherType than the configured one
    // The message.
    kHeaderTruncated,   // fewer than the 4 header bytes
    kBadVersion,        // Version is not 0
    kUnknownType,       // a Type weft does not define
    kBadMetric,         // a Metric the Type does not allow
    kMissingParameter,  // the reporting switch or its port is absent (value: the missing bits)
    kParamTruncated,    // a parameter the bitmap announces is cut short
    kBadPrefixFamily,   // the destination prefix is neither IPv4 (4) nor IPv6 (6)
    kBadPrefixLength,   // longer than 32 (IPv4) or 128 (IPv6)
    kPrefixHostBits,    // a bit past the prefix length is set
    kBadHoldTime,       // a hold time of 0
    kTrailingBytes,     // bytes after the last parameter (UDP), or non-zero padding (Ethernet)
    // The IP and UDP headers around the message (udp_frame.hpp).
    kIpTruncated,   // an IP or UDP header cut short, or an IP length past the frame
    kBadIpHeader,   // IPv4 version or header length, a fragment, an IP length shorter than its headers
    kNotArnUdp,     // not UDP, or another destination port than the configured one
    kBadTtl,        // a TTL or hop limit other than 255: not from the neighbour on the link
    kBadChecksum,   // the IPv4 header's or the UDP checksum (0 over IPv6)
    kBadUdpLength,  // the UDP length is not the IP payload's
    kCount
};

inline constexpr std::size_t kArnDropCount = static_cast<std::size_t>(ArnDrop::kCount);

// "bad_metric": a name for counters and JSON.
const char *arn_drop_name(ArnDrop reason);
// "ARN.Metric": the field the check reads.
const char *arn_drop_field(ArnDrop reason);

struct ArnError {
    ArnDrop reason = ArnDrop::kCount;
    std::size_t offset = 0;   // of the field, from the first byte given to the decoder
    std::uint64_t value = 0;  // what was found there

    // "ARN.Metric at byte 2 = 0x9: bad_metric"
    std::string message() const;
    friend bool operator==(const ArnError &, const ArnError &) = default;
};

struct ArnDropCounters {
    std::array<std::uint64_t, kArnDropCount> by_reason{};

    void add(ArnDrop reason) { ++by_reason[static_cast<std::size_t>(reason)]; }
    std::uint64_t operator[](ArnDrop reason) const { return by_reason[static_cast<std::size_t>(reason)]; }
    std::uint64_t total() const;
};

}  // namespace weft::arn
