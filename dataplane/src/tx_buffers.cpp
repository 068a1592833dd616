#include "tx_buffers.hpp"

#include <rte_ethdev.h>

#include <cstring>

namespace weft::dataplane {

TxBuffers::TxBuffers(std::uint16_t slots, std::uint16_t queue_base, std::uint16_t burst)
    : slots_(slots),
      // Every possible port has its buffers, so that a hop may point at one whatever port the
      // tables name; only the worker's ports ever get frames (no other port is ever usable).
      buffers_(static_cast<std::size_t>(kMaxPorts) * slots),
      pending_(buffers_.size()),
      refused_bytes_(kMaxPorts) {
    const auto capacity = static_cast<std::uint16_t>(2 * burst);
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
        TxBuffer &b = buffers_[i];
        b.capacity = capacity;
        b.port = static_cast<std::uint16_t>(i / slots);
        b.queue = static_cast<std::uint16_t>(queue_base + i % slots);
    }
}

void TxBuffers::flush(const LinkState &links, WorkerCounters &counters) noexcept {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < pending_n_; ++k) {
        TxBuffer &b = *pending_[k];
        if (links.started(b.port))
            send(b, counters);
        else  // stopped under us: nothing may be sent there
            drop_all(b, DropReason::PortDown, counters);
        if (b.count != 0) pending_[kept++] = &b;
    }
    pending_n_ = kept;
}

void TxBuffers::send(TxBuffer &b, WorkerCounters &counters) noexcept {
    PortCounters &pc = counters.ports[b.port];
    const std::uint16_t sent = rte_eth_tx_burst(b.port, b.queue, b.pkts, b.count);
    // Byte counts use the lengths recorded when the frames were buffered: the PMD owns the sent
    // mbufs now.
    std::uint32_t left_bytes = 0;
    for (std::uint16_t i = sent; i < b.count; ++i) left_bytes += b.pkts[i]->pkt_len;
    if (sent != 0) {
        counters.fwd_pkts.add(sent);
        pc.tx_pkts.add(sent);
        pc.tx_bytes.add(b.bytes - left_bytes);
        if (sent != b.count) std::memmove(b.pkts, b.pkts + sent, (b.count - sent) * sizeof(rte_mbuf *));
        b.count = static_cast<std::uint16_t>(b.count - sent);
        b.bytes = left_bytes;
    }
    if (left_bytes != b.refused_bytes) {
        refused_bytes_[b.port] += left_bytes - b.refused_bytes;
        b.refused_bytes = left_bytes;
        pc.backlog_bytes.set(refused_bytes_[b.port]);
    }
}

void TxBuffers::discard(const LinkState &links, WorkerCounters &counters) noexcept {
    for (std::size_t k = 0; k < pending_n_; ++k) {
        TxBuffer &b = *pending_[k];
        drop_all(b, links.started(b.port) ? DropReason::TxQueueFull : DropReason::PortDown, counters);
    }
    pending_n_ = 0;
}

void TxBuffers::drop_all(TxBuffer &b, DropReason why, WorkerCounters &counters) noexcept {
    rte_pktmbuf_free_bulk(b.pkts, b.count);
    counters.drops[static_cast<std::size_t>(why)].add(b.count);
    counters.ports[b.port].tx_dropped.add(b.count);
    b.count = 0;
    b.bytes = 0;
    if (b.refused_bytes != 0) {
        refused_bytes_[b.port] -= b.refused_bytes;
        b.refused_bytes = 0;
        counters.ports[b.port].backlog_bytes.set(refused_bytes_[b.port]);
    }
}

}  // namespace weft::dataplane
