#include "weft/dataplane/worker.hpp"

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include <algorithm>
#include <type_traits>

#include "weft/dataplane/ipv4_fast_parse.hpp"
#include "weft/dataplane/ipv6_fast_parse.hpp"
#include "weft/dataplane/mbuf_parse.hpp"
#include "weft/dataplane/rewrite.hpp"

namespace weft::dataplane {

Worker::Worker(WorkerConfig config, const FibPublisher &fib, const LinkState &links,
               const ars::PortBoard &board, WorkerCounters &counters)
    : config_(std::move(config)),
      fib_(&fib),
      links_(&links),
      counters_(&counters),
      selector_(links, board, config_.index),
      tx_(static_cast<std::size_t>(kMaxPorts) * std::max<std::uint16_t>(config_.tx_queues, 1)) {
    config_.burst = std::clamp<std::uint16_t>(config_.burst, 1, kMaxBurst);
    config_.tx_queues = std::clamp<std::uint16_t>(config_.tx_queues, 1, kMaxTxQueuesPerWorker);
}

Worker::~Worker() {
    discard_buffers();
}

void Worker::run(const std::atomic<bool> &stop) {
    RcuReader reader(fib_->qsbr(), config_.index);
    counters_->polling.store(true, std::memory_order_release);
    while (!stop.load(std::memory_order_relaxed)) {
        // The snapshot pointer is used only inside this iteration, before the quiescent report.
        const FibSnapshot *fib = fib_->current();
        if (fib != nullptr) poll_once(*fib, rte_rdtsc());
        counters_->serve_reading();  // between rounds, where the counters agree
        counters_->loops.add();
        reader.quiescent();
    }
    counters_->polling.store(false, std::memory_order_release);
    discard_buffers();
}

unsigned Worker::poll_once(const FibSnapshot &fib, std::uint64_t now_tsc) {
    selector_.sync(fib);            // adopts a new ARS configuration, if the snapshot brought one
    rte_mbuf *pkts[kMaxBurst + 1];  // one more: handle_burst's sentinel
    unsigned total = 0;
    for (const RxQueueRef &q : config_.rx) {
        if (!links_->started(q.port)) continue;
        const std::uint16_t n = rte_eth_rx_burst(q.port, q.queue, pkts, config_.burst);
        if (n == 0) continue;
        total += n;
        handle_burst(fib, q.port, pkts, n, now_tsc);
    }
    flush();
    return total;
}

// A frame the fast path declined (or every frame, without it): the full parse into
// parsed_[i], its record from there, and its destination for the lookups (counted in out.n4,
// out.n6). Out of line: the
// parse loop keeps its registers for the common frame.
[[gnu::noinline]] void Worker::parse_declined(const rte_mbuf *m, unsigned i, BurstParse &out) {
    Parsed &r = rec_[i];
    ParsedPacket &p = parsed_[i];
    r.verdict = parse_mbuf(m, config_.parser, p, out.check == Ipv4Check::Nic);
    if (r.verdict != DropReason::None) return;
    r.hash = p.hash;
    r.l3_offset = p.l3_offset;
    r.kind = p.kind;
    r.ttl = p.ttl;
    if (p.kind == PacketKind::Ipv4) {
        out.v4_addr[out.n4++] = (std::uint32_t{p.key.dst[0]} << 24) | (std::uint32_t{p.key.dst[1]} << 16) |
                                (std::uint32_t{p.key.dst[2]} << 8) | p.key.dst[3];
    } else if (p.kind == PacketKind::Ipv6) {
        std::memcpy(out.v6_addr[out.n6++], p.key.dst, 16);
    }
}

// A frame the IPv4 fast path declined, with the fast path on: a common IPv6 frame is parsed by
// the IPv6 fast path into a complete record (no ParsedPacket), anything else in full.
[[gnu::noinline]] void Worker::parse_declined_fast(const rte_mbuf *m, unsigned i, BurstParse &out) {
    FastParsed6 f;
    if (m->nb_segs == 1 && parse_ipv6_fast(rte_pktmbuf_mtod(m, const std::uint8_t *), m->data_len, f)) {
        rec_[i] = Parsed{f.hash, kFastL3Offset, PacketKind::Ipv6, f.hop_limit, DropReason::None};
        std::memcpy(out.v6_addr[out.n6++], f.dst, 16);
        return;
    }
    parse_declined(m, i, out);
}

// Parses a burst into rec_ (and parsed_ for the frames the fast path declines), gathering the
// IPv4 and IPv6 destinations for one bulk lookup each. Instantiated per mode (fast path or not;
// for the fast path, who checks IPv4 header checksums), so that neither is tested per frame;
// kept out of line so that its loop gets the registers to itself. The next frame's data is
// prefetched one frame ahead, from pkts[n] (a sentinel) at the last frame, so that the loop has
// no bounds test for it.
template <bool Fast, Worker::Ipv4Check Check>
[[gnu::noinline]] void Worker::parse_burst(rte_mbuf *const *pkts, unsigned n, BurstParse &out) {
    std::uint32_t *const v4_addr = out.v4_addr;
    std::uint64_t *const slow = out.slow;
    unsigned n4 = 0;
    out.n6 = 0;
    std::uint64_t rx_bytes = 0;
    for (unsigned i = 0; i < n; ++i) {
        rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
        const rte_mbuf *m = pkts[i];
        if constexpr (Fast) {
            FastParsed f;
            // A frame with TTL <= 1 is left to the full parse. A single segment's pkt_len is
            // its data_len, which the fast parse reads anyway.
            // A frame the NIC flagged bad is left to the full parse, which drops it.
            const std::uint16_t len = m->data_len;
            const std::uint64_t nic = Check == Ipv4Check::Nic ? nic_ipv4_cksum(m) : 0;
            const bool verify = Check == Ipv4Check::Software ||
                                (Check == Ipv4Check::Nic && nic != RTE_MBUF_F_RX_IP_CKSUM_GOOD);
            if (m->nb_segs == 1 && nic != RTE_MBUF_F_RX_IP_CKSUM_BAD &&
                parse_ipv4_fast(rte_pktmbuf_mtod(m, const std::uint8_t *), len, verify, f) && f.ttl > 1) {
                rx_bytes += len;
                rec_[i].hash = f.hash;
                v4_addr[n4++] = f.dst4;
                continue;
            }
        }
        rx_bytes += m->pkt_len;
        slow[i / 64] |= std::uint64_t{1} << (i % 64);
        out.n4 = n4;
        if constexpr (Fast)
            parse_declined_fast(m, i, out);
        else
            parse_declined(m, i, out);
        n4 = out.n4;
    }
    out.n4 = n4;
    out.rx_bytes = rx_bytes;
}

void Worker::handle_burst(const FibSnapshot &fib, std::uint16_t in_port, rte_mbuf **pkts, std::uint16_t n,
                          std::uint64_t now_tsc) {
    // Parse the whole burst, gathering IPv4 and IPv6 destinations for one bulk lookup each.
    // With ACL rules every frame is parsed in full: the ACL stage reads its L4 fields.
    const ars::AclPolicy *acl = selector_.acl();
    const bool fast = acl == nullptr;
    std::uint32_t v4_addr[kMaxBurst];
    std::uint8_t v6_addr[kMaxBurst][16];
    // Frames the IPv4 fast path declined (their record complete: IPv6 fast path, or parsed in full
    // into parsed_[i]), one bit each; every other frame is direct and its record holds only its hash
    // (complete_direct completes it where a frame leaves the direct step).
    static_assert(kMaxBurst == 128);
    std::uint64_t slow[2] = {};
    auto is_direct = [&slow](unsigned i) { return ((slow[i / 64] >> (i % 64)) & 1) == 0; };
    // The sentinel slot past the burst repeats its last frame (see parse_burst).
    pkts[n] = pkts[n - 1];
    const Ipv4Check check = !config_.parser.verify_ipv4_checksum ? Ipv4Check::Off
                            : config_.nic_ipv4_cksum[in_port]    ? Ipv4Check::Nic
                                                                 : Ipv4Check::Software;
    BurstParse bp{v4_addr, v6_addr, slow, check};
    if (!fast)  // every frame through parse_declined, which reads bp.check
        parse_burst<false, Ipv4Check::Off>(pkts, n, bp);
    else if (check == Ipv4Check::Software)
        parse_burst<true, Ipv4Check::Software>(pkts, n, bp);
    else if (check == Ipv4Check::Nic)
        parse_burst<true, Ipv4Check::Nic>(pkts, n, bp);
    else
        parse_burst<true, Ipv4Check::Off>(pkts, n, bp);
    const unsigned n4 = bp.n4, n6 = bp.n6;
    const std::uint64_t rx_bytes = bp.rx_bytes;
    counters_->rx_pkts.add(n);
    counters_->rx_bytes.add(rx_bytes);
    counters_->ports[in_port].rx_pkts.add(n);
    counters_->ports[in_port].rx_bytes.add(rx_bytes);

    std::uint64_t nh4[kMaxBurst], nh6[kMaxBurst];
    if (n4 != 0) fib.lookup4(v4_addr, nh4, n4);
    if (n6 != 0) fib.lookup6(v6_addr, nh6, n6);

    unsigned i4 = 0, i6 = 0;
    unsigned na = 0;  // ARS frames of this burst left for finish_ars, in a register
    // The direct burst: without ACL rules and capture, the burst's first group (the first frame
    // that reaches selection) gets its members gathered once (gather_burst_members), and every
    // common IPv4 frame routed to it (not in the `slow` mask, same route index) is then decided
    // and sent by a short step right here: for an ARS group in a flowlet mode the engine's
    // inline flowlet step (ars::Worker::begin_flowlet_burst, flowlet_step), for a hash ECMP
    // group the ECMP hash of EcmpSelector. Anything the short step cannot answer takes the full
    // path below. For an ARS group, a frame of another ARS group, or an IBoE frame (which may
    // select through the engine: a flowlet burst allows no other selection while it is open),
    // closes the flowlet burst; ARS frames after that wait for finish_ars as before.
    ars::Worker &engine = selector_.engine();
    bool may_burst = fast && !capturing();
    bool in_burst = false;                   // a flowlet burst is open in the engine
    bool look_ahead = false;                 // prefetch the buckets of frames ahead (a table beyond L1)
    std::uint64_t burst_nh = kNoBurstRoute;  // the route index of the direct burst's group
    const NhgEntry *burst_nhg = nullptr;
    std::uint32_t burst_index = 0;
    BurstMembers bm;
    BurstTally bt;
    ars::Worker::FlowletStep step{};
    std::uint64_t usable = 0;  // flowlet_usable() of the flowlet burst's members
    // Frames the flowlet step did not answer whose engine decision was sent by send_direct: the
    // frames the step answered (the engine's count) are the direct frames less these.
    std::uint64_t decided_in_full = 0;
    std::uint64_t last_nh = kNoRoute;
    const NhgEntry *last_nhg = nullptr;
    bool last_is_ars = false;
    // A run that stopped at its first frame (new flowlets, e.g.) is not tried again until the
    // short step answers a frame, so that frames the run cannot take do not pay for it.
    bool try_run = true;
    // The short step of a direct frame of the direct burst's group, or (v6) of an IPv6 frame of
    // that group with a hop limit above 1, whose record is complete and must stay so.
    auto direct_step = [&](unsigned i, rte_mbuf *m, Parsed &r, bool v6) __attribute__((always_inline)) {
        unsigned k;
        if (in_burst) {
            // The bucket of a frame a few places ahead (a guess: most frames are of this group).
            if (look_ahead && i + kBucketLookAhead < n)
                engine.prefetch_in_burst(flowlet_burst_, rec_[i + kBucketLookAhead].hash);
            k = step.continue_flowlet(r.hash);
            if (k != ars::Egress::kNoMember) {
                try_run = true;
            } else {
                // The engine's full decision (a new flowlet, mostly); its answer is sent from the
                // gathered members too when it names one of them on its own port.
                const ars::Egress e = engine.select_in_burst(flowlet_burst_, r.hash);
                k = e.member;
                if (k >= bm.count || ((usable >> k) & 1) == 0 || bm.port[k] != e.port) {
                    if (!v6) complete_direct(r);
                    return send_in_burst(fib, m, r, burst_index, *burst_nhg, now_tsc, e);
                }
                ++decided_in_full;
            }
        } else {
            k = ecmp_member(r.hash, bm.count);
            if (((bm.sendable >> k) & 1) == 0) {
                if (!v6) complete_direct(r);
                return send_selected(fib, m, r, burst_index, burst_nhg, now_tsc);
            }
            try_run = true;
        }
        send_direct(bm, bt, m, k, v6, r.l3_offset);
    };
    auto end_flowlet_burst = [&] {
        // Every direct frame so far is of this flowlet burst (it began the direct burst).
        const std::uint64_t continued = bt.fwd + bt.full - decided_in_full;
        if (continued != 0) engine.count_continued(flowlet_burst_, continued);
        engine.end_flowlet_burst(flowlet_burst_);
        in_burst = false;
        burst_nh = kNoBurstRoute;
    };
    // Without declined frames, a run of frames continuing their flowlets goes through
    // direct_run, the direct step alone (the index of v4_addr and nh4 is then the burst's).
    const bool all_direct = (slow[0] | slow[1]) == 0;
    for (unsigned i = 0; i < n; ++i) {
        rte_mbuf *m = pkts[i];
        Parsed &r = rec_[i];
        std::uint64_t nh;
        if (is_direct(i)) {  // a common IPv4 frame with TTL > 1
            nh = nh4[i4++];
            if (nh == burst_nh) {
                if (all_direct && try_run && !look_ahead) {
                    const unsigned end = in_burst
                                             ? direct_run<true>(step, bm, pkts, nh4, burst_nh, i, n, bt)
                                             : direct_run<false>(step, bm, pkts, nh4, burst_nh, i, n, bt);
                    if (end != i) {  // frames i .. end - 1 sent; the generic path takes frame `end`
                        i4 = end;
                        i = end - 1;
                        continue;
                    }
                    try_run = false;  // until the short step answers a frame again
                }
                direct_step(i, m, r, false);
                continue;
            }
            complete_direct(r);
        } else {
            if (r.verdict != DropReason::None) {
                drop(m, r.verdict);
                continue;
            }
            if (r.kind == PacketKind::Ipv4) {
                nh = nh4[i4++];
            } else if (r.kind == PacketKind::Ipv6) {
                nh = nh6[i6++];
                if (nh == burst_nh && r.ttl > 1) {
                    direct_step(i, m, r, true);
                    continue;
                }
            } else {
                if (in_burst) end_flowlet_burst();
                forward_iboe(fib, in_port, m, parsed_[i], now_tsc);
                continue;
            }
        }
        // Routes of a burst mostly share their group: resolve an index once while it repeats.
        if (nh != last_nh) {
            last_nh = nh;
            last_nhg = nh == kNoRoute ? nullptr : fib.nhg(static_cast<std::uint32_t>(nh));
            last_is_ars = last_nhg != nullptr && selector_.is_ars(*last_nhg);
        }
        const NhgEntry *nhg = last_nhg;
        if (nhg == nullptr) {
            drop(m, DropReason::NoRoute);
            continue;
        }
        if (r.ttl <= 1) {
            drop(m, DropReason::TtlExpired);
            continue;
        }
        const auto index = static_cast<std::uint32_t>(nh);
        if (may_burst) {
            may_burst = false;  // one direct burst per RX burst
            if (last_is_ars) {
                if (engine.begin_flowlet_burst(nhg->id, now_tsc, flowlet_burst_)) {
                    in_burst = true;
                    burst_nh = nh;
                    burst_nhg = nhg;
                    burst_index = index;
                    gather_burst_members(fib, *nhg, bm);
                    usable = flowlet_usable(bm);
                    step = engine.flowlet_step(flowlet_burst_, usable);
                    look_ahead = engine.burst_table_bytes(flowlet_burst_) > kPrefetchTableBytes;
                    for (unsigned k = i + 1; look_ahead && k < n && k <= i + kBucketLookAhead; ++k)
                        engine.prefetch_in_burst(flowlet_burst_, rec_[k].hash);
                    if (is_direct(i) || r.kind == PacketKind::Ipv6)
                        direct_step(i, m, r, !is_direct(i));
                    else
                        send_in_burst(fib, m, r, burst_index, *nhg, now_tsc);
                    continue;
                }
            } else if (nhg->member_count != 0 && nhg->member_count <= kBurstDirectMembers) {
                burst_nh = nh;
                burst_nhg = nhg;
                burst_index = index;
                gather_burst_members(fib, *nhg, bm);
                if (is_direct(i) || r.kind == PacketKind::Ipv6) {
                    direct_step(i, m, r, !is_direct(i));
                    continue;
                }
            }
        }
        if (last_is_ars) {
            if (in_burst) {
                if (nhg == burst_nhg) {  // a frame the short step does not take (IPv6, options)
                    send_in_burst(fib, m, r, burst_index, *nhg, now_tsc);
                    continue;
                }
                end_flowlet_burst();
            }
            // ACL stage, then one burst ARS selection once the whole burst is looked up. The
            // engine's request is written here, field by field, and read by the engine in place.
            ars_pending_[na] = PendingArs{m, nhg, index, static_cast<std::uint16_t>(i)};
            ars::SelectRequest &q = ars_req_[na];
            q.flow_hash = r.hash;
            q.nhg = nhg->id;
            q.verdict = acl != nullptr ? classify(m, parsed_[i], *acl) : ars::AclVerdict{};
            ++na;
            continue;
        }
        send_selected(fib, m, r, index, nhg, now_tsc);
    }
    if (in_burst) end_flowlet_burst();
    if (bt.fwd + bt.full != 0) count_nhg(burst_index, bt.bytes, bt.fwd + bt.full);
    ars_n_ = na;
    if (ars_n_ != 0) {
        if (capturing())
            finish_ars_captured(fib, now_tsc);
        else
            finish_ars(fib, now_tsc);
    }
    publish_tally();
}

// The per-frame steps after selection (count, rewrite, buffer) are inlined into the burst loops:
// called per frame, each would be a call per frame.
[[gnu::always_inline]] inline void Worker::count_nhg(std::uint32_t nhg_index, std::uint64_t bytes,
                                                     std::uint64_t pkts) noexcept {
    if (nhg_index != tally_.nhg_index) {
        if (tally_.nhg_pkts != 0) {
            counters_->nhgs[tally_.nhg_index].pkts.add(tally_.nhg_pkts);
            counters_->nhgs[tally_.nhg_index].bytes.add(tally_.nhg_bytes);
        }
        tally_.nhg_index = nhg_index;
        tally_.nhg_pkts = 0;
        tally_.nhg_bytes = 0;
    }
    tally_.nhg_pkts += pkts;
    tally_.nhg_bytes += bytes;
}

void Worker::publish_tally() noexcept {
    if (tally_.nhg_pkts != 0) {
        counters_->nhgs[tally_.nhg_index].pkts.add(tally_.nhg_pkts);
        counters_->nhgs[tally_.nhg_index].bytes.add(tally_.nhg_bytes);
    }
    tally_ = Tally{};
}

ars::AclVerdict Worker::classify(const rte_mbuf *m, const ParsedPacket &p,
                                 const ars::AclPolicy &acl) const noexcept {
    ars::PacketFields f;
    const auto *l3 = rte_pktmbuf_mtod(m, const std::uint8_t *) + p.l3_offset;
    if (p.kind == PacketKind::Ipv4) {
        f.ether_type = RTE_ETHER_TYPE_IPV4;
        f.ip_version = 4;
        f.dscp = static_cast<std::uint8_t>(l3[1] >> 2);
    } else {
        f.ether_type = RTE_ETHER_TYPE_IPV6;
        f.ip_version = 6;
        f.dscp = static_cast<std::uint8_t>((((l3[0] & 0x0F) << 4) | (l3[1] >> 4)) >> 2);
    }
    f.ip_protocol = p.l4_protocol;
    if (p.l4_offset != 0 && !p.fragment) {
        f.l4_src_port = p.key.src_port;
        f.l4_dst_port = p.key.dst_port;
    }
    return acl.classify(f);
}

void Worker::finish_ars(const FibSnapshot &fib, std::uint64_t now_tsc) {
    const unsigned n = ars_n_;
    ars_n_ = 0;
    selector_.select_ars_requests(std::span<const ars::SelectRequest>(ars_req_.data(), n), now_tsc,
                                  std::span<ars::Egress>(ars_out_.data(), n));
    for (unsigned k = 0; k < n; ++k) {
        const PendingArs &a = ars_pending_[k];
        const MemberChoice c =
            selector_.member_for(fib, a.nhg_index, *a.nhg, ars_req_[k].flow_hash, now_tsc, ars_out_[k]);
        if (c.member == nullptr) {
            drop(a.m, c.reason);
            continue;
        }
        send_ip(a.m, rec_[a.pos], a.nhg_index, *c.member);
    }
}

// What each member of the flowlet burst's group needs for sending (its MAC pair, its TX buffer,
// whether it can send), gathered once for the burst into the caller's locals, which the frame
// writes cannot alias: the per-frame step reloads nothing of the worker for them.
[[gnu::always_inline]] inline void Worker::gather_burst_members(const FibSnapshot &fib, const NhgEntry &nhg,
                                                                BurstMembers &bm) noexcept {
    const auto members = fib.members(nhg);
    bm.count = std::min<unsigned>(nhg.member_count, kBurstDirectMembers);
    bm.sendable = 0;
    bm.cap = static_cast<std::uint16_t>(2 * config_.burst);
    for (unsigned k = 0; k < bm.count; ++k) {
        const ResolvedMember &rm = members[k];
        bm.port[k] = rm.port;
        if (!rm.resolved || !links_->usable(rm.port)) continue;
        bm.sendable |= 1u << k;
        std::uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
        set_macs(macs, config_.port_mac[rm.port], rm.dst_mac);
        std::memcpy(&bm.mac_lo[k], macs, 8);
        std::memcpy(&bm.mac_hi[k], macs + 8, 4);
        bm.tx[k] = &buffer(rm.port, 0);
    }
}

// The usable members of a gathered burst a flowlet may continue on without more checks: those
// the worker can send to at once, on the port the engine names for them.
[[gnu::always_inline]] inline std::uint64_t Worker::flowlet_usable(const BurstMembers &bm) const noexcept {
    std::uint64_t usable = 0;
    const ars::Worker &engine = selector_.engine();
    for (unsigned k = 0; k < bm.count; ++k)
        if (((bm.sendable >> k) & 1) != 0 &&
            engine.burst_port(flowlet_burst_, static_cast<std::uint16_t>(k)) == bm.port[k])
            usable |= std::uint64_t{1} << k;
    return usable;
}

// The hash ECMP step of EcmpSelector::select for a frame whose first choice can send.
[[gnu::always_inline]] inline unsigned Worker::ecmp_member(std::uint32_t hash, unsigned count) noexcept {
    return static_cast<unsigned>((static_cast<std::uint64_t>(hash) * count) >> 32);
}

// A common IPv4 frame (TTL > 1, header at kFastL3Offset), or (v6) an IPv6 frame (hop limit > 1,
// header at l3_offset), to gathered member k: rewrite and TX buffer from the gathered members.
// NHG and forwarded counts go to `bt`, added once after the burst.
[[gnu::always_inline]] inline void Worker::send_direct(BurstMembers &bm, BurstTally &bt, rte_mbuf *m,
                                                       unsigned k, bool v6, std::uint16_t l3_offset) {
    auto *frame = rte_pktmbuf_mtod(m, std::uint8_t *);
    std::memcpy(frame, &bm.mac_lo[k], 8);
    std::memcpy(frame + 8, &bm.mac_hi[k], 4);
    if (v6)
        ipv6_decrement_hop_limit(frame + l3_offset);
    else
        ipv4_decrement_ttl(frame + kFastL3Offset);
    const std::uint32_t len = m->pkt_len;
    bt.bytes += len;  // the NHG counts every frame sent to it (fwd + full), as count_nhg does
    TxBuffer &b = *bm.tx[k];
    if (b.count >= bm.cap) {
        ++bt.full;
        counters_->ports[bm.port[k]].tx_dropped.add();
        return drop(m, DropReason::TxQueueFull);
    }
    b.pkts[b.count++] = m;
    b.bytes += len;
    ++bt.fwd;
}

// A run of direct frames from `i` (the whole burst direct: nh4 is indexed like the burst) that
// are routed to the direct burst's group and go to gathered members without more checks: for
// an ARS group (Flowlet) those continuing their flowlets, for a hash ECMP group those whose
// member can send. The flowlet step or ECMP hash, rewrite and TX buffering with nothing else
// per frame. The run stops before
// `n`, before the first frame that is not of this kind (which the caller's generic step takes)
// and before any member's TX buffer could fill (so no frame needs the capacity test). Returns
// the end of the run; its frames are counted in `bt` as send_direct counts them.
template <bool Flowlet>
[[gnu::noinline]] unsigned Worker::direct_run(const ars::Worker::FlowletStep &step, const BurstMembers &bm,
                                              rte_mbuf *const *pkts, const std::uint64_t *nh,
                                              std::uint64_t burst_nh, unsigned i, unsigned n,
                                              BurstTally &bt) noexcept {
    unsigned end = n;
    for (unsigned k = 0; k < bm.count; ++k)
        if (((bm.sendable >> k) & 1) != 0) end = std::min<unsigned>(end, i + (bm.cap - bm.tx[k]->count));
    const ars::Worker::FlowletStep s = step;
    std::uint64_t bytes = 0;
    unsigned j = i;
    for (; j < end; ++j) {
        if (nh[j] != burst_nh) break;
        unsigned k;
        if constexpr (Flowlet) {
            k = s.continue_flowlet(rec_[j].hash);
            if (k == ars::Egress::kNoMember) break;
        } else {
            k = ecmp_member(rec_[j].hash, bm.count);
            if (((bm.sendable >> k) & 1) == 0) break;
        }
        rte_mbuf *m = pkts[j];
        auto *frame = rte_pktmbuf_mtod(m, std::uint8_t *);
        std::memcpy(frame, &bm.mac_lo[k], 8);
        std::memcpy(frame + 8, &bm.mac_hi[k], 4);
        ipv4_decrement_ttl(frame + kFastL3Offset);
        const std::uint32_t len = m->pkt_len;
        bytes += len;
        TxBuffer &b = *bm.tx[k];
        b.pkts[b.count++] = m;
        b.bytes += len;
    }
    bt.bytes += bytes;
    bt.fwd += j - i;
    return j;
}

// A direct frame's record holds only its hash: the rest is the same for every direct frame.
void Worker::complete_direct(Parsed &r) noexcept {
    static constexpr Parsed kDirectRecord{0, kFastL3Offset, PacketKind::Ipv4, 2, DropReason::None};
    std::memcpy(reinterpret_cast<unsigned char *>(&r) + sizeof r.hash,
                reinterpret_cast<const unsigned char *>(&kDirectRecord) + sizeof r.hash,
                sizeof(Parsed) - sizeof r.hash);
}

// A frame of the flowlet burst's group that the inline step did not answer: the engine's full
// burst decision, then member_for() and send_ip() as in finish_ars.
[[gnu::noinline]] void Worker::send_in_burst(const FibSnapshot &fib, rte_mbuf *m, const Parsed &r,
                                             std::uint32_t nhg_index, const NhgEntry &nhg,
                                             std::uint64_t now_tsc) {
    send_in_burst(fib, m, r, nhg_index, nhg, now_tsc,
                  selector_.engine().select_in_burst(flowlet_burst_, r.hash));
}

// The same with the engine's answer `e` for it already taken.
[[gnu::noinline]] void Worker::send_in_burst(const FibSnapshot &fib, rte_mbuf *m, const Parsed &r,
                                             std::uint32_t nhg_index, const NhgEntry &nhg,
                                             std::uint64_t now_tsc, ars::Egress e) {
    const MemberChoice c = selector_.member_for(fib, nhg_index, nhg, r.hash, now_tsc, e);
    if (c.member == nullptr) return drop(m, c.reason);
    send_ip(m, r, nhg_index, *c.member);
}

// A frame of a group without a flowlet burst: the selector decides (hash ECMP, or an ARS group
// without the burst path).
void Worker::send_selected(const FibSnapshot &fib, rte_mbuf *m, const Parsed &r, std::uint32_t nhg_index,
                           const NhgEntry *nhg, std::uint64_t now_tsc) {
    const MemberChoice c = selector_.select(fib, SelectionRequest{nhg_index, nhg, r.hash, now_tsc, true});
    if (c.member == nullptr) return drop(m, c.reason);
    send_ip(m, r, nhg_index, *c.member);
}

// While the monitoring capture is on, each packet is selected on its own, so a reassignment
// names its packet; the choices are the same as finish_ars's.
void Worker::finish_ars_captured(const FibSnapshot &fib, std::uint64_t now_tsc) {
    const unsigned n = ars_n_;
    ars_n_ = 0;
    for (unsigned k = 0; k < n; ++k) {
        const PendingArs &a = ars_pending_[k];
        const ars::SelectRequest &q = ars_req_[k];
        bool reassigned = false;
        const MemberChoice c = selector_.select(
            fib, SelectionRequest{a.nhg_index, a.nhg, q.flow_hash, now_tsc, true, q.verdict}, &reassigned);
        if (c.member == nullptr) {
            drop(a.m, c.reason);
            continue;
        }
        if (reassigned) {
            // Held by an extra reference so the copy shows the frame as sent, whatever happens
            // to it at the TX buffer.
            rte_mbuf_refcnt_update(a.m, 1);
            send_ip(a.m, rec_[a.pos], a.nhg_index, *c.member);
            config_.capture->record(a.m, c.member->port, config_.tx_queue_base, now_tsc);
            rte_pktmbuf_free(a.m);
            continue;
        }
        send_ip(a.m, rec_[a.pos], a.nhg_index, *c.member);
    }
}

[[gnu::always_inline]] inline void Worker::send_ip(rte_mbuf *m, const Parsed &p, std::uint32_t index,
                                                   const ResolvedMember &member) {
    auto *frame = rte_pktmbuf_mtod(m, std::uint8_t *);
    set_macs(frame, config_.port_mac[member.port], member.dst_mac);
    if (p.kind == PacketKind::Ipv4)
        ipv4_decrement_ttl(frame + p.l3_offset);
    else
        ipv6_decrement_hop_limit(frame + p.l3_offset);
    count_nhg(index, m->pkt_len, 1);
    enqueue(m, member.port, 0);
}

void Worker::send_iboe(const FibSnapshot &fib, rte_mbuf *m, const ParsedPacket &p, std::uint16_t port) {
    auto *frame = rte_pktmbuf_mtod(m, std::uint8_t *);
    const std::uint8_t vl = fib.sl2vl(port, p.sl);
    lrh_set_vl(frame + p.l3_offset, vl);
    set_src_mac(frame, config_.port_mac[port]);
    enqueue(m, port, static_cast<std::uint16_t>(vl % config_.tx_queues));
}

void Worker::forward_iboe(const FibSnapshot &fib, std::uint16_t in_port, rte_mbuf *m, const ParsedPacket &p,
                          std::uint64_t now_tsc) {
    if (p.dlid == 0 || p.dlid == kPermissiveLid) return drop(m, DropReason::InvalidLid);

    if (p.dlid >= kFirstMulticastLid) {
        std::uint64_t mask = fib.mft(p.dlid) & ~(std::uint64_t{1} << in_port);
        if (mask == 0) return drop(m, DropReason::MftMiss);
        std::uint16_t out[kMaxPorts];
        unsigned n_out = 0;
        for (; mask != 0; mask &= mask - 1) {
            const auto port = static_cast<std::uint16_t>(__builtin_ctzll(mask));
            if (links_->usable(port)) out[n_out++] = port;
        }
        if (n_out == 0) return drop(m, DropReason::PortDown);
        // Each replica gets its own headers (egress SL2VL and source MAC), so replicas are full
        // copies; the last port takes the original frame.
        for (unsigned k = 0; k + 1 < n_out; ++k) {
            rte_mbuf *copy = rte_pktmbuf_copy(m, config_.clone_pool, 0, UINT32_MAX);
            if (copy == nullptr) {
                counters_->drops[static_cast<std::size_t>(DropReason::ReplicationFailed)].add();
                continue;
            }
            counters_->replicas.add();
            send_iboe(fib, copy, p, out[k]);
        }
        return send_iboe(fib, m, p, out[n_out - 1]);
    }

    const LftTarget t = fib.lft(p.dlid);
    std::uint16_t port;
    switch (t.kind) {
        case LftTarget::Kind::Port:
            port = static_cast<std::uint16_t>(t.value);
            if (!links_->usable(port)) return drop(m, DropReason::PortDown);
            break;
        case LftTarget::Kind::Nhg: {
            const NhgEntry *nhg = fib.nhg(t.value);
            if (nhg == nullptr) return drop(m, DropReason::LftMiss);
            bool reassigned = false;
            const MemberChoice c =
                selector_.select(fib, SelectionRequest{t.value, nhg, p.hash, now_tsc, false},
                                 capturing() ? &reassigned : nullptr);
            if (c.member == nullptr) return drop(m, c.reason);
            port = c.member->port;
            count_nhg(t.value, m->pkt_len, 1);
            if (reassigned) {  // monitoring capture: as in finish_ars
                rte_mbuf_refcnt_update(m, 1);
                send_iboe(fib, m, p, port);
                config_.capture->record(m, port, config_.tx_queue_base, now_tsc);
                return rte_pktmbuf_free(m);
            }
            break;
        }
        default:
            return drop(m, DropReason::LftMiss);
    }
    send_iboe(fib, m, p, port);
}

[[gnu::always_inline]] inline void Worker::enqueue(rte_mbuf *m, std::uint16_t port, std::uint16_t slot) {
    TxBuffer &b = buffer(port, slot);
    if (b.count >= 2 * config_.burst) {
        counters_->ports[port].tx_dropped.add();
        return drop(m, DropReason::TxQueueFull);
    }
    b.pkts[b.count++] = m;
    b.bytes += m->pkt_len;
}

void Worker::flush() noexcept {
    const std::uint16_t slots = config_.tx_queues;
    for (std::uint16_t port = 0; port < config_.num_ports; ++port) {
        std::uint64_t backlog = 0;
        TxBuffer *b = &buffer(port, 0);  // the port's slots lie side by side
        for (std::uint16_t slot = 0; slot < slots; ++slot, ++b) {
            if (b->count == 0) continue;
            if (!links_->started(port)) {  // stopped under us: nothing may be sent there
                for (std::uint16_t i = 0; i < b->count; ++i) drop(b->pkts[i], DropReason::PortDown);
                counters_->ports[port].tx_dropped.add(b->count);
                b->count = 0;
                b->bytes = 0;
                continue;
            }
            const std::uint16_t sent = rte_eth_tx_burst(
                port, static_cast<std::uint16_t>(config_.tx_queue_base + slot), b->pkts, b->count);
            // A frame counts as forwarded once the PMD has taken it, not when it is buffered: a
            // buffered frame may yet be dropped (its port stops, the worker shuts down).
            counters_->fwd_pkts.add(sent);
            if (sent == b->count) {  // the common case: the whole buffer went out
                counters_->ports[port].tx_pkts.add(sent);
                counters_->ports[port].tx_bytes.add(b->bytes);
                b->count = 0;
                b->bytes = 0;
                continue;
            }
            if (sent != 0) {
                // Byte accounting uses the lengths recorded at enqueue time: the PMD owns the sent
                // mbufs now. Unsent frames stay buffered (weft's own TX backlog).
                std::uint32_t left_bytes = 0;
                for (std::uint16_t i = sent; i < b->count; ++i) left_bytes += b->pkts[i]->pkt_len;
                counters_->ports[port].tx_pkts.add(sent);
                counters_->ports[port].tx_bytes.add(b->bytes - left_bytes);
                std::memmove(b->pkts, b->pkts + sent, (b->count - sent) * sizeof(rte_mbuf *));
                b->count = static_cast<std::uint16_t>(b->count - sent);
                b->bytes = left_bytes;
            }
            backlog += b->bytes;
        }
        counters_->ports[port].backlog_bytes.set(backlog);
    }
}

void Worker::drop(rte_mbuf *m, DropReason why) noexcept {
    counters_->drops[static_cast<std::size_t>(why)].add();
    rte_pktmbuf_free(m);
}

void Worker::discard_buffers() noexcept {
    for (std::uint16_t port = 0; port < kMaxPorts; ++port) {
        // What the PMD would not take before the worker stopped (its queue stayed full), or
        // what waited for a port that has stopped since.
        const DropReason why = links_->started(port) ? DropReason::TxQueueFull : DropReason::PortDown;
        for (std::uint16_t slot = 0; slot < config_.tx_queues; ++slot) {
            TxBuffer &b = buffer(port, slot);
            for (std::uint16_t i = 0; i < b.count; ++i) drop(b.pkts[i], why);
            if (b.count != 0) counters_->ports[port].tx_dropped.add(b.count);
            b.count = 0;
            b.bytes = 0;
        }
        counters_->ports[port].backlog_bytes.set(0);
    }
}

}  // namespace weft::dataplane
