// Macro-flow buckets: stickiness, the idle-time boundary, quality and random choices, per-packet
// modes and FIXED.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "rig.hpp"

namespace weft::ars {
namespace {

using test::us;

// NHG 1 over ports 0..3, ARS object 0 in `mode`.
struct FlowletRig : test::Rig {
    explicit FlowletRig(Mode mode = Mode::kFlowletQuality, std::uint32_t members = 4) {
        auto b = test::builder(mode);
        NhgConfig nhg;
        nhg.id = 1;
        nhg.ars_object = 0;
        for (std::uint32_t m = 0; m < members; ++m)
            nhg.members.push_back(test::primary(100 + m, static_cast<PortId>(m)));
        b.add_nhg(nhg);
        adopt(b);
    }
    Egress send(std::uint32_t hash, Ticks now) { return worker.select_nhg(1, hash, now); }
};

TEST(Flowlet, BackToBackPacketsStickEvenWhenTheirPortTurnsWorst) {
    FlowletRig rig;
    const PortId first = rig.send(0xABCD, 0).port;
    rig.board.publish_port_quality(first, 0);
    for (int i = 1; i <= 1000; ++i) EXPECT_EQ(rig.send(0xABCD, us(i)).port, first) << i;  // 1 us apart
    EXPECT_EQ(rig.worker.nhg_counters(1).next_hop_reassignments, 0u);
}

TEST(Flowlet, MovesAtIdleTimePlusOneTickNotAtIdleTime) {
    FlowletRig rig;
    const Ticks idle = us(256);
    const PortId first = rig.send(0x77, 1000).port;
    for (PortId p = 0; p < 4; ++p) rig.board.publish_port_quality(p, p == first ? 1 : 5);
    // Exactly idle time after the last packet: same flowlet.
    EXPECT_EQ(rig.send(0x77, 1000 + idle).port, first);
    // Idle time + 1 tick after the last packet: new flowlet, moves off the worst port.
    const PortId moved = rig.send(0x77, 1000 + idle + idle + 1).port;
    EXPECT_NE(moved, first);
    const CounterValues c = rig.worker.nhg_counters(1);
    EXPECT_EQ(c.next_hop_reassignments, 1u);
    EXPECT_EQ(c.port_reassignments, 1u);
    EXPECT_EQ(c.link_down_reassignments, 0u);
}

TEST(Flowlet, ExpiredFlowletStaysWhenItsMemberIsStillBest) {
    FlowletRig rig;
    const PortId first = rig.send(0x42, 0).port;
    for (PortId p = 0; p < 4; ++p) rig.board.publish_port_quality(p, p == first ? 7 : 3);
    EXPECT_EQ(rig.send(0x42, us(10000)).port, first);
    EXPECT_EQ(rig.worker.nhg_counters(1).next_hop_reassignments, 0u);
}

TEST(Flowlet, QualityModeTakesTheBestBand) {
    FlowletRig rig;
    const QualityBand bands[4] = {2, 6, 5, 1};
    for (PortId p = 0; p < 4; ++p) rig.board.publish_port_quality(p, bands[p]);
    for (std::uint32_t h = 0; h < 500; ++h) EXPECT_EQ(rig.send(h * 2654435761u, 0).port, 1) << h;
    rig.board.publish_port_quality(3, 7);
    for (std::uint32_t h = 0; h < 500; ++h) EXPECT_EQ(rig.send(h * 2654435761u + 1, us(1000)).port, 3) << h;
}

TEST(Flowlet, TiesAreBrokenByTheSeededGenerator) {
    // All bands equal: new flows spread over every member, identically for identical seeds.
    FlowletRig a, b;
    std::map<PortId, int> spread;
    for (std::uint32_t h = 0; h < 2000; ++h) {
        const Egress ea = a.send(h * 2654435761u, 0);
        EXPECT_EQ(ea.port, b.send(h * 2654435761u, 0).port);
        ++spread[ea.port];
    }
    ASSERT_EQ(spread.size(), 4u);
    for (const auto &[port, n] : spread) EXPECT_GT(n, 50) << port;
}

TEST(Flowlet, DifferentSeedsOrWorkersGiveDifferentTieBreaks) {
    FlowletRig a;
    Worker second(a.board, 1);  // same seed, another worker stream
    second.adopt(a.config);
    int differ = 0;
    for (std::uint32_t h = 0; h < 512; ++h) differ += a.send(h, 0).port != second.select_nhg(1, h, 0).port;
    EXPECT_GT(differ, 100);
}

TEST(Flowlet, RandomModeIgnoresQualityAndSticksWithinAFlowlet) {
    FlowletRig rig(Mode::kFlowletRandom);
    rig.board.publish_port_quality(0, 0);
    std::set<PortId> used;
    for (std::uint32_t h = 0; h < 400; ++h) used.insert(rig.send(h * 2654435761u, 0).port);
    EXPECT_EQ(used.size(), 4u);  // the worst port gets flows too
    const PortId p = rig.send(0x5151, us(1)).port;
    for (int i = 2; i < 100; ++i) EXPECT_EQ(rig.send(0x5151, us(i)).port, p);
    EXPECT_EQ(rig.worker.nhg_counters(1).decisions[static_cast<int>(Mode::kFlowletRandom)], 400u + 99u);
}

TEST(Flowlet, PerPacketQualityChoosesEveryPacket) {
    FlowletRig rig(Mode::kPerPacketQuality);
    rig.board.publish_port_quality(2, 7);
    for (PortId p : {0, 1, 3}) rig.board.publish_port_quality(p, 3);
    EXPECT_EQ(rig.send(9, 0).port, 2);
    rig.board.publish_port_quality(2, 0);  // the very next packet of the same flow moves
    EXPECT_NE(rig.send(9, 1).port, 2);
    EXPECT_EQ(rig.worker.nhg_counters(1).decisions[static_cast<int>(Mode::kPerPacketQuality)], 2u);
}

TEST(Flowlet, PerPacketRandomSpraysOneFlow) {
    FlowletRig rig(Mode::kPerPacketRandom);
    std::set<PortId> used;
    for (int i = 0; i < 200; ++i) used.insert(rig.send(0xFEED, static_cast<Ticks>(i)).port);
    EXPECT_EQ(used.size(), 4u);
}

TEST(Flowlet, FixedKeepsAStaticHashChoice) {
    FlowletRig rig(Mode::kFixed);
    std::map<std::uint32_t, PortId> first;
    for (std::uint32_t h = 0; h < 300; ++h) first[h] = rig.send(h * 2654435761u, 0).port;
    for (PortId p = 0; p < 4; ++p) rig.board.publish_port_quality(p, static_cast<QualityBand>(p * 2));
    for (std::uint32_t h = 0; h < 300; ++h) EXPECT_EQ(rig.send(h * 2654435761u, us(5000)).port, first[h]);
    // Only flows of a dead member move; the others keep their member.
    rig.board.set_link_up(1, false);
    for (std::uint32_t h = 0; h < 300; ++h) {
        const PortId now = rig.send(h * 2654435761u, us(6000)).port;
        if (first[h] != 1) {
            EXPECT_EQ(now, first[h]);
        }
        EXPECT_NE(now, 1);
    }
}

TEST(Flowlet, LargeTablesBeyondHardwareLimits) {
    test::Rig rig;
    auto b = test::builder();
    b.add_ars_object(test::object(1, Mode::kFlowletQuality, 256, 1u << 20));
    b.add_nhg(test::nhg(3, 1, {test::primary(1, 0), test::primary(2, 1)}));
    rig.adopt(b);
    ASSERT_NE(rig.worker.nhg_table(3, 1), nullptr);
    EXPECT_EQ(rig.worker.nhg_table(3, 1)->size(), 1u << 20);
    EXPECT_FALSE(rig.worker.select_nhg(3, 12345, 0).dropped());
}

}  // namespace
}  // namespace weft::ars
