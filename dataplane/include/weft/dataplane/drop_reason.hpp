// Why a frame was not forwarded. Parsing and forwarding share one enum so that every frame that
// enters a worker and does not leave it is counted under exactly one reason.
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::dataplane {

enum class DropReason : std::uint8_t {
    None = 0,
    // Layer 2.
    EthTruncated,
    VlanTruncated,
    UnknownEtherType,
    // IPv4.
    Ipv4Truncated,
    Ipv4BadVersion,
    Ipv4BadIhl,
    Ipv4HeaderPastBuffer,
    Ipv4BadTotalLength,
    Ipv4TotalLengthPastBuffer,
    Ipv4BadChecksum,
    Ipv4NicBadChecksum,  // the RX checksum offload flagged the header checksum bad
    // IPv6.
    Ipv6Truncated,
    Ipv6BadVersion,
    Ipv6PayloadPastBuffer,
    Ipv6ExtHeaderTruncated,
    Ipv6TooManyExtHeaders,
    // Layer 4 and RoCEv2.
    TcpTruncated,
    TcpBadDataOffset,
    TcpHeaderPastBuffer,
    UdpTruncated,
    UdpBadLength,
    UdpLengthPastBuffer,
    BthTruncated,
    // IB-over-Ethernet.
    LrhTruncated,
    LrhBadVersion,
    LrhBadPktLen,
    LrhPktLenPastBuffer,
    GrhTruncated,
    GrhBadVersion,
    // Forwarding.
    NoRoute,
    Blackhole,  // routed to a Drop group (a blackhole, unreachable or prohibit route)
    NoNeighbour,
    NoLiveMember,
    TtlExpired,
    InvalidLid,
    LftMiss,
    MftMiss,
    PortDown,
    TxQueueFull,
    ReplicationFailed,
    Multisegment,
    // A subnet-management frame for this switch found its worker's ring to the control thread full.
    PuntRingFull,
    // ARN (arn_tables.hpp): a frame of the ARN EtherType on a port that is not a fabric port;
    // over the worker's rate limit for its port; refused by the decoder (arn_counters.hpp has the
    // reason); from a reporter the flood table does not know; this switch's own news come back;
    // in on a port the tree does not bring that reporter's news in by; the ring to the BPT's
    // owner full.
    ArnNotFabricPort,
    ArnRateLimited,
    ArnMalformed,
    ArnUnknownReporter,
    ArnOwnNews,
    ArnUnexpectedPort,
    ArnRingFull,
    Count
};

inline constexpr std::size_t kDropReasonCount = static_cast<std::size_t>(DropReason::Count);

// Stable snake_case name for counters, telemetry and the CLI.
const char *drop_reason_name(DropReason r) noexcept;

}  // namespace weft::dataplane
