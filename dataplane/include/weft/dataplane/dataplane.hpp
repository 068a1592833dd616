// The running dataplane: mbuf pool, ports (RSS over the RX queues, one TX queue set per
// worker), worker lcores, link state (LSC callback where the PMD raises one, polling always),
// FIB publication, and the per-port load figures the quality sampler reads.
#pragma once

#include <rte_ethdev.h>
#include <rte_ether.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "weft/ars/capabilities.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/worker.hpp"
#include "weft/dataplane/arn_counters.hpp"
#include "weft/dataplane/arn_tables.hpp"
#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/fib_publisher.hpp"
#include "weft/dataplane/link_state.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/dataplane/punt_doorbell.hpp"
#include "weft/dataplane/reassign_capture.hpp"
#include "weft/dataplane/status.hpp"
#include "weft/dataplane/worker.hpp"

struct rte_mbuf;
struct rte_mempool;
struct rte_ring;

namespace weft::dataplane {

struct DataplaneConfig {
    unsigned nb_workers = 0;      // 0: every worker lcore EAL gave us
    std::uint16_t rx_queues = 1;  // per port, spread by RSS where the PMD supports it
    std::uint16_t tx_queues = 1;  // per worker per port (VL classes)
    std::uint16_t burst = 32;
    std::uint16_t rx_desc = 1024;
    std::uint16_t tx_desc = 1024;
    unsigned mbufs = 16383;
    ParserConfig parser;
    // Let a port's NIC verify IPv4 header checksums where it can (RX offload), so that the
    // workers skip the check for frames it flags good; the rest are verified in software.
    bool rx_ipv4_cksum_offload = true;
    // Each worker's ring of subnet-management frames to the control thread (a power of two).
    unsigned punt_ring_size = 1024;
    // ARP frames to the control thread (WorkerConfig::punt_arp): on with the Linux mirror.
    bool punt_arp = false;
    // Idle back-off of the workers (WorkerConfig::idle_sleep_max_us); 0: off.
    unsigned idle_sleep_max_us = 0;
    // Each worker's ring of ARN news to the BPT's owner (a power of two).
    unsigned arn_ring_size = 256;
};

struct PortStatus {
    rte_ether_addr mac{};
    bool started = false;
    bool admin_up = true;
    bool link_up = false;
    std::uint32_t speed_mbps = 0;
    bool lsc_interrupt = false;  // the PMD raises LSC events
    std::uint64_t link_changes = 0;
    bool nic_ipv4_cksum = false;  // the NIC verifies IPv4 header checksums (RX offload on)
    // The control thread can send on the port: on a TX queue of its own (control_tx_queue),
    // or, where the PMD has no queue to spare, handed to worker 0, which sends it on its queue.
    bool control_tx = false;
    bool control_tx_queue = false;
    bool arn_tx = false;  // and, above the control thread's queue, ARN's own (arn_tx_queue)
};

// Frames the control thread sent on a port (send_from_control).
struct ControlTxTotals {
    std::uint64_t sent = 0;
    std::uint64_t failed = 0;  // refused: no such port, port not usable, or its queue full
};

// Input of the port-quality sampler for one port.
struct PortLoad {
    std::uint64_t tx_bytes = 0;       // cumulative
    std::uint64_t backlog_bytes = 0;  // queued now (estimate when from the NIC)
    bool backlog_from_nic = false;    // true: NIC descriptor status; false: weft's TX buffers
};

class Dataplane {
  public:
    // After rte_eal_init. Configures every ethdev; throws std::runtime_error on failure.
    explicit Dataplane(const DataplaneConfig &config);
    ~Dataplane();
    Dataplane(const Dataplane &) = delete;
    Dataplane &operator=(const Dataplane &) = delete;

    std::uint16_t num_ports() const noexcept { return num_ports_; }
    unsigned num_workers() const noexcept { return static_cast<unsigned>(worker_lcores_.size()); }
    const DataplaneConfig &config() const noexcept { return config_; }

    // Launches the workers on their lcores (ports are started with port_start).
    Status start();
    // Stops the workers (waits for them) and every port.
    void stop();

    Status port_start(std::uint16_t port);
    Status port_stop(std::uint16_t port);
    Status set_link(std::uint16_t port, bool up);  // administrative state
    // Reads link state and handles LSC events: the control thread every few milliseconds and the
    // ARS quality sampler every sampling interval (so a link that drops leaves every ARS
    // selection within one interval). Port state changes are serialised by a control-side
    // mutex that workers never take.
    void poll_links();

    FibPublisher &publisher() noexcept { return *publisher_; }
    const LinkState &links() const noexcept { return links_; }
    // ARS live state: link bytes written here (control thread), quality bytes by the sampler.
    ars::PortBoard &ars_board() noexcept { return *board_; }
    const ars::PortBoard &ars_board() const noexcept { return *board_; }
    // Every worker's ARS engine, for counters (safe from any thread).
    std::vector<const ars::Worker *> ars_workers() const;
    // Installs one monitoring hook per worker (context: the worker index as given by `make`);
    // only while the workers are stopped.
    void set_ars_monitor(ars::MonitorHook (*make)(unsigned worker_index, void *arg), void *arg);
    // Monitoring capture of reassigned packets (control thread).
    ReassignCapture &capture() noexcept { return *capture_; }
    PortStatus port_status(std::uint16_t port) const;
    PortLoad port_load(std::uint16_t port) const;
    std::vector<const WorkerCounters *> counters() const;
    // Where worker `w` runs and what it polls and sends on (for `show config fwd`).
    unsigned worker_lcore(unsigned w) const { return worker_lcores_.at(w); }
    const WorkerConfig &worker_config(unsigned w) const { return workers_.at(w)->config(); }
    // RCU reader id reserved for one non-worker reader of snapshots (telemetry).
    unsigned telemetry_reader_id() const noexcept { return num_workers(); }

    // The control thread's own path to the wire (subnet management). Every function below is
    // for the control thread alone (the one thread that also starts and stops ports).
    //
    // Up to `max` subnet-management frames the workers handed over (VL15 to the permissive LID
    // or one of the switch's LIDs), each with its in-port in mbuf->port; the caller owns and
    // frees them. Never blocks; takes from every worker's ring in turn.
    unsigned drain_punted(rte_mbuf **out, unsigned max) noexcept;
    // Control thread: sleeps until a worker punts a frame, one of `also` is readable (the control
    // thread's own sockets) or `max` has passed (returns at once when frames wait already); true
    // when there are frames to drain.
    bool wait_punted(std::chrono::microseconds max, std::span<const int> also = {}) noexcept;
    // Frames drain_punted has handed over.
    std::uint64_t punts_drained() const noexcept { return punts_drained_; }
    // An mbuf for a frame to send (null when the pool is empty).
    rte_mbuf *alloc_control_mbuf() noexcept;
    // Sends `m` out of `port` on the TX queue kept for the control thread (no worker uses it),
    // or, on a port without one, hands it to worker 0, which sends it at its next poll (an idle
    // worker's back-off delays it by up to --idle-sleep-max-us). Takes `m` either way: false when
    // it could not go (no such port, the port not usable, its queue or the hand-over ring full),
    // the frame then freed. Counted per port, the worker's sends too.
    bool send_from_control(std::uint16_t port, rte_mbuf *m) noexcept;
    ControlTxTotals control_tx(std::uint16_t port) const noexcept;
    // The control thread's TX queue, on every port whose PMD has one more queue than the
    // workers take (PortStatus::control_tx_queue); a port without one (net_af_xdp on a veth,
    // net_pcap with one tx_pcap, net_af_packet with too few qpairs) sends through worker 0.
    std::uint16_t control_tx_queue() const noexcept {
        return static_cast<std::uint16_t>(num_workers() * config_.tx_queues);
    }

    // ARN (arn_tables.hpp, arn_counters.hpp). The tables the workers forward ARN frames by.
    ArnPublisher &arn_publisher() noexcept { return *arn_publisher_; }
    std::vector<const ArnWorkerCounters *> arn_counters() const;
    // The BPT's owner (one thread): up to `max` ARN frames the workers took for this switch, each
    // with its in-port in mbuf->port; the caller frees them. Never blocks.
    unsigned drain_arn(rte_mbuf **out, unsigned max) noexcept;
    // The BPT's owner: sends this switch's own news out of `port` on ARN's TX queue, the top one,
    // which nobody else uses; on a port without it (the PMD has no queue to spare beyond the
    // workers' and the control thread's) the frame is freed and counted failed. Takes `m`.
    bool send_arn(std::uint16_t port, rte_mbuf *m) noexcept;
    ControlTxTotals arn_tx(std::uint16_t port) const noexcept;
    std::uint16_t arn_tx_queue() const noexcept { return static_cast<std::uint16_t>(control_tx_queue() + 1); }

  private:
    struct PortRuntime {
        bool configured = false;
        bool started = false;
        bool admin_up = true;
        bool link_up = false;
        std::uint32_t speed = 0;
        bool lsc = false;
        bool nic_ipv4_cksum = false;
        bool control_tx = false;
        bool arn_tx = false;
        std::uint64_t changes = 0;
        rte_ether_addr mac{};
        std::atomic<std::uint32_t> lsc_events{0};  // written by the interrupt thread
    };

    void configure_port(std::uint16_t port);
    void refresh(std::uint16_t port);
    static int lsc_callback(std::uint16_t port, rte_eth_event_type event, void *arg, void *ret);
    static int worker_entry(void *arg);

    DataplaneConfig config_;
    std::uint16_t num_ports_ = 0;
    rte_mempool *pool_ = nullptr;
    std::unique_ptr<FibPublisher> publisher_;
    std::unique_ptr<ReassignCapture> capture_;  // before the workers, which hold its slots
    LinkState links_;
    std::unique_ptr<ars::PortBoard> board_;
    std::vector<unsigned> worker_lcores_;
    std::vector<std::unique_ptr<WorkerCounters>> counters_;
    std::vector<rte_ring *> punt_rings_;  // per worker
    std::unique_ptr<PuntDoorbell> punt_doorbell_;
    rte_ring *inject_ring_ = nullptr;  // control thread -> worker 0, for ports without a control queue
    std::unique_ptr<InjectCounters> injected_;
    unsigned next_punt_ring_ = 0;  // drain_punted starts here, so no worker starves the others
    std::uint64_t punts_drained_ = 0;
    struct ControlTxCounters {
        Counter sent, failed;  // written by the control thread, read by telemetry too
    };
    std::unique_ptr<ControlTxCounters[]> control_tx_;
    std::unique_ptr<ControlTxCounters[]> arn_tx_;  // written by the BPT's owner
    std::unique_ptr<ArnPublisher> arn_publisher_;
    std::vector<rte_ring *> arn_rings_;  // per worker
    std::vector<std::unique_ptr<ArnWorkerCounters>> arn_counters_;
    unsigned next_arn_ring_ = 0;
    std::vector<std::unique_ptr<Worker>> workers_;
    struct Launch {
        Worker *worker;
        const std::atomic<bool> *stop;
    };
    std::vector<Launch> launches_;
    std::unique_ptr<PortRuntime[]> ports_;
    std::atomic<bool> stop_{false};
    bool running_ = false;
    mutable std::mutex port_mu_;  // PortRuntime fields, between control, sampler and telemetry threads
};

}  // namespace weft::dataplane
