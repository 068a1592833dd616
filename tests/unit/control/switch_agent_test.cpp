// SwitchAgent on a configured Dataplane (ring ethdevs, no worker started): what an SM sets in the
// switch's Sma becomes the published snapshot, one publication per batch. The SMPs come in as
// an SM on this switch sends them (Sma::originate from port 0, directed route with no hops), the
// path the in-switch SM takes; the frame path is the integration test's (weft_iboe_fabric).
#include <gtest/gtest.h>

#include <memory>

#include "eal_environment.hpp"
#include "ring_ports.hpp"
#include "weft/control/cli.hpp"
#include "weft/control/fabric/switch_agent.hpp"
#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/sl_to_vl_table.hpp"
#include "weft/sm/vendor_fib_state.hpp"

namespace weft::control::fabric {
namespace {

namespace dp = weft::dataplane;

const auto *const kEal =
    ::testing::AddGlobalTestEnvironment(new dp::test::EalEnvironment("swagent", "-l 0-1"));

constexpr std::uint16_t kPorts = 3;

class SwitchAgentTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        ports_ = new dp::test::RingPorts("sa", kPorts, 2, -1, false);
        dp::DataplaneConfig c;
        c.nb_workers = 1;
        c.mbufs = 2047;
        dp_ = new dp::Dataplane(c);
        dp::FibConfig fc;
        fc.num_ports = kPorts;
        fc.max_routes4 = 16;
        fc.tbl8_groups4 = 4;
        fc.max_routes6 = 16;
        fc.tbl8_groups6 = 4;
        fib_ = new dp::FibBuilder(fc);
    }
    static void TearDownTestSuite() {
        delete fib_;
        delete dp_;
        delete ports_;
    }
    void SetUp() override {
        ctx_.dp = dp_;
        ctx_.fib = fib_;
        ars_init(ctx_);
        ASSERT_TRUE(commit(ctx_, nullptr));
        SwitchAgentConfig a;
        a.node_guid = 0x0002C90000C00001;
        a.description = "unit";
        a.fabric_ports = {0, 1, 2};
        agent_ = std::make_unique<SwitchAgent>(ctx_, a);
    }

    // An SMP of the SM on this switch to the switch itself; the reply's data.
    sm::SmpData local(sm::Method method, std::uint16_t attr, std::uint32_t mod,
                      const sm::SmpData &data = {}) {
        sm::Smp s = sm::make_dr_smp(method, attr, mod, {}, ++tid_);
        s.data = data;
        const auto bytes = sm::encode_smp(s);
        EXPECT_TRUE(bytes.ok());
        const sm::SmaOutput out = agent_->sma().originate(0, *bytes, SwitchAgent::now());
        EXPECT_EQ(out.action, sm::SmaAction::kToSm);
        const auto reply = sm::decode_smp(out.bytes);
        EXPECT_TRUE(reply.ok());
        EXPECT_EQ(reply->status, 0) << "attribute 0x" << std::hex << attr;
        return reply->data;
    }
    const dp::FibSnapshot &snapshot() { return *dp_->publisher().current(); }

    static dp::test::RingPorts *ports_;
    static dp::Dataplane *dp_;
    static dp::FibBuilder *fib_;
    CommandContext ctx_;
    std::unique_ptr<SwitchAgent> agent_;
    std::uint64_t tid_ = 0;
};
dp::test::RingPorts *SwitchAgentTest::ports_ = nullptr;
dp::Dataplane *SwitchAgentTest::dp_ = nullptr;
dp::FibBuilder *SwitchAgentTest::fib_ = nullptr;

TEST_F(SwitchAgentTest, ABatchOfSetsIsOnePublicationOfLftLidMftAndSl2vl) {
    const std::uint64_t published = agent_->publisher().counters().publications;
    // LFT block 0: LID 1 -> IB port 2, LID 2 -> port 0 (the switch), LID 4 -> port 3, LID 3 none.
    sm::LftBlock lft;
    lft.ports.fill(sm::kNoPort);
    lft.ports[1] = 2;
    lft.ports[2] = 0;
    lft.ports[4] = 3;
    local(sm::Method::kSet, sm::attr::kLinearForwardingTable, 0, *sm::encode_lft_block(lft));
    // The switch's LID 2 (port 0's PortInfo).
    const auto pi = sm::decode_port_info(local(sm::Method::kGet, sm::attr::kPortInfo, 0));
    ASSERT_TRUE(pi.ok());
    sm::PortInfo want = *pi;
    want.lid = 2;
    want.port_state = sm::PortState::kNoChange;
    want.phys_state = sm::PhysState::kNoChange;
    local(sm::Method::kSet, sm::attr::kPortInfo, 0, *sm::encode_port_info(want));
    // MFT: MLID 0xC000 to IB ports 0, 1 and 3.
    sm::MftBlock mft;
    mft.port_masks[0] = 0b1011;
    local(sm::Method::kSet, sm::attr::kMulticastForwardingTable, mft.attr_mod(), *sm::encode_mft_block(mft));
    // SL2VL to IB port 2: from port 1 (the one used), from port 3 another map (a conflict).
    sm::SlToVlTable t, other;
    for (unsigned sl = 0; sl < 16; ++sl) {
        t.vl[sl] = static_cast<std::uint8_t>(sl % 4);
        other.vl[sl] = 1;
    }
    t.vl[15] = 15;  // drop: no data VL for it
    local(sm::Method::kSet, sm::attr::kSlToVlTable, sm::sl_to_vl_attr_mod(1, 2),
          *sm::encode_sl_to_vl_table(t));
    local(sm::Method::kSet, sm::attr::kSlToVlTable, sm::sl_to_vl_attr_mod(3, 2),
          *sm::encode_sl_to_vl_table(other));
    EXPECT_EQ(agent_->publisher().counters().publications, published) << "nothing published before the round";

    agent_->poll();
    EXPECT_EQ(agent_->publisher().counters().publications, published + 1);
    const dp::FibSnapshot &s = snapshot();
    EXPECT_EQ(s.lft(1).kind, dp::LftTarget::Kind::Port);
    EXPECT_EQ(s.lft(1).value, 1u) << "IB port 2 is dataplane port 1";
    EXPECT_EQ(s.lft(4).value, 2u);
    EXPECT_EQ(s.lft(2).kind, dp::LftTarget::Kind::None) << "the switch itself: no LFT entry";
    EXPECT_EQ(s.lft(3).kind, dp::LftTarget::Kind::None);
    EXPECT_EQ(s.switch_lid().base, 2);
    EXPECT_EQ(s.mft(0xC000), 0b101u) << "IB ports 1 and 3, port 0 left out";
    for (unsigned sl = 0; sl < 15; ++sl) EXPECT_EQ(s.sl2vl(1, static_cast<std::uint8_t>(sl)), sl % 4) << sl;
    EXPECT_EQ(agent_->publisher().counters().sl2vl_drop_entries, 1u);
    EXPECT_GE(agent_->publisher().counters().sl2vl_in_port_conflicts, 1u);
    EXPECT_EQ(agent_->publisher().counters().refused, 0u);
    agent_->poll();
    EXPECT_EQ(agent_->publisher().counters().publications, published + 1) << "no change, no publication";
}

TEST_F(SwitchAgentTest, NodeFromOptionsAndHostAddressesTurnEthernetModeOn) {
    EXPECT_EQ(agent_->sma().config().node_guid, 0x0002C90000C00001u);
    EXPECT_EQ(agent_->sma().config().num_ports, kPorts);
    EXPECT_EQ(agent_->sma().config().description, "unit");
    EXPECT_FALSE(agent_->ethernet_mode());
    EXPECT_TRUE(agent_->fabric_port(2));
    agent_->set_fabric_port(2, false);
    EXPECT_FALSE(agent_->fabric_port(2));
    HostAddress a{2, *dp::IpAddr::parse("10.0.3.1"), 24};
    EXPECT_FALSE(agent_->add_host_address(a).has_value());
    ASSERT_TRUE(agent_->ethernet_mode());
    ASSERT_EQ(agent_->sma().ethernet()->host_subnets().size(), 1u);
    EXPECT_EQ(agent_->sma().ethernet()->host_subnets()[0].port, 3) << "IB port";
    EXPECT_EQ(agent_->sma().ethernet()->host_subnets()[0].prefix.to_string(), "10.0.3.0/24");
    agent_->set_fabric_port(1, true);
    EXPECT_TRUE(agent_->add_host_address({1, *dp::IpAddr::parse("10.0.4.1"), 24}).has_value())
        << "a fabric port is no host port";
    EXPECT_FALSE(agent_->del_host_address(a).has_value());
    EXPECT_TRUE(agent_->sma().ethernet()->host_subnets().empty());
}

TEST_F(SwitchAgentTest, ACommittedEthernetTableIsPublishedAsArsGroupsAndRoutes) {
    agent_->set_fabric_port(2, false);
    ASSERT_FALSE(agent_->add_host_address({2, *dp::IpAddr::parse("10.0.3.1"), 24}).has_value());
    sm::EthernetTable t;
    t.generation = 1;
    sm::EthernetGroup g;
    g.id = 0x21;
    g.ars_object = 7;
    g.fixed = 1;
    g.primary = {1};
    g.alternate = {2};
    t.groups = {g};
    t.routes = {{sm::IpPrefix::v4(0x0A000400, 24), 0x21}, {sm::IpPrefix::v4(0x0A000500, 24), 0x21}};
    auto commit_table = [&](const sm::EthernetTable &table) {
        sm::FibState begin;
        begin.op = sm::FibOp::kBegin;
        begin.begin_empty = true;
        begin.generation = table.generation;
        local(sm::Method::kSet, sm::attr::kWeftFibState, 0, *sm::encode_fib_state(begin));
        const sm::EthernetBlocks blocks = sm::split_ethernet_table(table);
        for (const auto &[mod, b] : blocks.groups)
            local(sm::Method::kSet, sm::attr::kWeftNextHopGroup, mod, *sm::encode_next_hop_group_block(b));
        for (const auto &[mod, b] : blocks.routes)
            local(sm::Method::kSet, sm::attr::kWeftRoutes, mod, *sm::encode_routes_block(b));
        sm::FibState commit_op;
        commit_op.op = sm::FibOp::kCommit;
        commit_op.generation = table.generation;
        commit_op.routes = static_cast<std::uint32_t>(table.routes.size());
        commit_op.groups = static_cast<std::uint16_t>(table.groups.size());
        local(sm::Method::kSet, sm::attr::kWeftFibState, 0, *sm::encode_fib_state(commit_op));
    };
    commit_table(t);
    agent_->poll();
    EXPECT_EQ(agent_->publisher().counters().ethernet_commits, 1u) << agent_->publisher().last_error();
    const auto &routes = snapshot().route_sample();
    ASSERT_EQ(routes.size(), 3u) << "the SM's two and the host subnet's connected route";
    EXPECT_EQ(routes[0].prefix.to_string(), "10.0.3.0/24");
    EXPECT_EQ(routes[0].nhg_id, kConnectedNhgFirst + 2) << "a group of its port alone";
    ASSERT_EQ(fib_->nhgs().count(kConnectedNhgFirst + 2), 1u);
    ASSERT_EQ(fib_->nhgs().at(kConnectedNhgFirst + 2).members.size(), 1u);
    EXPECT_EQ(fib_->nhgs().at(kConnectedNhgFirst + 2).members[0].port, 2);
    EXPECT_EQ(routes[1].nhg_id, kFabricNhgFirst);
    ASSERT_EQ(fib_->nhgs().count(kFabricNhgFirst), 1u);
    EXPECT_EQ(fib_->nhgs().at(kFabricNhgFirst).mode, dp::NhgMode::Ars);
    ASSERT_EQ(fib_->nhgs().at(kFabricNhgFirst).members.size(), 2u);
    EXPECT_EQ(fib_->nhgs().at(kFabricNhgFirst).members[1].port, 1) << "IB port 2";
    ASSERT_EQ(ctx_.ars.objects.count(7), 1u);
    EXPECT_EQ(ctx_.ars.objects.at(7).mode, ars::Mode::kFlowletQuality);
    ASSERT_TRUE(snapshot().ars() != nullptr);
    EXPECT_NE(snapshot().ars()->nhg(kFabricNhgFirst), nullptr) << "published with the ARS configuration";

    // The next table replaces the fabric's routes and groups, and the unused object goes.
    t.generation = 2;
    t.routes.pop_back();
    t.groups[0].ars_object = sm::kNoEthernetArsObject;
    commit_table(t);
    agent_->poll();
    EXPECT_EQ(snapshot().route_sample().size(), 2u) << "the connected route stays";
    EXPECT_EQ(ctx_.ars.objects.count(7), 0u);
    EXPECT_EQ(agent_->publisher().counters().ethernet_failures, 0u);

    // The host address goes, and its connected route and group with it.
    ASSERT_FALSE(agent_->del_host_address({2, *dp::IpAddr::parse("10.0.3.1"), 24}).has_value());
    agent_->poll();
    ASSERT_EQ(snapshot().route_sample().size(), 1u);
    EXPECT_EQ(snapshot().route_sample()[0].nhg_id, kFabricNhgFirst);
    EXPECT_EQ(fib_->nhgs().count(kConnectedNhgFirst + 2), 0u);
    EXPECT_EQ(agent_->publisher().counters().connected_failures, 0u);
}

TEST(GuidFromMac, IsEui64) {
    EXPECT_EQ(guid_from_mac({0x00, 0x1b, 0x21, 0xaa, 0xbb, 0xcc}), 0x021b21fffeaabbccu);
}

}  // namespace
}  // namespace weft::control::fabric
