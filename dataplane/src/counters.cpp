#include "weft/dataplane/counters.hpp"

namespace weft::dataplane {

Totals sum_totals(const std::vector<const WorkerCounters *> &workers) noexcept {
    Totals t;
    for (const WorkerCounters *w : workers) {
        t.rx_pkts += w->rx_pkts.get();
        t.rx_bytes += w->rx_bytes.get();
        t.fwd_pkts += w->fwd_pkts.get();
        t.replicas += w->replicas.get();
        for (std::size_t i = 0; i < kDropReasonCount; ++i) t.drops[i] += w->drops[i].get();
    }
    return t;
}

PortTotals sum_port(const std::vector<const WorkerCounters *> &workers, std::uint16_t port) noexcept {
    PortTotals t;
    if (port >= kMaxPorts) return t;
    for (const WorkerCounters *w : workers) {
        const PortCounters &p = w->ports[port];
        t.rx_pkts += p.rx_pkts.get();
        t.rx_bytes += p.rx_bytes.get();
        t.tx_pkts += p.tx_pkts.get();
        t.tx_bytes += p.tx_bytes.get();
        t.tx_dropped += p.tx_dropped.get();
        t.backlog_bytes += p.backlog_bytes.get();
    }
    return t;
}

std::pair<std::uint64_t, std::uint64_t> sum_nhg(const std::vector<const WorkerCounters *> &workers,
                                                std::uint32_t nhg_index) noexcept {
    std::uint64_t pkts = 0, bytes = 0;
    if (nhg_index >= kMaxNhgs) return {0, 0};
    for (const WorkerCounters *w : workers) {
        pkts += w->nhgs[nhg_index].pkts.get();
        bytes += w->nhgs[nhg_index].bytes.get();
    }
    return {pkts, bytes};
}

}  // namespace weft::dataplane
