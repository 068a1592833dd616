// The workers' part of ARN (arn/ARN_FORMAT.md, "Through the group"): a frame of the ARN
// EtherType (over UDP: a datagram to the ARN port, TTL 255) is taken only on a fabric port and within the
// port's rate limit, then decoded, and forwarded by the flood table of its reporter and in port: a copy per
// out port (the worker's highest TX queue class, its source MAC the out port's; a datagram's IP and UDP
// headers are left as they came, TTL 255 included), and the frame itself to the BPT's owner when the news is
// this switch's. Everything else is dropped under an arn_* reason. No lock, allocation (copies come from the
// mbuf pool) or system call per frame.
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "forwarder.hpp"
#include "rewrite.hpp"
#include "weft/arn/frame.hpp"

namespace weft::dataplane {

namespace {
constexpr std::uint8_t kIpProtoUdp = 17;
}  // namespace

// Parse: frame i, of an EtherType the parser does not know, is an ARN frame while ARN is on in
// Ethernet; parsed as IP with TTL / hop limit 255 (the fast parses leave those to the full one),
// one while ARN is on over UDP and it is an unfragmented UDP datagram to the ARN port.
bool Forwarder::claim_arn(unsigned i) noexcept {
    if (config_.arn == nullptr || config_.arn_counters == nullptr) return false;
    const ArnTables *t = config_.arn->current();
    if (t == nullptr || !t->enabled) return false;
    const ParsedPacket &p = b_.parsed[i];
    if (b_.info[i].verdict == DropReason::None) {
        if (!t->udp() || p.l4_protocol != kIpProtoUdp || p.fragment || p.key.dst_port != t->udp_port)
            return false;
    } else if (t->udp() || p.ether_type != t->ethertype) {
        return false;
    }
    arn_ = t;  // the same for the whole burst: the quiescent report comes after it
    b_.info[i].kind = PacketKind::Arn;
    b_.info[i].verdict = DropReason::None;
    return true;
}

// GCRA per port: at most rx_burst frames at once, then one per rx_interval_tsc.
bool Forwarder::arn_admit(std::uint16_t port, const ArnTables &t, std::uint64_t now_tsc) noexcept {
    if (t.rx_interval_tsc == 0) return true;
    std::uint64_t &tat = arn_tat_[port];
    if (tat < now_tsc) tat = now_tsc;
    if (tat - now_tsc >= t.rx_interval_tsc * t.rx_burst) return false;
    tat += t.rx_interval_tsc;
    return true;
}

void Forwarder::select_arn(unsigned i, std::uint64_t now_tsc) {
    rte_mbuf *m = b_.pkts[i];
    const ArnTables &t = *arn_;
    const std::uint16_t in = b_.in_port;
    ArnWorkerCounters &ac = *config_.arn_counters;
    ac.received.add();
    if (!t.fabric(in)) return drop(m, DropReason::ArnNotFabricPort);
    if (!arn_admit(in, t, now_tsc)) return drop(m, DropReason::ArnRateLimited);
    const arn::ArnFrameDecode d =
        t.decode(std::span<const std::uint8_t>(rte_pktmbuf_mtod(m, const std::uint8_t *), m->data_len));
    if (!d) {
        ac.malformed[static_cast<std::size_t>(d.error->reason)].add();
        return drop(m, DropReason::ArnMalformed);
    }
    const arn::SwitchId reporter = *d.message.reporter;
    if (reporter == t.self) return drop(m, DropReason::ArnOwnNews);
    if (!t.knows(reporter)) return drop(m, DropReason::ArnUnknownReporter);
    const ArnFloodEntry *e = t.entry(reporter, std::size_t{in} + 1);
    if (e == nullptr) return drop(m, DropReason::ArnUnexpectedPort);
    std::uint16_t out[kMaxPorts];
    unsigned n_out = 0;
    for (std::uint64_t mask = e->out_ports & ~(std::uint64_t{1} << in); mask != 0; mask &= mask - 1) {
        const auto port = static_cast<std::uint16_t>(__builtin_ctzll(mask));
        if (links_.usable(port)) out[n_out++] = port;
    }
    if (n_out == 0 && !e->deliver) return drop(m, DropReason::PortDown);
    // ARN is the fabric's control traffic: it leaves by the worker's highest TX queue class.
    const auto slot = static_cast<std::uint16_t>(config_.tx_queues - 1);
    for (unsigned k = 0; k < n_out; ++k) {
        const bool last = k + 1 == n_out && !e->deliver;  // the frame itself goes last
        rte_mbuf *c = m;
        if (!last) {
            counters_.replicas.add();  // forwarded or dropped like a received frame
            c = rte_pktmbuf_copy(m, config_.clone_pool, 0, UINT32_MAX);
            if (c == nullptr) {
                counters_.drops[static_cast<std::size_t>(DropReason::ReplicationFailed)].add();
                continue;
            }
        }
        set_src_mac(rte_pktmbuf_mtod(c, std::uint8_t *), config_.port_mac[out[k]]);
        if (tx_.enqueue(tx_.at(out[k], slot), c, c->pkt_len)) {
            ac.forwarded.add();
            continue;
        }
        counters_.ports[out[k]].tx_dropped.add();
        drop(c, DropReason::TxQueueFull);
    }
    if (!e->deliver) return;
    m->port = in;  // not every PMD sets it
    arn_delivered_[arn_delivered_n_++] = m;
}

// The burst's news to the BPT's owner, in one enqueue (counted punted: a received frame's third
// way out); what its ring has no room for is dropped.
void Forwarder::deliver_arn_burst() noexcept {
    const unsigned n = arn_delivered_n_;
    arn_delivered_n_ = 0;
    const unsigned taken =
        config_.arn_ring != nullptr
            ? rte_ring_sp_enqueue_burst(config_.arn_ring, reinterpret_cast<void *const *>(arn_delivered_), n,
                                        nullptr)
            : 0;
    counters_.punted.add(taken);
    config_.arn_counters->delivered.add(taken);
    if (taken == n) return;
    rte_pktmbuf_free_bulk(arn_delivered_ + taken, n - taken);
    counters_.drops[static_cast<std::size_t>(DropReason::ArnRingFull)].add(n - taken);
}

}  // namespace weft::dataplane
