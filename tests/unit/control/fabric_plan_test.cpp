// plan_fabric_ars: the SM's Ethernet table as ARS groups in the accepted ARS state, beside the
// hand-made ones. Pure: no switch runs.
#include <gtest/gtest.h>

#include "weft/control/ars_apply.hpp"
#include "weft/control/fabric/ethernet_fib.hpp"

namespace weft::control::fabric {
namespace {

sm::EthernetGroup group(std::uint16_t id, std::vector<sm::PortNum> primary,
                        std::vector<sm::PortNum> alternate = {}, std::uint16_t object = 3,
                        sm::EthernetArsMode mode = sm::EthernetArsMode::kFlowletQuality) {
    sm::EthernetGroup g;
    g.id = id;
    g.ars_object = object;
    g.mode = mode;
    g.fixed = primary.empty() ? 0 : primary.front();
    g.primary = std::move(primary);
    g.alternate = std::move(alternate);
    return g;
}

FabricArsPlan plan(const ArsState &s, const sm::EthernetTable &t,
                   const std::map<std::uint16_t, std::uint32_t> &slots = {},
                   const std::set<std::uint16_t> &created = {}) {
    auto r = plan_fabric_ars(s, t, slots, created);
    EXPECT_TRUE(std::holds_alternative<FabricArsPlan>(r)) << std::get<std::string>(r);
    return std::get<FabricArsPlan>(std::move(r));
}

TEST(FabricPlan, GroupsBecomeArsGroupsWithPrimariesThenAlternatesOnDataplanePorts) {
    ArsState hand;
    hand.nhgs[7] = ars::NhgConfig{};  // a hand-made group stays
    sm::EthernetTable t;
    t.groups = {group(0x21, {2, 3}, {4}), group(0x22, {4}, {})};
    const FabricArsPlan p = plan(hand, t);
    ASSERT_EQ(p.slots.size(), 2u);
    EXPECT_EQ(p.slots.at(0x21), kFabricNhgFirst);
    EXPECT_EQ(p.slots.at(0x22), kFabricNhgFirst + 1);
    EXPECT_EQ(p.state.nhgs.count(7), 1u);
    const ars::NhgConfig &n = p.state.nhgs.at(kFabricNhgFirst);
    ASSERT_EQ(n.members.size(), 3u);
    EXPECT_EQ(n.ars_object, 3);
    // IB port p is dataplane (and ARS) port p - 1; member ids are the order.
    EXPECT_EQ(n.members[0].target, ars::EgressTarget::port(1));
    EXPECT_EQ(n.members[1].target, ars::EgressTarget::port(2));
    EXPECT_EQ(n.members[2].target, ars::EgressTarget::port(3));
    EXPECT_EQ(n.members[2].role, ars::MemberRole::kAlternate);
    EXPECT_EQ(n.members[2].member_id, 2u);
    // The object the SM named did not exist: made with its mode, remembered as the fabric's.
    ASSERT_EQ(p.state.objects.count(3), 1u);
    EXPECT_EQ(p.state.objects.at(3).mode, ars::Mode::kFlowletQuality);
    EXPECT_EQ(p.created, std::set<std::uint16_t>{3});
}

TEST(FabricPlan, AGroupThatStaysKeepsItsIdNewOnesTakeTheLowestFree) {
    sm::EthernetTable t;
    t.groups = {group(0x30, {1}), group(0x31, {1}), group(0x32, {1})};
    const FabricArsPlan first = plan({}, t);
    t.groups = {group(0x31, {2}), group(0x40, {1})};
    const FabricArsPlan second = plan(first.state, t, first.slots, first.created);
    EXPECT_EQ(second.slots.at(0x31), first.slots.at(0x31));
    EXPECT_EQ(second.slots.at(0x40), kFabricNhgFirst);  // 0x30's id, free again
    EXPECT_EQ(second.state.nhgs.count(first.slots.at(0x32)), 0u) << "a group gone is gone";
    EXPECT_EQ(second.state.nhgs.size(), 2u);
}

TEST(FabricPlan, HandMadeObjectsAreUsedAsConfiguredFabricObjectsGoWhenUnused) {
    ArsState s;
    ars::ArsObjectConfig mine;
    mine.id = 5;
    mine.mode = ars::Mode::kPerPacketRandom;
    s.objects[5] = mine;
    sm::EthernetTable t;
    t.groups = {group(1, {1}, {}, 5, sm::EthernetArsMode::kFlowletQuality),
                group(2, {1}, {}, 6, sm::EthernetArsMode::kFlowletRandom)};
    const FabricArsPlan p = plan(s, t);
    EXPECT_EQ(p.state.objects.at(5).mode, ars::Mode::kPerPacketRandom)
        << "the operator's object as configured";
    EXPECT_EQ(p.state.objects.at(6).mode, ars::Mode::kFlowletRandom);
    EXPECT_EQ(p.created, std::set<std::uint16_t>{6});
    t.groups = {group(1, {1}, {}, 5)};
    const FabricArsPlan q = plan(p.state, t, p.slots, p.created);
    EXPECT_EQ(q.state.objects.count(6), 0u) << "the fabric's object, named by no group any more";
    EXPECT_EQ(q.state.objects.count(5), 1u);
    EXPECT_TRUE(q.created.empty());
}

TEST(FabricPlan, FixedModeSendsByTheEnginesPortAndKeepsTheAlternates) {
    sm::EthernetGroup g = group(1, {2, 3, 4}, {5}, 3, sm::EthernetArsMode::kFixed);
    g.fixed = 3;
    sm::EthernetTable t;
    t.groups = {g};
    const FabricArsPlan p = plan({}, t);
    const ars::NhgConfig &n = p.state.nhgs.at(kFabricNhgFirst);
    ASSERT_EQ(n.members.size(), 2u);
    EXPECT_EQ(n.members[0].target, ars::EgressTarget::port(2));
    EXPECT_EQ(n.members[0].role, ars::MemberRole::kPrimary);
    EXPECT_EQ(n.members[1].role, ars::MemberRole::kAlternate);
}

TEST(FabricPlan, NoObjectMeansPlainHashAndPortZeroOrTooManyGroupsAreRefused) {
    sm::EthernetTable t;
    t.groups = {group(1, {1}, {}, sm::kNoEthernetArsObject)};
    EXPECT_EQ(plan({}, t).state.nhgs.at(kFabricNhgFirst).ars_object, ars::kNoArsObject);
    t.groups = {group(1, {0})};
    EXPECT_TRUE(std::holds_alternative<std::string>(plan_fabric_ars({}, t, {}, {})));
    t.groups.clear();
    for (std::uint32_t i = 1; i <= kSmNhgs + 1; ++i)
        t.groups.push_back(group(static_cast<std::uint16_t>(i), {1}));
    const auto r = plan_fabric_ars({}, t, {}, {});
    ASSERT_TRUE(std::holds_alternative<std::string>(r));
    EXPECT_NE(std::get<std::string>(r).find("more than 768 groups"), std::string::npos);
}

TEST(FabricPlan, FabricIdsAreTheTopOfArsRange) {
    EXPECT_TRUE(is_fabric_nhg(kFabricNhgFirst));
    EXPECT_TRUE(is_fabric_nhg(16383));
    EXPECT_FALSE(is_fabric_nhg(16384));
    EXPECT_FALSE(is_fabric_nhg(kFabricNhgFirst - 1));
}

// A group planned again with a member gone and one new keeps the ids of the members that stay,
// whatever their places: the workers remap their flow tables by id, so those members' flowlets
// stay on them.
TEST(FabricPlan, AGroupReplacedKeepsItsMembersIds) {
    sm::EthernetTable t;
    t.groups = {group(1, {1, 2, 3}, {4})};
    const ars::NhgConfig before = plan(ArsState{}, t).state.nhgs.begin()->second;
    t.groups = {group(1, {3, 5}, {4, 2})};
    ars::NhgConfig next = plan(ArsState{}, t).state.nhgs.begin()->second;
    keep_member_ids(before, next);
    auto id_of = [](const ars::NhgConfig &n, std::uint16_t port) {
        for (const ars::NhgMember &m : n.members)
            if (m.target == ars::EgressTarget::port(port)) return m.member_id;
        return ~0u;
    };
    for (std::uint16_t port : {1, 2, 3})  // ports 2, 3, 4 (0-based 1, 2, 3) stay
        EXPECT_EQ(id_of(next, port), id_of(before, port)) << port;
    const std::uint32_t fresh = id_of(next, 4);  // port 5 is new
    for (const ars::NhgMember &m : before.members) EXPECT_NE(fresh, m.member_id);
}

}  // namespace
}  // namespace weft::control::fabric
