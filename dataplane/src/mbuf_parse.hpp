// The parser applied to an mbuf: the frame is the first segment's data. Weft configures its
// ports without RX scatter, so a chained mbuf is unexpected and dropped with its own reason
// rather than parsed half-way. On a port whose NIC verifies IPv4 header checksums, its verdict
// (in ol_flags) stands in for the parser's own check.
#pragma once

#include <rte_mbuf.h>

#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {

// The NIC's verdict on a frame's IPv4 header checksum: RTE_MBUF_F_RX_IP_CKSUM_GOOD or _BAD, or
// anything else for a frame it did not check (or flagged _NONE: the header is sound but its
// checksum field is not, which forwarding would carry on), which software has to check.
inline std::uint64_t nic_ipv4_cksum(const rte_mbuf *m) noexcept {
    return m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
}

inline DropReason parse_mbuf(const rte_mbuf *m, const ParserConfig &config, ParsedPacket &out,
                             bool nic_checks = false) noexcept {
    if (m->nb_segs != 1) return DropReason::Multisegment;
    const auto *data = rte_pktmbuf_mtod(m, const std::uint8_t *);
    const std::span<const std::uint8_t> frame(data, m->data_len);
    const std::uint64_t nic = nic_checks ? nic_ipv4_cksum(m) : 0;
    if (nic != RTE_MBUF_F_RX_IP_CKSUM_GOOD && nic != RTE_MBUF_F_RX_IP_CKSUM_BAD)
        return parse_frame(frame, config, out);
    ParserConfig trusting = config;
    trusting.verify_ipv4_checksum = false;
    const DropReason r = parse_frame(frame, trusting, out);
    if (r == DropReason::None && out.kind == PacketKind::Ipv4 && nic == RTE_MBUF_F_RX_IP_CKSUM_BAD)
        return DropReason::Ipv4NicBadChecksum;
    return r;
}

}  // namespace weft::dataplane
