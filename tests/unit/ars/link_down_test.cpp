// Link failure: buckets on a dead member move on their next packet, counted; nothing up drops.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "rig.hpp"

namespace weft::ars {
namespace {

using test::us;

struct LinkRig : test::Rig {
    LinkRig() {
        auto b = test::builder();
        NhgConfig nhg;
        nhg.id = 7;
        nhg.ars_object = 0;
        nhg.members = {test::primary(1, 0), test::primary(2, 1), test::primary(3, 2)};
        b.add_nhg(nhg);
        adopt(b);
    }
};

TEST(LinkDown, BucketMovesOnItsNextPacketWithoutWaitingForIdle) {
    LinkRig rig;
    // 20 flows on port 0, each in its own bucket (the counters count buckets, not flows).
    const MacroFlowTable *table = rig.worker.nhg_table(7, 0);
    std::set<std::uint32_t> buckets;
    std::vector<std::uint32_t> on_port0;
    for (std::uint32_t h = 0; on_port0.size() < 20; ++h) {
        const std::uint32_t hash = h * 2654435761u;
        if (rig.worker.select_nhg(7, hash, 0).port == 0 && buckets.insert(table->index_of(hash)).second)
            on_port0.push_back(hash);
    }
    rig.board.set_link_up(0, false);
    // 1 tick later, far inside the idle time.
    for (std::uint32_t h : on_port0) EXPECT_NE(rig.worker.select_nhg(7, h, 1).port, 0);
    CounterValues c = rig.worker.nhg_counters(7);
    EXPECT_EQ(c.link_down_reassignments, 20u);
    EXPECT_EQ(c.next_hop_reassignments, 20u);
    EXPECT_EQ(c.port_reassignments, 20u);
    EXPECT_EQ(c.packet_drops, 0u);
    // Moved once: the next packets stick to the new member.
    for (std::uint32_t h : on_port0) rig.worker.select_nhg(7, h, 2);
    EXPECT_EQ(rig.worker.nhg_counters(7).link_down_reassignments, 20u);
}

TEST(LinkDown, LinkBackUpDoesNotPullActiveFlowletsBack) {
    LinkRig rig;
    std::uint32_t h = 0;
    while (rig.worker.select_nhg(7, h, 0).port != 1) ++h;
    rig.board.set_link_up(1, false);
    const PortId moved = rig.worker.select_nhg(7, h, 1).port;
    rig.board.set_link_up(1, true);
    EXPECT_EQ(rig.worker.select_nhg(7, h, 2).port, moved);
}

TEST(LinkDown, NoMemberUpDropsAndCounts) {
    LinkRig rig;
    for (PortId p = 0; p < 3; ++p) rig.board.set_link_up(p, false);
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(rig.worker.select_nhg(7, 99, us(i)).dropped());
    EXPECT_EQ(rig.worker.nhg_counters(7).packet_drops, 5u);
    rig.board.set_link_up(2, true);
    EXPECT_EQ(rig.worker.select_nhg(7, 99, us(10)).port, 2);
}

TEST(LinkDown, AdminDownAndArsDisabledMembersGetNoTraffic) {
    test::Rig rig;
    ConfigBuilder b(Profile{}, test::kTicksPerUs);
    b.add_port(PortConfig{0, true, 10, 100, 100});
    b.add_port(PortConfig{1, false, 10, 100, 100});  // ARS disabled on the port
    b.add_port(PortConfig{2, true, 10, 100, 100});
    b.add_ars_object(test::object(0, Mode::kFlowletQuality));
    NhgConfig nhg;
    nhg.id = 0;
    nhg.ars_object = 0;
    nhg.members = {test::primary(1, 0), test::primary(2, 1), test::primary(3, 2)};
    nhg.members[0].admin_up = false;
    b.add_nhg(nhg);
    rig.adopt(b);
    for (std::uint32_t h = 0; h < 200; ++h) EXPECT_EQ(rig.worker.select_nhg(0, h * 2654435761u, 0).port, 2);
}

TEST(LinkDown, AlternatesTakeOverWhenEveryPrimaryIsDown) {
    test::Rig rig;
    auto b = test::builder();
    NhgConfig nhg;
    nhg.id = 2;
    nhg.ars_object = 0;
    nhg.path_selection.alternate_cost = 8;  // alternates never win on quality
    nhg.members = {test::primary(1, 0), test::alternate(2, 5)};
    b.add_nhg(nhg);
    rig.adopt(b);
    EXPECT_EQ(rig.worker.select_nhg(2, 1, 0).port, 0);
    rig.board.set_link_up(0, false);
    EXPECT_EQ(rig.worker.select_nhg(2, 1, 1).port, 5);
    EXPECT_EQ(rig.worker.nhg_counters(2).link_down_reassignments, 1u);
}

}  // namespace
}  // namespace weft::ars
