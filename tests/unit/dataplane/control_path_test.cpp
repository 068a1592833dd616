// The whole Dataplane (ports, a worker lcore, publication) on ring-backed ethdevs: the control
// thread's own path to the wire. Subnet-management frames for the switch reach drain_punted with
// their in-port while the rest is forwarded; send_from_control leaves on the control thread's TX
// queue, no worker's; a worker in idle back-off holds up no snapshot publication and still
// forwards the first frame after a pause. One Dataplane for the binary (closing the ports
// releases the ring ethdevs), with the back-off on throughout.
#include <gtest/gtest.h>
#include <rte_mbuf.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "eal_environment.hpp"
#include "frame_builder.hpp"
#include "ring_ports.hpp"
#include "weft/ars/config.hpp"
#include "weft/dataplane/ars_sampler.hpp"
#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/fib_builder.hpp"

namespace weft::dataplane {
namespace {

using test::Bytes;
using test::operator+;

// Two lcores: the test is the control thread, lcore 1 the worker.
const auto *const kEal = ::testing::AddGlobalTestEnvironment(new test::EalEnvironment("ctlpath", "-l 0-1"));

constexpr std::uint16_t kPorts = 2;
constexpr unsigned kIdleSleepMaxUs = 1000;

// IBoE frame (LRH, BTH, 8 bytes) on `vl` to `dlid`, padded to 60 bytes.
Bytes iboe(std::uint16_t dlid, std::uint8_t vl, std::uint16_t slid = 1) {
    return test::eth(kDefaultIboeEtherType) + test::lrh(vl, 0, 2, dlid, slid, 7) + test::bth(0) +
           test::zeros(8) + test::zeros(14);
}

Bytes bytes_of(const rte_mbuf *m) {
    const auto *d = rte_pktmbuf_mtod(m, const std::uint8_t *);
    return Bytes(d, d + m->data_len);
}

template <typename Pred>
bool wait_until(Pred pred, std::chrono::milliseconds limit = std::chrono::milliseconds(3000)) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

class ControlPathTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        // Port 0 receives; port 1 sends. Two TX queues each: the worker's and the control thread's.
        ports_ = new test::RingPorts("cp", kPorts, 2, -1, false);
        DataplaneConfig c;
        c.nb_workers = 1;
        c.mbufs = 4095;
        c.punt_ring_size = 64;
        c.punt_arp = true;  // as with the kernel mirror
        c.idle_sleep_max_us = kIdleSleepMaxUs;
        dp_ = new Dataplane(c);
        FibConfig fc;
        fc.num_ports = kPorts;
        fc.max_routes4 = 16;
        fc.tbl8_groups4 = 4;
        fc.max_routes6 = 16;
        fc.tbl8_groups6 = 4;
        fib_ = new FibBuilder(fc);
        ASSERT_TRUE(fib_->set_switch_lid(0x20, 0).ok());
        ASSERT_TRUE(fib_->set_lft_port(0x12, 1).ok());
        dp_->publisher().publish(fib_->build());
        for (std::uint16_t p = 0; p < kPorts; ++p) ASSERT_TRUE(dp_->port_start(p).ok());
        ASSERT_TRUE(dp_->start().ok());
    }
    static void TearDownTestSuite() {
        delete dp_;
        delete fib_;
        delete ports_;
    }

    static Totals totals() {
        Totals t;
        for (const WorkerCounters *w : dp_->counters()) {
            const WorkerReading r = read_between_rounds(*w);
            t.rx_pkts += r.totals.rx_pkts;
            t.fwd_pkts += r.totals.fwd_pkts;
            t.replicas += r.totals.replicas;
            t.punted += r.totals.punted;
            for (std::size_t i = 0; i < kDropReasonCount; ++i) t.drops[i] += r.totals.drops[i];
        }
        return t;
    }
    static void receive(const std::vector<Bytes> &frames) {
        std::vector<rte_mbuf *> ms;
        for (const Bytes &f : frames) ms.push_back(ports_->mbuf(f));
        ASSERT_TRUE(ports_->receive(0, ms));
    }
    // The punted frames, waiting until `want` have come (each checked to have come in on port 0).
    static std::vector<Bytes> drain_from_port0(std::size_t want) {
        std::vector<Bytes> got;
        wait_until([&] {
            rte_mbuf *m[8];
            const unsigned n = dp_->drain_punted(m, 8);
            for (unsigned k = 0; k < n; ++k) {
                EXPECT_EQ(m[k]->port, 0);
                got.push_back(bytes_of(m[k]));
            }
            rte_pktmbuf_free_bulk(m, n);
            return got.size() >= want;
        });
        return got;
    }
    static void expect_accounted(const Totals &t) {
        EXPECT_EQ(t.rx_pkts + t.replicas, t.fwd_pkts + t.dropped() + t.punted)
            << "rx " << t.rx_pkts << " forwarded " << t.fwd_pkts << " dropped " << t.dropped() << " punted "
            << t.punted;
    }

    static test::RingPorts *ports_;
    static Dataplane *dp_;
    static FibBuilder *fib_;
};

test::RingPorts *ControlPathTest::ports_ = nullptr;
Dataplane *ControlPathTest::dp_ = nullptr;
FibBuilder *ControlPathTest::fib_ = nullptr;

TEST_F(ControlPathTest, SubnetManagementFramesForTheSwitchReachTheControlThreadWithTheirInPort) {
    const Totals before = totals();
    const std::uint64_t drained_before = dp_->punts_drained();
    const Bytes permissive = iboe(0xFFFF, 15, 7), own = iboe(0x20, 15, 8), smp_through = iboe(0x12, 15),
                data = iboe(0x12, 0);
    receive({permissive, data, own, smp_through});
    ASSERT_TRUE(wait_until([&] { return totals().rx_pkts - before.rx_pkts == 4; }));
    const std::vector<Bytes> got = drain_from_port0(2);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0], permissive);
    EXPECT_EQ(got[1], own);
    EXPECT_EQ(dp_->punts_drained() - drained_before, 2u);
    rte_mbuf *none[4];
    EXPECT_EQ(dp_->drain_punted(none, 4), 0u);
    // The other two by the LFT, the SMP on VL15 still, on the worker's queue.
    ASSERT_TRUE(wait_until([&] { return totals().fwd_pkts - before.fwd_pkts == 2; }));
    const auto out = ports_->sent(1, 0);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0][14] >> 4, 0);
    EXPECT_EQ(out[1][14] >> 4, 15);
    EXPECT_TRUE(ports_->sent(1, 1).empty());
    const Totals t = totals();
    EXPECT_EQ(t.punted - before.punted, 2u);
    expect_accounted(t);
}

// The kernel mirror's frames: those routed to a Local group (even with TTL 1, as eBGP's and
// OSPF's are) and ARP reach the control thread with their in-port; other IP frames are routed.
TEST_F(ControlPathTest, FramesForTheSwitchItselfAndArpReachTheControlThread) {
    ASSERT_TRUE(fib_->set_nhg(90, {NhgMemberSpec{1, std::nullopt, 1}}, NhgMode::Local).ok());
    const auto own = *IpPrefix::parse("10.0.0.1/32");
    ASSERT_TRUE(fib_->add_route(own, 90).ok());
    dp_->publisher().publish(fib_->build());
    const Totals before = totals();
    const Bytes to_switch = test::eth(0x0800) + test::ipv4(17, 0x0A000002, 0x0A000001, 8 + 18, 1) +
                            test::udp(179, 179, 18) + test::zeros(18);
    const Bytes arp = test::eth(0x0806) + test::zeros(28) + test::zeros(18);
    const Bytes elsewhere = test::eth(0x0800) + test::ipv4(17, 0x0A000002, 0x0A000009, 8 + 18, 64) +
                            test::udp(1, 2, 18) + test::zeros(18);
    receive({to_switch, arp, elsewhere});
    ASSERT_TRUE(wait_until([&] { return totals().rx_pkts - before.rx_pkts == 3; }));
    const std::vector<Bytes> got = drain_from_port0(2);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0], to_switch);  // untouched: no TTL decrement, no MAC rewrite
    EXPECT_EQ(got[1], arp);
    const Totals t = totals();
    EXPECT_EQ(t.punted - before.punted, 2u);
    EXPECT_EQ(t.drops[static_cast<std::size_t>(DropReason::NoRoute)] -
                  before.drops[static_cast<std::size_t>(DropReason::NoRoute)],
              1u);
    expect_accounted(t);
    // A Local group's member takes no neighbour's MAC, so it holds none from deletion.
    const IpAddr peer = *IpAddr::parse("10.0.0.7");
    ASSERT_TRUE(fib_->set_neighbour(peer, rte_ether_addr{{0x02, 0, 0, 0, 0, 0x07}}, 1).ok());
    EXPECT_TRUE(fib_->del_neighbour(peer).ok());
    ASSERT_TRUE(fib_->del_route(own).ok());
    ASSERT_TRUE(fib_->del_nhg(90).ok());
    dp_->publisher().publish(fib_->build());
}

// A blackhole: frames routed to a Drop group (no members) are dropped and counted as such, at
// any TTL, and a more specific route through it still forwards.
TEST_F(ControlPathTest, FramesRoutedToADropGroupAreDroppedAsBlackhole) {
    ASSERT_TRUE(fib_->set_nhg(91, {}, NhgMode::Drop).ok());
    const auto hole = *IpPrefix::parse("10.0.9.0/24");
    ASSERT_TRUE(fib_->add_route(hole, 91).ok());
    dp_->publisher().publish(fib_->build());
    const Totals before = totals();
    auto frame = [](std::uint8_t ttl) {
        return test::eth(0x0800) + test::ipv4(17, 0x0A000002, 0x0A000905, 8 + 18, ttl) + test::udp(1, 2, 18) +
               test::zeros(18);
    };
    receive({frame(64), frame(1)});
    ASSERT_TRUE(wait_until([&] { return totals().rx_pkts - before.rx_pkts == 2; }));
    const Totals t = totals();
    EXPECT_EQ(t.drops[static_cast<std::size_t>(DropReason::Blackhole)] -
                  before.drops[static_cast<std::size_t>(DropReason::Blackhole)],
              2u);
    EXPECT_EQ(t.punted, before.punted);
    expect_accounted(t);
    ASSERT_TRUE(fib_->del_route(hole).ok());
    ASSERT_TRUE(fib_->del_nhg(91).ok());
    dp_->publisher().publish(fib_->build());
}

TEST_F(ControlPathTest, TheControlThreadSendsOnItsOwnQueueAndCountsWhatFails) {
    ASSERT_TRUE(dp_->port_status(1).control_tx);
    EXPECT_EQ(dp_->control_tx_queue(), 1);
    const Bytes f = iboe(0xFFFF, 15, 0x20);
    auto mbuf = [&] {
        rte_mbuf *m = dp_->alloc_control_mbuf();
        EXPECT_NE(m, nullptr);
        std::memcpy(rte_pktmbuf_append(m, static_cast<std::uint16_t>(f.size())), f.data(), f.size());
        return m;
    };
    const ControlTxTotals before = dp_->control_tx(1);
    EXPECT_TRUE(dp_->send_from_control(1, mbuf()));
    const auto out = ports_->sent(1, 1);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], f);
    EXPECT_TRUE(ports_->sent(1, 0).empty()) << "the workers' queue is not the control thread's";
    EXPECT_EQ(dp_->control_tx(1).sent - before.sent, 1u);

    EXPECT_FALSE(dp_->send_from_control(kPorts, mbuf()));  // no such port: freed, not counted
    ASSERT_TRUE(dp_->set_link(1, false).ok());
    EXPECT_FALSE(dp_->send_from_control(1, mbuf()));
    ASSERT_TRUE(dp_->set_link(1, true).ok());
    EXPECT_TRUE(ports_->sent(1, 1).empty());
    EXPECT_EQ(dp_->control_tx(1).failed - before.failed, 1u);
    EXPECT_EQ(dp_->control_tx(1).sent - before.sent, 1u);
}

// Idle, the worker sleeps up to the bound between polls (a few hundred rounds a second, not
// millions). Asleep it is offline: a snapshot published meanwhile is reclaimed at once, without
// waiting for the worker to wake. The first frame after the pause is forwarded.
TEST_F(ControlPathTest, AnIdleWorkerSleepsHoldsNoGracePeriodAndForwardsTheNextFrame) {
    const WorkerCounters &w = *dp_->counters()[0];
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // well past 1 + 2 + ... + 1000 us
    const std::uint64_t loops = w.loops.get(), sleeps = w.idle_sleeps.get(), slept = w.idle_sleep_us.get();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const std::uint64_t d_loops = w.loops.get() - loops, d_sleeps = w.idle_sleeps.get() - sleeps;
    EXPECT_GT(d_sleeps, 0u);
    EXPECT_LE(d_loops, d_sleeps + 1);  // every round but one in progress ended asleep
    EXPECT_LT(d_loops, 1000u) << "100 ms of 1 ms sleeps";
    EXPECT_EQ((w.idle_sleep_us.get() - slept) / d_sleeps, kIdleSleepMaxUs) << "asleep at the bound";

    // Immediately reclaimed: the worker did not have to pass a quiescent state first. A worker
    // that slept online would hold every one of these up for up to a millisecond.
    unsigned at_once = 0;
    constexpr unsigned kPublications = 20;
    for (unsigned k = 0; k < kPublications; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        dp_->publisher().publish(fib_->build());
        if (dp_->publisher().retired() == 0) ++at_once;
        dp_->publisher().synchronize();
    }
    EXPECT_GE(at_once, kPublications / 2);
    std::printf("%u of %u publications reclaimed at once\n", at_once, kPublications);

    const Totals before = totals();
    const auto t0 = std::chrono::steady_clock::now();
    receive({iboe(0x12, 0, 9)});
    std::vector<Bytes> out;
    ASSERT_TRUE(wait_until([&] {
        out = ports_->sent(1, 0);
        return !out.empty();
    }));
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
    std::printf("the first frame after the pause left after %lld us\n", static_cast<long long>(us));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(test::get16(out[0], 20), 9);  // its SLID
    const Totals t = totals();
    EXPECT_EQ(t.fwd_pkts - before.fwd_pkts, 1u);
    expect_accounted(t);
}

// The ARS quality sampler backs off with the workers: idle, it wakes about once per bound and
// still accounts for every sampling interval.
TEST_F(ControlPathTest, TheQualitySamplerBacksOffWhileNoPortSends) {
    ars::ConfigBuilder b(ars::Profile{}, 1000);  // 16 us sampling interval
    for (ars::PortId p = 0; p < kPorts; ++p) b.add_port(ars::PortConfig{p, true, 10, 100, 100});
    const auto built = b.build();
    ASSERT_TRUE(built.ok());
    ArsSampler sampler(*dp_);
    sampler.set_config(built.config);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::uint64_t rounds = sampler.rounds(), wakeups = sampler.wakeups();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const std::uint64_t d_rounds = sampler.rounds() - rounds, d_wakeups = sampler.wakeups() - wakeups;
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
    sampler.stop();
    const std::uint64_t intervals = static_cast<std::uint64_t>(us) / 16;
    EXPECT_GE(d_rounds, intervals * 9 / 10) << "every interval sampled";
    EXPECT_LE(d_wakeups, static_cast<std::uint64_t>(us) / kIdleSleepMaxUs * 2 + 10)
        << "about one wake-up per " << kIdleSleepMaxUs << " us, not per 16 us (" << intervals
        << " intervals)";
    EXPECT_GT(d_wakeups, 0u);
}

}  // namespace
}  // namespace weft::dataplane
