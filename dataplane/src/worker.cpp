#include "weft/dataplane/worker.hpp"

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <sys/prctl.h>

#include <algorithm>

#include "forwarder.hpp"

namespace weft::dataplane {

namespace {
WorkerConfig clamped(WorkerConfig c) {
    c.burst = std::clamp<std::uint16_t>(c.burst, 1, kMaxBurst);
    c.tx_queues = std::clamp<std::uint16_t>(c.tx_queues, 1, kMaxTxQueuesPerWorker);
    return c;
}
}  // namespace

Worker::Worker(WorkerConfig config, const FibPublisher &fib, const LinkState &links,
               const ars::PortBoard &board, WorkerCounters &counters)
    : config_(clamped(std::move(config))),
      fib_(&fib),
      counters_(&counters),
      forwarder_(std::make_unique<Forwarder>(config_, links, board, counters)) {}

Worker::~Worker() = default;

void Worker::run(const std::atomic<bool> &stop) {
    RcuReader reader(fib_->qsbr(), config_.index);
    const unsigned sleep_max = config_.idle_sleep_max_us;
    // The kernel would stretch a microsecond's sleep by the thread's timer slack (50 us by
    // default); with the back-off on, a sleep lasts about what it asks.
    if (sleep_max != 0) prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    unsigned sleep_us = 0;
    counters_->polling.store(true, std::memory_order_release);
    while (!stop.load(std::memory_order_relaxed)) {
        // The snapshot pointer is used only inside this iteration, before the quiescent report.
        const FibSnapshot *fib = fib_->current();
        unsigned received = fib != nullptr ? forwarder_->poll_once(*fib, rte_rdtsc()) : 0;
        if (config_.inject != nullptr) received += send_injected();
        counters_->serve_reading();  // between rounds, where the counters agree
        counters_->loops.add();
        reader.quiescent();
        if (sleep_max == 0) continue;
        // Idle back-off: a frame resets it; frames its queue did not take yet keep it polling.
        if (received != 0 || forwarder_->tx_pending()) {
            sleep_us = 0;
            continue;
        }
        // Doubling reaches the bound in log2(bound) sleeps, so an idle worker gives its core up
        // within about twice the bound; the first frame after a long gap waits at most the bound
        // either way.
        sleep_us = std::min(sleep_max, sleep_us == 0 ? 1u : 2 * sleep_us);
        counters_->idle_sleeps.add();
        counters_->idle_sleep_us.add(sleep_us);
        // Offline while asleep, so that no grace period (a snapshot publication, a port stop)
        // waits for this worker.
        reader.offline();
        rte_delay_us_sleep(sleep_us);
        reader.online();
    }
    counters_->polling.store(false, std::memory_order_release);
    forwarder_->drain();  // what the TX buffers still hold goes out before the ports stop
    forwarder_->discard_buffers();
}

unsigned Worker::send_injected() noexcept {
    if (rte_ring_empty(config_.inject)) return 0;
    rte_mbuf *m[kMaxBurst];
    const unsigned n =
        rte_ring_sc_dequeue_burst(config_.inject, reinterpret_cast<void **>(m), kMaxBurst, nullptr);
    for (unsigned i = 0; i < n; ++i) {
        const std::uint16_t port = m[i]->port;
        if (forwarder_->send_now(port, m[i])) {
            config_.injected->sent[port].add();
        } else {
            rte_pktmbuf_free(m[i]);
            config_.injected->failed[port].add();
        }
    }
    return n;
}

unsigned Worker::poll_once(const FibSnapshot &fib, std::uint64_t now_tsc) {
    return forwarder_->poll_once(fib, now_tsc);
}

void Worker::discard_buffers() noexcept {
    forwarder_->discard_buffers();
}

const ars::Worker &Worker::ars() const noexcept {
    return forwarder_->ars();
}

void Worker::set_monitor_hook(ars::MonitorHook hook) noexcept {
    forwarder_->set_monitor_hook(hook);
}

}  // namespace weft::dataplane
