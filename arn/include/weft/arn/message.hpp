// An Adaptive Routing Notification as weft defines it on top of the ARN draft
// (draft-wh-rtgwg-adaptive-routing-arn-01, section 3): the draft fixes the header (Type,
// Version, Reserved, Metric, Para-Type bitmap) and leaves the Types and parameters to the
// implementation. weft's are below; the bytes are written down in arn/ARN_FORMAT.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "weft/arn/types.hpp"

namespace weft::arn {

inline constexpr std::uint8_t kArnVersion = 0;  // the draft's default

// What happened to the link the message names.
enum class ArnType : std::uint8_t {
    kCongestionDetected = 1,    // Metric: severity 1..kMaxSeverity
    kCongestionEliminated = 2,  // Metric: 0
    kFailureDetected = 3,       // Metric: kFailureLinkDown
    kFailureEliminated = 4,     // Metric: 0
};
inline constexpr std::uint8_t kMinArnType = 1;
inline constexpr std::uint8_t kMaxArnType = 4;

// Severities are the detector's levels: severity s makes the link count as ARS quality band
// 7 - s at the receivers (7 = idle is never reported, 0 = the worst band).
inline constexpr std::uint8_t kMaxSeverity = 7;
inline constexpr std::uint8_t kFailureLinkDown = 1;

// The Para-Type bitmap: one bit per parameter, the most significant bit first. Parameters that
// are present follow the header in this order.
enum ParamBit : std::uint8_t {
    kParamReporter = 0x80,    // 8 bytes: the reporting switch (its GUID)
    kParamPort = 0x40,        // 2 bytes: the reporting switch's port the link leaves by
    kParamPeerGroup = 0x20,   // 2 bytes: the dragonfly group at the far end of the link
    kParamPathId = 0x10,      // 4 bytes: the control plane's id of the link (a global link's index)
    kParamDestGroup = 0x08,   // 2 bytes: the destination group whose paths are affected
    kParamDestPrefix = 0x04,  // 2 + ceil(len / 8) bytes: family (4 or 6), length, address bytes
    kParamSequence = 0x02,    // 4 bytes: the reporter's message counter
    kParamHoldTime = 0x01,    // 2 bytes: milliseconds a receiver keeps the news unrefreshed (> 0)
};
// Every message names its link: the BPT cannot locate the affected paths otherwise (the draft's
// MUST in sections 2.2 and 2.3).
inline constexpr std::uint8_t kRequiredParams = kParamReporter | kParamPort;

// An IPv4 or IPv6 destination prefix; bits past `length` are zero.
struct DestPrefix {
    std::uint8_t family = 4;  // 4 or 6
    std::uint8_t length = 0;  // 0..32 or 0..128
    std::array<std::uint8_t, 16> address{};
    friend bool operator==(const DestPrefix &, const DestPrefix &) = default;
};

struct ArnMessage {
    ArnType type = ArnType::kCongestionDetected;
    std::uint8_t metric = 1;
    std::uint8_t reserved = 0;  // read from the wire (ignored by receivers), written as 0
    std::optional<SwitchId> reporter;
    std::optional<PortNumber> port;
    std::optional<GroupId> peer_group;
    std::optional<std::uint32_t> path_id;
    std::optional<GroupId> dest_group;
    std::optional<DestPrefix> dest_prefix;
    std::optional<std::uint32_t> sequence;
    std::optional<std::uint16_t> hold_ms;

    // The Para-Type bitmap of the parameters present.
    std::uint8_t para_type() const;
    // The link the message is about (both required parameters are there once it decoded).
    LinkRef link() const { return {reporter.value_or(0), port.value_or(0)}; }
    friend bool operator==(const ArnMessage &, const ArnMessage &) = default;
};

inline constexpr std::size_t kArnHeaderSize = 4;
// The longest message: every parameter, an IPv6 /128.
inline constexpr std::size_t kMaxArnSize = kArnHeaderSize + 8 + 2 + 2 + 4 + 2 + (2 + 16) + 4 + 2;

const char *arn_type_name(ArnType type);  // "congestion-detected", ...

}  // namespace weft::arn
