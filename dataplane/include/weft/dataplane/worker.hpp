// One worker lcore, run to completion: each RX burst goes through the stages parse -> lookup ->
// ACL -> select -> rewrite and enqueue, the TX buffers go out, and the loop reports a quiescent
// state to the FIB's RCU. The stages live in dataplane/src/forwarder.*.
#pragma once

#include <rte_ether.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "weft/ars/monitor.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/dataplane/arn_counters.hpp"
#include "weft/dataplane/arn_tables.hpp"
#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/fib_publisher.hpp"
#include "weft/dataplane/link_state.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/dataplane/punt_doorbell.hpp"
#include "weft/dataplane/reassign_capture.hpp"

struct rte_mempool;
struct rte_ring;

namespace weft::ars {
class Worker;
}

namespace weft::dataplane {

inline constexpr std::uint16_t kMaxBurst = 128;
inline constexpr std::uint16_t kMaxTxQueuesPerWorker = 8;

struct RxQueueRef {
    std::uint16_t port;
    std::uint16_t queue;
};

struct WorkerConfig {
    unsigned index = 0;  // worker number; also its RCU reader id
    std::vector<RxQueueRef> rx;
    std::uint16_t num_ports = 0;
    // This worker's TX queues on every port: tx_queue_base .. tx_queue_base + tx_queues - 1.
    // A frame's queue is base + (VL mod tx_queues); IP traffic uses VL 0.
    std::uint16_t tx_queue_base = 0;
    std::uint16_t tx_queues = 1;
    std::uint16_t burst = 32;
    ParserConfig parser;
    std::array<rte_ether_addr, kMaxPorts> port_mac{};
    // Ports whose NIC verifies IPv4 header checksums: their frames carry its verdict in
    // ol_flags, and only the frames it could not check are verified in software.
    std::array<bool, kMaxPorts> nic_ipv4_cksum{};
    rte_mempool *clone_pool = nullptr;  // for multicast copies
    CaptureSlot *capture = nullptr;     // monitoring capture of reassigned packets, if any
    // Subnet-management frames for this switch go to the control thread on this single-producer,
    // single-consumer ring (each with its in-port in mbuf->port); none: they are dropped as
    // punt_ring_full.
    rte_ring *punt = nullptr;
    PuntDoorbell *punt_doorbell = nullptr;  // rung after frames are punted
    // The control thread's frames for ports without a TX queue of its own (each with its out
    // port in mbuf->port): this worker sends them on its own queue of that port, counted in
    // `injected` (per port). One worker has it; none: no such path.
    rte_ring *inject = nullptr;
    InjectCounters *injected = nullptr;
    // ARP frames go to the control thread too (the kernel mirror answers them); otherwise they
    // are dropped as unknown_ether_type.
    bool punt_arp = false;
    // ARN: the tables frames of its EtherType are forwarded by, the single-producer ring their
    // news goes to the BPT's owner on (each with its in-port in mbuf->port), and this worker's
    // ARN counters. Any of them null: ARN frames are unknown EtherTypes to this worker.
    const ArnPublisher *arn = nullptr;
    rte_ring *arn_ring = nullptr;
    ArnWorkerCounters *arn_counters = nullptr;
    // Idle back-off: while every RX burst comes back empty the worker sleeps 1, 2, 4 ... up to
    // this many microseconds between polls; 0: it never sleeps.
    unsigned idle_sleep_max_us = 0;
};

class Forwarder;

class Worker {
  public:
    Worker(WorkerConfig config, const FibPublisher &fib, const LinkState &links, const ars::PortBoard &board,
           WorkerCounters &counters);
    ~Worker();
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // Registers with the FIB's RCU and loops until `stop`; drops whatever is still buffered.
    void run(const std::atomic<bool> &stop);
    // One iteration over every RX queue against `fib`, then the TX buffers go out. Returns
    // frames received.
    unsigned poll_once(const FibSnapshot &fib, std::uint64_t now_tsc);
    // Drops every buffered frame (counted by reason and as tx_dropped); for shutdown.
    void discard_buffers() noexcept;

    const WorkerConfig &config() const noexcept { return config_; }
    // This worker's ARS engine; its counters may be read from any thread.
    const ars::Worker &ars() const noexcept;
    // Installs the ARS monitoring hook; only while the worker is not running.
    void set_monitor_hook(ars::MonitorHook hook) noexcept;

  private:
    // Sends what the control thread left on the inject ring; returns how many.
    unsigned send_injected() noexcept;

    WorkerConfig config_;
    const FibPublisher *fib_;
    WorkerCounters *counters_;
    std::unique_ptr<Forwarder> forwarder_;
};

}  // namespace weft::dataplane
