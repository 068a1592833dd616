// Remote quality (ARN): a member with a remote slot counts with the lower of its local band and
// its slot's, so traffic leaves a member whose path beyond the port is congested before the port
// itself is busy.
#include <gtest/gtest.h>

#include <set>

#include "rig.hpp"
#include "weft/ars/capabilities.hpp"

namespace weft::ars {
namespace {

using namespace test;

constexpr NhgId kGroup = 1;

NhgMember with_slot(NhgMember m, RemoteSlot slot) {
    m.remote_slot = slot;
    return m;
}

// The ports a per-packet quality choice spreads over.
std::set<PortId> ports_chosen(Worker &w, Ticks now) {
    std::set<PortId> seen;
    for (std::uint32_t h = 0; h < 400; ++h) {
        const Egress e = w.select_nhg(kGroup, h * 2654435761u, now);
        EXPECT_FALSE(e.dropped());
        seen.insert(e.port);
    }
    return seen;
}

struct RemoteRig {
    PortBoard board{kPorts, kLags, 4};
    Worker worker{board, 0};
    std::shared_ptr<const Config> config;

    explicit RemoteRig(std::vector<NhgMember> members) {
        for (PortId p = 0; p < kPorts; ++p) board.set_link_up(p, true);
        ConfigBuilder b = builder(Mode::kPerPacketQuality);
        b.add_nhg(nhg(kGroup, 0, std::move(members)));
        config = build(b);
        worker.adopt(config);
    }
};

TEST(RemoteQuality, SlotsStartWithNoNewsAndBumpTheGeneration) {
    PortBoard board(2, 1, 3);
    EXPECT_EQ(board.remote_slot_count(), 3u);
    for (RemoteSlot s = 0; s < 3; ++s) EXPECT_EQ(board.remote_quality(s), kBestQuality);
    const std::uint64_t g = board.generation();
    board.publish_remote_quality(1, 2);
    EXPECT_EQ(board.remote_quality(1), 2);
    EXPECT_GT(board.generation(), g);
    const std::uint64_t g2 = board.generation();
    board.publish_remote_quality(1, 2);  // no change, no bump
    EXPECT_EQ(board.generation(), g2);
    EXPECT_EQ(PortBoard(2, 1).remote_slot_count(), 0u);
}

TEST(RemoteQuality, AMemberCountsWithTheLowerOfLocalAndRemote) {
    RemoteRig r({with_slot(primary(1, 1), 0), with_slot(primary(2, 2), 1)});
    EXPECT_EQ(ports_chosen(r.worker, 0), (std::set<PortId>{1, 2}));
    r.board.publish_remote_quality(0, 3);  // the path beyond port 1 is congested
    EXPECT_EQ(ports_chosen(r.worker, 1), std::set<PortId>{2});
    r.board.publish_port_quality(2, 2);  // port 2 is now busier locally than port 1's remote path
    EXPECT_EQ(ports_chosen(r.worker, 2), std::set<PortId>{1});
    r.board.publish_remote_quality(0, kBestQuality);  // eliminated
    EXPECT_EQ(ports_chosen(r.worker, 3), std::set<PortId>{1});
    r.board.publish_port_quality(2, kBestQuality);
    EXPECT_EQ(ports_chosen(r.worker, 4), (std::set<PortId>{1, 2}));
}

TEST(RemoteQuality, RemoteCongestionMovesTrafficToTheAlternatesWhileThePortsAreIdle) {
    RemoteRig r({with_slot(primary(1, 1), 0), with_slot(primary(2, 2), 1), alternate(3, 3)});
    EXPECT_EQ(ports_chosen(r.worker, 0), (std::set<PortId>{1, 2}));
    r.board.publish_remote_quality(0, 4);
    r.board.publish_remote_quality(1, 5);
    // Every local band is 7, but the primaries' paths are at 4 and 5: the alternate's 7 wins.
    EXPECT_EQ(ports_chosen(r.worker, 1), std::set<PortId>{3});
    r.board.publish_remote_quality(1, kBestQuality);
    EXPECT_EQ(ports_chosen(r.worker, 2), std::set<PortId>{2});  // a primary at 7 again: a tie stays
}

TEST(RemoteQuality, FlowletsStartOnTheBetterPathAndStayOnTheirMemberUntilIdle) {
    PortBoard board{kPorts, kLags, 1};
    for (PortId p = 0; p < kPorts; ++p) board.set_link_up(p, true);
    Worker worker{board, 0};
    ConfigBuilder b = builder(Mode::kFlowletQuality);
    b.add_nhg(nhg(kGroup, 0, {with_slot(primary(1, 1), 0), primary(2, 2)}));
    worker.adopt(build(b));
    board.publish_remote_quality(0, 1);
    for (std::uint32_t h = 0; h < 200; ++h)
        EXPECT_EQ(worker.select_nhg(kGroup, h * 2654435761u, us(1)).port, 2);
}

TEST(RemoteQuality, ASlotBeyondTheBoardIsNoNews) {
    RemoteRig r({with_slot(primary(1, 1), 0), with_slot(primary(2, 2), 1000)});
    r.board.publish_port_quality(1, 6);
    EXPECT_EQ(ports_chosen(r.worker, 0), std::set<PortId>{2});  // slot 1000: local 7 only
}

TEST(RemoteQuality, TheSlotIsCarriedIntoTheGroupWithoutGrowingItsMembers) {
    ConfigBuilder b = builder(Mode::kPerPacketQuality);
    const RemoteSlot last = static_cast<RemoteSlot>(capabilities().max_remote_slots - 1);
    b.add_nhg(nhg(kGroup, 0, {with_slot(primary(1, 1), last), primary(2, 2)}));
    const BuildResult r = b.build();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.config->nhg(kGroup)->members[0].remote_slot, last);
    EXPECT_EQ(r.config->nhg(kGroup)->members[1].remote_slot, kNoRemoteSlot);
    // The slot sits in what was padding: selection walks members at the same stride as before.
    static_assert(sizeof(GroupMember) == 12);
}

}  // namespace
}  // namespace weft::ars
