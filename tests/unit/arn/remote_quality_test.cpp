// ARN into ARS: the best-path table's port bands published in the PortBoard's remote slots, and
// a worker that moves traffic off a member whose path beyond the port is congested. The last test
// runs the whole chain: detector on one switch, frame on the wire, BPT and worker on another.
#include <gtest/gtest.h>

#include <set>

#include "weft/arn/best_path_table.hpp"
#include "weft/arn/detector.hpp"
#include "weft/arn/frame.hpp"
#include "weft/arn/remote_quality.hpp"
#include "weft/ars/config.hpp"
#include "weft/ars/worker.hpp"

namespace weft::arn {
namespace {

constexpr Ticks kTicksPerUs = 10;
constexpr GroupId kDest = 2;
constexpr ars::NhgId kNhg = 1;
// This switch (1) reaches group 2 via peer 2's global link (local port 2; switch 2's port 5) or
// via group 3 through its own global port 3.
const LinkRef kToPeer2{1, 2}, kPeer2Global{2, 5}, kOwnGlobal{1, 3};

BestPathTable table() {
    BestPathTable bpt({}, kTicksPerUs);
    bpt.set_destination(kDest, {{PathKind::kViaPeer, 2, 2, {kToPeer2, kPeer2Global}},
                                {PathKind::kViaGroup, 3, 3, {kOwnGlobal}}});
    bpt.set_destination(7, {{PathKind::kDirect, 3, 1, {kOwnGlobal}}});
    return bpt;
}

ArnMessage news(ArnType type, LinkRef link, std::uint8_t metric) {
    ArnMessage m;
    m.type = type;
    m.metric = metric;
    m.reporter = link.sw;
    m.port = link.port;
    return m;
}

// The switch's ARS side: the next-hop group toward group 2, port 2 primary, port 3 alternate,
// each member reading the slot of (group 2, its port).
struct Switch {
    explicit Switch(const std::vector<RemoteSlotAssignment> &slots) : board(8, 1, slots.size()) {
        for (ars::PortId p = 0; p < 8; ++p) board.set_link_up(p, true);
        ars::ConfigBuilder b(ars::Profile{}, kTicksPerUs);
        for (ars::PortId p = 0; p < 8; ++p) b.add_port(ars::PortConfig{p, true, 10, 100, 100});
        ars::ArsObjectConfig o;
        o.id = 0;
        o.mode = ars::Mode::kPerPacketQuality;
        b.add_ars_object(o);
        ars::NhgConfig n;
        n.id = kNhg;
        n.ars_object = 0;
        for (const RemoteSlotAssignment &a : slots) {
            if (a.group != kDest) continue;
            n.members.push_back({a.port, ars::EgressTarget::port(a.port),
                                 a.port == 2 ? ars::MemberRole::kPrimary : ars::MemberRole::kAlternate, true,
                                 a.slot});
        }
        b.add_nhg(n);
        const ars::BuildResult r = b.build();
        EXPECT_TRUE(r.ok());
        worker.adopt(r.config);
    }
    std::set<ars::PortId> ports_chosen() {
        std::set<ars::PortId> seen;
        for (std::uint32_t h = 0; h < 200; ++h) seen.insert(worker.select_nhg(kNhg, h * 2654435761u, 0).port);
        return seen;
    }
    ars::PortBoard board;
    ars::Worker worker{board, 0};
};

TEST(ArnRemoteQuality, AssignsASlotPerDestinationAndFirstPort) {
    const BestPathTable bpt = table();
    const auto slots = assign_remote_slots(bpt, 10);
    EXPECT_EQ(slots, (std::vector<RemoteSlotAssignment>{{2, 2, 10}, {2, 3, 11}, {7, 3, 12}}));
}

TEST(ArnRemoteQuality, PublishesPortBandsAndOnlyChanges) {
    BestPathTable bpt = table();
    RemoteQualityPublisher pub(assign_remote_slots(bpt));
    ars::PortBoard board(4, 1, 3);
    EXPECT_EQ(pub.publish(bpt, board), 0u);  // no news: every slot at 7 already
    const BptChange c = bpt.apply(news(ArnType::kCongestionDetected, kOwnGlobal, 2), 0);
    EXPECT_EQ(c.touched, (std::vector<GroupId>{kDest, 7}));
    const std::uint64_t g = board.generation();
    EXPECT_EQ(pub.publish(bpt, board, c.touched), 2u);  // (2, port 3) and (7, port 3)
    EXPECT_GT(board.generation(), g);
    EXPECT_EQ(board.remote_quality(0), 7);
    EXPECT_EQ(board.remote_quality(1), 5);
    EXPECT_EQ(board.remote_quality(2), 5);
    EXPECT_EQ(pub.publish(bpt, board), 0u);
    // A board with fewer slots than assigned: the rest are skipped.
    ars::PortBoard small(4, 1, 1);
    EXPECT_EQ(pub.publish(bpt, small), 0u);
}

TEST(ArnRemoteQuality, AWorkerLeavesAMemberWhosePathBeyondIsCongested) {
    BestPathTable bpt = table();
    RemoteQualityPublisher pub(assign_remote_slots(bpt));
    Switch sw(pub.slots());
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{2});  // the primary, every band 7
    pub.publish(bpt, sw.board, bpt.apply(news(ArnType::kCongestionDetected, kPeer2Global, 4), 0).touched);
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{3});  // port 2 is idle, its path is not
    pub.publish(bpt, sw.board, bpt.apply(news(ArnType::kCongestionEliminated, kPeer2Global, 0), 1).touched);
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{2});
    pub.publish(bpt, sw.board,
                bpt.apply(news(ArnType::kFailureDetected, kToPeer2, kFailureLinkDown), 2).touched);
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{3});
}

TEST(ArnRemoteQuality, FromOneSwitchsDetectorToAnotherSwitchsWorker) {
    // Switch 2 watches its global link (port 5) to group 2.
    Detector detector(2, DetectorConfig{}, {{5, 100000, kDest, std::nullopt}}, kTicksPerUs);
    BestPathTable bpt = table();
    RemoteQualityPublisher pub(assign_remote_slots(bpt));
    Switch sw(pub.slots());
    auto deliver = [&](Ticks now, PortObservation o) {
        std::vector<ArnMessage> out;
        detector.sample(now, std::span(&o, 1), out);
        for (const ArnMessage &m : out) {
            const auto frame = encode_arn_frame(ArnFrameHeaders{}, m);
            const ArnFrameDecode d = decode_arn_frame(frame);
            ASSERT_TRUE(d);
            pub.publish(bpt, sw.board, bpt.apply(d.message, now).touched);
        }
    };
    deliver(0, {true, 50000, 0});
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{2});
    deliver(100 * kTicksPerUs, {true, 97000, 0});  // 97 %: severity 5
    EXPECT_EQ(bpt.news(kPeer2Global)->severity, 5);
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{3});
    EXPECT_EQ(bpt.chosen(kDest), 1u);
    deliver(200 * kTicksPerUs, {true, 30000, 0});
    EXPECT_EQ(sw.ports_chosen(), std::set<ars::PortId>{2});
    EXPECT_EQ(bpt.chosen(kDest), 0u);
}

}  // namespace
}  // namespace weft::arn
