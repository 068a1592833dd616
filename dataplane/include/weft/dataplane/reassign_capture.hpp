// ARS monitoring capture: a pcapng record of each packet whose flow a monitored ARS group
// reassigned. A worker copies such a packet (as sent: rewritten, on its egress port) into the
// capture pool and hands the copy to its own single-producer ring; it never blocks and never
// waits: with the ring full or the pool empty the copy is dropped and counted. A writer thread
// (never a worker lcore) drains the rings into the file with DPDK's rte_pcapng, whose interface
// blocks name the ethdev ports, so each record's interface is the packet's egress port.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/status.hpp"

struct rte_mbuf;
struct rte_mempool;
struct rte_ring;
struct rte_rcu_qsbr;

namespace weft::dataplane {

// One worker's side. The worker reads `enabled` once per burst and calls record() only for
// packets that were reassigned; the writer thread is the ring's only consumer.
class CaptureSlot {
  public:
    bool enabled() const noexcept { return enabled_.load(std::memory_order_acquire); }
    // Copies `m` for egress `port` (TX queue `queue`) at TSC `tsc`; drops and counts the copy
    // when the pool or the ring is exhausted.
    void record(const rte_mbuf *m, std::uint16_t port, std::uint16_t queue, std::uint64_t tsc) noexcept;

    std::uint64_t captured() const noexcept { return captured_.get(); }
    std::uint64_t dropped() const noexcept { return dropped_.get(); }

  private:
    friend class ReassignCapture;
    std::atomic<bool> enabled_{false};
    rte_ring *ring_ = nullptr;
    rte_mempool *pool_ = nullptr;
    // TSC -> wall clock for the records' time stamps, taken when the capture starts.
    std::uint64_t base_tsc_ = 0, base_ns_ = 0, tsc_hz_ = 1;
    Counter captured_;  // handed to the ring (worker-written)
    Counter dropped_;   // no mbuf for the copy, or the ring was full (worker-written)
};

struct CaptureStats {
    bool active = false;
    std::string path;
    std::uint64_t captured = 0;      // copies the workers handed over
    std::uint64_t dropped = 0;       // copies the workers could not hand over
    std::uint64_t written = 0;       // records in the file
    std::uint64_t write_errors = 0;  // records lost to a failed write
    std::vector<std::uint64_t> captured_per_worker;
};

class ReassignCapture {
  public:
    // `qsbr`: the workers' RCU, used to wait until no worker still sees a capture as enabled.
    ReassignCapture(unsigned num_workers, rte_rcu_qsbr *qsbr);
    ~ReassignCapture();
    ReassignCapture(const ReassignCapture &) = delete;
    ReassignCapture &operator=(const ReassignCapture &) = delete;

    CaptureSlot *slot(unsigned worker) { return slots_.at(worker).get(); }

    // Control thread. start() opens (truncates) `path`, writes the pcapng header and one
    // interface per port, and enables the workers; a running capture is closed first, once the
    // new file is open (a path that cannot be opened leaves it running).
    Status start(const std::string &path);
    // Disables the workers, waits for their grace period, writes what the rings hold and closes
    // the file. Does nothing when no capture runs.
    void stop();
    CaptureStats stats() const;

  private:
    void run();
    std::uint64_t drain();  // writer thread (or stop(), after it joined): rings -> file

    std::vector<std::unique_ptr<CaptureSlot>> slots_;
    rte_rcu_qsbr *qsbr_;
    rte_mempool *pool_ = nullptr;  // created on the first start, kept for the process
    struct File;
    std::unique_ptr<File> file_;
    std::string path_;
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> written_{0}, write_errors_{0};
    std::thread thread_;
};

}  // namespace weft::dataplane
