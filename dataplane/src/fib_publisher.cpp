#include "weft/dataplane/fib_publisher.hpp"

#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include <stdexcept>

namespace weft::dataplane {

FibPublisher::FibPublisher(unsigned max_readers) : max_readers_(max_readers) {
    const std::size_t size = rte_rcu_qsbr_get_memsize(max_readers);
    qsv_ = static_cast<rte_rcu_qsbr *>(rte_zmalloc("weft_fib_qsbr", size, RTE_CACHE_LINE_SIZE));
    if (qsv_ == nullptr || rte_rcu_qsbr_init(qsv_, max_readers) != 0) {
        rte_free(qsv_);
        throw std::runtime_error("cannot allocate the FIB QSBR variable");
    }
}

FibPublisher::~FibPublisher() {
    current_.store(nullptr, std::memory_order_release);
    retired_.clear();
    owned_current_.reset();
    rte_free(qsv_);
}

void FibPublisher::publish(std::unique_ptr<FibSnapshot> next) {
    current_.store(next.get(), std::memory_order_release);
    std::unique_ptr<FibSnapshot> old = std::move(owned_current_);
    owned_current_ = std::move(next);
    if (old) {
        // The token is taken after the swap: a reader that reports past it cannot still hold
        // the old pointer.
        const std::uint64_t token = rte_rcu_qsbr_start(qsv_);
        retired_.push_back({token, std::move(old)});
    }
    reclaim();
}

std::size_t FibPublisher::reclaim() noexcept {
    std::size_t freed = 0;
    // Tokens grow monotonically, so the first unfinished grace period ends the scan.
    while (!retired_.empty() && rte_rcu_qsbr_check(qsv_, retired_.front().token, false) == 1) {
        retired_.pop_front();
        ++freed;
    }
    return freed;
}

void FibPublisher::synchronize() noexcept {
    if (retired_.empty()) return;
    rte_rcu_qsbr_check(qsv_, retired_.back().token, true);
    retired_.clear();
}

RcuReader::RcuReader(rte_rcu_qsbr *qsv, unsigned id) : qsv_(qsv), id_(id) {
    if (rte_rcu_qsbr_thread_register(qsv_, id_) != 0) throw std::runtime_error("cannot register RCU reader");
    rte_rcu_qsbr_thread_online(qsv_, id_);
}

RcuReader::~RcuReader() {
    rte_rcu_qsbr_thread_offline(qsv_, id_);
    rte_rcu_qsbr_thread_unregister(qsv_, id_);
}

void RcuReader::quiescent() noexcept {
    rte_rcu_qsbr_quiescent(qsv_, id_);
}
void RcuReader::online() noexcept {
    rte_rcu_qsbr_thread_online(qsv_, id_);
}
void RcuReader::offline() noexcept {
    rte_rcu_qsbr_thread_offline(qsv_, id_);
}

}  // namespace weft::dataplane
