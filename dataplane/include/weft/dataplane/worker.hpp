// One worker lcore, run to completion: rx burst -> parse -> lookup -> select -> rewrite ->
// per-port TX buffer -> tx burst, then one quiescent report to the FIB's RCU.
#pragma once

#include <rte_ether.h>
#include <rte_mbuf.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/fib_publisher.hpp"
#include "weft/dataplane/link_state.hpp"
#include "weft/dataplane/nhg_selector.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/dataplane/reassign_capture.hpp"

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
};

class Worker {
  public:
    Worker(WorkerConfig config, const FibPublisher &fib, const LinkState &links, const ars::PortBoard &board,
           WorkerCounters &counters);
    ~Worker();
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // Registers with the FIB's RCU and loops until `stop`; frees whatever is still buffered.
    void run(const std::atomic<bool> &stop);
    // One iteration over every RX queue against `fib`, then a flush. Returns frames received.
    unsigned poll_once(const FibSnapshot &fib, std::uint64_t now_tsc);
    // Drops every buffered frame (counted by reason and as tx_dropped); for shutdown.
    void discard_buffers() noexcept;

    const WorkerConfig &config() const noexcept { return config_; }
    // This worker's ARS engine; its counters may be read from any thread.
    const ars::Worker &ars() const noexcept { return selector_.engine(); }
    // Installs the ARS monitoring hook; only while the worker is not running.
    void set_monitor_hook(ars::MonitorHook hook) noexcept { selector_.set_monitor_hook(hook); }

  private:
    struct TxBuffer {
        std::uint16_t count = 0;
        std::uint32_t bytes = 0;
        rte_mbuf *pkts[2 * kMaxBurst];
    };

    // What the forwarding stage keeps of a frame of the current burst (12 bytes, so a burst's
    // records stay in a few cache lines). The fast path writes only a frame's hash (the rest is
    // the same for all its frames: complete_direct fills it in where needed); a frame it
    // declines, or one with TTL <= 1, is parsed in full into parsed_[i] and the record copied
    // from there. Which is which is parse_burst's `slow` mask.
    struct Parsed {
        std::uint32_t hash;
        std::uint16_t l3_offset;
        PacketKind kind;
        std::uint8_t ttl;  // a direct record's: 2, standing for any TTL > 1
        DropReason verdict;
        std::uint8_t pad[3] = {};
    };
    static_assert(sizeof(Parsed) == 12 && offsetof(Parsed, l3_offset) == 4 && offsetof(Parsed, pad) == 9);

    // Who checks a burst's IPv4 header checksums: nobody (--no-ipv4-csum-check), weft, or the
    // RX port's NIC, whose verdict is in each frame's ol_flags (weft checks what it could not).
    enum class Ipv4Check : std::uint8_t { Off, Software, Nic };
    // What parse_burst gathers: the destinations for the bulk lookups, and the frames it left
    // to the full parse (bit i of slow: frame i).
    struct BurstParse {
        std::uint32_t *v4_addr;
        std::uint8_t (*v6_addr)[16];
        std::uint64_t *slow;
        Ipv4Check check;
        unsigned n4 = 0, n6 = 0;
        std::uint64_t rx_bytes = 0;
    };
    template <bool Fast, Ipv4Check Check>
    void parse_burst(rte_mbuf *const *pkts, unsigned n, BurstParse &out);
    void parse_declined(const rte_mbuf *m, unsigned i, BurstParse &out);
    void parse_declined_fast(const rte_mbuf *m, unsigned i, BurstParse &out);
    // `pkts` has room for n + 1 frames (a sentinel slot).
    void handle_burst(const FibSnapshot &fib, std::uint16_t in_port, rte_mbuf **pkts, std::uint16_t n,
                      std::uint64_t now_tsc);
    void forward_iboe(const FibSnapshot &fib, std::uint16_t in_port, rte_mbuf *m, const ParsedPacket &p,
                      std::uint64_t now_tsc);
    void send_ip(rte_mbuf *m, const Parsed &p, std::uint32_t nhg_index, const ResolvedMember &member);
    void finish_ars(const FibSnapshot &fib, std::uint64_t now_tsc);
    void finish_ars_captured(const FibSnapshot &fib, std::uint64_t now_tsc);
    // The flowlet burst's members as its frames need them (gather_burst_members), and its counts.
    static constexpr unsigned kBurstDirectMembers = 16;
    static constexpr unsigned kBucketLookAhead = 4;
    static constexpr std::size_t kPrefetchTableBytes = 16 * 1024;
    struct BurstMembers {
        unsigned count = 0;
        std::uint32_t sendable = 0;  // bit k: member k is resolved and its port usable
        std::uint16_t cap = 0;       // a TX buffer's capacity
        std::uint16_t port[kBurstDirectMembers];
        std::uint64_t mac_lo[kBurstDirectMembers];  // destination MAC and the source's first 2 bytes
        std::uint32_t mac_hi[kBurstDirectMembers];  // the source MAC's last 4 bytes
        TxBuffer *tx[kBurstDirectMembers];
    };
    struct BurstTally {
        std::uint64_t bytes = 0;
        std::uint64_t fwd = 0;   // frames buffered
        std::uint64_t full = 0;  // frames dropped at a full TX buffer
    };
    void gather_burst_members(const FibSnapshot &fib, const NhgEntry &nhg, BurstMembers &bm) noexcept;
    // A route index no route has: no direct burst.
    static constexpr std::uint64_t kNoBurstRoute = ~std::uint64_t{0};
    std::uint64_t flowlet_usable(const BurstMembers &bm) const noexcept;
    static unsigned ecmp_member(std::uint32_t hash, unsigned count) noexcept;
    void send_direct(BurstMembers &bm, BurstTally &bt, rte_mbuf *m, unsigned k, bool v6,
                     std::uint16_t l3_offset);
    template <bool Flowlet>
    unsigned direct_run(const ars::Worker::FlowletStep &step, const BurstMembers &bm, rte_mbuf *const *pkts,
                        const std::uint64_t *nh, std::uint64_t burst_nh, unsigned i, unsigned n,
                        BurstTally &bt) noexcept;
    static void complete_direct(Parsed &r) noexcept;
    void send_in_burst(const FibSnapshot &fib, rte_mbuf *m, const Parsed &r, std::uint32_t nhg_index,
                       const NhgEntry &nhg, std::uint64_t now_tsc);
    void send_in_burst(const FibSnapshot &fib, rte_mbuf *m, const Parsed &r, std::uint32_t nhg_index,
                       const NhgEntry &nhg, std::uint64_t now_tsc, ars::Egress e);
    void send_selected(const FibSnapshot &fib, rte_mbuf *m, const Parsed &r, std::uint32_t nhg_index,
                       const NhgEntry *nhg, std::uint64_t now_tsc);
    bool capturing() const noexcept { return config_.capture != nullptr && config_.capture->enabled(); }
    ars::AclVerdict classify(const rte_mbuf *m, const ParsedPacket &p,
                             const ars::AclPolicy &acl) const noexcept;
    void send_iboe(const FibSnapshot &fib, rte_mbuf *m, const ParsedPacket &p, std::uint16_t port);
    void enqueue(rte_mbuf *m, std::uint16_t port, std::uint16_t queue_slot);
    void flush() noexcept;
    void drop(rte_mbuf *m, DropReason why) noexcept;
    void count_nhg(std::uint32_t nhg_index, std::uint64_t bytes, std::uint64_t pkts) noexcept;
    void publish_tally() noexcept;
    TxBuffer &buffer(std::uint16_t port, std::uint16_t slot) noexcept {
        return tx_[static_cast<std::size_t>(port) * config_.tx_queues + slot];
    }

    WorkerConfig config_;
    const FibPublisher *fib_;
    const LinkState *links_;
    WorkerCounters *counters_;
    NhgSelector selector_;
    std::vector<TxBuffer> tx_;                    // [port][queue slot], sized once at construction
    std::array<Parsed, kMaxBurst> rec_{};         // defined even where a look-ahead reads past a burst
    std::array<ParsedPacket, kMaxBurst> parsed_;  // only for frames the fast path declined
    // IP frames of the current burst waiting for one burst ARS selection: the engine's request
    // (the only copy), and the frame, its burst position and its NHG index beside it.
    struct PendingArs {
        rte_mbuf *m;
        const NhgEntry *nhg;
        std::uint32_t nhg_index;
        std::uint16_t pos;  // in rec_
    };
    std::array<PendingArs, kMaxBurst> ars_pending_;
    std::array<ars::SelectRequest, kMaxBurst> ars_req_;
    std::array<ars::Egress, kMaxBurst> ars_out_;
    unsigned ars_n_ = 0;
    // The open flowlet burst of handle_burst, if any (see there).
    ars::Worker::FlowletBurst flowlet_burst_;
    // Counts of the current burst, added to the shared counters once at its end rather than per
    // frame: a run of frames through the same NHG.
    struct Tally {
        std::uint32_t nhg_index = kNoRoute;
        std::uint64_t nhg_pkts = 0;
        std::uint64_t nhg_bytes = 0;
    };
    Tally tally_;
};

}  // namespace weft::dataplane
