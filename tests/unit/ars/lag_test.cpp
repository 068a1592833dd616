// LAG selection, directly and as a member of a next-hop group.
#include <gtest/gtest.h>

#include <set>

#include "rig.hpp"

namespace weft::ars {
namespace {

using test::us;

// LAG 1 = ports 4,5 and LAG 2 = ports 6,7, both with ARS object 0; NHG 9 = {LAG 1, LAG 2, port 0}.
struct LagRig : test::Rig {
    LagRig() {
        auto b = test::builder();
        b.add_lag(LagConfig{1, 0, {4, 5}});
        b.add_lag(LagConfig{2, 0, {6, 7}});
        NhgConfig nhg;
        nhg.id = 9;
        nhg.ars_object = 0;
        nhg.members = {{11, EgressTarget::lag(1), MemberRole::kPrimary, true},
                       {12, EgressTarget::lag(2), MemberRole::kPrimary, true},
                       test::primary(13, 0)};
        b.add_nhg(nhg);
        adopt(b);
    }
};

TEST(Lag, NhgPicksTheLagByAggregateQualityThenTheLagPicksItsPort) {
    LagRig rig;
    rig.board.publish_port_quality(0, 2);
    rig.board.publish_lag_quality(1, 3);
    rig.board.publish_lag_quality(2, 6);  // the best member
    rig.board.publish_port_quality(6, 1);
    rig.board.publish_port_quality(7, 5);  // the best port inside LAG 2
    for (std::uint32_t h = 0; h < 200; ++h) {
        const Egress e = rig.worker.select_nhg(9, h * 2654435761u, 0);
        EXPECT_EQ(e.member, 1);  // member index of LAG 2
        EXPECT_EQ(e.port, 7);
    }
    EXPECT_EQ(rig.worker.lag_counters(2).decisions[static_cast<int>(Mode::kFlowletQuality)], 200u);
}

TEST(Lag, PortDownInsideTheLagMovesWithinTheLagAndCountsOnTheLag) {
    LagRig rig;
    rig.board.publish_lag_quality(1, 7);
    rig.board.publish_lag_quality(2, 0);
    rig.board.publish_port_quality(0, 0);
    const Egress first = rig.worker.select_nhg(9, 0xC0FFEE, 0);
    ASSERT_TRUE(first.port == 4 || first.port == 5);
    rig.board.set_link_up(first.port, false);
    const Egress next = rig.worker.select_nhg(9, 0xC0FFEE, 1);
    EXPECT_EQ(next.member, first.member);  // same NHG member (the LAG is still up)
    EXPECT_EQ(next.port, first.port == 4 ? 5 : 4);
    EXPECT_EQ(rig.worker.lag_counters(1).link_down_reassignments, 1u);
    EXPECT_EQ(rig.worker.lag_counters(1).port_reassignments, 1u);
    EXPECT_EQ(rig.worker.lag_counters(1).next_hop_reassignments, 0u);
    EXPECT_EQ(rig.worker.nhg_counters(9).next_hop_reassignments, 0u);
}

TEST(Lag, WholeLagDownMovesTheNhgMember) {
    LagRig rig;
    rig.board.publish_lag_quality(1, 7);
    rig.board.publish_lag_quality(2, 0);
    rig.board.publish_port_quality(0, 0);
    EXPECT_EQ(rig.worker.select_nhg(9, 5, 0).member, 0);
    rig.board.set_link_up(4, false);
    rig.board.set_link_up(5, false);
    const Egress e = rig.worker.select_nhg(9, 5, 1);
    EXPECT_NE(e.member, 0);
    EXPECT_EQ(rig.worker.nhg_counters(9).link_down_reassignments, 1u);
    EXPECT_EQ(rig.worker.nhg_counters(9).port_reassignments, 1u);
}

TEST(Lag, DirectLagSelectionAndDrop) {
    LagRig rig;
    rig.board.publish_port_quality(4, 1);
    rig.board.publish_port_quality(5, 6);
    EXPECT_EQ(rig.worker.select_lag(1, 77, 0).port, 5);
    rig.board.set_link_up(4, false);
    rig.board.set_link_up(5, false);
    EXPECT_TRUE(rig.worker.select_lag(1, 77, 1).dropped());
    EXPECT_EQ(rig.worker.lag_counters(1).packet_drops, 1u);
}

TEST(Lag, LagWithoutArsObjectUsesStaticHash) {
    test::Rig rig;
    auto b = test::builder();
    b.add_lag(LagConfig{3, kNoArsObject, {8, 9, 10}});
    rig.adopt(b);
    std::set<PortId> used;
    for (std::uint32_t h = 0; h < 300; ++h) {
        const PortId p = rig.worker.select_lag(3, h * 2654435761u, 0).port;
        EXPECT_EQ(p, rig.worker.select_lag(3, h * 2654435761u, us(100000)).port);
        used.insert(p);
    }
    EXPECT_EQ(used.size(), 3u);
    EXPECT_EQ(rig.worker.lag_counters(3).static_hash_decisions, 600u);
}

}  // namespace
}  // namespace weft::ars
