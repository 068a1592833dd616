// The worker itself, on ring-backed ethdevs (net_ring): frames go in on one port's RX ring,
// Worker::poll_once forwards them, and each port's TX rings show what left where. The
// expectations come from outside the worker: the frame bytes the test built, the ECMP selector
// and the parser for which member a flow hashes to, the FIB builder's tables.
#include <gtest/gtest.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "eal_environment.hpp"
#include "frame_builder.hpp"
#include "nhg_selector.hpp"
#include "ring_ports.hpp"
#include "weft/arn/frame.hpp"
#include "weft/arn/udp_frame.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/dataplane/worker.hpp"

namespace weft::dataplane {
namespace {

using test::Bytes;
using test::operator+;

const auto *const kEal = ::testing::AddGlobalTestEnvironment(new test::EalEnvironment("worker"));

// Port 0 receives; 1-3 are the egress ports of the groups; port 4's TX ring holds only 15
// frames, so that frames stay in the worker's TX buffer. Every port has two TX queues (VL
// classes: a frame's queue is its VL mod 2).
constexpr std::uint16_t kPorts = 5;
constexpr std::uint16_t kSmallTxPort = 4;
constexpr unsigned kTxQueues = 2;
constexpr ars::Ticks kTicksPerUs = 1000;

rte_ether_addr neighbour_mac(std::uint16_t port) {
    return rte_ether_addr{{0x02, 0, 0, 0, 0x0e, static_cast<std::uint8_t>(port)}};
}

// The ethdevs and their rings, made once for the test binary (port ids 0..kPorts-1).
const test::RingPorts &ports() {
    static const test::RingPorts p("wt", kPorts, kTxQueues, kSmallTxPort);
    return p;
}

test::Ip6 v6(std::uint16_t group, std::uint16_t host) {
    test::Ip6 a{0x20, 0x01, 0x0d, 0xb8};
    a[6] = static_cast<std::uint8_t>(group >> 8);
    a[7] = static_cast<std::uint8_t>(group);
    a[14] = static_cast<std::uint8_t>(host >> 8);
    a[15] = static_cast<std::uint8_t>(host);
    return a;
}

// 60-byte IPv4/UDP frame of flow `i` to `dst`.
Bytes udp4(std::uint32_t dst, unsigned i, std::uint8_t ttl = 64) {
    return test::eth(0x0800) + test::ipv4(17, 0x0A000000u + i, dst, 8 + 18, ttl) +
           test::udp(static_cast<std::uint16_t>(1024 + i), 5000, 18) + test::zeros(18);
}

Bytes udp6(const test::Ip6 &dst, unsigned i, std::uint8_t hop_limit = 64) {
    return test::eth(0x86DD) +
           test::ipv6(17, v6(0xaaaa, static_cast<std::uint16_t>(i)), dst, 8 + 16, hop_limit) +
           test::udp(static_cast<std::uint16_t>(2000 + i), 6000, 16) + test::zeros(16);
}

Bytes iboe(std::uint16_t dlid, std::uint8_t sl, std::uint16_t slid = 0x0001, std::uint8_t vl = 0) {
    // LRH (LNH 2: BTH follows), BTH, 4 bytes of payload, 4 of ICRC: 28 bytes = 7 words.
    return test::eth(kDefaultIboeEtherType) + test::lrh(vl, sl, 2, dlid, slid, 7) + test::bth(0x100 + dlid) +
           test::zeros(8) + test::zeros(14);  // padded to the 60-byte minimum
}

std::uint32_t hash_of(const Bytes &f) {
    ParsedPacket p;
    EXPECT_EQ(parse_frame(f, ParserConfig{}, p), DropReason::None);
    return p.hash;
}

// What forwarding must have made of IP frame `in` sent out of `port`: the neighbour's MAC, the
// port's own, the TTL (hop limit) one less and, for IPv4, a header checksum that verifies.
void expect_routed(const Bytes &in, const Bytes &out, std::uint16_t port) {
    ASSERT_EQ(out.size(), in.size());
    const rte_ether_addr n = neighbour_mac(port);
    EXPECT_EQ(Bytes(out.begin(), out.begin() + 6), Bytes(n.addr_bytes, n.addr_bytes + 6));
    const rte_ether_addr &own = ports().mac(port);
    EXPECT_EQ(Bytes(out.begin() + 6, out.begin() + 12), Bytes(own.addr_bytes, own.addr_bytes + 6));
    if (in[12] == 0x08) {
        EXPECT_EQ(out[22], in[22] - 1);
        EXPECT_EQ(test::ipv4_checksum(out.data() + 14, 20), 0);
        EXPECT_EQ(Bytes(out.begin() + 23, out.begin() + 24), Bytes(in.begin() + 23, in.begin() + 24));
        EXPECT_EQ(Bytes(out.begin() + 26, out.end()), Bytes(in.begin() + 26, in.end()));
    } else {
        EXPECT_EQ(out[21], in[21] - 1);
        EXPECT_EQ(Bytes(out.begin() + 22, out.end()), Bytes(in.begin() + 22, in.end()));
    }
}

// The same, for frames of distinct flows whose order across groups may differ: matched by the
// bytes forwarding leaves alone.
void expect_routed_any_order(std::vector<Bytes> in, std::vector<Bytes> out, std::uint16_t port) {
    auto kept = [](const Bytes &f) { return Bytes(f.begin() + (f[12] == 0x08 ? 26 : 22), f.end()); };
    auto by_kept = [&](const Bytes &a, const Bytes &b) { return kept(a) < kept(b); };
    std::sort(in.begin(), in.end(), by_kept);
    std::sort(out.begin(), out.end(), by_kept);
    ASSERT_EQ(out.size(), in.size()) << "port " << port;
    for (std::size_t i = 0; i < out.size(); ++i) expect_routed(in[i], out[i], port);
}

class WorkerTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ports();
        drain_all();
        FibConfig c;
        c.num_ports = kPorts;
        c.max_routes4 = 64;
        c.tbl8_groups4 = 16;
        c.max_routes6 = 64;
        c.tbl8_groups6 = 16;
        builder = std::make_unique<FibBuilder>(c);
        for (std::uint16_t p = 1; p < kPorts; ++p) {
            ASSERT_TRUE(builder->set_neighbour(IpAddr::v4(0x0A090002u + p * 256u), neighbour_mac(p), p).ok());
            set_port(p, true);
        }
        set_port(0, true);
        publisher = std::make_unique<FibPublisher>(1);
        counters = std::make_unique<WorkerCounters>();
    }

    void TearDown() override {
        worker.reset();
        drain_all();
    }

    void set_port(std::uint16_t p, bool up) {
        links.set_started(p, up);
        links.set_usable(p, up);
        board.set_link_up(p, up);
    }

    static void drain_all() { ports().drain(); }

    // An ARS configuration with object 1 (mode, 10 us idle time) over group `id`'s ports, in
    // the order the dataplane group lists them.
    std::shared_ptr<const ars::Config> ars_config(std::uint32_t id, const std::vector<std::uint16_t> &members,
                                                  ars::Mode mode = ars::Mode::kFlowletQuality,
                                                  std::vector<ars::AclRule> acl = {},
                                                  bool monitoring = false) {
        ars::ConfigBuilder b(ars::Profile{}, kTicksPerUs);
        for (ars::PortId p = 0; p < kPorts; ++p) b.add_port(ars::PortConfig{p, true, 10, 100, 100});
        ars::ArsObjectConfig o;
        o.id = 1;
        o.mode = mode;
        o.idle_time_us = 10;
        o.monitoring = monitoring;
        b.add_ars_object(o);
        ars::NhgConfig g;
        g.id = id;
        g.ars_object = 1;
        for (std::uint16_t i = 0; i < members.size(); ++i)
            g.members.push_back({i, ars::EgressTarget::port(members[i]), ars::MemberRole::kPrimary, true});
        b.add_nhg(g);
        b.set_acl(std::move(acl));
        auto r = b.build();
        EXPECT_TRUE(r.ok());
        return r.config;
    }

    void nhg(std::uint32_t id, const std::vector<std::uint16_t> &members, NhgMode mode = NhgMode::Ecmp) {
        std::vector<NhgMemberSpec> specs;
        for (std::uint16_t p : members) specs.push_back({p, {}});
        ASSERT_TRUE(builder->set_nhg(id, specs, mode).ok());
    }

    void route(const char *prefix, std::uint32_t nhg_id) {
        ASSERT_TRUE(builder->add_route(*IpPrefix::parse(prefix), nhg_id).ok());
    }

    // Builds the snapshot the worker forwards with, and the worker on its first call.
    void build(WorkerConfig wc = {}) {
        snapshot = builder->build();
        if (worker) return;
        worker = make_worker(wc, *counters);
    }

    std::unique_ptr<Worker> make_worker(WorkerConfig wc, WorkerCounters &c) {
        wc.index = 0;
        if (wc.rx.empty()) wc.rx = {{0, 0}};  // port 0's queue unless the test names more
        wc.num_ports = kPorts;
        wc.tx_queue_base = 0;
        wc.tx_queues = kTxQueues;
        for (std::uint16_t p = 0; p < kPorts; ++p) wc.port_mac[p] = ports().mac(p);
        wc.clone_pool = ports().pool();
        return std::make_unique<Worker>(wc, *publisher, links, board, c);
    }

    static rte_mbuf *mbuf_of(const Bytes &f, std::uint64_t ol_flags = 0) { return ports().mbuf(f, ol_flags); }

    static void receive(const std::vector<rte_mbuf *> &ms, std::uint16_t port = 0) {
        ASSERT_TRUE(ports().receive(port, ms));
    }

    static void receive(const std::vector<Bytes> &frames, std::uint16_t port = 0) {
        std::vector<rte_mbuf *> ms;
        for (const Bytes &f : frames) ms.push_back(mbuf_of(f));
        receive(ms, port);
    }

    // Polls until the RX ring is empty; returns the frames received.
    unsigned poll(std::uint64_t now = 1000) { return poll(*worker, now); }
    unsigned poll(Worker &w, std::uint64_t now) {
        unsigned total = 0;
        while (unsigned n = w.poll_once(*snapshot, now)) total += n;
        return total;
    }

    // What left on port p's TX queue q, in order.
    static std::vector<Bytes> sent(std::uint16_t p, unsigned q = 0) { return ports().sent(p, q); }

    std::uint64_t drops(DropReason r) const { return counters->drops[static_cast<std::size_t>(r)].get(); }

    // Every frame received was forwarded, dropped for one reason or punted, only one of them.
    void expect_accounted() const {
        const Totals t = sum_totals({counters.get()});
        EXPECT_EQ(t.rx_pkts + t.replicas, t.fwd_pkts + t.dropped() + t.punted)
            << "rx " << t.rx_pkts << " replicas " << t.replicas << " forwarded " << t.fwd_pkts << " dropped "
            << t.dropped() << " punted " << t.punted;
    }

    std::uint64_t nhg_pkts(std::uint32_t id) const {
        return sum_nhg({counters.get()}, *builder->nhg_index(id)).first;
    }

    LinkState links;
    ars::PortBoard board{kMaxPorts, ars::capabilities().max_lag_groups};
    std::unique_ptr<FibBuilder> builder;
    std::unique_ptr<FibPublisher> publisher;
    std::unique_ptr<WorkerCounters> counters;
    std::unique_ptr<FibSnapshot> snapshot;
    std::unique_ptr<Worker> worker;
};

TEST_F(WorkerTest, Ipv4FramesLeaveOnTheEcmpMemberTheirHashNamesRewritten) {
    nhg(1, {1, 2, 3});
    route("198.18.0.0/16", 1);
    build();
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 100; ++i) in.push_back(udp4(0xC6120000u + i, i));  // 198.18.0.i
    receive(in);
    EXPECT_EQ(poll(), in.size());

    EcmpSelector ecmp(links);
    const std::uint32_t index = *builder->nhg_index(1);
    std::map<std::uint16_t, std::vector<Bytes>> want;
    for (const Bytes &f : in) {
        const MemberChoice c =
            ecmp.select(*snapshot, SelectionRequest{index, snapshot->nhg(index), hash_of(f), 0, true});
        ASSERT_NE(c.member, nullptr);
        want[c.member->port].push_back(f);
    }
    EXPECT_EQ(want.size(), 3u);  // 100 flows reach every member
    for (std::uint16_t p = 1; p <= 3; ++p) {
        const std::vector<Bytes> out = sent(p);
        ASSERT_EQ(out.size(), want[p].size()) << "port " << p;
        for (std::size_t i = 0; i < out.size(); ++i) expect_routed(want[p][i], out[i], p);  // in order
        EXPECT_EQ(sum_port({counters.get()}, p).tx_pkts, out.size());
    }
    EXPECT_TRUE(sent(0).empty());
    const Totals t = sum_totals({counters.get()});
    EXPECT_EQ(t.rx_pkts, 100u);
    EXPECT_EQ(t.fwd_pkts, 100u);
    EXPECT_EQ(t.rx_bytes, 100u * 60u);
    EXPECT_EQ(nhg_pkts(1), 100u);
    expect_accounted();
}

TEST_F(WorkerTest, Ipv6FramesLeaveWithTheHopLimitDecremented) {
    nhg(1, {1, 2, 3});
    route("2001:db8::/32", 1);
    build();
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 40; ++i) in.push_back(udp6(v6(7, static_cast<std::uint16_t>(i)), i));
    in.push_back(udp6(v6(7, 1), 99, 1));  // hop limit 1: expires here
    receive(in);
    poll();
    EcmpSelector ecmp(links);
    const std::uint32_t index = *builder->nhg_index(1);
    std::map<std::uint16_t, std::vector<Bytes>> want;
    for (std::size_t i = 0; i + 1 < in.size(); ++i)
        want[ecmp.select(*snapshot, SelectionRequest{index, snapshot->nhg(index), hash_of(in[i]), 0, true})
                 .member->port]
            .push_back(in[i]);
    for (std::uint16_t p = 1; p <= 3; ++p) {
        const std::vector<Bytes> out = sent(p);
        ASSERT_EQ(out.size(), want[p].size());
        for (std::size_t i = 0; i < out.size(); ++i) expect_routed(want[p][i], out[i], p);
    }
    EXPECT_EQ(drops(DropReason::TtlExpired), 1u);
    expect_accounted();
}

// Frames the fast parse leaves to the full parser (VLAN tags, IPv4 options) are rewritten where
// their own headers lie, whether a burst holds only them or mixes them with common frames.
TEST_F(WorkerTest, TaggedFramesAndOptionsAreRewrittenAtTheirOwnOffsets) {
    nhg(1, {2});
    route("198.18.0.0/16", 1);
    build();
    auto tagged = [](unsigned i) {
        return test::eth(0x0800, {0x0064}) + test::ipv4(17, 0x0A000000u + i, 0xC6120000u + i, 8 + 18, 20) +
               test::udp(static_cast<std::uint16_t>(1024 + i), 5000, 18) + test::zeros(18);
    };
    auto options = [](unsigned i) {
        return test::eth(0x0800) +
               test::ipv4(17, 0x0A000000u + i, 0xC6120000u + i, 8 + 18, 30, Bytes{1, 1, 1, 0}) +
               test::udp(static_cast<std::uint16_t>(1024 + i), 5000, 18) + test::zeros(18);
    };
    const rte_ether_addr n = neighbour_mac(2);
    const rte_ether_addr &own = ports().mac(2);
    auto check = [&](const Bytes &in, const Bytes &out, std::size_t l3) {
        ASSERT_EQ(out.size(), in.size());
        EXPECT_EQ(Bytes(out.begin(), out.begin() + 6), Bytes(n.addr_bytes, n.addr_bytes + 6));
        EXPECT_EQ(Bytes(out.begin() + 6, out.begin() + 12), Bytes(own.addr_bytes, own.addr_bytes + 6));
        EXPECT_EQ(Bytes(out.begin() + 12, out.begin() + static_cast<long>(l3)),
                  Bytes(in.begin() + 12, in.begin() + static_cast<long>(l3)));  // the tag stays
        EXPECT_EQ(out[l3 + 8], in[l3 + 8] - 1);
        const std::size_t ihl = (in[l3] & 0x0F) * 4u;
        EXPECT_EQ(test::ipv4_checksum(out.data() + l3, ihl), 0);
        EXPECT_EQ(Bytes(out.begin() + static_cast<long>(l3 + 12), out.end()),
                  Bytes(in.begin() + static_cast<long>(l3 + 12), in.end()));
    };
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 8; ++i) in.push_back(tagged(i));  // a burst of tagged frames alone
    receive(in);
    poll();
    std::vector<Bytes> out = sent(2);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) check(in[i], out[i], 18);
    in.clear();
    for (unsigned i = 0; i < 8; ++i) in.push_back(i % 2 ? options(i) : udp4(0xC6120000u + i, i));
    receive(in);
    poll();
    out = sent(2);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) check(in[i], out[i], 14);
    expect_accounted();
}

TEST_F(WorkerTest, DroppedFramesAreCountedByReasonAndNeverSent) {
    nhg(1, {1, 2, 3});
    route("198.18.0.0/16", 1);
    WorkerConfig wc;
    wc.nic_ipv4_cksum[0] = true;  // port 0's NIC checks IPv4 header checksums
    build(wc);
    Bytes bad_sum = udp4(0xC6120001u, 1);
    bad_sum[24] ^= 0x01;
    Bytes short_ip = udp4(0xC6120001u, 2);
    short_ip.resize(40);  // the header whole, its total length past the frame
    rte_mbuf *chained = ports().mbuf(udp4(0xC6120001u, 3), 0, {40});
    receive(std::vector<rte_mbuf *>{
        mbuf_of(udp4(0xC7000001u, 4)),                              // no route: 199.0.0.1
        mbuf_of(udp4(0xC6120001u, 5, 1)),                           // TTL 1
        mbuf_of(udp4(0xC6120001u, 6, 0)),                           // TTL 0
        mbuf_of(bad_sum),                                           // NIC: not checked, software: bad
        mbuf_of(udp4(0xC6120001u, 7), RTE_MBUF_F_RX_IP_CKSUM_BAD),  // the NIC says bad
        mbuf_of(test::eth(0x1234) + test::zeros(46)),               // unknown EtherType
        mbuf_of(short_ip),                                          // IPv4 header cut short
        chained,                                                    // two segments
        mbuf_of(udp4(0xC6120001u, 8)),                              // forwarded
        mbuf_of(bad_sum, RTE_MBUF_F_RX_IP_CKSUM_GOOD),              // the NIC's word stands
    });
    EXPECT_EQ(poll(), 10u);
    EXPECT_EQ(drops(DropReason::NoRoute), 1u);
    EXPECT_EQ(drops(DropReason::TtlExpired), 2u);
    EXPECT_EQ(drops(DropReason::Ipv4BadChecksum), 1u);
    EXPECT_EQ(drops(DropReason::Ipv4NicBadChecksum), 1u);
    EXPECT_EQ(drops(DropReason::UnknownEtherType), 1u);
    EXPECT_EQ(drops(DropReason::Ipv4TotalLengthPastBuffer), 1u);
    EXPECT_EQ(drops(DropReason::Multisegment), 1u);
    std::size_t out = 0;
    for (std::uint16_t p = 0; p < kPorts; ++p) out += sent(p).size();
    EXPECT_EQ(out, 2u);
    EXPECT_EQ(sum_totals({counters.get()}).fwd_pkts, 2u);
    expect_accounted();
}

TEST_F(WorkerTest, MembersThatCannotSendAreAvoided) {
    nhg(1, {1, 2, 3});
    route("198.18.0.0/16", 1);
    set_port(2, false);
    links.set_started(2, true);  // started but link down: not usable
    build();
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 64; ++i) in.push_back(udp4(0xC6120000u + i, i));
    receive(in);
    poll();
    EXPECT_TRUE(sent(2).empty());
    EXPECT_EQ(sent(1).size() + sent(3).size(), 64u);
    // No usable member at all: dropped as such.
    set_port(1, false);
    set_port(3, false);
    receive(in);
    poll();
    EXPECT_EQ(drops(DropReason::NoLiveMember), 64u);
    expect_accounted();
}

// ARS in flowlet-quality mode: new flowlets go to the best port; a flowlet stays where it is
// while its packets keep coming within the idle time, and moves once it has been idle.
TEST_F(WorkerTest, ArsFlowletsTakeTheBestPortAndStayUntilIdle) {
    nhg(10, {1, 2, 3}, NhgMode::Ars);
    route("198.18.0.0/16", 10);
    builder->set_ars(ars_config(10, {1, 2, 3}));
    build();
    board.publish_port_quality(1, 2);
    board.publish_port_quality(2, 6);  // best
    board.publish_port_quality(3, 0);
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 96; ++i) in.push_back(udp4(0xC6120000u + i % 32, i % 32));  // 32 flows x 3
    receive(in);
    poll(1000);
    std::vector<Bytes> out = sent(2);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < out.size(); ++i) expect_routed(in[i], out[i], 2);

    // Port 1 becomes the best: within the idle time (5 us later) every flowlet stays on port 2.
    board.publish_port_quality(1, 7);
    receive(in);
    poll(1000 + 5 * kTicksPerUs);
    EXPECT_EQ(sent(2).size(), in.size());
    // Idle for longer than 10 us since: each flow's next packet starts a flowlet on port 1.
    receive(in);
    poll(1000 + 30 * kTicksPerUs);
    out = sent(1);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < out.size(); ++i) expect_routed(in[i], out[i], 1);
    const ars::CounterValues c = worker->ars().nhg_counters(10);
    EXPECT_EQ(c.decisions[static_cast<int>(ars::Mode::kFlowletQuality)], 3 * in.size());
    EXPECT_EQ(nhg_pkts(10), 3 * in.size());
    expect_accounted();

    // Port 1's link goes down: its flowlets move at once, idle or not.
    set_port(1, false);
    links.set_started(1, true);
    receive(in);
    poll(1000 + 31 * kTicksPerUs);
    EXPECT_TRUE(sent(1).empty());
    EXPECT_EQ(sent(2).size() + sent(3).size(), in.size());
    expect_accounted();
}

// One burst mixing an ECMP group, an ARS group, IPv6, IBoE and drops: each frame takes its own
// group's path.
TEST_F(WorkerTest, OneBurstMixesGroupsFamiliesAndDrops) {
    nhg(1, {1, 2, 3});
    nhg(10, {1, 3}, NhgMode::Ars);
    route("198.18.0.0/16", 1);
    route("198.19.0.0/16", 10);
    route("2001:db8::/32", 10);
    builder->set_ars(ars_config(10, {1, 3}));
    ASSERT_TRUE(builder->set_lft_port(0x12, 2).ok());
    build();
    board.publish_port_quality(1, 0);
    board.publish_port_quality(3, 7);  // every ARS flowlet: port 3
    std::vector<Bytes> in;
    std::map<std::uint16_t, std::vector<Bytes>> want;
    EcmpSelector ecmp(links);
    const std::uint32_t i1 = *builder->nhg_index(1);
    for (unsigned i = 0; i < 120; ++i) {
        Bytes f;
        switch (i % 5) {
            case 0:
                f = udp4(0xC6120000u + i, i);  // ECMP
                want[ecmp.select(*snapshot, SelectionRequest{i1, snapshot->nhg(i1), hash_of(f), 0, true})
                         .member->port]
                    .push_back(f);
                break;
            case 1:
                f = udp4(0xC6130000u + i, i);  // ARS
                want[3].push_back(f);
                break;
            case 2:
                f = udp6(v6(1, static_cast<std::uint16_t>(i)), i);  // ARS, IPv6
                want[3].push_back(f);
                break;
            case 3:
                f = udp4(0xC6130000u + i, i, 1);  // expires
                break;
            case 4:
                f = iboe(0x12, 0);  // LFT to port 2, VL 0
                break;
        }
        in.push_back(f);
    }
    for (std::size_t k = 0; k < in.size(); k += 40)
        receive(
            std::vector<Bytes>(in.begin() + static_cast<long>(k), in.begin() + static_cast<long>(k + 40)));
    poll();
    for (std::uint16_t p : {1, 3}) expect_routed_any_order(want[p], sent(p), p);
    std::vector<Bytes> two = sent(2);
    const auto iboe_end =
        std::stable_partition(two.begin(), two.end(), [](const Bytes &f) { return f[12] == 0x88; });
    EXPECT_EQ(iboe_end - two.begin(), 24);
    expect_routed_any_order(want[2], std::vector<Bytes>(iboe_end, two.end()), 2);
    EXPECT_EQ(drops(DropReason::TtlExpired), 24u);
    expect_accounted();
}

// IB over Ethernet: the LFT names a port or a group, the MFT a set of ports; the frame keeps
// its LRH but for the VL, which the egress port's SL2VL table sets, and goes out on that VL's
// TX queue with the port's source MAC.
TEST_F(WorkerTest, IboeFramesFollowTheLftAndTheMft) {
    nhg(1, {2, 3});
    ASSERT_TRUE(builder->set_lft_port(0x12, 2).ok());
    ASSERT_TRUE(builder->set_lft_nhg(0x13, 1).ok());
    ASSERT_TRUE(builder->set_mft(0xC001, (1u << 0) | (1u << 1) | (1u << 3)).ok());
    ASSERT_TRUE(builder->set_sl2vl(2, 3, 5).ok());  // port 2: SL 3 -> VL 5 (queue 1)
    ASSERT_TRUE(builder->set_sl2vl(3, 3, 2).ok());  // port 3: SL 3 -> VL 2 (queue 0)
    build();
    const Bytes uni = iboe(0x12, 3), via_group = iboe(0x13, 3), multi = iboe(0xC001, 3);
    receive({uni, via_group, multi, iboe(0x14, 3), iboe(0, 3)});
    poll();

    auto expect_iboe = [&](const Bytes &in, const Bytes &out, std::uint16_t port, std::uint8_t vl) {
        ASSERT_EQ(out.size(), in.size());
        EXPECT_EQ(Bytes(out.begin(), out.begin() + 6), Bytes(in.begin(), in.begin() + 6));
        const rte_ether_addr &own = ports().mac(port);
        EXPECT_EQ(Bytes(out.begin() + 6, out.begin() + 12), Bytes(own.addr_bytes, own.addr_bytes + 6));
        EXPECT_EQ(out[14] >> 4, vl);
        EXPECT_EQ(Bytes(out.begin() + 15, out.end()), Bytes(in.begin() + 15, in.end()));
    };
    // DLID 0x12: port 2, SL 3 -> VL 5, queue 1.
    std::vector<Bytes> out = sent(2, 1);
    // DLID 0x13: the group's member for this flow (no neighbour needed), on its port's VL.
    EcmpSelector ecmp(links);
    const std::uint32_t index = *builder->nhg_index(1);
    const std::uint16_t member =
        ecmp.select(*snapshot, SelectionRequest{index, snapshot->nhg(index), hash_of(via_group), 0, false})
            .member->port;
    if (member == 2) {
        ASSERT_EQ(out.size(), 2u);
        expect_iboe(via_group, out[1], 2, 5);
    } else {
        ASSERT_EQ(out.size(), 1u);
    }
    expect_iboe(uni, out[0], 2, 5);
    EXPECT_TRUE(sent(2, 0).empty());
    // MLID 0xC001: ports 1 and 3, not the ingress port 0. Port 1 keeps the default SL 3 -> VL 3
    // (queue 1), port 3 maps it to VL 2 (queue 0).
    out = sent(1, 1);
    ASSERT_EQ(out.size(), 1u);
    expect_iboe(multi, out[0], 1, 3);
    EXPECT_TRUE(sent(1, 0).empty());
    out = sent(3, 0);
    ASSERT_EQ(out.size(), member == 3 ? 2u : 1u);
    if (member == 3) expect_iboe(via_group, out[0], 3, 2);
    expect_iboe(multi, out.back(), 3, 2);
    EXPECT_TRUE(sent(3, 1).empty());
    EXPECT_TRUE(sent(0, 0).empty() && sent(0, 1).empty());

    EXPECT_EQ(drops(DropReason::LftMiss), 1u);
    EXPECT_EQ(drops(DropReason::InvalidLid), 1u);
    const Totals t = sum_totals({counters.get()});
    EXPECT_EQ(t.replicas, 1u);
    EXPECT_EQ(t.fwd_pkts, 4u);
    EXPECT_EQ(nhg_pkts(1), 1u);
    expect_accounted();
}

// 18-bit DLIDs (seed 002): a vLID goes by the secondary LFT, the pLID with its low 16 bits by the
// LFT; a vLID without an entry is an LFT miss; the LRH leaves with its extra bits as it came.
TEST_F(WorkerTest, IboeVlidsFollowTheSecondaryLft) {
    ASSERT_TRUE(builder->set_lft_port(0x12, 2).ok());
    ASSERT_TRUE(builder->set_lft_port(0x10012, 3).ok());
    ASSERT_TRUE(builder->set_lft_port(0x3FFFF, 1).ok());
    build();
    auto extended = [](std::uint32_t dlid, std::uint32_t slid) {
        Bytes f = iboe(static_cast<std::uint16_t>(dlid), 0, static_cast<std::uint16_t>(slid));
        f[14 + 1] = static_cast<std::uint8_t>(f[14 + 1] | (dlid >> 16) << 2);
        f[14 + 4] = static_cast<std::uint8_t>(f[14 + 4] | (slid >> 16) << 6);
        return f;
    };
    const Bytes plid = iboe(0x12, 0), vlid = extended(0x10012, 0x20001), last = extended(0x3FFFF, 1);
    receive({plid, vlid, last, extended(0x20012, 1), extended(0x10013, 1)});
    poll();
    auto tail = [](const Bytes &f) { return Bytes(f.begin() + 14, f.end()); };
    const std::vector<Bytes> two = sent(2, 0), three = sent(3, 0), one = sent(1, 0);
    ASSERT_EQ(two.size(), 1u);
    ASSERT_EQ(three.size(), 1u);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(tail(two[0]), tail(plid));
    EXPECT_EQ(tail(three[0]), tail(vlid));
    EXPECT_EQ(tail(one[0]), tail(last));
    EXPECT_EQ(drops(DropReason::LftMiss), 2u);
    expect_accounted();
}

// A subnet-management frame (VL15) to the permissive LID or to one of the switch's LIDs (base
// 0x20, LMC 1: 0x20 and 0x21) goes to the control thread's ring with its in-port; a VL15 frame
// to another LID is forwarded by the LFT and stays on VL15; a data VL frame to the switch's LID
// is no subnet-management frame. What the ring has no room for is dropped as punt_ring_full.
TEST_F(WorkerTest, SubnetManagementFramesForTheSwitchArePuntedTheRestForwarded) {
    rte_ring *ring = rte_ring_create("wt_punt", 8, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);  // holds 7
    ASSERT_NE(ring, nullptr);
    ASSERT_TRUE(builder->set_switch_lid(0x20, 1).ok());
    ASSERT_TRUE(builder->set_lft_port(0x12, 2).ok());
    ASSERT_TRUE(builder->set_sl2vl(2, 3, 5).ok());
    WorkerConfig wc;
    wc.punt = ring;
    build(wc);
    const Bytes permissive = iboe(0xFFFF, 0, 0x0007, 15), own = iboe(0x21, 0, 0x0008, 15),
                routed = iboe(0x12, 3, 0x0001, 15), data_to_own = iboe(0x20, 3),
                beyond_lmc = iboe(0x22, 0, 1, 15), data_permissive = iboe(0xFFFF, 0);
    receive({permissive, routed, own, data_to_own, beyond_lmc, data_permissive});
    poll();
    rte_mbuf *m[16];
    ASSERT_EQ(rte_ring_count(ring), 2u);
    const std::vector<Bytes> out = sent(2, 1);  // VL15: queue 15 mod 2
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0][14] >> 4, 15) << "a forwarded VL15 frame stays on VL15, whatever the SL2VL";
    EXPECT_EQ(Bytes(out[0].begin() + 15, out[0].end()), Bytes(routed.begin() + 15, routed.end()));
    EXPECT_EQ(drops(DropReason::LftMiss), 2u);     // data_to_own (no LFT entry), beyond_lmc
    EXPECT_EQ(drops(DropReason::InvalidLid), 1u);  // the permissive LID on a data VL
    // The ring holds 7: five more of ten go in, five are dropped.
    receive(std::vector<Bytes>(10, permissive));
    poll();
    EXPECT_EQ(drops(DropReason::PuntRingFull), 5u);
    const unsigned n = rte_ring_sc_dequeue_burst(ring, reinterpret_cast<void **>(m), 16, nullptr);
    ASSERT_EQ(n, 7u);
    std::vector<Bytes> punted;
    for (unsigned k = 0; k < n; ++k) {
        EXPECT_EQ(m[k]->port, 0) << "the in-port (the ring PMD leaves mbuf->port unset)";
        const auto *d = rte_pktmbuf_mtod(m[k], const std::uint8_t *);
        punted.emplace_back(d, d + m[k]->data_len);
    }
    rte_pktmbuf_free_bulk(m, n);
    EXPECT_EQ(punted[0], permissive);  // untouched
    EXPECT_EQ(punted[1], own);
    const Totals t = sum_totals({counters.get()});
    EXPECT_EQ(t.punted, 7u);
    EXPECT_EQ(t.fwd_pkts, 1u);
    expect_accounted();
    worker.reset();
    rte_ring_free(ring);
}

// With ARS ACL rules every frame is parsed in full and classified: here TCP frames are taken out
// of ARS (static hash over the group's members) while UDP frames follow the port quality.
TEST_F(WorkerTest, AclRulesTakeMatchingFramesOutOfArs) {
    nhg(10, {1, 2, 3}, NhgMode::Ars);
    route("198.18.0.0/16", 10);
    ars::AclRule rule;
    rule.priority = 1;
    rule.match.ip_protocol = 6;
    rule.action.disable_ars = true;
    builder->set_ars(ars_config(10, {1, 2, 3}, ars::Mode::kFlowletQuality, {rule}));
    build();
    board.publish_port_quality(1, 0);
    board.publish_port_quality(2, 0);
    board.publish_port_quality(3, 7);  // every UDP flowlet: port 3
    std::vector<Bytes> udp_in, tcp_in;
    std::map<std::uint16_t, std::vector<Bytes>> want;
    for (unsigned i = 0; i < 48; ++i) {
        udp_in.push_back(udp4(0xC6120000u + i, i));
        want[3].push_back(udp_in.back());
        tcp_in.push_back(test::eth(0x0800) + test::ipv4(6, 0x0A000000u + i, 0xC6120000u + i, 20) +
                         test::tcp(static_cast<std::uint16_t>(3000 + i), 80) + test::zeros(6));
        // The engine's static hash: the flow hash scaled onto the three primaries.
        const std::uint32_t h = hash_of(tcp_in.back());
        want[static_cast<std::uint16_t>(1 + ((std::uint64_t{h} * 3) >> 32))].push_back(tcp_in.back());
    }
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 48; ++i) {
        in.push_back(udp_in[i]);
        in.push_back(tcp_in[i]);
    }
    receive(in);
    poll();
    for (std::uint16_t p = 1; p <= 3; ++p) expect_routed_any_order(want[p], sent(p), p);
    const ars::CounterValues c = worker->ars().nhg_counters(10);
    EXPECT_EQ(c.static_hash_decisions, 48u);
    EXPECT_EQ(c.decisions[static_cast<int>(ars::Mode::kFlowletQuality)], 48u);
    expect_accounted();
}

// While the monitoring capture runs, ARS frames are selected one by one so that each
// reassignment names its frame: the choices are those of the burst path (a second worker with
// the same configuration, without the capture), and exactly the reassigned frames are recorded.
TEST_F(WorkerTest, TheCaptureRecordsEachReassignedFrameAndChangesNoChoice) {
    nhg(10, {1, 2, 3}, NhgMode::Ars);
    route("198.18.0.0/16", 10);
    builder->set_ars(ars_config(10, {1, 2, 3}, ars::Mode::kFlowletRandom, {}, true));
    build();
    ReassignCapture capture(1, publisher->qsbr());
    WorkerConfig wc;
    wc.capture = capture.slot(0);
    WorkerCounters captured_counters;
    std::unique_ptr<Worker> capturing = make_worker(wc, captured_counters);
    const std::string path = ::testing::TempDir() + "/weft_worker_capture.pcapng";
    ASSERT_TRUE(capture.start(path).ok());

    auto ports_of = [&](Worker &w, unsigned burst) {
        // 8 flows x 4 frames; 50 us between bursts, past the 10 us idle time: new flowlets.
        std::vector<Bytes> in;
        for (unsigned i = 0; i < 32; ++i) in.push_back(udp4(0xC6120000u + i % 8, i % 8));
        receive(in);
        poll(w, 1000 + burst * 50 * kTicksPerUs);
        std::map<Bytes, std::vector<std::uint16_t>> where;  // frame -> the ports its copies left by
        for (std::uint16_t p = 1; p <= 3; ++p)
            for (const Bytes &f : sent(p)) where[Bytes(f.begin() + 26, f.end())].push_back(p);
        return where;
    };
    for (unsigned burst = 0; burst < 10; ++burst) {
        const auto plain = ports_of(*worker, burst);
        const auto recorded = ports_of(*capturing, burst);
        EXPECT_EQ(plain, recorded) << "burst " << burst;
        for (const auto &[flow, ports] : plain) EXPECT_EQ(ports.size(), 4u);  // a flow's frames stay together
    }
    capture.stop();
    const std::uint64_t moved = capturing->ars().nhg_counters(10).next_hop_reassignments;
    EXPECT_GT(moved, 5u);
    EXPECT_EQ(worker->ars().nhg_counters(10).next_hop_reassignments, moved);
    const CaptureStats st = capture.stats();
    EXPECT_EQ(st.captured, moved);
    EXPECT_EQ(st.written, moved);
    EXPECT_EQ(st.dropped, 0u);
    const Totals t = sum_totals({&captured_counters});
    EXPECT_EQ(t.rx_pkts, 320u);
    EXPECT_EQ(t.fwd_pkts, 320u);
    std::remove(path.c_str());
    capturing.reset();
}

// A frame is counted forwarded once the port's queue has taken it: frames left in the
// worker's TX buffer when their port stops are dropped, and counted as dropped alone.
TEST_F(WorkerTest, FramesLeftForAStoppedPortAreCountedOnceAsDropped) {
    nhg(1, {kSmallTxPort});
    route("198.18.0.0/16", 1);
    build();
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 32; ++i) in.push_back(udp4(0xC6120000u + i, i));
    receive(in);
    poll();
    // The port's ring took 15; the other 17 wait in the worker's TX buffer.
    EXPECT_EQ(sum_port({counters.get()}, kSmallTxPort).tx_pkts, 15u);
    set_port(kSmallTxPort, false);  // `port stop`: the next flush gives them up
    worker->poll_once(*snapshot, 2000);
    EXPECT_EQ(sent(kSmallTxPort).size(), 15u);
    EXPECT_EQ(drops(DropReason::PortDown), 17u);
    const Totals t = sum_totals({counters.get()});
    EXPECT_EQ(t.fwd_pkts, 15u);
    EXPECT_EQ(t.rx_pkts, 32u);
    expect_accounted();
}

// Frames the worker still holds when it shuts down are dropped and counted so.
TEST_F(WorkerTest, FramesHeldAtShutdownAreCountedAsDropped) {
    nhg(1, {kSmallTxPort});
    route("198.18.0.0/16", 1);
    build();
    std::vector<Bytes> in;
    for (unsigned i = 0; i < 32; ++i) in.push_back(udp4(0xC6120000u + i, i));
    receive(in);
    poll();
    worker->discard_buffers();
    EXPECT_EQ(sum_port({counters.get()}, kSmallTxPort).tx_dropped, 17u);
    EXPECT_EQ(drops(DropReason::TxQueueFull), 17u);
    expect_accounted();
}

// An ARN frame of `reporter` about its port `port` (arn/ARN_FORMAT.md).
Bytes arn_frame(arn::SwitchId reporter, arn::PortNumber port, std::uint8_t version = 0) {
    arn::ArnMessage m;
    m.type = arn::ArnType::kCongestionDetected;
    m.metric = 3;
    m.reporter = reporter;
    m.port = port;
    m.sequence = 1;
    m.hold_ms = 3;
    arn::ArnFrameHeaders h;
    h.src_mac = {2, 0, 0, 0, 0, 0x99};
    Bytes f = arn::encode_arn_frame(h, m);
    f[15] = static_cast<std::uint8_t>(version << 4);
    return f;
}

// ARN frames (arn_tables.hpp): taken on fabric ports only and within the port's rate limit,
// decoded, forwarded by the flood table of their reporter and in port (a copy per out port on the
// worker's top TX queue, the source MAC the port's) and handed to the BPT's owner when the news is
// the switch's; the rest dropped under their arn_* reason. Off: an unknown EtherType again. The
// worker polls ports 0, 1 and 3, where the frames come in.
TEST_F(WorkerTest, ArnFramesFollowTheFloodTableAndTheRestAreDroppedByReason) {
    rte_ring *ring = rte_ring_create("wt_arn", 8, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);  // holds 7
    ASSERT_NE(ring, nullptr);
    ArnPublisher arn(publisher->qsbr());
    auto t = std::make_shared<ArnTables>();
    t->enabled = true;
    t->self = 0x10;
    t->fabric_ports = 0b0111;  // ports 0, 1, 2; port 3 is a host port
    t->reporters = {0x10, 0x20, 0x30};
    t->entries.assign(3 * kArnSlots, {});
    t->entries[1 * kArnSlots + 1] = {0b0110, true, true};   // 0x20's news in on port 0: on to 1 and 2, taken
    t->entries[2 * kArnSlots + 2] = {0b0001, true, false};  // 0x30's in on port 1: on to port 0 only
    t->rx_interval_tsc = 1000;
    t->rx_burst = 4;
    arn.publish(t);
    ArnWorkerCounters ac;
    WorkerConfig wc;
    wc.rx = {{0, 0}, {1, 0}, {3, 0}};
    wc.arn = &arn;
    wc.arn_ring = ring;
    wc.arn_counters = &ac;
    build(wc);
    const unsigned top = kTxQueues - 1;

    const Bytes news = arn_frame(0x20, 4);
    receive({news}, 0);
    poll(1'000'000);
    ASSERT_EQ(rte_ring_count(ring), 1u);
    for (std::uint16_t p : {1, 2}) {
        const std::vector<Bytes> out = sent(p, top);
        ASSERT_EQ(out.size(), 1u) << "port " << p;
        EXPECT_EQ(Bytes(out[0].begin() + 12, out[0].end()), Bytes(news.begin() + 12, news.end()));
        EXPECT_EQ(Bytes(out[0].begin(), out[0].begin() + 6), Bytes(news.begin(), news.begin() + 6));
        EXPECT_TRUE(std::equal(out[0].begin() + 6, out[0].begin() + 12, ports().mac(p).addr_bytes));
    }
    receive({arn_frame(0x30, 2)}, 1);
    poll(2'000'000);
    EXPECT_EQ(sent(0, top).size(), 1u) << "0x30's news goes on to port 0 alone";
    EXPECT_EQ(rte_ring_count(ring), 1u) << "and is not this switch's";

    receive({news}, 3);
    poll(3'000'000);
    EXPECT_EQ(drops(DropReason::ArnNotFabricPort), 1u);
    receive({arn_frame(0x20, 4, 1), arn_frame(0x99, 1), arn_frame(0x30, 1), arn_frame(0x10, 1)}, 0);
    poll(4'000'000);
    EXPECT_EQ(drops(DropReason::ArnMalformed), 1u);
    EXPECT_EQ(ac.malformed[static_cast<std::size_t>(arn::ArnDrop::kBadVersion)].get(), 1u);
    EXPECT_EQ(drops(DropReason::ArnUnknownReporter), 1u);
    EXPECT_EQ(drops(DropReason::ArnUnexpectedPort), 1u) << "0x30's news never comes in on port 0";
    EXPECT_EQ(drops(DropReason::ArnOwnNews), 1u);
    for (std::uint16_t p = 0; p < kPorts; ++p) EXPECT_TRUE(sent(p, top).empty()) << "port " << p;

    // Ten at once: a burst of four passes, six are over the limit; of the four, the ring (7) takes
    // what it has room for.
    receive(std::vector<Bytes>(10, news), 0);
    poll(5'000'000);
    EXPECT_EQ(drops(DropReason::ArnRateLimited), 6u);
    EXPECT_EQ(sent(1, top).size(), 4u);
    EXPECT_EQ(rte_ring_count(ring), 5u);
    receive(std::vector<Bytes>(4, news), 0);
    poll(6'000'000);
    EXPECT_EQ(drops(DropReason::ArnRingFull), 2u);
    EXPECT_EQ(ac.received.get(), 21u);
    EXPECT_EQ(ac.delivered.get(), 7u);
    EXPECT_EQ(ac.forwarded.get(), 2u + 1u + 8u + 8u);

    auto off = std::make_shared<ArnTables>(*t);
    off->enabled = false;
    arn.publish(off);
    receive({news}, 0);
    poll(7'000'000);
    EXPECT_EQ(drops(DropReason::UnknownEtherType), 1u);
    expect_accounted();
    worker.reset();
    rte_mbuf *m[16];
    rte_pktmbuf_free_bulk(m, rte_ring_sc_dequeue_burst(ring, reinterpret_cast<void **>(m), 16, nullptr));
    rte_ring_free(ring);
}

// Over UDP (arn/udp_frame.hpp): a datagram to the ARN port with TTL 255 is an ARN frame, taken on
// a fabric port only, forwarded as it came but for the source MAC and handed to the ring; with
// another TTL, or to another port, it is an IP datagram like any other (here, one with no route).
TEST_F(WorkerTest, ArnOverUdpIsTheDatagramsToItsPortWithTtl255) {
    rte_ring *ring = rte_ring_create("wt_arn_udp", 8, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
    ASSERT_NE(ring, nullptr);
    ArnPublisher arn(publisher->qsbr());
    auto t = std::make_shared<ArnTables>();
    t->enabled = true;
    t->self = 0x10;
    t->encapsulation = ArnEncapsulation::kUdp4;
    t->udp_port = 4000;
    t->fabric_ports = 0b0011;  // ports 0 and 1; port 3 is a host port
    t->reporters = {0x10, 0x20};
    t->entries.assign(2 * kArnSlots, {});
    t->entries[1 * kArnSlots + 1] = {0b0010, true, true};  // 0x20's news in on port 0: on to 1, taken
    arn.publish(t);
    ArnWorkerCounters ac;
    WorkerConfig wc;
    wc.rx = {{0, 0}, {3, 0}};
    wc.arn = &arn;
    wc.arn_ring = ring;
    wc.arn_counters = &ac;
    build(wc);
    const unsigned top = kTxQueues - 1;
    arn::ArnMessage m;
    m.reporter = 0x20;
    m.port = 4;
    m.metric = 2;
    m.sequence = 1;
    auto datagram = [&](bool ipv6, std::uint8_t ttl, std::uint16_t port) {
        arn::ArnUdpHeaders h;
        h.ipv6 = ipv6;
        h.src_mac = {2, 0, 0, 0, 0, 0x99};
        Bytes f = arn::encode_arn_udp_frame(h, m, arn::ArnUdpConfig{port});
        if (ipv6) {
            f[14 + 7] = ttl;
            return f;
        }
        f[14 + 8] = ttl;
        f[14 + 10] = f[14 + 11] = 0;  // the IPv4 header's checksum again
        std::uint32_t sum = 0;
        for (std::size_t i = 14; i < 34; i += 2) sum += std::uint32_t{f[i]} << 8 | f[i + 1];
        while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
        f[14 + 10] = static_cast<std::uint8_t>(~sum >> 8);
        f[14 + 11] = static_cast<std::uint8_t>(~sum);
        return f;
    };
    const Bytes news = datagram(false, 255, 4000);
    receive({news, datagram(true, 255, 4000)}, 0);
    poll(1'000'000);
    EXPECT_EQ(rte_ring_count(ring), 2u);
    const std::vector<Bytes> out = sent(1, top);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(Bytes(out[0].begin() + 12, out[0].end()), Bytes(news.begin() + 12, news.end()));
    EXPECT_TRUE(std::equal(out[0].begin() + 6, out[0].begin() + 12, ports().mac(1).addr_bytes));
    EXPECT_EQ(ac.received.get(), 2u);

    receive({news}, 3);
    receive({datagram(false, 254, 4000), datagram(false, 255, 4001)}, 0);
    poll(2'000'000);
    EXPECT_EQ(drops(DropReason::ArnNotFabricPort), 1u);
    EXPECT_EQ(drops(DropReason::NoRoute), 2u) << "not ARN: routed as IP, and there is no route";
    EXPECT_EQ(ac.received.get(), 3u);
    expect_accounted();
    worker.reset();
    rte_mbuf *mb[8];
    rte_pktmbuf_free_bulk(mb, rte_ring_sc_dequeue_burst(ring, reinterpret_cast<void **>(mb), 8, nullptr));
    rte_ring_free(ring);
}

}  // namespace
}  // namespace weft::dataplane
