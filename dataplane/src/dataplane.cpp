#include "weft/dataplane/dataplane.hpp"

#include <rte_ethdev.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>
#include <rte_ring.h>

#include <algorithm>

#include <stdexcept>
#include <string>

namespace weft::dataplane {

namespace {
std::string port_error(std::uint16_t port, const char *what, int rc) {
    return "port " + std::to_string(port) + ": " + what + " failed: " + rte_strerror(-rc);
}

// Up to `max` mbufs from per-worker rings, starting one ring further each call so that no
// worker's ring starves the others.
unsigned drain_round_robin(const std::vector<rte_ring *> &rings, unsigned &next, rte_mbuf **out,
                           unsigned max) noexcept {
    unsigned got = 0;
    const auto n = static_cast<unsigned>(rings.size());
    for (unsigned k = 0; k < n && got < max; ++k)
        got += rte_ring_sc_dequeue_burst(rings[(next + k) % n], reinterpret_cast<void **>(out + got),
                                         max - got, nullptr);
    next = n != 0 ? (next + 1) % n : 0;
    return got;
}

}  // namespace

Dataplane::Dataplane(const DataplaneConfig &config) : config_(config) {
    config_.burst = std::clamp<std::uint16_t>(config_.burst, 1, kMaxBurst);
    if (config_.rx_queues == 0) config_.rx_queues = 1;
    config_.tx_queues = std::clamp<std::uint16_t>(config_.tx_queues, 1, kMaxTxQueuesPerWorker);

    unsigned lcore;
    RTE_LCORE_FOREACH_WORKER(lcore) {
        if (config_.nb_workers != 0 && worker_lcores_.size() == config_.nb_workers) break;
        worker_lcores_.push_back(lcore);
    }
    if (worker_lcores_.empty())
        throw std::runtime_error("no worker lcore: give EAL at least two lcores (-l 0-1)");
    if (config_.nb_workers != 0 && worker_lcores_.size() < config_.nb_workers)
        throw std::runtime_error("--nb-cores " + std::to_string(config_.nb_workers) + " but only " +
                                 std::to_string(worker_lcores_.size()) + " worker lcores");

    const std::uint16_t avail = rte_eth_dev_count_avail();
    std::uint16_t port_id;
    RTE_ETH_FOREACH_DEV(port_id) {
        if (port_id >= kMaxPorts || port_id >= avail)
            throw std::runtime_error("ethdev port ids must be contiguous from 0");
    }
    num_ports_ = avail;
    if (num_ports_ == 0) throw std::runtime_error("no ethdev ports (use --vdev or a PCI device)");

    const unsigned cache = 256;
    pool_ = rte_pktmbuf_pool_create("weft_mbufs", config_.mbufs, cache, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                                    static_cast<int>(rte_socket_id()));
    if (pool_ == nullptr) throw std::runtime_error(std::string("mbuf pool: ") + rte_strerror(rte_errno));

    // Readers: every worker, plus one id for telemetry.
    publisher_ = std::make_unique<FibPublisher>(num_workers() + 1);
    capture_ = std::make_unique<ReassignCapture>(num_workers(), publisher_->qsbr());
    board_ = std::make_unique<ars::PortBoard>(kMaxPorts, ars::capabilities().max_lag_groups, kArnRemoteSlots);
    arn_publisher_ = std::make_unique<ArnPublisher>(publisher_->qsbr());
    ports_ = std::make_unique<PortRuntime[]>(num_ports_);
    control_tx_ = std::make_unique<ControlTxCounters[]>(num_ports_);
    arn_tx_ = std::make_unique<ControlTxCounters[]>(num_ports_);
    for (std::uint16_t p = 0; p < num_ports_; ++p) configure_port(p);

    // Spread every (port, RX queue) over the workers round-robin; each worker gets its own TX
    // queue range on every port, so no TX queue is shared.
    std::vector<std::vector<RxQueueRef>> rx(num_workers());
    unsigned next = 0;
    for (std::uint16_t q = 0; q < config_.rx_queues; ++q)
        for (std::uint16_t p = 0; p < num_ports_; ++p) rx[next++ % num_workers()].push_back({p, q});
    punt_doorbell_ = std::make_unique<PuntDoorbell>();
    // The control thread's frames for ports without a TX queue of its own go out through worker
    // 0 (single producer, single consumer).
    inject_ring_ = rte_ring_create("weft_inject", config_.punt_ring_size, static_cast<int>(rte_socket_id()),
                                   RING_F_SP_ENQ | RING_F_SC_DEQ);
    if (inject_ring_ == nullptr)
        throw std::runtime_error(std::string("weft_inject: ") + rte_strerror(rte_errno));
    injected_ = std::make_unique<InjectCounters>();
    for (unsigned w = 0; w < num_workers(); ++w) {
        const std::string ring = "weft_punt" + std::to_string(w);
        punt_rings_.push_back(rte_ring_create(ring.c_str(), config_.punt_ring_size,
                                              static_cast<int>(rte_socket_id()),
                                              RING_F_SP_ENQ | RING_F_SC_DEQ));
        if (punt_rings_.back() == nullptr) throw std::runtime_error(ring + ": " + rte_strerror(rte_errno));
        const std::string arn_ring = "weft_arn" + std::to_string(w);
        arn_rings_.push_back(rte_ring_create(arn_ring.c_str(), config_.arn_ring_size,
                                             static_cast<int>(rte_socket_id()),
                                             RING_F_SP_ENQ | RING_F_SC_DEQ));
        if (arn_rings_.back() == nullptr) throw std::runtime_error(arn_ring + ": " + rte_strerror(rte_errno));
        arn_counters_.push_back(std::make_unique<ArnWorkerCounters>());
        counters_.push_back(std::make_unique<WorkerCounters>());
        WorkerConfig wc;
        wc.index = w;
        wc.rx = rx[w];
        wc.num_ports = num_ports_;
        wc.tx_queue_base = static_cast<std::uint16_t>(w * config_.tx_queues);
        wc.tx_queues = config_.tx_queues;
        wc.burst = config_.burst;
        wc.parser = config_.parser;
        for (std::uint16_t p = 0; p < num_ports_; ++p) {
            wc.port_mac[p] = ports_[p].mac;
            wc.nic_ipv4_cksum[p] = ports_[p].nic_ipv4_cksum;
        }
        wc.clone_pool = pool_;
        wc.capture = capture_->slot(w);
        wc.punt = punt_rings_.back();
        wc.punt_doorbell = punt_doorbell_.get();
        if (w == 0) {
            wc.inject = inject_ring_;
            wc.injected = injected_.get();
        }
        wc.punt_arp = config_.punt_arp;
        wc.idle_sleep_max_us = config_.idle_sleep_max_us;
        wc.arn = arn_publisher_.get();
        wc.arn_ring = arn_rings_.back();
        wc.arn_counters = arn_counters_.back().get();
        workers_.push_back(
            std::make_unique<Worker>(std::move(wc), *publisher_, links_, *board_, *counters_.back()));
    }
}

Dataplane::~Dataplane() {
    stop();
    for (std::uint16_t p = 0; p < num_ports_; ++p) {
        if (ports_[p].lsc)
            rte_eth_dev_callback_unregister(p, RTE_ETH_EVENT_INTR_LSC, &Dataplane::lsc_callback, this);
        if (ports_[p].configured) rte_eth_dev_close(p);
    }
    workers_.clear();
    rte_mbuf *left[64];
    std::vector<rte_ring *> rings = punt_rings_;
    rings.insert(rings.end(), arn_rings_.begin(), arn_rings_.end());
    if (inject_ring_ != nullptr) rings.push_back(inject_ring_);
    for (rte_ring *r : rings) {
        for (unsigned n;
             (n = rte_ring_sc_dequeue_burst(r, reinterpret_cast<void **>(left), 64, nullptr)) != 0;)
            rte_pktmbuf_free_bulk(left, n);
        rte_ring_free(r);
    }
    arn_publisher_.reset();
    capture_.reset();  // closes a running capture file; uses the RCU state
    publisher_.reset();
    rte_mempool_free(pool_);
}

void Dataplane::configure_port(std::uint16_t port) {
    PortRuntime &pr = ports_[port];
    rte_eth_dev_info info{};
    int rc = rte_eth_dev_info_get(port, &info);
    if (rc != 0) throw std::runtime_error(port_error(port, "dev_info_get", rc));
    // The workers' queues, then the control thread's where the PMD has one more, then ARN's.
    const std::uint16_t worker_txq = control_tx_queue();
    pr.control_tx = info.max_tx_queues > worker_txq;
    pr.arn_tx = info.max_tx_queues > worker_txq + 1;
    auto txq = static_cast<std::uint16_t>(worker_txq + (pr.control_tx ? 1 : 0) + (pr.arn_tx ? 1 : 0));
    if (config_.rx_queues > info.max_rx_queues || worker_txq > info.max_tx_queues)
        throw std::runtime_error("port " + std::to_string(port) + " has at most " +
                                 std::to_string(info.max_rx_queues) + " RX and " +
                                 std::to_string(info.max_tx_queues) + " TX queues; asked for " +
                                 std::to_string(config_.rx_queues) + " and " + std::to_string(worker_txq));

    rte_eth_conf conf{};
    const std::uint64_t rss =
        (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) & info.flow_type_rss_offloads;
    if (config_.rx_queues > 1 && rss != 0) {
        conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
        conf.rx_adv_conf.rss_conf.rss_key = nullptr;  // the PMD's default key
        conf.rx_adv_conf.rss_conf.rss_hf = rss;
    }
    pr.nic_ipv4_cksum = config_.rx_ipv4_cksum_offload && config_.parser.verify_ipv4_checksum &&
                        (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM) != 0;
    if (pr.nic_ipv4_cksum) conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
    pr.lsc = info.dev_flags != nullptr && (*info.dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
    conf.intr_conf.lsc = pr.lsc ? 1 : 0;
    rc = rte_eth_dev_configure(port, config_.rx_queues, txq, &conf);
    if (rc != 0 && pr.arn_tx) {
        // A PMD with a fixed number of queue pairs (net_af_packet's qpairs): ARN goes without.
        pr.arn_tx = false;
        --txq;
        rc = rte_eth_dev_configure(port, config_.rx_queues, txq, &conf);
    }
    if (rc != 0 && pr.control_tx) {
        // Some PMDs want as many RX as TX queues (net_tap): the port goes without the control
        // thread's queue rather than with an RX queue nobody polls.
        pr.control_tx = false;
        txq = worker_txq;
        rc = rte_eth_dev_configure(port, config_.rx_queues, txq, &conf);
    }
    if (rc != 0) throw std::runtime_error(port_error(port, "configure", rc));
    std::uint16_t rxd = config_.rx_desc, txd = config_.tx_desc;
    rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &rxd, &txd);
    if (rc != 0) throw std::runtime_error(port_error(port, "adjust descriptors", rc));
    const int socket = rte_eth_dev_socket_id(port);
    for (std::uint16_t q = 0; q < config_.rx_queues; ++q) {
        rc = rte_eth_rx_queue_setup(port, q, rxd, static_cast<unsigned>(socket), nullptr, pool_);
        if (rc != 0) throw std::runtime_error(port_error(port, "rx queue setup", rc));
    }
    for (std::uint16_t q = 0; q < txq; ++q) {
        rc = rte_eth_tx_queue_setup(port, q, txd, static_cast<unsigned>(socket), nullptr);
        if (rc != 0) throw std::runtime_error(port_error(port, "tx queue setup", rc));
    }
    rte_eth_macaddr_get(port, &pr.mac);
    if (pr.lsc) rte_eth_dev_callback_register(port, RTE_ETH_EVENT_INTR_LSC, &Dataplane::lsc_callback, this);
    pr.configured = true;
}

int Dataplane::lsc_callback(std::uint16_t port, rte_eth_event_type event, void *arg, void *ret) {
    (void)ret;
    auto *self = static_cast<Dataplane *>(arg);
    // Interrupt thread: only note the event; the control thread reads the link and updates state.
    if (event == RTE_ETH_EVENT_INTR_LSC && port < self->num_ports_)
        self->ports_[port].lsc_events.fetch_add(1, std::memory_order_release);
    return 0;
}

void Dataplane::refresh(std::uint16_t port) {
    PortRuntime &pr = ports_[port];
    bool up = false;
    if (pr.started) {
        rte_eth_link link{};
        if (rte_eth_link_get_nowait(port, &link) == 0) {
            up = link.link_status == RTE_ETH_LINK_UP;
            pr.speed = link.link_speed;
        }
    }
    if (up != pr.link_up) ++pr.changes;
    pr.link_up = up;
    links_.set_usable(port, pr.started && pr.admin_up && pr.link_up);
    board_->set_link_up(port, links_.usable(port));
}

void Dataplane::poll_links() {
    std::lock_guard<std::mutex> lock(port_mu_);
    for (std::uint16_t p = 0; p < num_ports_; ++p) {
        ports_[p].lsc_events.exchange(0, std::memory_order_acquire);
        refresh(p);
    }
}

Status Dataplane::port_start(std::uint16_t port) {
    if (port >= num_ports_) return Status::error("no port " + std::to_string(port));
    std::lock_guard<std::mutex> lock(port_mu_);
    PortRuntime &pr = ports_[port];
    if (pr.started) return Status::success();
    const int rc = rte_eth_dev_start(port);
    if (rc != 0) return Status::error(port_error(port, "start", rc));
    pr.started = true;
    links_.set_started(port, true);
    refresh(port);
    return Status::success();
}

Status Dataplane::port_stop(std::uint16_t port) {
    if (port >= num_ports_) return Status::error("no port " + std::to_string(port));
    std::lock_guard<std::mutex> lock(port_mu_);
    PortRuntime &pr = ports_[port];
    if (!pr.started) return Status::success();
    links_.set_usable(port, false);
    board_->set_link_up(port, false);
    links_.set_started(port, false);
    // Wait until every online worker has finished the loop iteration it was in, so none is
    // still polling or bursting on this port when it stops.
    if (running_) rte_rcu_qsbr_synchronize(publisher_->qsbr(), RTE_QSBR_THRID_INVALID);
    const int rc = rte_eth_dev_stop(port);
    pr.started = false;
    refresh(port);
    if (rc != 0) return Status::error(port_error(port, "stop", rc));
    return Status::success();
}

Status Dataplane::set_link(std::uint16_t port, bool up) {
    if (port >= num_ports_) return Status::error("no port " + std::to_string(port));
    std::lock_guard<std::mutex> lock(port_mu_);
    PortRuntime &pr = ports_[port];
    pr.admin_up = up;
    links_.set_usable(port, pr.started && pr.admin_up && pr.link_up);  // down takes effect now
    board_->set_link_up(port, links_.usable(port));
    if (pr.started) {
        // Tell the PMD too where it can; weft's own admin state rules either way.
        (void)(up ? rte_eth_dev_set_link_up(port) : rte_eth_dev_set_link_down(port));
    }
    refresh(port);
    return Status::success();
}

Status Dataplane::start() {
    if (running_) return Status::success();
    stop_.store(false);
    launches_.clear();
    for (auto &w : workers_) launches_.push_back(Launch{w.get(), &stop_});
    for (unsigned i = 0; i < num_workers(); ++i) {
        const int rc = rte_eal_remote_launch(&Dataplane::worker_entry, &launches_[i], worker_lcores_[i]);
        if (rc != 0) {
            stop_.store(true);
            rte_eal_mp_wait_lcore();
            return Status::error("cannot launch worker on lcore " + std::to_string(worker_lcores_[i]));
        }
    }
    running_ = true;
    return Status::success();
}

int Dataplane::worker_entry(void *arg) {
    auto *l = static_cast<Launch *>(arg);
    l->worker->run(*l->stop);
    return 0;
}

void Dataplane::stop() {
    if (running_) {
        stop_.store(true);
        rte_eal_mp_wait_lcore();
        running_ = false;
    }
    for (std::uint16_t p = 0; p < num_ports_; ++p) (void)port_stop(p);
    publisher_->synchronize();
}

PortStatus Dataplane::port_status(std::uint16_t port) const {
    PortStatus s;
    if (port >= num_ports_) return s;
    std::lock_guard<std::mutex> lock(port_mu_);
    const PortRuntime &pr = ports_[port];
    s.mac = pr.mac;
    s.started = pr.started;
    s.admin_up = pr.admin_up;
    s.link_up = pr.link_up;
    s.speed_mbps = pr.speed;
    s.lsc_interrupt = pr.lsc;
    s.link_changes = pr.changes;
    s.nic_ipv4_cksum = pr.nic_ipv4_cksum;
    s.control_tx_queue = pr.control_tx;
    s.control_tx = pr.control_tx || (inject_ring_ != nullptr && num_workers() != 0);
    s.arn_tx = pr.arn_tx;
    return s;
}

PortLoad Dataplane::port_load(std::uint16_t port) const {
    PortLoad load;
    if (port >= num_ports_) return load;
    const PortTotals t = sum_port(counters(), port);
    load.tx_bytes = t.tx_bytes;
    load.backlog_bytes = t.backlog_bytes;
    std::lock_guard<std::mutex> lock(port_mu_);
    if (!ports_[port].started) return load;
    // Where the PMD reports descriptor status, sample each TX queue's ring at 16 points and
    // scale the busy share by the average frame size: an estimate of bytes queued in the NIC.
    const auto txq = static_cast<std::uint16_t>(num_workers() * config_.tx_queues);
    rte_eth_txq_info qinfo{};
    std::uint64_t busy_desc = 0;
    for (std::uint16_t q = 0; q < txq; ++q) {
        if (rte_eth_tx_queue_info_get(port, q, &qinfo) != 0 || qinfo.nb_desc == 0) return load;
        const std::uint16_t stride = std::max<std::uint16_t>(1, qinfo.nb_desc / 16);
        for (std::uint16_t off = 0; off < qinfo.nb_desc; off = static_cast<std::uint16_t>(off + stride)) {
            const int st = rte_eth_tx_descriptor_status(port, q, off);
            if (st < 0) return load;  // -ENOTSUP: keep weft's own backlog
            if (st == RTE_ETH_TX_DESC_FULL) busy_desc += stride;
        }
    }
    const std::uint64_t avg = t.tx_pkts != 0 ? t.tx_bytes / t.tx_pkts : RTE_ETHER_MAX_LEN;
    load.backlog_bytes += busy_desc * avg;
    load.backlog_from_nic = true;
    return load;
}

std::vector<const ars::Worker *> Dataplane::ars_workers() const {
    std::vector<const ars::Worker *> v;
    for (const auto &w : workers_) v.push_back(&w->ars());
    return v;
}

void Dataplane::set_ars_monitor(ars::MonitorHook (*make)(unsigned worker_index, void *arg), void *arg) {
    if (running_) return;
    for (unsigned i = 0; i < workers_.size(); ++i) workers_[i]->set_monitor_hook(make(i, arg));
}

std::vector<const WorkerCounters *> Dataplane::counters() const {
    std::vector<const WorkerCounters *> v;
    for (const auto &c : counters_) v.push_back(c.get());
    return v;
}

unsigned Dataplane::drain_punted(rte_mbuf **out, unsigned max) noexcept {
    const unsigned got = drain_round_robin(punt_rings_, next_punt_ring_, out, max);
    punts_drained_ += got;
    return got;
}

bool Dataplane::wait_punted(std::chrono::microseconds max, std::span<const int> also) noexcept {
    punt_doorbell_->arm();
    for (rte_ring *r : punt_rings_)
        if (rte_ring_count(r) != 0) return true;
    return punt_doorbell_->sleep(max, also);
}

rte_mbuf *Dataplane::alloc_control_mbuf() noexcept {
    return rte_pktmbuf_alloc(pool_);
}

bool Dataplane::send_from_control(std::uint16_t port, rte_mbuf *m) noexcept {
    if (m == nullptr) return false;
    if (port >= num_ports_) {
        rte_pktmbuf_free(m);
        return false;
    }
    // A stopped port takes nothing; one whose link is down or admin down reaches nobody.
    if (ports_[port].control_tx) {
        if (links_.usable(port) && rte_eth_tx_burst(port, control_tx_queue(), &m, 1) == 1) {
            control_tx_[port].sent.add();
            return true;
        }
    } else if (inject_ring_ != nullptr && links_.usable(port)) {
        // Worker 0 sends it on its own queue at its next poll (counted there).
        m->port = port;
        if (rte_ring_sp_enqueue(inject_ring_, m) == 0) return true;
    }
    rte_pktmbuf_free(m);
    control_tx_[port].failed.add();
    return false;
}

ControlTxTotals Dataplane::control_tx(std::uint16_t port) const noexcept {
    if (port >= num_ports_) return {};
    return ControlTxTotals{control_tx_[port].sent.get() + injected_->sent[port].get(),
                           control_tx_[port].failed.get() + injected_->failed[port].get()};
}

std::vector<const ArnWorkerCounters *> Dataplane::arn_counters() const {
    std::vector<const ArnWorkerCounters *> v;
    for (const auto &c : arn_counters_) v.push_back(c.get());
    return v;
}

unsigned Dataplane::drain_arn(rte_mbuf **out, unsigned max) noexcept {
    return drain_round_robin(arn_rings_, next_arn_ring_, out, max);
}

bool Dataplane::send_arn(std::uint16_t port, rte_mbuf *m) noexcept {
    if (m == nullptr) return false;
    if (port >= num_ports_) {
        rte_pktmbuf_free(m);
        return false;
    }
    if (ports_[port].arn_tx && links_.usable(port) && rte_eth_tx_burst(port, arn_tx_queue(), &m, 1) == 1) {
        arn_tx_[port].sent.add();
        return true;
    }
    rte_pktmbuf_free(m);
    arn_tx_[port].failed.add();
    return false;
}

ControlTxTotals Dataplane::arn_tx(std::uint16_t port) const noexcept {
    if (port >= num_ports_) return {};
    return ControlTxTotals{arn_tx_[port].sent.get(), arn_tx_[port].failed.get()};
}

}  // namespace weft::dataplane
