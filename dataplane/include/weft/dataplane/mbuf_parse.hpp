// The parser applied to an mbuf: the frame is the first segment's data. Weft configures its
// ports without RX scatter, so a chained mbuf is unexpected and dropped with its own reason
// rather than parsed half-way.
#pragma once

#include <rte_mbuf.h>

#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {

inline DropReason parse_mbuf(const rte_mbuf *m, const ParserConfig &config, ParsedPacket &out) noexcept {
    if (m->nb_segs != 1) return DropReason::Multisegment;
    const auto *data = rte_pktmbuf_mtod(m, const std::uint8_t *);
    return parse_frame(std::span<const std::uint8_t>(data, m->data_len), config, out);
}

}  // namespace weft::dataplane
