// Publication of FIB snapshots to the workers through rte_rcu_qsbr: the control thread swaps
// the current pointer, and an old snapshot is freed only after every registered reader has
// reported a quiescent state since the swap. Workers report once per loop iteration and never
// keep a snapshot pointer across that report.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>

#include "weft/dataplane/fib_snapshot.hpp"

struct rte_rcu_qsbr;

namespace weft::dataplane {

class FibPublisher {
  public:
    // max_readers: reader ids 0..max_readers-1 may register. Throws std::runtime_error when
    // the QSBR variable cannot be allocated.
    explicit FibPublisher(unsigned max_readers);
    ~FibPublisher();  // every reader must be offline by then
    FibPublisher(const FibPublisher &) = delete;
    FibPublisher &operator=(const FibPublisher &) = delete;

    rte_rcu_qsbr *qsbr() const noexcept { return qsv_; }
    unsigned max_readers() const noexcept { return max_readers_; }

    // Reader side: valid until the caller's next quiescent report.
    const FibSnapshot *current() const noexcept { return current_.load(std::memory_order_acquire); }

    // Control side (one thread): swap in `next`, retire the previous snapshot.
    void publish(std::unique_ptr<FibSnapshot> next);
    // Frees the retired snapshots whose grace period is over; returns how many. Never blocks.
    std::size_t reclaim() noexcept;
    // Blocks until every online reader has passed a quiescent state, then frees all retired.
    void synchronize() noexcept;
    std::size_t retired() const noexcept { return retired_.size(); }

  private:
    struct Retired {
        std::uint64_t token;
        std::unique_ptr<FibSnapshot> snapshot;
    };
    unsigned max_readers_;
    rte_rcu_qsbr *qsv_ = nullptr;
    std::unique_ptr<FibSnapshot> owned_current_;
    std::atomic<const FibSnapshot *> current_{nullptr};
    std::deque<Retired> retired_;
};

// A reader's registration with the publisher's QSBR variable, for the lifetime of the object.
class RcuReader {
  public:
    RcuReader(rte_rcu_qsbr *qsv, unsigned id);
    ~RcuReader();
    RcuReader(const RcuReader &) = delete;
    RcuReader &operator=(const RcuReader &) = delete;
    void quiescent() noexcept;
    void online() noexcept;
    void offline() noexcept;  // e.g. before blocking; an offline reader holds no grace period
    unsigned id() const noexcept { return id_; }

  private:
    rte_rcu_qsbr *qsv_;
    unsigned id_;
};

}  // namespace weft::dataplane
