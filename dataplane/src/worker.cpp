#include "weft/dataplane/worker.hpp"

#include <rte_cycles.h>

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
    counters_->polling.store(true, std::memory_order_release);
    while (!stop.load(std::memory_order_relaxed)) {
        // The snapshot pointer is used only inside this iteration, before the quiescent report.
        const FibSnapshot *fib = fib_->current();
        if (fib != nullptr) forwarder_->poll_once(*fib, rte_rdtsc());
        counters_->serve_reading();  // between rounds, where the counters agree
        counters_->loops.add();
        reader.quiescent();
    }
    counters_->polling.store(false, std::memory_order_release);
    forwarder_->drain();  // what the TX buffers still hold goes out before the ports stop
    forwarder_->discard_buffers();
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
