// The ARS glue: an ARS configuration published inside the FIB snapshot, adopted by the
// worker's selector, choosing members of NhgMode::Ars groups by port quality and link state,
// with plain ECMP groups (and ARS groups the configuration does not know) left on the hash path.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "eal_environment.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "nhg_selector.hpp"

namespace weft::dataplane {
namespace {

const auto *const kEal = ::testing::AddGlobalTestEnvironment(new test::EalEnvironment("ars_glue"));

constexpr ars::Ticks kTicksPerUs = 1000;

class ArsGlue : public ::testing::Test {
  protected:
    void SetUp() override {
        FibConfig c;
        c.num_ports = 8;
        c.max_routes4 = 64;
        c.tbl8_groups4 = 16;
        c.max_routes6 = 64;
        c.tbl8_groups6 = 16;
        builder = std::make_unique<FibBuilder>(c);
        for (std::uint16_t p = 0; p < 4; ++p) {
            ASSERT_TRUE(builder
                            ->set_neighbour(IpAddr::v4(0x0A000002u + p * 256u),
                                            rte_ether_addr{{0x02, 0, 0, 0, 0, static_cast<std::uint8_t>(p)}},
                                            p)
                            .ok());
            links.set_usable(p, true);
            board.set_link_up(p, true);
        }
        ASSERT_TRUE(builder->set_nhg(10, {{1, {}}, {2, {}}, {3, {}}}, NhgMode::Ars).ok());
        ASSERT_TRUE(builder->set_nhg(11, {{1, {}}, {2, {}}, {3, {}}}, NhgMode::Ecmp).ok());
        ASSERT_TRUE(builder->set_nhg(12, {{1, {}}, {2, {}}}, NhgMode::Ars).ok());  // unknown to ARS
    }

    std::shared_ptr<const ars::Config> ars_config(ars::Mode mode, std::vector<ars::AclRule> acl = {},
                                                  bool monitor = false) {
        ars::ConfigBuilder b(ars::Profile{}, kTicksPerUs);
        for (ars::PortId p = 0; p < 4; ++p) b.add_port(ars::PortConfig{p, true, 10, 100, 100});
        ars::ArsObjectConfig o;
        o.id = 1;
        o.mode = mode;
        o.idle_time_us = 10;
        o.monitoring = monitor;
        b.add_ars_object(o);
        ars::NhgConfig g;
        g.id = 10;
        g.ars_object = 1;
        for (std::uint16_t i = 0; i < 3; ++i)
            g.members.push_back({i, ars::EgressTarget::port(static_cast<ars::PortId>(i + 1)),
                                 ars::MemberRole::kPrimary, true});
        b.add_nhg(g);
        b.set_acl(std::move(acl));
        auto r = b.build();
        EXPECT_TRUE(r.ok());
        return r.config;
    }

    std::unique_ptr<FibSnapshot> snapshot(std::shared_ptr<const ars::Config> config) {
        builder->set_ars(std::move(config));
        return builder->build();
    }

    MemberChoice pick(ArsSelector &sel, const FibSnapshot &s, std::uint32_t id, std::uint32_t hash,
                      std::uint64_t now, ars::AclVerdict verdict = {}) {
        const std::uint32_t index = *builder->nhg_index(id);
        return sel.select(s, SelectionRequest{index, s.nhg(index), hash, now, true, verdict});
    }

    LinkState links;
    ars::PortBoard board{kMaxPorts, ars::capabilities().max_lag_groups};
    std::unique_ptr<FibBuilder> builder;
};

TEST_F(ArsGlue, SnapshotCarriesTheConfigAndTheWorkerAdoptsIt) {
    auto config = ars_config(ars::Mode::kFlowletQuality);
    auto s = snapshot(config);
    EXPECT_EQ(s->ars(), config);
    ArsSelector sel(links, board, 0);
    EXPECT_FALSE(sel.is_ars(*s->nhg(*builder->nhg_index(10))));
    sel.sync(*s);
    EXPECT_EQ(sel.engine().config(), config.get());
    EXPECT_TRUE(sel.is_ars(*s->nhg(*builder->nhg_index(10))));
    EXPECT_FALSE(sel.is_ars(*s->nhg(*builder->nhg_index(11))));  // ECMP mode
    EXPECT_FALSE(sel.is_ars(*s->nhg(*builder->nhg_index(12))));  // not in the ARS config
}

TEST_F(ArsGlue, NewFlowletsGoToTheBestPortAndEcmpGroupsIgnoreQuality) {
    auto s = snapshot(ars_config(ars::Mode::kFlowletQuality));
    ArsSelector sel(links, board, 0);
    sel.sync(*s);
    board.publish_port_quality(1, 0);
    board.publish_port_quality(2, 2);
    board.publish_port_quality(3, 6);  // best
    EcmpSelector ecmp(links);
    std::set<std::uint16_t> ecmp_ports;
    for (std::uint32_t h = 0; h < 64; ++h) {
        const MemberChoice c = pick(sel, *s, 10, h * 0x9E3779B1u, 1000);
        ASSERT_NE(c.member, nullptr);
        EXPECT_EQ(c.member->port, 3);
        EXPECT_TRUE(c.member->resolved);
        const std::uint32_t i11 = *builder->nhg_index(11);
        const MemberChoice e =
            sel.select(*s, SelectionRequest{i11, s->nhg(i11), h * 0x9E3779B1u, 1000, true});
        const MemberChoice ref =
            ecmp.select(*s, SelectionRequest{i11, s->nhg(i11), h * 0x9E3779B1u, 1000, true});
        ASSERT_NE(e.member, nullptr);
        EXPECT_EQ(e.member->port, ref.member->port);
        ecmp_ports.insert(e.member->port);
    }
    EXPECT_EQ(ecmp_ports.size(), 3u);
    EXPECT_EQ(sel.engine().nhg_counters(10).decisions[static_cast<int>(ars::Mode::kFlowletQuality)], 64u);
}

TEST_F(ArsGlue, ADownPortLeavesEverySelectionAtOnce) {
    auto s = snapshot(ars_config(ars::Mode::kFixed));
    ArsSelector sel(links, board, 0);
    sel.sync(*s);
    std::map<std::uint32_t, std::uint16_t> before;
    for (std::uint32_t h = 0; h < 200; ++h) before[h] = pick(sel, *s, 10, h * 0x01000193u, 10).member->port;
    board.set_link_up(2, false);
    links.set_usable(2, false);
    unsigned moved = 0;
    for (std::uint32_t h = 0; h < 200; ++h) {
        const MemberChoice c = pick(sel, *s, 10, h * 0x01000193u, 20);
        ASSERT_NE(c.member, nullptr);
        EXPECT_NE(c.member->port, 2);
        if (before[h] == 2)
            ++moved;
        else
            EXPECT_EQ(c.member->port, before[h]) << "a flow of a live port moved";
    }
    EXPECT_GT(moved, 0u);
}

TEST_F(ArsGlue, FlowletsOfADownPortMoveWithoutWaitingForIdle) {
    auto s = snapshot(ars_config(ars::Mode::kFlowletQuality));
    ArsSelector sel(links, board, 0);
    sel.sync(*s);
    board.publish_port_quality(1, 0);
    board.publish_port_quality(2, 7);
    board.publish_port_quality(3, 0);
    for (std::uint32_t h = 0; h < 50; ++h) EXPECT_EQ(pick(sel, *s, 10, h * 0x01000193u, 10).member->port, 2);
    board.set_link_up(2, false);
    links.set_usable(2, false);
    // 1 tick later: far inside the 10 us idle time, yet every flow leaves port 2.
    for (std::uint32_t h = 0; h < 50; ++h) EXPECT_NE(pick(sel, *s, 10, h * 0x01000193u, 11).member->port, 2);
    EXPECT_GT(sel.engine().nhg_counters(10).link_down_reassignments, 0u);
    EXPECT_EQ(sel.engine().nhg_counters(10).packet_drops, 0u);
}

TEST_F(ArsGlue, AclVerdictDisablesArsAndUnknownGroupsUseTheHash) {
    ars::AclRule rule;
    rule.priority = 1;
    rule.match.ip_protocol = 6;
    rule.action.disable_ars = true;
    auto config = ars_config(ars::Mode::kFlowletQuality, {rule});
    auto s = snapshot(config);
    ArsSelector sel(links, board, 0);
    sel.sync(*s);
    ASSERT_NE(sel.acl(), nullptr);
    ars::PacketFields tcp;
    tcp.ip_version = 4;
    tcp.ip_protocol = 6;
    const ars::AclVerdict v = sel.acl()->classify(tcp);
    EXPECT_TRUE(v.disables_ars());
    ASSERT_NE(pick(sel, *s, 10, 77, 5, v).member, nullptr);
    EXPECT_EQ(sel.engine().nhg_counters(10).static_hash_decisions, 1u);

    EcmpSelector ecmp(links);
    const std::uint32_t i12 = *builder->nhg_index(12);
    for (std::uint32_t h = 0; h < 32; ++h) {
        const MemberChoice a = pick(sel, *s, 12, h * 2654435761u, 5);
        const MemberChoice b = ecmp.select(*s, SelectionRequest{i12, s->nhg(i12), h * 2654435761u, 5, true});
        ASSERT_NE(a.member, nullptr);
        EXPECT_EQ(a.member, b.member);
    }
}

TEST_F(ArsGlue, PerPacketQualityTakesTheBestPortAndANewSnapshotIsAdoptedOnce) {
    auto s1 = snapshot(ars_config(ars::Mode::kPerPacketQuality));
    ArsSelector sel(links, board, 0);
    sel.sync(*s1);
    board.publish_port_quality(1, 7);
    board.publish_port_quality(2, 1);
    board.publish_port_quality(3, 1);
    for (std::uint32_t h = 0; h < 70; ++h) {
        const MemberChoice c = pick(sel, *s1, 10, h, 100);
        ASSERT_NE(c.member, nullptr);
        EXPECT_EQ(c.member->port, 1);
    }
    EXPECT_EQ(sel.engine().nhg_counters(10).decisions[static_cast<int>(ars::Mode::kPerPacketQuality)], 70u);

    // A rebuilt snapshot with a new config: adopted, counters of the stable group id survive.
    auto s2 = snapshot(ars_config(ars::Mode::kPerPacketRandom));
    sel.sync(*s2);
    EXPECT_EQ(sel.engine().config(), s2->ars().get());
    EXPECT_EQ(sel.engine().nhg_counters(10).decisions[static_cast<int>(ars::Mode::kPerPacketQuality)], 70u);
    std::set<std::uint16_t> ports;
    for (std::uint32_t h = 0; h < 64; ++h) ports.insert(pick(sel, *s2, 10, h, 200).member->port);
    EXPECT_EQ(ports.size(), 3u);  // random ignores the bands
}

// A LAG member: ARS picks the LAG, the LAG picks one of its ports, and the dataplane member with
// that port (the LAG's ports are all members of the dataplane group) supplies the MAC.
TEST_F(ArsGlue, LagMembersResolveToOneOfTheirPorts) {
    ASSERT_TRUE(builder->set_nhg(20, {{1, {}}, {2, {}}, {3, {}}}, NhgMode::Ars).ok());
    ars::ConfigBuilder b(ars::Profile{}, kTicksPerUs);
    for (ars::PortId p = 0; p < 4; ++p) b.add_port(ars::PortConfig{p, true, 10, 100, 100});
    ars::ArsObjectConfig o;
    o.id = 1;
    o.mode = ars::Mode::kPerPacketQuality;
    b.add_ars_object(o);
    b.add_lag(ars::LagConfig{3, ars::kNoArsObject, {2, 3}});
    ars::NhgConfig g;
    g.id = 20;
    g.ars_object = 1;
    g.members.push_back({0, ars::EgressTarget::port(1), ars::MemberRole::kPrimary, true});
    g.members.push_back({1, ars::EgressTarget::lag(3), ars::MemberRole::kPrimary, true});
    b.add_nhg(g);
    auto r = b.build();
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    auto s = snapshot(r.config);
    ArsSelector sel(links, board, 0);
    sel.sync(*s);
    board.publish_port_quality(1, 0);
    board.publish_lag_quality(3, 7);
    std::set<std::uint16_t> ports;
    for (std::uint32_t h = 0; h < 64; ++h) {
        const MemberChoice c = pick(sel, *s, 20, h * 0x9E3779B1u, 5);
        ASSERT_NE(c.member, nullptr);
        EXPECT_TRUE(c.member->resolved);
        EXPECT_EQ(c.member->dst_mac.addr_bytes[5], c.member->port);  // the MAC of that port's neighbour
        ports.insert(c.member->port);
    }
    EXPECT_EQ(ports, (std::set<std::uint16_t>{2, 3}));
    board.set_link_up(2, false);
    links.set_usable(2, false);
    for (std::uint32_t h = 0; h < 64; ++h) EXPECT_EQ(pick(sel, *s, 20, h * 0x9E3779B1u, 6).member->port, 3);
}

// Monitoring capture selects packet by packet so each event names its packet: the choices and
// counters must be those of the worker's burst form (select_ars_requests, then member_for), and
// exactly the reassigned packets are flagged.
TEST_F(ArsGlue, CaptureSelectionMatchesTheBurstAndFlagsEachReassignment) {
    auto s = snapshot(ars_config(ars::Mode::kFlowletRandom, {}, true));
    ArsSelector burst(links, board, 0), capture(links, board, 0);
    burst.sync(*s);
    capture.sync(*s);
    unsigned events = 0;
    capture.set_monitor_hook(ars::MonitorHook{
        [](void *n, const ars::ReassignEvent &) { ++*static_cast<unsigned *>(n); }, &events});
    const std::uint32_t index = *builder->nhg_index(10);
    unsigned flagged = 0;
    for (unsigned b = 0; b < 20; ++b) {
        // 32 packets of 8 flows; 50 us between bursts is past the 10 us idle time.
        const std::uint64_t now = 1000 + b * 50 * kTicksPerUs;
        std::vector<SelectionRequest> reqs;
        std::vector<ars::SelectRequest> engine_reqs;
        for (std::uint32_t i = 0; i < 32; ++i) {
            reqs.push_back(SelectionRequest{index, s->nhg(index), (i % 8) * 0x9E3779B1u, now, true});
            engine_reqs.push_back(ars::SelectRequest{reqs.back().flow_hash, 10, {}});
        }
        std::vector<ars::Egress> egress(reqs.size());
        burst.select_ars_requests(engine_reqs, now, egress);
        std::vector<MemberChoice> a(reqs.size()), c(reqs.size());
        bool reassigned[32] = {};
        for (std::size_t i = 0; i < reqs.size(); ++i) {
            a[i] = burst.member_for(*s, index, *s->nhg(index), reqs[i].flow_hash, now, egress[i]);
            c[i] = capture.select(*s, reqs[i], &reassigned[i]);
        }
        for (std::size_t i = 0; i < reqs.size(); ++i) {
            ASSERT_NE(a[i].member, nullptr);
            ASSERT_NE(c[i].member, nullptr);
            EXPECT_EQ(a[i].member->port, c[i].member->port) << "burst " << b << " packet " << i;
            flagged += reassigned[i] ? 1 : 0;
            // Only a flow's first packet of a burst can start a new flowlet.
            if (i >= 8) {
                EXPECT_FALSE(reassigned[i]);
            }
        }
    }
    const auto moved = capture.engine().nhg_counters(10).next_hop_reassignments;
    EXPECT_GT(moved, 20u);
    EXPECT_EQ(flagged, moved);
    EXPECT_EQ(events, moved);
    EXPECT_EQ(burst.engine().nhg_counters(10).next_hop_reassignments, moved);
}

}  // namespace
}  // namespace weft::dataplane
