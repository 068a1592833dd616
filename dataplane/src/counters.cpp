#include "weft/dataplane/counters.hpp"

#include <rte_pause.h>

#include <chrono>
#include <thread>

namespace weft::dataplane {

namespace {

void read_all(const WorkerCounters &w, WorkerReading &r) noexcept {
    r.totals.rx_pkts = w.rx_pkts.get();
    r.totals.rx_bytes = w.rx_bytes.get();
    r.totals.fwd_pkts = w.fwd_pkts.get();
    r.totals.replicas = w.replicas.get();
    r.totals.punted = w.punted.get();
    for (std::size_t i = 0; i < kDropReasonCount; ++i) r.totals.drops[i] = w.drops[i].get();
    for (std::size_t p = 0; p < kMaxPorts; ++p) {
        const PortCounters &c = w.ports[p];
        r.ports[p] = PortTotals{c.rx_pkts.get(),  c.rx_bytes.get(),   c.tx_pkts.get(),
                                c.tx_bytes.get(), c.tx_dropped.get(), c.backlog_bytes.get()};
    }
}

}  // namespace

void WorkerCounters::copy_reading(std::uint64_t asked) noexcept {
    reading.totals = {rx_pkts.get(), rx_bytes.get(), fwd_pkts.get(), replicas.get(), punted.get()};
    for (std::size_t i = 0; i < kDropReasonCount; ++i) reading.drops[i] = drops[i].get();
    for (std::size_t p = 0; p < kMaxPorts; ++p) {
        const PortCounters &c = ports[p];
        reading.ports[p] = {c.rx_pkts.get(),  c.rx_bytes.get(),   c.tx_pkts.get(),
                            c.tx_bytes.get(), c.tx_dropped.get(), c.backlog_bytes.get()};
    }
    reading_served.store(asked, std::memory_order_release);
}

WorkerReading read_between_rounds(const WorkerCounters &w) noexcept {
    WorkerReading r;
    if (w.polling.load(std::memory_order_acquire)) {
        const std::uint64_t asked = w.reading_requested.load(std::memory_order_relaxed) + 1;
        w.reading_requested.store(asked, std::memory_order_release);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
        for (unsigned spin = 0;; ++spin) {
            if (w.reading_served.load(std::memory_order_acquire) == asked) {
                const WorkerCounters::Reading &c = w.reading;
                r.totals.rx_pkts = c.totals[0];
                r.totals.rx_bytes = c.totals[1];
                r.totals.fwd_pkts = c.totals[2];
                r.totals.replicas = c.totals[3];
                r.totals.punted = c.totals[4];
                r.totals.drops = c.drops;
                for (std::size_t p = 0; p < kMaxPorts; ++p)
                    r.ports[p] = PortTotals{c.ports[p][0], c.ports[p][1], c.ports[p][2],
                                            c.ports[p][3], c.ports[p][4], c.ports[p][5]};
                r.between_rounds = true;
                return r;
            }
            if (!w.polling.load(std::memory_order_acquire)) break;  // stopped meanwhile
            if (spin % 64 == 63) {
                if (std::chrono::steady_clock::now() > deadline) break;
                std::this_thread::yield();
            } else {
                rte_pause();
            }
        }
    }
    read_all(w, r);
    r.between_rounds = !w.polling.load(std::memory_order_acquire);
    return r;
}

Totals sum_totals(const std::vector<const WorkerCounters *> &workers) noexcept {
    Totals t;
    for (const WorkerCounters *w : workers) {
        t.rx_pkts += w->rx_pkts.get();
        t.rx_bytes += w->rx_bytes.get();
        t.fwd_pkts += w->fwd_pkts.get();
        t.replicas += w->replicas.get();
        t.punted += w->punted.get();
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
