// Per-worker state across config snapshots, the burst API, and counters summed over workers.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "rig.hpp"

namespace weft::ars {
namespace {

using test::us;

ConfigBuilder three_members(std::vector<NhgMember> members) {
    auto b = test::builder();
    NhgConfig nhg;
    nhg.id = 5;
    nhg.ars_object = 0;
    nhg.members = std::move(members);
    b.add_nhg(nhg);
    return b;
}

TEST(Worker, FlowStateSurvivesASnapshotChange) {
    test::Rig rig;
    rig.adopt(three_members({test::primary(1, 0), test::primary(2, 1), test::primary(3, 2)}));
    std::map<std::uint32_t, PortId> before;
    for (std::uint32_t h = 0; h < 200; ++h) before[h] = rig.worker.select_nhg(5, h * 2654435761u, 0).port;
    // New snapshot: members reordered, one removed, one added. Make the new one by far the best.
    rig.board.publish_port_quality(3, 7);
    for (PortId p = 0; p < 3; ++p) rig.board.publish_port_quality(p, 1);
    rig.adopt(three_members({test::primary(3, 2), test::primary(9, 3), test::primary(1, 0)}));
    int kept = 0;
    for (std::uint32_t h = 0; h < 200; ++h) {
        const PortId now = rig.worker.select_nhg(5, h * 2654435761u, 1).port;
        if (before[h] == 1) {
            EXPECT_EQ(now, 3);  // member 2 was removed: moved at once, to the best
        } else {
            EXPECT_EQ(now, before[h]);  // still in its flowlet on the same member
            ++kept;
        }
    }
    EXPECT_GT(kept, 0);
}

TEST(Worker, ChangingTheTableSizeStartsAFreshTable) {
    test::Rig rig;
    auto b = three_members({test::primary(1, 0), test::primary(2, 1)});
    rig.adopt(b);
    rig.worker.select_nhg(5, 1, 0);
    const MacroFlowTable *t = rig.worker.nhg_table(5, 0);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->size(), 512u);
    ConfigBuilder b3(Profile{}, test::kTicksPerUs);
    for (PortId p = 0; p < test::kPorts; ++p) b3.add_port(PortConfig{p, true, 10, 100, 100});
    b3.add_ars_object(test::object(0, Mode::kFlowletQuality, 256, 2048));
    b3.add_nhg(test::nhg(5, 0, {test::primary(1, 0), test::primary(2, 1)}));
    rig.adopt(b3);
    EXPECT_EQ(rig.worker.nhg_table(5, 0)->size(), 2048u);
}

TEST(Worker, RemovedGroupLosesItsCounters) {
    test::Rig rig;
    rig.adopt(three_members({test::primary(1, 0)}));
    rig.worker.select_nhg(5, 1, 0);
    EXPECT_EQ(rig.worker.nhg_counters(5).decisions[0], 1u);
    rig.adopt(test::builder());
    EXPECT_EQ(rig.worker.nhg_counters(5).decisions[0], 0u);
    EXPECT_TRUE(rig.worker.select_nhg(5, 1, 1).dropped());  // unknown id: dropped, no crash
}

TEST(Worker, BurstGivesTheSameAnswersAsSinglePackets) {
    test::Rig one, many;
    auto b =
        three_members({test::primary(1, 0), test::primary(2, 1), test::primary(3, 2), test::alternate(4, 3)});
    one.adopt(b);
    many.adopt(b);
    std::vector<SelectRequest> requests;
    for (std::uint32_t i = 0; i < 100; ++i) requests.push_back({(i % 37) * 2654435761u, 5, {}});
    std::vector<Egress> out(requests.size());
    many.worker.select_nhg_burst(requests, 0, out);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const Egress e = one.worker.select_nhg(5, requests[i].flow_hash, 0);
        EXPECT_EQ(e.port, out[i].port) << i;
        EXPECT_EQ(e.member, out[i].member) << i;
    }
    // The burst counts what the single-packet path counts.
    const CounterValues a = one.worker.nhg_counters(5), c = many.worker.nhg_counters(5);
    EXPECT_EQ(a.decisions, c.decisions);
    EXPECT_EQ(a.next_hop_reassignments, c.next_hop_reassignments);
    EXPECT_EQ(a.port_reassignments, c.port_reassignments);
    EXPECT_EQ(a.packet_drops, c.packet_drops);
}

// The caller-driven flowlet burst (begin / select_in_burst / end) against single packets, over
// bursts that continue flowlets, let them expire, follow quality changes and a link going down,
// with a LAG member (the burst's slow path) among port members.
TEST(Worker, FlowletBurstGivesTheSameAnswersAsSinglePackets) {
    test::Rig one, many;
    for (test::Rig *r : {&one, &many})
        for (PortId p = 0; p < test::kPorts; ++p) r->board.publish_port_quality(p, kBestQuality);
    auto b = test::builder();
    ArsObjectConfig monitored = test::object(1, Mode::kFlowletQuality);
    monitored.monitoring = true;
    b.add_ars_object(monitored);
    b.add_lag(LagConfig{1, 0, {6, 7}});
    NhgConfig nhg;
    nhg.id = 5;
    nhg.ars_object = 1;
    nhg.members = {test::primary(1, 0),
                   test::primary(2, 1),
                   {3, EgressTarget::lag(1), MemberRole::kPrimary, true},
                   test::primary(4, 2)};
    b.add_nhg(nhg);
    one.adopt(b);
    many.adopt(b);
    int events[2] = {0, 0};
    auto count = [](void *c, const ReassignEvent &) { ++*static_cast<int *>(c); };
    one.worker.set_monitor_hook(MonitorHook{count, &events[0]});
    many.worker.set_monitor_hook(MonitorHook{count, &events[1]});
    std::uint32_t x = 12345;
    Ticks now = 0;
    std::map<PortId, int> sent_to;
    for (int burst = 0; burst < 60; ++burst) {
        now += us(burst % 7 == 0 ? 400 : 20);  // every seventh burst after an idle gap
        if (burst == 20) {                     // qualities change: new flowlets go elsewhere
            for (test::Rig *r : {&one, &many}) r->board.publish_port_quality(1, 3);
        }
        if (burst == 40) {  // a port goes down: its flowlets move at once
            for (test::Rig *r : {&one, &many}) r->board.set_link_up(0, false);
        }
        Worker::FlowletBurst fb;
        ASSERT_TRUE(many.worker.begin_flowlet_burst(5, now, fb));
        std::vector<std::uint32_t> hashes;
        for (int i = 0; i < 32; ++i) {
            x = x * 1664525u + 1013904223u;
            hashes.push_back(x % 97 * 2654435761u);  // few flows, so most continue a flowlet
        }
        for (std::uint32_t h : hashes) many.worker.prefetch_in_burst(fb, h);
        for (std::size_t i = 0; i < hashes.size(); ++i) {
            const Egress got = many.worker.select_in_burst(fb, hashes[i]);
            const Egress want = one.worker.select_nhg(5, hashes[i], now);
            ASSERT_EQ(got.port, want.port) << burst << " " << i;
            ASSERT_EQ(got.member, want.member) << burst << " " << i;
            ++sent_to[got.port];
        }
        many.worker.end_flowlet_burst(fb);
    }
    const CounterValues a = one.worker.nhg_counters(5), c = many.worker.nhg_counters(5);
    EXPECT_EQ(a.decisions, c.decisions);
    EXPECT_EQ(a.next_hop_reassignments, c.next_hop_reassignments);
    EXPECT_EQ(a.port_reassignments, c.port_reassignments);
    EXPECT_EQ(a.link_down_reassignments, c.link_down_reassignments);
    EXPECT_EQ(a.packet_drops, c.packet_drops);
    EXPECT_GT(a.link_down_reassignments, 0u);
    EXPECT_GT(sent_to[0], 0);               // a port member (the inline path)
    EXPECT_GT(sent_to[6] + sent_to[7], 0);  // the LAG member (the slow path)
    EXPECT_GT(events[0], 0);
    EXPECT_EQ(events[0], events[1]);
}

// The caller's inline step (flowlet_step / continue_flowlet, then select_in_burst for what it
// does not answer) against single packets, with gaps of exactly the idle time and one tick
// more, and with the 48-bit time wrapping: its idle test must agree with idle_for() <= idle.
TEST(Worker, FlowletStepGivesTheSameAnswersAsSinglePackets) {
    test::Rig one, many;
    for (test::Rig *r : {&one, &many})
        for (PortId p = 0; p < test::kPorts; ++p) r->board.publish_port_quality(p, kBestQuality);
    auto b = test::builder();
    b.add_ars_object(test::object(1, Mode::kFlowletRandom));
    NhgConfig nhg;
    nhg.id = 5;
    nhg.ars_object = 1;
    nhg.members = {test::primary(1, 0), test::primary(2, 1), test::primary(4, 2)};
    b.add_nhg(nhg);
    one.adopt(b);
    many.adopt(b);
    const Ticks idle = us(256);
    std::uint32_t x = 777;
    Ticks now = MacroFlowTable::kTimeMask - 3 * idle;  // wraps after a few bursts
    std::uint64_t continued = 0;
    for (int burst = 0; burst < 40; ++burst) {
        now += burst % 3 == 0 ? idle : burst % 3 == 1 ? idle + 1 : 1;
        Worker::FlowletBurst fb;
        ASSERT_TRUE(many.worker.begin_flowlet_burst(5, now, fb));
        const Worker::FlowletStep step = many.worker.flowlet_step(fb, ~std::uint64_t{0});
        std::uint64_t stepped = 0;
        for (int i = 0; i < 32; ++i) {
            x = x * 1664525u + 1013904223u;
            const std::uint32_t h = x % 13 * 2654435761u;  // few flows: most have a bucket
            const MacroFlowTable *table = many.worker.nhg_table(5, 1);
            const MacroFlowTable::Bucket before = *table->bucket(table->index_of(h));
            const bool continues = !before.empty() && before.idle_for(now) <= idle;
            const Egress want = one.worker.select_nhg(5, h, now);
            const std::uint16_t k = step.continue_flowlet(h);
            ASSERT_EQ(k != Egress::kNoMember, continues) << burst << " " << i;
            Egress got;
            if (k != Egress::kNoMember) {
                ++stepped;
                got = Egress{many.worker.burst_port(fb, k), k};
            } else {
                got = many.worker.select_in_burst(fb, h);
            }
            ASSERT_EQ(got.port, want.port) << burst << " " << i;
            ASSERT_EQ(got.member, want.member) << burst << " " << i;
        }
        many.worker.count_continued(fb, stepped);
        many.worker.end_flowlet_burst(fb);
        continued += stepped;
    }
    const CounterValues a = one.worker.nhg_counters(5), c = many.worker.nhg_counters(5);
    EXPECT_EQ(a.decisions, c.decisions);
    EXPECT_EQ(a.next_hop_reassignments, c.next_hop_reassignments);
    EXPECT_GT(continued, 0u);
    EXPECT_GT(a.next_hop_reassignments, 0u);
}

// FlowletStep::decide() starts new flowlets itself where it can: the same members, draws and
// counters as select_nhg packet by packet, while links go down and come back (moves forced off
// a down member are tallied as such), in both flowlet modes, with quality bands that differ,
// and when the caller cannot send to a live member (then the step starts nothing and
// select_in_burst decides those packets).
TEST(Worker, FlowletStepStartsFlowletsAsSelectDoes) {
    for (Mode mode : {Mode::kFlowletQuality, Mode::kFlowletRandom}) {
        for (std::uint64_t usable : {~std::uint64_t{0}, std::uint64_t{0b1011}}) {
            test::Rig one, many;
            auto b = test::builder();
            ArsObjectConfig object = test::object(1, mode);
            object.idle_time_us = 1;
            b.add_ars_object(object);
            NhgConfig nhg;
            nhg.id = 5;
            nhg.ars_object = 1;
            nhg.members = {test::primary(1, 0), test::primary(2, 1), test::primary(3, 2),
                           test::primary(4, 3)};
            b.add_nhg(nhg);
            one.adopt(b);
            many.adopt(b);
            std::uint32_t x = 4242;
            Ticks now = us(10);
            std::uint64_t started = 0, deferred = 0;
            for (int burst = 0; burst < 60; ++burst) {
                for (test::Rig *r : {&one, &many}) {
                    for (PortId p = 0; p < test::kPorts; ++p)
                        r->board.publish_port_quality(p, static_cast<QualityBand>((p + burst / 7) % 8));
                    r->board.set_link_up(3, burst % 10 < 6);   // member 3
                    r->board.set_link_up(1, burst % 17 != 5);  // member 1
                }
                now += burst % 2 == 0 ? us(2) : 1;
                Worker::FlowletBurst fb;
                ASSERT_TRUE(many.worker.begin_flowlet_burst(5, now, fb));
                const Worker::FlowletStep step = many.worker.flowlet_step(fb, usable);
                std::uint64_t stepped = 0;
                for (int i = 0; i < 32; ++i) {
                    x = x * 1664525u + 1013904223u;
                    const std::uint32_t h = x % 29 * 2654435761u;
                    const Egress want = one.worker.select_nhg(5, h, now);
                    const std::uint16_t k = step.decide(h);
                    Egress got;
                    if (k != Egress::kNoMember) {
                        ++stepped;
                        got = Egress{many.worker.burst_port(fb, k), k};
                    } else {
                        ++deferred;
                        got = many.worker.select_in_burst(fb, h);
                    }
                    ASSERT_EQ(got.port, want.port) << to_string(mode) << " " << burst << " " << i;
                    ASSERT_EQ(got.member, want.member) << to_string(mode) << " " << burst << " " << i;
                }
                many.worker.count_continued(fb, stepped);
                many.worker.end_flowlet_burst(fb);
                started += stepped;
            }
            const CounterValues a = one.worker.nhg_counters(5), c = many.worker.nhg_counters(5);
            EXPECT_EQ(a.decisions, c.decisions);
            EXPECT_EQ(a.packet_drops, c.packet_drops);
            EXPECT_EQ(a.next_hop_reassignments, c.next_hop_reassignments);
            EXPECT_EQ(a.port_reassignments, c.port_reassignments);
            EXPECT_EQ(a.link_down_reassignments, c.link_down_reassignments);
            EXPECT_GT(a.link_down_reassignments, 0u);
            EXPECT_GT(started, 0u);
            // With a live member the caller cannot send to, the step starts nothing.
            if (usable != ~std::uint64_t{0}) {
                EXPECT_GT(deferred, 0u);
            }
        }
    }
}

TEST(Worker, FlowletBurstOnlyForFlowletModes) {
    for (Mode mode : {Mode::kPerPacketQuality, Mode::kPerPacketRandom, Mode::kFixed}) {
        test::Rig rig;
        auto b = test::builder(mode);
        b.add_nhg(test::nhg(5, 0, {test::primary(1, 0), test::primary(2, 1)}));
        rig.adopt(b);
        Worker::FlowletBurst fb;
        EXPECT_FALSE(rig.worker.begin_flowlet_burst(5, 0, fb)) << to_string(mode);
    }
    test::Rig rig;
    rig.adopt(three_members({test::primary(1, 0)}));
    Worker::FlowletBurst fb;
    EXPECT_FALSE(rig.worker.begin_flowlet_burst(6, 0, fb));  // not configured
    EXPECT_TRUE(rig.worker.begin_flowlet_burst(5, 0, fb));
    rig.worker.end_flowlet_burst(fb);
}

TEST(Worker, CountersSumOverWorkers) {
    test::Rig rig;
    rig.adopt(three_members({test::primary(1, 0), test::primary(2, 1)}));
    Worker second(rig.board, 1);
    second.adopt(rig.config);
    for (int i = 0; i < 3; ++i) rig.worker.select_nhg(5, static_cast<std::uint32_t>(i), 0);
    for (int i = 0; i < 4; ++i) second.select_nhg(5, static_cast<std::uint32_t>(i), 0);
    const Worker *workers[] = {&rig.worker, &second};
    EXPECT_EQ(sum_nhg_counters(workers, 5).decisions[static_cast<int>(Mode::kFlowletQuality)], 7u);
}

TEST(MacroFlowTable, BucketPacksTimeAndMember) {
    MacroFlowTable t(8);
    EXPECT_EQ(t.size(), 8u);
    EXPECT_TRUE(t.bucket(3)->empty());
    *t.bucket(3) = MacroFlowTable::Bucket::make(12, 1000);
    EXPECT_EQ(t.bucket(3)->member(), 12);
    EXPECT_EQ(t.bucket(3)->last_seen(), 1000u);
    EXPECT_EQ(t.bucket(3)->idle_for(1500), 500u);
    // Time wraps modulo 2^48 without a false idle gap.
    const Ticks near_wrap = MacroFlowTable::kTimeMask - 5;
    *t.bucket(3) = MacroFlowTable::Bucket::make(1, near_wrap);
    EXPECT_EQ(t.bucket(3)->idle_for(near_wrap + 10), 10u);
    for (std::uint32_t h = 0; h < 1000; ++h) EXPECT_LT(t.index_of(h), 8u);
}

TEST(Rng, DeterministicAndBounded) {
    Rng a(42, 0), b(42, 0), c(42, 1);
    int same = 0;
    for (int i = 0; i < 100; ++i) {
        const std::uint32_t x = a.below(10);
        EXPECT_EQ(x, b.below(10));
        EXPECT_LT(x, 10u);
        same += x == c.below(10);
    }
    EXPECT_LT(same, 40);
}

}  // namespace
}  // namespace weft::ars
