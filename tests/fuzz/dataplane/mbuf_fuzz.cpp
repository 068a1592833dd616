// libFuzzer target: the worker's mbuf path, end to end. Each input is a burst of frames as NICs
// hand them over: each frame in one to four segments, with the RX checksum flags a NIC may set,
// arriving on port 0 (whose NIC checks IPv4 header checksums) or port 1 (whose does not). A real
// Worker on ring ethdevs forwards them. Whatever the bytes, it must drop each frame for the
// reason the rules below give, forward the others, and account for every frame once:
//   - a chained mbuf: multisegment (weft configures no RX scatter);
//   - otherwise the full parser's verdict, with the NIC's word standing for the IPv4 header
//     checksum on port 0 (GOOD: not checked; BAD: a frame that parses is dropped as such);
//   - then the tables: 10.0.0.0/8 and 2001:db8::/32 to a group over ports 2 and 3, TTL 1 or 0
//     expires; IBoE DLIDs 1-15 to port 2, MLID 0xC001 to ports 2 and 3, other LIDs miss;
//   - a VL15 frame to the permissive LID or the switch's LIDs (0x20-0x23) goes to the control
//     thread's ring (punted, with its in-port), other VL15 frames are forwarded as any.
//
// Input: records of a control byte (bits 0-1: ol_flags none, IP_CKSUM_BAD, _GOOD, _NONE; bit 2:
// port 1; bits 3-4: segments beyond the first), a 16-bit length, one byte per extra segment (the
// length of each but the last) and the frame bytes. At most 32 frames.
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fuzz_eal.hpp"
#include "ring_ports.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/dataplane/worker.hpp"

using namespace weft::dataplane;

namespace {

constexpr std::uint16_t kPorts = 4;
constexpr unsigned kMaxFrames = 32;

struct Rig {
    std::unique_ptr<test::RingPorts> ports;
    LinkState links;
    std::unique_ptr<weft::ars::PortBoard> board;
    std::unique_ptr<FibPublisher> publisher;
    std::unique_ptr<FibSnapshot> snapshot;
    std::unique_ptr<WorkerCounters> counters;
    std::unique_ptr<Worker> worker;
    rte_ring *punt = nullptr;  // holds a whole input's frames
};

Rig &rig() {
    static Rig *r = [] {
        weft::fuzz::init_eal("mbuf");
        auto *x = new Rig;
        x->ports = std::make_unique<test::RingPorts>("mf", kPorts, 2);
        x->board =
            std::make_unique<weft::ars::PortBoard>(kMaxPorts, weft::ars::capabilities().max_lag_groups);
        FibConfig c;
        c.num_ports = kPorts;
        c.max_routes4 = 16;
        c.tbl8_groups4 = 4;
        c.max_routes6 = 16;
        c.tbl8_groups6 = 4;
        FibBuilder b(c);
        for (std::uint16_t p = 0; p < kPorts; ++p) {
            x->links.set_started(p, true);
            x->links.set_usable(p, true);
            x->board->set_link_up(p, true);
        }
        bool ok = b.set_neighbour(IpAddr::v4(0x0A090202), rte_ether_addr{{2, 0, 0, 0, 0, 2}}, 2).ok() &&
                  b.set_neighbour(IpAddr::v4(0x0A090302), rte_ether_addr{{2, 0, 0, 0, 0, 3}}, 3).ok() &&
                  b.set_nhg(1, {{2, {}}, {3, {}}}).ok() &&
                  b.add_route(*IpPrefix::parse("10.0.0.0/8"), 1).ok() &&
                  b.add_route(*IpPrefix::parse("2001:db8::/32"), 1).ok() &&
                  b.set_mft(0xC001, (1u << 2) | (1u << 3)).ok() && b.set_switch_lid(0x20, 2).ok();
        for (std::uint16_t lid = 1; lid <= 15; ++lid) ok = ok && b.set_lft_port(lid, 2).ok();
        // vLIDs in the secondary LFT (seed 002): 0x10001..0x1000F to port 3.
        for (std::uint32_t lid = 0x10001; lid <= 0x1000F; ++lid) ok = ok && b.set_lft_port(lid, 3).ok();
        if (!ok) std::abort();
        x->snapshot = b.build();
        x->publisher = std::make_unique<FibPublisher>(1);
        x->counters = std::make_unique<WorkerCounters>();
        WorkerConfig wc;
        wc.rx = {{0, 0}, {1, 0}};
        wc.num_ports = kPorts;
        wc.tx_queues = 2;
        wc.nic_ipv4_cksum[0] = true;
        for (std::uint16_t p = 0; p < kPorts; ++p) wc.port_mac[p] = x->ports->mac(p);
        wc.clone_pool = x->ports->pool();
        x->punt = rte_ring_create("mf_punt", 64, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
        if (x->punt == nullptr) std::abort();
        wc.punt = x->punt;
        x->worker = std::make_unique<Worker>(wc, *x->publisher, x->links, *x->board, *x->counters);
        return x;
    }();
    return *r;
}

struct Frame {
    std::vector<std::uint8_t> bytes;
    std::uint64_t flags = 0;
    std::uint16_t port = 0;
    std::vector<std::size_t> cuts;
};

// What must become of a frame: dropped for a reason, forwarded as `copies` frames, or punted.
struct Fate {
    DropReason why = DropReason::None;
    unsigned copies = 0;
    bool punted = false;
};

Fate fate(const Frame &f) {
    if (!f.cuts.empty()) return {DropReason::Multisegment, 0};
    const std::uint64_t nic = f.port == 0 ? f.flags & RTE_MBUF_F_RX_IP_CKSUM_MASK : 0;
    ParserConfig config;
    config.verify_ipv4_checksum = nic != RTE_MBUF_F_RX_IP_CKSUM_GOOD && nic != RTE_MBUF_F_RX_IP_CKSUM_BAD;
    ParsedPacket p;
    const DropReason r = parse_frame(std::span<const std::uint8_t>(f.bytes), config, p);
    if (r != DropReason::None) return {r, 0};
    switch (p.kind) {
        case PacketKind::Ipv4:
            if (nic == RTE_MBUF_F_RX_IP_CKSUM_BAD) return {DropReason::Ipv4NicBadChecksum, 0};
            if (p.key.dst[0] != 10) return {DropReason::NoRoute, 0};
            break;
        case PacketKind::Ipv6:
            if (!(p.key.dst[0] == 0x20 && p.key.dst[1] == 0x01 && p.key.dst[2] == 0x0d &&
                  p.key.dst[3] == 0xb8))
                return {DropReason::NoRoute, 0};
            break;
        case PacketKind::Iboe:
            if (p.vl == 15 && (p.dlid == 0xFFFF || (p.dlid >= 0x20 && p.dlid <= 0x23)))
                return {DropReason::None, 0, true};
            if (p.dlid == 0 || p.dlid == 0xFFFF) return {DropReason::InvalidLid, 0};
            if (p.dlid >= 0x10000)
                return p.dlid >= 0x10001 && p.dlid <= 0x1000F ? Fate{DropReason::None, 1}
                                                              : Fate{DropReason::LftMiss, 0};
            if (p.dlid >= 0xC000)
                return p.dlid == 0xC001 ? Fate{DropReason::None, 2} : Fate{DropReason::MftMiss, 0};
            return p.dlid <= 15 ? Fate{DropReason::None, 1} : Fate{DropReason::LftMiss, 0};
        case PacketKind::Arn:  // this harness's workers have no ARN tables: an unknown EtherType
            return {DropReason::UnknownEtherType, 0};
    }
    if (p.ttl <= 1) return {DropReason::TtlExpired, 0};
    return {DropReason::None, 1};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static constexpr std::uint64_t kFlags[] = {0, RTE_MBUF_F_RX_IP_CKSUM_BAD, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
                                               RTE_MBUF_F_RX_IP_CKSUM_NONE};
    std::vector<Frame> frames;
    std::size_t at = 0;
    while (at + 3 <= size && frames.size() < kMaxFrames) {
        Frame f;
        const std::uint8_t control = data[at];
        f.flags = kFlags[control & 3];
        f.port = (control >> 2) & 1;
        const unsigned extra = (control >> 3) & 3;
        std::size_t len = ((std::size_t{data[at + 1]} << 8) | data[at + 2]) % 1901;  // fits an mbuf
        at += 3;
        for (unsigned k = 0; k < extra && at < size; ++k) f.cuts.push_back(data[at++]);
        len = std::min(len, size - at);
        f.bytes.assign(data + at, data + at + len);
        at += len;
        frames.push_back(std::move(f));
    }

    Rig &r = rig();
    const Totals before = sum_totals({r.counters.get()});
    std::vector<rte_mbuf *> rx[2];
    std::array<std::uint64_t, kDropReasonCount> want_drops{};
    std::uint64_t want_copies = 0, want_replicas = 0;
    std::vector<std::uint16_t> want_punted;  // in-ports, in order
    for (const Frame &f : frames) {
        rx[f.port].push_back(r.ports->mbuf(f.bytes, f.flags, f.cuts));
        const Fate x = fate(f);
        ++want_drops[static_cast<std::size_t>(x.why)];
        want_copies += x.copies;
        if (x.copies > 1) want_replicas += x.copies - 1;
        if (x.punted) want_punted.push_back(f.port);
    }
    for (std::uint16_t p = 0; p < 2; ++p)
        if (!r.ports->receive(p, rx[p])) std::abort();
    while (r.worker->poll_once(*r.snapshot, 1000) != 0) {
    }

    const Totals after = sum_totals({r.counters.get()});
    if (after.rx_pkts - before.rx_pkts != frames.size()) std::abort();
    for (std::size_t k = 1; k < kDropReasonCount; ++k)
        if (after.drops[k] - before.drops[k] != want_drops[k]) std::abort();
    if (after.fwd_pkts - before.fwd_pkts != want_copies) std::abort();
    if (after.replicas - before.replicas != want_replicas) std::abort();
    if (after.punted - before.punted != want_punted.size()) std::abort();
    // The punted frames, each with its in-port; in order within a port (one burst per port).
    rte_mbuf *punted[kMaxFrames];
    const unsigned n_punted =
        rte_ring_sc_dequeue_burst(r.punt, reinterpret_cast<void **>(punted), kMaxFrames, nullptr);
    if (n_punted != want_punted.size()) std::abort();
    std::array<unsigned, 2> per_port{};
    for (unsigned k = 0; k < n_punted; ++k) {
        if (punted[k]->port > 1) std::abort();
        ++per_port[punted[k]->port];
    }
    if (per_port[0] != static_cast<unsigned>(std::count(want_punted.begin(), want_punted.end(), 0)) ||
        per_port[1] != static_cast<unsigned>(std::count(want_punted.begin(), want_punted.end(), 1)))
        std::abort();
    rte_pktmbuf_free_bulk(punted, n_punted);
    std::uint64_t out = 0;
    for (std::uint16_t p = 0; p < kPorts; ++p)
        for (unsigned q = 0; q < 2; ++q) {
            const auto sent = r.ports->sent(p, q);
            if (p < 2 && !sent.empty()) std::abort();  // nothing goes back where frames come in
            out += sent.size();
        }
    if (out != want_copies) std::abort();
    return 0;
}
