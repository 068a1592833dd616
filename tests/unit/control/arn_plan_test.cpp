// plan_arn: a configured dragonfly group into this switch's flood tables, watched ports,
// candidate paths and remote slots (pure: no switch needed).
#include <gtest/gtest.h>

#include "weft/control/arn_apply.hpp"
#include "weft/control/arn_state.hpp"

namespace weft::control {
namespace {

// Three switches all linked to each other (a dragonfly group): 0x10's port 0 to 0x20's port 0,
// 0x10's port 2 to 0x30's port 0, 0x20's port 1 to 0x30's port 1; 0x20 and 0x30 each own a
// global link (their port 3) to groups 2 and 3, 0x10 one (its port 1) to group 4.
ArnState group_of_three() {
    ArnState s;
    s.enabled = true;
    s.links = {{0x10, 0, 0x20, 0}, {0x10, 2, 0x30, 0}, {0x20, 1, 0x30, 1}};
    s.globals = {{0x10, 1, 4}, {0x20, 3, 2}, {0x30, 3, 3}};
    s.nhgs = {{100, 2}, {101, 4}, {102, 2}};
    return s;
}

ArnInputs inputs(arn::SwitchId self) {
    ArnInputs in;
    in.self = self;
    in.num_ports = 4;
    in.fabric_ports = 0b0101;
    in.port_speeds = {25000, 0, 100000, 0};
    in.ticks_per_us = 2000;
    return in;
}

TEST(ArnPlan, RootForwardsEachPeersNewsDownToTheOtherAndTakesIt) {
    const ArnPlanResult r = plan_arn(group_of_three(), inputs(0x10));
    ASSERT_TRUE(r.plan) << r.error;
    const dataplane::ArnTables &t = *r.plan->tables;
    EXPECT_EQ(t.reporters, (std::vector<arn::SwitchId>{0x10, 0x20, 0x30}));
    EXPECT_EQ(r.plan->labels, (std::vector<std::string>{"1", "11", "12"}));
    // 0x20's news arrives on port 0 (ARN port 1): on to 0x30 by port 2, and taken here.
    const dataplane::ArnFloodEntry *e = t.entry(0x20, 1);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->out_ports, std::uint64_t{1} << 2);
    EXPECT_TRUE(e->deliver);
    // It never comes in by port 2, nor 0x30's by port 0.
    EXPECT_EQ(t.entry(0x20, 3), nullptr);
    EXPECT_EQ(t.entry(0x30, 1), nullptr);
    ASSERT_NE(t.entry(0x30, 3), nullptr);
    EXPECT_EQ(t.entry(0x30, 3)->out_ports, std::uint64_t{1} << 0);
    // Its own news leaves by both group ports.
    ASSERT_NE(t.entry(0x10, 0), nullptr);
    EXPECT_EQ(t.entry(0x10, 0)->out_ports, 0b0101u);
    EXPECT_FALSE(t.knows(0x99));
    EXPECT_EQ(t.rx_interval_tsc, 2000u * 1000000u / 20000u);
    EXPECT_EQ(t.fabric_ports, 0b0101u);
}

TEST(ArnPlan, ALeafPassesNewsUpWithoutTakingItThenTakesItComingDown) {
    const ArnPlanResult r = plan_arn(group_of_three(), inputs(0x20));
    ASSERT_TRUE(r.plan) << r.error;
    const dataplane::ArnTables &t = *r.plan->tables;
    // Its own news goes up to the root only (the root splits it).
    ASSERT_NE(t.entry(0x20, 0), nullptr);
    EXPECT_EQ(t.entry(0x20, 0)->out_ports, std::uint64_t{1} << 0);
    // 0x30's news comes down from the root on port 0 and ends here.
    const dataplane::ArnFloodEntry *e = t.entry(0x30, 1);
    ASSERT_NE(e, nullptr);
    EXPECT_TRUE(e->deliver);
    EXPECT_EQ(e->out_ports, 0u);
}

TEST(ArnPlan, WatchedPortsPathsAndSlots) {
    const ArnPlanResult r = plan_arn(group_of_three(), inputs(0x10));
    ASSERT_TRUE(r.plan) << r.error;
    const dataplane::ArnSetup &s = *r.plan->setup;
    // Its global link and its two local links, in port order, line rates as reported (the
    // default for a port that reports none).
    ASSERT_EQ(s.watched.size(), 3u);
    EXPECT_EQ(s.watched[0].port, 1);
    EXPECT_EQ(s.watched[0].speed_mbps, 25000u);
    EXPECT_EQ(s.watched[1].port, 2);
    EXPECT_EQ(s.watched[1].peer_group, std::optional<arn::GroupId>(4));
    EXPECT_EQ(s.watched[1].speed_mbps, kArnDefaultSpeedMbps);
    EXPECT_EQ(s.watched[2].port, 3);
    // Group 2: through 0x20 (its port 3) over the local link on port 0; group 4: direct.
    ASSERT_EQ(s.destinations.at(2).size(), 1u);
    const arn::CandidatePath &p = s.destinations.at(2)[0];
    EXPECT_EQ(p.kind, arn::PathKind::kViaPeer);
    EXPECT_EQ(p.first_port, 1);
    EXPECT_EQ(p.links, (std::vector<arn::LinkRef>{{0x10, 1}, {0x20, 4}}));
    ASSERT_EQ(s.destinations.at(4).size(), 1u);
    EXPECT_EQ(s.destinations.at(4)[0].kind, arn::PathKind::kDirect);
    // A slot per (group, first port); the NHGs toward groups 2 and 4 have theirs on the members'
    // ports (two NHGs lead to group 2: the same slot); group 3 has no NHG named.
    EXPECT_EQ(s.slots.size(), 3u);
    ASSERT_EQ(r.plan->member_slots.size(), 3u);
    EXPECT_EQ(r.plan->member_slots.at({100, 0}), r.plan->member_slots.at({102, 0}));
    EXPECT_TRUE(r.plan->member_slots.count({101, 1}));
}

TEST(ArnPlan, RefusesAGroupInPiecesAPortTwiceAndAPortItDoesNotHave) {
    ArnState s = group_of_three();
    s.links = {{0x10, 0, 0x20, 0}};  // 0x30 is left apart
    EXPECT_FALSE(plan_arn(s, inputs(0x10)).plan);
    EXPECT_NE(plan_arn(s, inputs(0x10)).error.find("apart"), std::string::npos);
    s = group_of_three();
    s.links.push_back({0x10, 0, 0x40, 0});  // port 0 joined twice
    EXPECT_FALSE(plan_arn(s, inputs(0x10)).plan);
    s = group_of_three();
    s.globals.push_back({0x10, 9, 5});
    EXPECT_NE(plan_arn(s, inputs(0x10)).error.find("no port 9"), std::string::npos);
}

// The same group as the SM sends it (WeftArnGroup entries: IB ports, the SM's group ids), which
// the switch takes in place of the configured one.
std::vector<sm::ArnGroupEntry> group_of_three_from_sm() {
    using K = sm::ArnEntryKind;
    return {{K::kLocalLink, 0x20, 1, 0x10, 1, 0, 0},  // either end first
            {K::kLocalLink, 0x10, 3, 0x30, 1, 0, 0}, {K::kLocalLink, 0x20, 2, 0x30, 2, 0, 0},
            {K::kGlobalLink, 0x10, 2, 0, 0, 4, 0},   {K::kGlobalLink, 0x20, 4, 0, 0, 2, 0},
            {K::kGlobalLink, 0x30, 4, 0, 0, 3, 0},   {K::kDestination, 0, 0, 0, 0, 2, 7},
            {K::kDestination, 0, 0, 0, 0, 4, 8},     {K::kDestination, 0, 0, 0, 0, 2, 9}};
}

TEST(ArnPlan, TheSmsGroupTakesThePlaceOfTheConfiguredOne) {
    const std::map<std::uint16_t, std::uint32_t> slots{{7, 100}, {8, 101}, {9, 102}};
    auto t = arn_topology_of(group_of_three_from_sm(), slots);
    ASSERT_TRUE(std::holds_alternative<ArnTopology>(t)) << std::get<std::string>(t);
    const ArnState configured = group_of_three();
    const ArnTopology &got = std::get<ArnTopology>(t);
    EXPECT_EQ(got.links, configured.links);
    EXPECT_EQ(got.globals, configured.globals);
    EXPECT_EQ(got.nhgs, configured.nhgs);

    // Configured otherwise: the SM's group is the one planned while it is there.
    ArnState s;
    s.enabled = true;
    s.globals = {{0x30, 3, 3}};  // a group in pieces (0x30 linked to nothing): no plan of its own
    EXPECT_FALSE(plan_arn(s, inputs(0x10)).plan);
    s.from_sm = got;
    ASSERT_TRUE(s.uses_sm());
    const ArnPlanResult r = plan_arn(s, inputs(0x10));
    ASSERT_TRUE(r.plan) << r.error;
    const ArnPlanResult want = plan_arn(group_of_three(), inputs(0x10));
    EXPECT_EQ(r.plan->member_slots, want.plan->member_slots);
    EXPECT_EQ(r.plan->labels, want.plan->labels);
    ASSERT_EQ(r.plan->tables->entries.size(), want.plan->tables->entries.size());
    for (std::size_t i = 0; i < want.plan->tables->entries.size(); ++i) {
        const dataplane::ArnFloodEntry &a = r.plan->tables->entries[i], &b = want.plan->tables->entries[i];
        EXPECT_TRUE(a.out_ports == b.out_ports && a.valid == b.valid && a.deliver == b.deliver) << i;
    }
    // `arn topology config`: the configured one again.
    s.use_sm = false;
    EXPECT_FALSE(plan_arn(s, inputs(0x10)).plan);

    // A destination whose group took no next-hop group here.
    EXPECT_TRUE(std::holds_alternative<std::string>(arn_topology_of(group_of_three_from_sm(), {{7, 100}})));
}

}  // namespace
}  // namespace weft::control
