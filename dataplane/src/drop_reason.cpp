#include "weft/dataplane/drop_reason.hpp"

namespace weft::dataplane {

const char *drop_reason_name(DropReason r) noexcept {
    switch (r) {
        case DropReason::None:
            return "none";
        case DropReason::EthTruncated:
            return "eth_truncated";
        case DropReason::VlanTruncated:
            return "vlan_truncated";
        case DropReason::UnknownEtherType:
            return "unknown_ethertype";
        case DropReason::Ipv4Truncated:
            return "ipv4_truncated";
        case DropReason::Ipv4BadVersion:
            return "ipv4_bad_version";
        case DropReason::Ipv4BadIhl:
            return "ipv4_bad_ihl";
        case DropReason::Ipv4HeaderPastBuffer:
            return "ipv4_header_past_buffer";
        case DropReason::Ipv4BadTotalLength:
            return "ipv4_bad_total_length";
        case DropReason::Ipv4TotalLengthPastBuffer:
            return "ipv4_total_length_past_buffer";
        case DropReason::Ipv4BadChecksum:
            return "ipv4_bad_checksum";
        case DropReason::Ipv4NicBadChecksum:
            return "ipv4_nic_bad_checksum";
        case DropReason::Ipv6Truncated:
            return "ipv6_truncated";
        case DropReason::Ipv6BadVersion:
            return "ipv6_bad_version";
        case DropReason::Ipv6PayloadPastBuffer:
            return "ipv6_payload_past_buffer";
        case DropReason::Ipv6ExtHeaderTruncated:
            return "ipv6_ext_header_truncated";
        case DropReason::Ipv6TooManyExtHeaders:
            return "ipv6_too_many_ext_headers";
        case DropReason::TcpTruncated:
            return "tcp_truncated";
        case DropReason::TcpBadDataOffset:
            return "tcp_bad_data_offset";
        case DropReason::TcpHeaderPastBuffer:
            return "tcp_header_past_buffer";
        case DropReason::UdpTruncated:
            return "udp_truncated";
        case DropReason::UdpBadLength:
            return "udp_bad_length";
        case DropReason::UdpLengthPastBuffer:
            return "udp_length_past_buffer";
        case DropReason::BthTruncated:
            return "bth_truncated";
        case DropReason::LrhTruncated:
            return "lrh_truncated";
        case DropReason::LrhBadVersion:
            return "lrh_bad_version";
        case DropReason::LrhBadPktLen:
            return "lrh_bad_pktlen";
        case DropReason::LrhPktLenPastBuffer:
            return "lrh_pktlen_past_buffer";
        case DropReason::GrhTruncated:
            return "grh_truncated";
        case DropReason::GrhBadVersion:
            return "grh_bad_version";
        case DropReason::NoRoute:
            return "no_route";
        case DropReason::NoNeighbour:
            return "no_neighbour";
        case DropReason::NoLiveMember:
            return "no_live_member";
        case DropReason::TtlExpired:
            return "ttl_expired";
        case DropReason::InvalidLid:
            return "invalid_lid";
        case DropReason::LftMiss:
            return "lft_miss";
        case DropReason::MftMiss:
            return "mft_miss";
        case DropReason::PortDown:
            return "port_down";
        case DropReason::TxQueueFull:
            return "tx_queue_full";
        case DropReason::ReplicationFailed:
            return "replication_failed";
        case DropReason::Multisegment:
            return "multisegment";
        case DropReason::PuntRingFull:
            return "punt_ring_full";
        case DropReason::Count:
            break;
    }
    return "unknown";
}

}  // namespace weft::dataplane
