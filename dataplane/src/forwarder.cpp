#include "forwarder.hpp"

#include <rte_ethdev.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "ipv4_fast_parse.hpp"
#include "ipv6_fast_parse.hpp"
#include "kernel_punt.hpp"
#include "mbuf_parse.hpp"
#include "rewrite.hpp"

namespace weft::dataplane {

namespace {
// A flow table beyond this size is not in L1: its buckets are prefetched a few frames ahead.
constexpr std::size_t kPrefetchTableBytes = 16 * 1024;
}  // namespace

Forwarder::Forwarder(const WorkerConfig &config, const LinkState &links, const ars::PortBoard &board,
                     WorkerCounters &counters)
    : config_(config),
      links_(links),
      counters_(counters),
      selector_(links, board, config.index),
      tx_(config.tx_queues, config.tx_queue_base, config.burst) {}

Forwarder::~Forwarder() {
    discard_buffers();
}

void Forwarder::discard_buffers() noexcept {
    tx_.discard(links_, counters_);
}

unsigned Forwarder::poll_once(const FibSnapshot &fib, std::uint64_t now_tsc) {
    selector_.sync(fib);  // adopts a new ARS configuration, if the snapshot brought one
    unsigned total = 0;
    for (const RxQueueRef &q : config_.rx) {
        if (!links_.started(q.port)) continue;
        const std::uint16_t n = rte_eth_rx_burst(q.port, q.queue, b_.pkts, config_.burst);
        if (n == 0) continue;
        total += n;
        b_.n = n;
        b_.in_port = q.port;
        forward(fib, now_tsc);
    }
    tx_.flush(links_, counters_);
    return total;
}

// One RX burst, stage by stage.
void Forwarder::forward(const FibSnapshot &fib, std::uint64_t now_tsc) {
    const ars::AclPolicy *acl = selector_.acl();
    const Ipv4Check check = !config_.parser.verify_ipv4_checksum ? Ipv4Check::Off
                            : config_.nic_ipv4_cksum[b_.in_port] ? Ipv4Check::Nic
                                                                 : Ipv4Check::Software;
    nic_checks_ = check == Ipv4Check::Nic;
    if (acl != nullptr)
        parse_full();  // the ACL reads fields the fast parse skips
    else if (check == Ipv4Check::Software)
        parse_fast<Ipv4Check::Software>();
    else if (check == Ipv4Check::Nic)
        parse_fast<Ipv4Check::Nic>();
    else
        parse_fast<Ipv4Check::Off>();
    lookup(fib);
    if (acl != nullptr) classify(*acl);
    select(fib, now_tsc);
    if (captured_n_ != 0) record_captured(now_tsc);
    if (punted_n_ != 0) punt_burst();
    if (arn_delivered_n_ != 0) deliver_arn_burst();
}

// ---- parse ------------------------------------------------------------------------------------

// The common frame (one segment, untagged IPv4 without options) through the IPv4 fast parse,
// the rest through parse_declined. Instantiated per checksum mode so the loop tests none of it
// per frame; out of line so the loop has the registers to itself. Each frame's data is
// prefetched one frame ahead, the last frame's from the sentinel slot.
template <Forwarder::Ipv4Check Check>
void Forwarder::parse_fast() {
    rte_mbuf **pkts = b_.pkts;
    const unsigned n = b_.n;
    pkts[n] = pkts[n - 1];
    std::uint32_t *const dst4 = b_.dst4;
    unsigned n4 = 0, fast4 = 0;
    b_.n6 = 0;
    std::uint64_t bytes = 0;
    for (unsigned i = 0; i < n; ++i) {
        rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
        const rte_mbuf *m = pkts[i];
        // A frame the NIC flagged bad is left to the full parse, which drops it; one it flagged
        // good is not checked again.
        const std::uint64_t nic = Check == Ipv4Check::Nic ? nic_ipv4_cksum(m) : 0;
        const bool verify =
            Check == Ipv4Check::Software || (Check == Ipv4Check::Nic && nic != RTE_MBUF_F_RX_IP_CKSUM_GOOD);
        const std::uint16_t len = m->data_len;  // a single segment's pkt_len
        FastParsed f;
        // TTL 255 (ARN over UDP may be one) goes to the full parse too.
        if (m->nb_segs == 1 && nic != RTE_MBUF_F_RX_IP_CKSUM_BAD &&
            parse_ipv4_fast(rte_pktmbuf_mtod(m, const std::uint8_t *), len, verify, f) &&
            f.ttl != arn::kArnIpTtl) {
            bytes += len;
            b_.info[i].set_fast_ipv4(f.hash, f.ttl);
            dst4[n4++] = f.dst4;
            ++fast4;
            continue;
        }
        bytes += m->pkt_len;
        b_.n4 = n4;
        parse_declined(i);
        n4 = b_.n4;
    }
    b_.n4 = n4;
    b_.fast4 = fast4;
    counters_.rx_pkts.add(n);
    counters_.rx_bytes.add(bytes);
    counters_.ports[b_.in_port].rx_pkts.add(n);
    counters_.ports[b_.in_port].rx_bytes.add(bytes);
}

// With ACL rules: every frame in full.
void Forwarder::parse_full() {
    b_.n4 = 0;
    b_.n6 = 0;
    b_.fast4 = 0;
    std::uint64_t bytes = 0;
    for (unsigned i = 0; i < b_.n; ++i) {
        bytes += b_.pkts[i]->pkt_len;
        parse_in_full(i);
    }
    counters_.rx_pkts.add(b_.n);
    counters_.rx_bytes.add(bytes);
    counters_.ports[b_.in_port].rx_pkts.add(b_.n);
    counters_.ports[b_.in_port].rx_bytes.add(bytes);
}

// A frame the IPv4 fast parse declined: a common IPv6 frame through the IPv6 fast parse, the
// rest in full.
[[gnu::noinline]] void Forwarder::parse_declined(unsigned i) {
    const rte_mbuf *m = b_.pkts[i];
    FastParsed6 f;
    if (m->nb_segs == 1 && parse_ipv6_fast(rte_pktmbuf_mtod(m, const std::uint8_t *), m->data_len, f) &&
        f.hop_limit != arn::kArnIpTtl) {
        b_.info[i] = FrameInfo{f.hash, kFastL3Offset, PacketKind::Ipv6, f.hop_limit, DropReason::None};
        std::memcpy(b_.dst6[b_.n6++], f.dst, 16);
        return;
    }
    parse_in_full(i);
}

void Forwarder::parse_in_full(unsigned i) {
    ParsedPacket &p = b_.parsed[i];
    const DropReason r = parse_mbuf(b_.pkts[i], config_.parser, p, nic_checks_);
    b_.info[i] = FrameInfo{p.hash, static_cast<std::uint8_t>(p.l3_offset), p.kind, p.ttl, r};
    if ((r == DropReason::UnknownEtherType || (r == DropReason::None && p.ttl == arn::kArnIpTtl)) &&
        claim_arn(i)) [[unlikely]]
        return;
    if (r != DropReason::None) return;
    if (p.kind == PacketKind::Ipv4) {
        b_.dst4[b_.n4++] = (std::uint32_t{p.key.dst[0]} << 24) | (std::uint32_t{p.key.dst[1]} << 16) |
                           (std::uint32_t{p.key.dst[2]} << 8) | p.key.dst[3];
    } else if (p.kind == PacketKind::Ipv6) {
        std::memcpy(b_.dst6[b_.n6++], p.key.dst, 16);
    }
}

// ---- lookup -----------------------------------------------------------------------------------

void Forwarder::lookup(const FibSnapshot &fib) {
    if (b_.n4 != 0) fib.lookup4(b_.dst4, b_.nh4, b_.n4);
    if (b_.n6 != 0) fib.lookup6(b_.dst6, b_.nh6, b_.n6);
    if (b_.n4 == b_.n) {  // every frame IPv4: the results are in frame order already
        b_.nh = b_.nh4;
        return;
    }
    unsigned i4 = 0, i6 = 0;
    for (unsigned i = 0; i < b_.n; ++i) {
        const FrameInfo &f = b_.info[i];
        std::uint64_t nh = kNoRoute;
        if (f.verdict == DropReason::None) {
            if (f.kind == PacketKind::Ipv4)
                nh = b_.nh4[i4++];
            else if (f.kind == PacketKind::Ipv6)
                nh = b_.nh6[i6++];
        }
        b_.nh_by_frame[i] = nh;
    }
    b_.nh = b_.nh_by_frame;
}

// ---- ACL --------------------------------------------------------------------------------------

void Forwarder::classify(const ars::AclPolicy &acl) {
    for (unsigned i = 0; i < b_.n; ++i) {
        const FrameInfo &fi = b_.info[i];
        if (fi.verdict != DropReason::None || fi.kind == PacketKind::Iboe || fi.kind == PacketKind::Arn)
            continue;
        const ParsedPacket &p = b_.parsed[i];
        const auto *l3 = rte_pktmbuf_mtod(b_.pkts[i], const std::uint8_t *) + p.l3_offset;
        ars::PacketFields f;
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
        b_.verdict[i] = acl.classify(f);
    }
}

// ---- select, then out by send() ---------------------------------------------------------------

// Each frame's hop (port, TX buffer, new MACs), and the frame out by send() as soon as it is
// known, or dropped. Routes of a burst mostly share one group, so the first group a frame
// reaches is opened (open_group) and continue_run decides its frames from what was read once:
// its members' hops and, for an ARS group in a flowlet mode, the engine's flowlet burst, in
// which a frame continuing its flowlet is one bucket test. Every other frame goes through
// select_one: drops, other groups (those of ARS groups wait until the open group is closed: the
// engine takes no other selection while a flowlet burst is open), IBoE frames (last).
void Forwarder::select(const FibSnapshot &fib, std::uint64_t now_tsc) {
    waiting_n_ = 0;
    iboe_n_ = 0;
    captured_n_ = 0;
    const bool ipv4_only = b_.fast4 == b_.n;  // the IPv4 fast parse took every frame
    SelectState st;
    for (unsigned i = 0; i < b_.n;) {
        if (open_.route != kNotOpen) {
            i = ipv4_only ? continue_run<true>(fib, i, now_tsc) : continue_run<false>(fib, i, now_tsc);
            if (i == b_.n) break;
        }
        if (select_one(fib, i, now_tsc, st)) ++i;  // false: it opened frame i's group
    }
    close_group();
    if (waiting_n_ != 0) select_waiting_ars(fib, now_tsc);
    for (unsigned k = 0; k < iboe_n_; ++k) select_iboe(fib, iboe_[k], now_tsc);
}

template <bool Ipv4Only>
unsigned Forwarder::continue_run(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc) {
    if (!open_.flowlet) return continue_run<Ipv4Only, false, false>(fib, i, now_tsc);
    if (!open_.look_ahead) return continue_run<Ipv4Only, true, false>(fib, i, now_tsc);
    return continue_run<Ipv4Only, true, true>(fib, i, now_tsc);
}

// From frame i on, the frames routed to the open group (with a TTL to spare): for hash ECMP the
// member the hash names when it can send, for a flowlet the member it continues on or, when the
// engine's step can start new flowlets (every live member is one the worker can send to), the
// member it starts one on; each sent at once. Returns the first frame that is not of the group.
// The loop keeps what it reads in locals (the frame writes cannot alias them) and calls nothing
// that is not inlined: the frames the short step cannot answer are decided in full after it, in
// order. That gives the same answers as deciding each in its place: a step that starts flowlets
// leaves only frames without any candidate (no draw), and one that does not leaves the frames of
// one flow bucket all continuing or all missing (they see the same bucket at the same time), the
// first miss's new flowlet being what the later ones of its bucket then find. A flow's frames
// keep their order.
template <bool Ipv4Only, bool Flowlet, bool LookAhead>
unsigned Forwarder::continue_run(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc) {
    const unsigned n = b_.n;
    const unsigned start = i;
    const std::uint64_t route = open_.route;
    const std::uint64_t *nh = b_.nh;
    const FrameInfo *info = b_.info;
    rte_mbuf *const *pkts = b_.pkts;
    const Hop *hops = open_.hops;
    unsigned *missed = missed_;
    unsigned n_missed = 0;
    const std::uint64_t sendable = open_.sendable;
    const unsigned count = open_.count;
    const ars::Worker::FlowletStep step = open_.step;
    const ars::Worker &engine = selector_.engine();
    std::uint64_t bytes = 0;
    for (; i < n; ++i) {
        if (nh[i] != route || info[i].ttl <= 1) break;
        const std::uint32_t hash = info[i].hash;
        if constexpr (LookAhead) {
            if (i + kLookAhead < n) engine.prefetch_in_burst(flowlet_burst_, info[i + kLookAhead].hash);
        }
        unsigned k;
        bool hit;
        if constexpr (Flowlet) {
            k = step.decide(hash);
            hit = k != ars::Egress::kNoMember;
        } else {
            k = ecmp_member(hash, count);
            hit = ((sendable >> k) & 1) != 0;
        }
        if (!hit) {
            missed[n_missed++] = i;
            continue;
        }
        rte_mbuf *m = pkts[i];
        bytes += m->pkt_len;
        send<Ipv4Only>(m, info[i], hops[k]);
    }
    const unsigned hits = (i - start) - n_missed;
    if constexpr (Flowlet) open_.continued += hits;
    unsigned decided = 0;
    for (unsigned k = 0; k < n_missed; ++k) {
        const unsigned j = missed[k];
        const Hop *h = decide_in_open(fib, j, now_tsc);
        if (h == nullptr) {
            drop(pkts[j], b_.info[j].verdict);
            continue;
        }
        ++decided;
        bytes += pkts[j]->pkt_len;
        send<Ipv4Only>(pkts[j], b_.info[j], *h);
    }
    count_nhg(open_.index, hits + decided, bytes);
    return i;
}

// A frame of the open group the short step could not answer: the engine's full decision in the
// flowlet burst (a new flowlet, mostly), or hash ECMP's answer when the first choice cannot send.
const Hop *Forwarder::decide_in_open(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc) {
    const std::uint32_t hash = b_.info[i].hash;
    MemberChoice c;
    if (open_.flowlet) {
        const ars::Egress e = selector_.engine().select_in_burst(flowlet_burst_, hash);
        if (e.member < open_.count && ((open_.usable >> e.member) & 1) != 0) return &open_.hops[e.member];
        c = selector_.member_for(fib, open_.index, *open_.nhg, hash, now_tsc, e);
    } else {
        c = selector_.select(fib, SelectionRequest{open_.index, open_.nhg, hash, now_tsc, true});
    }
    if (c.member == nullptr) return reject(i, c.reason);
    const auto k = static_cast<std::size_t>(c.member - fib.members(*open_.nhg).data());
    if (k < open_.count) return &open_.hops[k];
    return own_hop(c, i, open_.index);
}

// Any frame but the open group's common ones, decided and sent or dropped, or left waiting.
// Returns false, having done nothing, when it opened frame i's group (continue_run then takes
// the frame).
bool Forwarder::select_one(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc, SelectState &st) {
    const FrameInfo &f = b_.info[i];
    if (f.verdict != DropReason::None) {
        if (f.verdict == DropReason::UnknownEtherType && config_.punt_arp && is_arp(b_.pkts[i]))
            punt(i);
        else
            drop(b_.pkts[i], f.verdict);
        return true;
    }
    if (f.kind == PacketKind::Iboe) {
        iboe_[iboe_n_++] = i;
        return true;
    }
    if (f.kind == PacketKind::Arn) {
        select_arn(i, now_tsc);
        return true;
    }
    const std::uint64_t route = b_.nh[i];
    if (route != st.last_route) {
        st.last_route = route;
        st.last_nhg = route == kNoRoute ? nullptr : fib.nhg(static_cast<std::uint32_t>(route));
    }
    const NhgEntry *nhg = st.last_nhg;
    if (nhg == nullptr) {
        drop(b_.pkts[i], DropReason::NoRoute);
        return true;
    }
    if (nhg->mode == NhgMode::Local) {  // before the TTL test: eBGP and OSPF arrive with TTL 1
        punt(i);
        return true;
    }
    if (nhg->mode == NhgMode::Drop) {
        drop(b_.pkts[i], DropReason::Blackhole);
        return true;
    }
    if (f.ttl <= 1) {
        drop(b_.pkts[i], DropReason::TtlExpired);
        return true;
    }
    if (st.may_open) {  // the burst's first group to reach here is opened
        st.may_open = false;
        if (open_group(fib, route, *nhg, i, now_tsc)) return false;
    }
    const auto index = static_cast<std::uint32_t>(route);
    if (selector_.is_ars(*nhg)) {
        waiting_[waiting_n_] = WaitingArs{i, nhg, index};
        waiting_req_[waiting_n_] = ars::SelectRequest{
            f.hash, nhg->id, selector_.acl() != nullptr ? b_.verdict[i] : ars::AclVerdict{}};
        ++waiting_n_;
        return true;
    }
    send_or_drop(i, selector_.select(fib, SelectionRequest{index, nhg, f.hash, now_tsc, true}), index);
    return true;
}

// Opens `nhg` (route index `route`) at the burst's frame `i`: its members' hops, and for an ARS
// group in a flowlet mode the engine's flowlet burst. ARS groups stay closed while ACL verdicts
// or the monitoring capture ask for each frame's own selection.
bool Forwarder::open_group(const FibSnapshot &fib, std::uint64_t route, const NhgEntry &nhg, unsigned i,
                           std::uint64_t now_tsc) {
    const bool ars = selector_.is_ars(nhg);
    ars::Worker &engine = selector_.engine();
    if (ars) {
        if (selector_.acl() != nullptr || capturing()) return false;
        if (!engine.begin_flowlet_burst(nhg.id, now_tsc, flowlet_burst_)) return false;
    } else if (nhg.member_count > kOpenMembers) {
        return false;
    }
    open_.route = route;
    open_.nhg = &nhg;
    open_.index = static_cast<std::uint32_t>(route);
    open_.count = std::min<unsigned>(nhg.member_count, kOpenMembers);
    open_.flowlet = ars;
    open_.continued = 0;
    open_.sendable = 0;
    const auto members = fib.members(nhg);
    // The hops stand for the snapshot's members, so they are made again only when the group or
    // the snapshot changes; which members can send is read for every burst.
    if (open_.hops_route != route || open_.hops_generation != fib.generation()) {
        for (unsigned k = 0; k < open_.count; ++k) make_hop(open_.hops[k], members[k], open_.index);
        open_.hops_route = route;
        open_.hops_generation = fib.generation();
    }
    for (unsigned k = 0; k < open_.count; ++k)
        if (members[k].resolved && links_.usable(members[k].port)) open_.sendable |= std::uint64_t{1} << k;
    if (!ars) return true;
    // The members a flowlet may continue on with no further test: those the worker can send to,
    // on the port the engine names for them.
    open_.usable = 0;
    for (unsigned k = 0; k < open_.count; ++k)
        if (((open_.sendable >> k) & 1) != 0 &&
            engine.burst_port(flowlet_burst_, static_cast<std::uint16_t>(k)) == open_.hops[k].port)
            open_.usable |= std::uint64_t{1} << k;
    open_.step = engine.flowlet_step(flowlet_burst_, open_.usable);
    open_.look_ahead = engine.burst_table_bytes(flowlet_burst_) > kPrefetchTableBytes;
    for (unsigned k = i; open_.look_ahead && k < b_.n && k < i + kLookAhead; ++k)
        engine.prefetch_in_burst(flowlet_burst_, b_.info[k].hash);
    return true;
}

void Forwarder::close_group() {
    if (open_.route == kNotOpen) return;
    if (open_.flowlet) {
        ars::Worker &engine = selector_.engine();
        if (open_.continued != 0) engine.count_continued(flowlet_burst_, open_.continued);
        engine.end_flowlet_burst(flowlet_burst_);
    }
    open_.route = kNotOpen;
}

// A hop made for frame i alone (a member of NHG `nhg_index`), or null to drop it.
const Hop *Forwarder::own_hop(const MemberChoice &c, unsigned i, std::uint32_t nhg_index) {
    if (c.member == nullptr) return reject(i, c.reason);
    make_hop(own_hops_[i], *c.member, nhg_index);
    return &own_hops_[i];
}

// Frame i to member c's hop (of NHG `nhg_index`), or dropped when there is none.
void Forwarder::send_or_drop(unsigned i, const MemberChoice &c, std::uint32_t nhg_index) {
    const Hop *h = own_hop(c, i, nhg_index);
    if (h != nullptr)
        send_counted(i, *h);
    else
        drop(b_.pkts[i], c.reason);
}

// The waiting frames of ARS groups: one engine burst (its bucket loads prefetched), or, while the
// capture runs, frame by frame so that a reassignment names its frame.
void Forwarder::select_waiting_ars(const FibSnapshot &fib, std::uint64_t now_tsc) {
    const unsigned n = waiting_n_;
    if (capturing()) {
        for (unsigned k = 0; k < n; ++k) {
            const WaitingArs &w = waiting_[k];
            const ars::SelectRequest &q = waiting_req_[k];
            bool reassigned = false;
            const MemberChoice c = selector_.select(
                fib, SelectionRequest{w.index, w.nhg, q.flow_hash, now_tsc, true, q.verdict}, &reassigned);
            if (reassigned && c.member != nullptr) capture(w.pos, c.member->port);
            send_or_drop(w.pos, c, w.index);
        }
        return;
    }
    selector_.select_ars_requests(std::span<const ars::SelectRequest>(waiting_req_, n), now_tsc,
                                  std::span<ars::Egress>(waiting_out_, n));
    for (unsigned k = 0; k < n; ++k) {
        const WaitingArs &w = waiting_[k];
        send_or_drop(
            w.pos,
            selector_.member_for(fib, w.index, *w.nhg, waiting_req_[k].flow_hash, now_tsc, waiting_out_[k]),
            w.index);
    }
}

// An IBoE frame: the LFT names a port or a group for a unicast DLID (the secondary LFT for a
// vLID, FibSnapshot::unicast), the MFT a set of ports for a multicast one. Each multicast replica is a full
// copy (its headers differ by port); the last port takes the frame itself.
//
// A subnet-management frame (VL15) to the permissive LID or to one of the switch's own LIDs is
// the control thread's; other VL15 frames are forwarded like any, on VL15 still.
void Forwarder::select_iboe(const FibSnapshot &fib, unsigned i, std::uint64_t now_tsc) {
    const ParsedPacket &p = b_.parsed[i];
    rte_mbuf *m = b_.pkts[i];
    if (p.vl == kManagementVl && (p.dlid == kPermissiveLid || fib.switch_lid().owns(p.dlid))) return punt(i);
    // A pLID takes two compares (one for the invalid LIDs, one for the multicast ones), as before vLIDs.
    if (p.dlid - 1 >= kMaxUnicastLid && (p.dlid == 0 || p.dlid == kPermissiveLid))
        return drop(m, DropReason::InvalidLid);
    if (p.dlid - kFirstMulticastLid < kFirstVlid - kFirstMulticastLid) {
        PortMask mask = fib.mft(static_cast<std::uint16_t>(p.dlid));
        mask.reset(b_.in_port);
        if (mask.none()) return drop(m, DropReason::MftMiss);
        std::uint16_t out[kMaxPorts];
        unsigned n_out = 0;
        mask.for_each([&](std::uint16_t port) {
            if (links_.usable(port)) out[n_out++] = port;
        });
        if (n_out == 0) return drop(m, DropReason::PortDown);
        Hop h;
        for (unsigned k = 0; k + 1 < n_out; ++k) {
            counters_.replicas.add();  // forwarded or dropped like a received frame
            rte_mbuf *copy = rte_pktmbuf_copy(m, config_.clone_pool, 0, UINT32_MAX);
            if (copy == nullptr) {
                counters_.drops[static_cast<std::size_t>(DropReason::ReplicationFailed)].add();
                continue;
            }
            make_iboe_hop(h, fib, out[k], p, kNoRoute);
            send<false>(copy, b_.info[i], h);
        }
        make_iboe_hop(h, fib, out[n_out - 1], p, kNoRoute);
        return send<false>(m, b_.info[i], h);
    }
    const LftTarget t = fib.unicast(p.dlid);
    Hop h;
    if (t.kind == LftTarget::Kind::Port) {
        const auto port = static_cast<std::uint16_t>(t.value);
        if (!links_.usable(port)) return drop(m, DropReason::PortDown);
        make_iboe_hop(h, fib, port, p, kNoRoute);
        return send<false>(m, b_.info[i], h);
    }
    const NhgEntry *nhg = t.kind == LftTarget::Kind::Nhg ? fib.nhg(t.value) : nullptr;
    if (nhg == nullptr) return drop(m, DropReason::LftMiss);
    // A group member needs no neighbour: the frame keeps its destination MAC.
    bool reassigned = false;
    const MemberChoice c = selector_.select(fib, SelectionRequest{t.value, nhg, p.hash, now_tsc, false},
                                            capturing() ? &reassigned : nullptr);
    if (c.member == nullptr) return drop(m, c.reason);
    make_iboe_hop(h, fib, c.member->port, p, t.value);
    if (reassigned) capture(i, h.port);
    send_counted(i, h);
}

// Frame i to the control thread, with its in-port in mbuf->port (not every PMD sets it).
void Forwarder::punt(unsigned i) noexcept {
    rte_mbuf *m = b_.pkts[i];
    m->port = b_.in_port;
    punted_[punted_n_++] = m;
}

// The burst's frames for the control thread, in one enqueue; what its ring
// has no room for is dropped.
void Forwarder::punt_burst() noexcept {
    const unsigned n = punted_n_;
    punted_n_ = 0;
    const unsigned taken =
        config_.punt != nullptr
            ? rte_ring_sp_enqueue_burst(config_.punt, reinterpret_cast<void *const *>(punted_), n, nullptr)
            : 0;
    counters_.punted.add(taken);
    if (taken != 0 && config_.punt_doorbell != nullptr) config_.punt_doorbell->ring();
    if (taken == n) return;
    rte_pktmbuf_free_bulk(punted_ + taken, n - taken);
    counters_.drops[static_cast<std::size_t>(DropReason::PuntRingFull)].add(n - taken);
}

// ---- send: the one way out --------------------------------------------------------------------

// Frame i to `h`, counted under h's group.
void Forwarder::send_counted(unsigned i, const Hop &h) {
    rte_mbuf *m = b_.pkts[i];
    count_nhg(h.nhg_index, 1, m->pkt_len);
    send<false>(m, b_.info[i], h);
}

// A frame's new MACs and TTL (IP) or source MAC and VL (IBoE), then its TX buffer. Ipv4Only: a
// frame the IPv4 fast parse took.
template <bool Ipv4Only>
[[gnu::always_inline]] inline void Forwarder::send(rte_mbuf *m, const FrameInfo &f, const Hop &h) noexcept {
    auto *frame = rte_pktmbuf_mtod(m, std::uint8_t *);
    if (Ipv4Only || f.kind != PacketKind::Iboe) {
        std::memcpy(frame, &h.mac_lo, 8);
        std::memcpy(frame + 8, &h.mac_hi, 4);
        if (Ipv4Only)
            ipv4_decrement_ttl(frame + kFastL3Offset);
        else if (f.kind == PacketKind::Ipv4)
            ipv4_decrement_ttl(frame + f.l3_offset);
        else
            ipv6_decrement_hop_limit(frame + f.l3_offset);
    } else {
        set_src_mac(frame, config_.port_mac[h.port]);
        lrh_set_vl(frame + f.l3_offset, h.vl);
    }
    if (tx_.enqueue(*h.tx, m, m->pkt_len)) return;
    counters_.ports[h.port].tx_dropped.add();
    drop(m, DropReason::TxQueueFull);
}

// The copies of reassigned frames, as sent, into the capture; then each frame's extra reference
// goes.
void Forwarder::record_captured(std::uint64_t now_tsc) {
    for (unsigned k = 0; k < captured_n_; ++k) {
        rte_mbuf *m = b_.pkts[captured_[k].pos];
        config_.capture->record(m, captured_[k].port, config_.tx_queue_base, now_tsc);
        rte_pktmbuf_free(m);
    }
    captured_n_ = 0;
}

// Frame i, about to be sent to `port`, is to be recorded: an extra reference keeps it until its
// copy is made after the burst, as sent, whatever becomes of it at its TX buffer.
void Forwarder::capture(unsigned i, std::uint16_t port) noexcept {
    rte_mbuf_refcnt_update(b_.pkts[i], 1);
    captured_[captured_n_++] = Captured{i, port};
}

// ---- helpers ----------------------------------------------------------------------------------

void Forwarder::make_hop(Hop &h, const ResolvedMember &m, std::uint32_t nhg_index) noexcept {
    std::uint8_t macs[2 * RTE_ETHER_ADDR_LEN];
    set_macs(macs, config_.port_mac[m.port], m.dst_mac);
    std::memcpy(&h.mac_lo, macs, 8);
    std::memcpy(&h.mac_hi, macs + 8, 4);
    h.port = m.port;
    h.vl = 0;
    h.nhg_index = nhg_index;
    h.tx = &tx_.at(m.port, 0);
}

// IBoE frame `p` on `port`: the VL the port's SL2VL gives its SL (VL15 stays VL15), and that
// VL's TX queue.
void Forwarder::make_iboe_hop(Hop &h, const FibSnapshot &fib, std::uint16_t port, const ParsedPacket &p,
                              std::uint32_t nhg_index) noexcept {
    h.mac_lo = 0;
    h.mac_hi = 0;
    h.port = port;
    h.vl = p.vl == kManagementVl ? kManagementVl : fib.sl2vl(port, p.sl);
    h.nhg_index = nhg_index;
    h.tx = &tx_.at(port, static_cast<std::uint16_t>(h.vl % config_.tx_queues));
}

const Hop *Forwarder::reject(unsigned i, DropReason why) noexcept {
    b_.info[i].verdict = why;
    return nullptr;
}

void Forwarder::drop(rte_mbuf *m, DropReason why) noexcept {
    counters_.drops[static_cast<std::size_t>(why)].add();
    rte_pktmbuf_free(m);
}

[[gnu::noinline]] void Forwarder::count_nhg(std::uint32_t nhg_index, std::uint64_t pkts,
                                            std::uint64_t bytes) noexcept {
    if (pkts == 0 || nhg_index >= kMaxNhgs) return;
    counters_.nhgs[nhg_index].pkts.add(pkts);
    counters_.nhgs[nhg_index].bytes.add(bytes);
}

}  // namespace weft::dataplane
