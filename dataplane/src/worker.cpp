#include "weft/dataplane/worker.hpp"

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_prefetch.h>

#include <algorithm>

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
    while (!stop.load(std::memory_order_relaxed)) {
        // The snapshot pointer is used only inside this iteration, before the quiescent report.
        const FibSnapshot *fib = fib_->current();
        if (fib != nullptr) poll_once(*fib, rte_rdtsc());
        counters_->loops.add();
        reader.quiescent();
    }
    discard_buffers();
}

unsigned Worker::poll_once(const FibSnapshot &fib, std::uint64_t now_tsc) {
    selector_.sync(fib);  // adopts a new ARS configuration, if the snapshot brought one
    rte_mbuf *pkts[kMaxBurst];
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

void Worker::handle_burst(const FibSnapshot &fib, std::uint16_t in_port, rte_mbuf **pkts, std::uint16_t n,
                          std::uint64_t now_tsc) {
    // Parse the whole burst; then hash it, gathering IPv4 and IPv6 destinations for one bulk
    // lookup each. Two passes: the second reads the keys after the first's stores have retired.
    std::uint32_t v4_addr[kMaxBurst];
    std::uint8_t v6_addr[kMaxBurst][16];
    unsigned n4 = 0, n6 = 0;
    std::uint64_t rx_bytes = 0;
    for (std::uint16_t i = 0; i < n; ++i) {
        if (i + 1 < n) rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
        rx_bytes += pkts[i]->pkt_len;
        verdict_[i] = parse_mbuf_unhashed(pkts[i], config_.parser, parsed_[i]);
    }
    for (std::uint16_t i = 0; i < n; ++i) {
        if (verdict_[i] != DropReason::None) continue;
        ParsedPacket &p = parsed_[i];
        p.hash = flow_hash(p.key);
        if (p.kind == PacketKind::Ipv4) {
            v4_addr[n4] = (std::uint32_t{p.key.dst[0]} << 24) | (std::uint32_t{p.key.dst[1]} << 16) |
                          (std::uint32_t{p.key.dst[2]} << 8) | p.key.dst[3];
            ++n4;
        } else if (p.kind == PacketKind::Ipv6) {
            std::memcpy(v6_addr[n6], p.key.dst, 16);
            ++n6;
        }
    }
    counters_->rx_pkts.add(n);
    counters_->rx_bytes.add(rx_bytes);
    counters_->ports[in_port].rx_pkts.add(n);
    counters_->ports[in_port].rx_bytes.add(rx_bytes);

    std::uint64_t nh4[kMaxBurst], nh6[kMaxBurst];
    if (n4 != 0) fib.lookup4(v4_addr, nh4, n4);
    if (n6 != 0) fib.lookup6(v6_addr, nh6, n6);

    unsigned i4 = 0, i6 = 0;
    for (std::uint16_t i = 0; i < n; ++i) {
        if (verdict_[i] != DropReason::None) {
            drop(pkts[i], verdict_[i]);
            continue;
        }
        const ParsedPacket &p = parsed_[i];
        switch (p.kind) {
            case PacketKind::Ipv4:
                forward_ip(fib, pkts[i], p, nh4[i4++], now_tsc);
                break;
            case PacketKind::Ipv6:
                forward_ip(fib, pkts[i], p, nh6[i6++], now_tsc);
                break;
            case PacketKind::Iboe:
                forward_iboe(fib, in_port, pkts[i], p, now_tsc);
                break;
        }
    }
    if (ars_n_ != 0) finish_ars(fib);
    publish_tally();
}

void Worker::count_nhg(std::uint32_t nhg_index, std::uint32_t bytes) noexcept {
    if (nhg_index != tally_.nhg_index) {
        if (tally_.nhg_pkts != 0) {
            counters_->nhgs[tally_.nhg_index].pkts.add(tally_.nhg_pkts);
            counters_->nhgs[tally_.nhg_index].bytes.add(tally_.nhg_bytes);
        }
        tally_.nhg_index = nhg_index;
        tally_.nhg_pkts = 0;
        tally_.nhg_bytes = 0;
    }
    ++tally_.nhg_pkts;
    tally_.nhg_bytes += bytes;
}

void Worker::publish_tally() noexcept {
    if (tally_.fwd_pkts != 0) counters_->fwd_pkts.add(tally_.fwd_pkts);
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

void Worker::finish_ars(const FibSnapshot &fib) {
    const bool capture = capturing();
    std::span<bool> reassigned;
    if (capture) {
        reassigned = std::span<bool>(ars_reassigned_.data(), ars_n_);
        std::fill(reassigned.begin(), reassigned.end(), false);
    }
    selector_.select_ars_burst(fib, std::span<const SelectionRequest>(ars_req_.data(), ars_n_),
                               std::span<MemberChoice>(ars_choice_.data(), ars_n_), reassigned);
    for (unsigned k = 0; k < ars_n_; ++k) {
        const MemberChoice &c = ars_choice_[k];
        if (c.member == nullptr) {
            drop(ars_pending_[k].m, c.reason);
            continue;
        }
        if (capture && reassigned[k]) {
            // Held by an extra reference so the copy shows the frame as sent, whatever happens
            // to it at the TX buffer.
            rte_mbuf *m = ars_pending_[k].m;
            rte_mbuf_refcnt_update(m, 1);
            send_ip(m, *ars_pending_[k].p, ars_req_[k].nhg_index, *c.member);
            config_.capture->record(m, c.member->port, config_.tx_queue_base, ars_req_[k].now_tsc);
            rte_pktmbuf_free(m);
            continue;
        }
        send_ip(ars_pending_[k].m, *ars_pending_[k].p, ars_req_[k].nhg_index, *c.member);
    }
    ars_n_ = 0;
}

void Worker::forward_ip(const FibSnapshot &fib, rte_mbuf *m, const ParsedPacket &p, std::uint64_t nhg_index,
                        std::uint64_t now_tsc) {
    const NhgEntry *nhg = nhg_index == kNoRoute ? nullptr : fib.nhg(static_cast<std::uint32_t>(nhg_index));
    if (nhg == nullptr) return drop(m, DropReason::NoRoute);
    if (p.ttl <= 1) return drop(m, DropReason::TtlExpired);
    const auto index = static_cast<std::uint32_t>(nhg_index);
    if (selector_.is_ars(*nhg)) {
        // ACL stage, then the burst ARS selection once the whole burst is parsed and looked up.
        // Field by field: a request built whole on the stack and copied in reads back the
        // fields' fresh narrow stores with wide loads, which stalls on store forwarding.
        const ars::AclPolicy *acl = selector_.acl();
        ars_pending_[ars_n_].m = m;
        ars_pending_[ars_n_].p = &p;
        SelectionRequest &r = ars_req_[ars_n_];
        r.nhg_index = index;
        r.nhg = nhg;
        r.flow_hash = p.hash;
        r.now_tsc = now_tsc;
        r.need_mac = true;
        r.verdict = acl ? classify(m, p, *acl) : ars::AclVerdict{};
        ++ars_n_;
        return;
    }
    const MemberChoice c = selector_.select(fib, SelectionRequest{index, nhg, p.hash, now_tsc, true});
    if (c.member == nullptr) return drop(m, c.reason);
    send_ip(m, p, index, *c.member);
}

void Worker::send_ip(rte_mbuf *m, const ParsedPacket &p, std::uint32_t index, const ResolvedMember &member) {
    auto *frame = rte_pktmbuf_mtod(m, std::uint8_t *);
    set_macs(frame, config_.port_mac[member.port], member.dst_mac);
    if (p.kind == PacketKind::Ipv4)
        ipv4_decrement_ttl(frame + p.l3_offset);
    else
        ipv6_decrement_hop_limit(frame + p.l3_offset);
    count_nhg(index, m->pkt_len);
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
            count_nhg(t.value, m->pkt_len);
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

void Worker::enqueue(rte_mbuf *m, std::uint16_t port, std::uint16_t slot) {
    TxBuffer &b = buffer(port, slot);
    if (b.count >= 2 * config_.burst) {
        counters_->ports[port].tx_dropped.add();
        return drop(m, DropReason::TxQueueFull);
    }
    b.pkts[b.count++] = m;
    b.bytes += m->pkt_len;
    ++tally_.fwd_pkts;
}

void Worker::flush() noexcept {
    for (std::uint16_t port = 0; port < config_.num_ports; ++port) {
        std::uint64_t backlog = 0;
        for (std::uint16_t slot = 0; slot < config_.tx_queues; ++slot) {
            TxBuffer &b = buffer(port, slot);
            if (b.count == 0) continue;
            if (!links_->started(port)) {  // stopped under us: nothing may be sent there
                for (std::uint16_t i = 0; i < b.count; ++i) drop(b.pkts[i], DropReason::PortDown);
                counters_->ports[port].tx_dropped.add(b.count);
                b.count = 0;
                b.bytes = 0;
                continue;
            }
            const std::uint16_t sent = rte_eth_tx_burst(
                port, static_cast<std::uint16_t>(config_.tx_queue_base + slot), b.pkts, b.count);
            if (sent != 0) {
                // Byte accounting uses the lengths recorded at enqueue time: the PMD owns the sent
                // mbufs now. Unsent frames stay buffered (weft's own TX backlog).
                std::uint32_t left_bytes = 0;
                for (std::uint16_t i = sent; i < b.count; ++i) left_bytes += b.pkts[i]->pkt_len;
                counters_->ports[port].tx_pkts.add(sent);
                counters_->ports[port].tx_bytes.add(b.bytes - left_bytes);
                std::memmove(b.pkts, b.pkts + sent, (b.count - sent) * sizeof(rte_mbuf *));
                b.count = static_cast<std::uint16_t>(b.count - sent);
                b.bytes = left_bytes;
            }
            backlog += b.bytes;
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
        for (std::uint16_t slot = 0; slot < config_.tx_queues; ++slot) {
            TxBuffer &b = buffer(port, slot);
            for (std::uint16_t i = 0; i < b.count; ++i) rte_pktmbuf_free(b.pkts[i]);
            if (b.count != 0) counters_->ports[port].tx_dropped.add(b.count);
            b.count = 0;
            b.bytes = 0;
        }
        counters_->ports[port].backlog_bytes.set(0);
    }
}

}  // namespace weft::dataplane
