// A worker's forwarding path, one RX burst at a time, in stages (forwarder.cpp, in this order):
//
//   rx burst -> parse -> lookup -> ACL -> select -> rewrite and enqueue -> tx
//
// parse:   each frame's FrameInfo (flow hash, kind, L3 offset, TTL, or a drop reason), and the
//          IPv4 and IPv6 destinations gathered for the lookup;
// lookup:  one bulk FIB lookup per family: each IP frame's route (an NHG index);
// ACL:     with ARS ACL rules only, each IP frame's verdict;
// select:  each frame's Hop (port, TX buffer, new MACs), or a drop reason. The burst's first
//          group is opened for its frames (its members' hops made once, an ARS group's flowlet
//          burst begun); other groups decide frame by frame, IBoE frames by LFT and MFT;
// send:    the one rewrite-and-enqueue path every frame leaves by (MACs, TTL or VL, into its TX
//          buffer), as soon as select knows its hop;
// tx:      TxBuffers::flush, once per poll.
#pragma once

#include <rte_ethdev.h>

#include <cstdint>

#include "burst.hpp"
#include "nhg_selector.hpp"
#include "tx_buffers.hpp"
#include "weft/dataplane/worker.hpp"

namespace weft::dataplane {

class Forwarder {
  public:
    Forwarder(const WorkerConfig &config, const LinkState &links, const ars::PortBoard &board,
              WorkerCounters &counters);
    ~Forwarder();
    Forwarder(const Forwarder &) = delete;
    Forwarder &operator=(const Forwarder &) = delete;

    // Every RX queue once against `fib`, then the TX buffers. Returns frames received.
    unsigned poll_once(const FibSnapshot &fib, std::uint64_t now_tsc);
    // Every TX buffer to its queue now.
    void drain() noexcept { tx_.flush(links_, counters_); }
    void discard_buffers() noexcept;
    // Frames waiting in the TX buffers (ones their queue did not take yet).
    bool tx_pending() const noexcept { return tx_.pending(); }
    // `m` out of `port` on this worker's first queue there, now and as it is (a frame the control
    // thread built); false, and `m` not taken, when the port is not usable or the queue full.
    bool send_now(std::uint16_t port, rte_mbuf *m) noexcept {
        return port < config_.num_ports && links_.usable(port) &&
               rte_eth_tx_burst(port, tx_.at(port, 0).queue, &m, 1) == 1;
    }

    const ars::Worker &ars() const noexcept { return selector_.engine(); }
    void set_monitor_hook(ars::MonitorHook hook) noexcept { selector_.set_monitor_hook(hook); }

  private:
    // Who checks IPv4 header checksums on the RX port: nobody (--no-ipv4-csum-check), weft,
    // or the NIC, whose verdict is in each frame's ol_flags (weft checks what it could not).
    enum class Ipv4Check : std::uint8_t { Off, Software, Nic };

    // The burst's first group, opened for the frames routed to it (see select()). Hops are made
    // for its first kOpenMembers members; a hash ECMP group with more is not opened.
    static constexpr unsigned kOpenMembers = 16;
    static constexpr unsigned kLookAhead = 4;
    static constexpr std::uint64_t kNotOpen = ~std::uint64_t{0};  // a route no frame has
    struct OpenGroup {
        std::uint64_t route = kNotOpen;
        const NhgEntry *nhg = nullptr;
        std::uint32_t index = 0;
        unsigned count = 0;
        std::uint64_t sendable = 0;  // bit k: member k's neighbour is resolved and its port usable
        std::uint64_t usable = 0;    // flowlet: sendable members on the port the engine names for them
        bool flowlet = false;        // an ARS group in a flowlet mode: the engine's burst is open
        bool look_ahead = false;     // its flow table is beyond L1: prefetch buckets ahead
        ars::Worker::FlowletStep step{};
        std::uint64_t continued = 0;  // frames the inline step decided
        Hop hops[kOpenMembers];
        std::uint64_t hops_route = kNotOpen;  // the group and snapshot the hops were made for
        std::uint64_t hops_generation = 0;
    };

    void forward(const FibSnapshot &fib, std::uint64_t now_tsc);

    template <Ipv4Check Check>
    [[gnu::noinline]] void parse_fast();
    void parse_full();
    void parse_declined(unsigned i);
    void parse_in_full(unsigned i);
    void lookup(const FibSnapshot &fib);
    void classify(const ars::AclPolicy &acl);
    void select(const FibSnapshot &fib, std::uint64_t now_tsc);

    // What select_one carries from frame to frame.
    struct SelectState {
        bool may_open = true;
        std::uint64_t last_route = kNotOpen;
        const NhgEntry *last_nhg = nullptr;
    };
    template <bool Ipv4Only>
    unsigned continue_run(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc);
    template <bool Ipv4Only, bool Flowlet, bool LookAhead>
    [[gnu::noinline]] unsigned continue_run(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc);
    [[gnu::noinline]] const Hop *decide_in_open(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc);
    bool select_one(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc, SelectState &st);
    bool open_group(const FibSnapshot &fib, std::uint64_t route, const NhgEntry &nhg, unsigned i,
                    std::uint64_t now_tsc);
    void close_group();
    const Hop *own_hop(const MemberChoice &c, unsigned i, std::uint32_t nhg_index);
    void send_or_drop(unsigned i, const MemberChoice &c, std::uint32_t nhg_index);
    void select_waiting_ars(const FibSnapshot &fib, std::uint64_t now_tsc);
    void select_iboe(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc);
    void punt(unsigned i) noexcept;
    void punt_burst() noexcept;
    // ARN frames (forwarder_arn.cpp): recognised after the full parse, forwarded by the flood
    // table and handed to the BPT's owner after the burst.
    bool claim_arn(unsigned i) noexcept;
    void select_arn(unsigned i, std::uint64_t now_tsc);
    bool arn_admit(std::uint16_t port, const ArnTables &t, std::uint64_t now_tsc) noexcept;
    void deliver_arn_burst() noexcept;
    void capture(unsigned i, std::uint16_t port) noexcept;
    void record_captured(std::uint64_t now_tsc);

    void make_hop(Hop &h, const ResolvedMember &m, std::uint32_t nhg_index) noexcept;
    void make_iboe_hop(Hop &h, const FibSnapshot &fib, std::uint16_t port, const ParsedPacket &p,
                       std::uint32_t nhg_index) noexcept;
    const Hop *reject(unsigned i, DropReason why) noexcept;
    void send_counted(unsigned i, const Hop &h);
    template <bool Ipv4Only>
    void send(rte_mbuf *m, const FrameInfo &f, const Hop &h) noexcept;
    void drop(rte_mbuf *m, DropReason why) noexcept;
    void count_nhg(std::uint32_t nhg_index, std::uint64_t pkts, std::uint64_t bytes) noexcept;
    bool capturing() const noexcept { return config_.capture != nullptr && config_.capture->enabled(); }

    const WorkerConfig &config_;
    const LinkState &links_;
    WorkerCounters &counters_;
    ArsSelector selector_;
    TxBuffers tx_;
    Burst b_;
    bool nic_checks_ = false;  // the RX port's NIC checks IPv4 header checksums
    OpenGroup open_;
    ars::Worker::FlowletBurst flowlet_burst_;
    struct WaitingArs {
        unsigned pos;
        const NhgEntry *nhg;
        std::uint32_t index;
    };
    struct Captured {
        unsigned pos;
        std::uint16_t port;
    };
    // Lists select keeps for the current burst.
    unsigned waiting_n_ = 0;  // frames of ARS groups other than the open one (select_waiting_ars)
    WaitingArs waiting_[kMaxBurst];
    ars::SelectRequest waiting_req_[kMaxBurst];
    ars::Egress waiting_out_[kMaxBurst];
    unsigned missed_[kMaxBurst];  // frames of the open group continue_run left to decide_in_open
    unsigned iboe_n_ = 0;         // IBoE frames, decided after the IP frames (an LFT may name an ARS group)
    unsigned iboe_[kMaxBurst];
    unsigned punted_n_ = 0;  // frames for the control thread (SMA, kernel mirror), enqueued after the burst
    rte_mbuf *punted_[kMaxBurst];
    const ArnTables *arn_ = nullptr;  // read where a frame of the burst claimed ARN
    unsigned arn_delivered_n_ = 0;    // ARN news for the BPT's owner, enqueued after the burst
    rte_mbuf *arn_delivered_[kMaxBurst];
    std::uint64_t arn_tat_[kMaxPorts] = {};  // the ARN rate limit's next arrival time per port
    // Frames a monitored ARS group reassigned while the capture runs: each holds an extra
    // reference until its copy is recorded after select.
    unsigned captured_n_ = 0;
    Captured captured_[kMaxBurst];
    Hop own_hops_[kMaxBurst];  // hops made for one frame each (own_hop)
};

}  // namespace weft::dataplane
