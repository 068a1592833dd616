// The dragonfly policy: FRR's tables or weights into an ARS group's primaries and alternates.
#include "weft/control/fib/dragonfly_policy.hpp"

#include <gtest/gtest.h>

namespace {

using weft::control::NextHop;
using weft::control::fib::DragonflyPolicy;
using weft::control::fib::DragonflyRib;
using weft::control::fib::GroupPlan;
using weft::control::fib::kMainTable;
using weft::control::fib::plan_group;
using weft::dataplane::IpAddr;
using weft::dataplane::IpPrefix;

NextHop hop(std::uint16_t port, const char *via, std::uint16_t weight = 1) {
    return NextHop{port, *IpAddr::parse(via), weight};
}

IpPrefix prefix(const char *p) {
    return *IpPrefix::parse(p);
}

TEST(DragonflyPolicy, MainTableIsPrimaryTheSecondTableAlternate) {
    DragonflyPolicy pol;
    const auto plan = plan_group(pol, {{kMainTable, {hop(2, "10.0.2.2"), hop(1, "10.0.1.2")}},
                                       {200, {hop(3, "10.0.3.2"), hop(1, "10.0.1.2"), hop(4, "10.0.4.2")}}});
    ASSERT_TRUE(plan);
    EXPECT_TRUE(plan->ars);
    EXPECT_EQ(plan->ars_object, pol.ars_object);
    // Sorted by port; a next hop in both tables is a primary only.
    EXPECT_EQ(plan->primaries, (std::vector<NextHop>{hop(1, "10.0.1.2"), hop(2, "10.0.2.2")}));
    EXPECT_EQ(plan->alternates, (std::vector<NextHop>{hop(3, "10.0.3.2"), hop(4, "10.0.4.2")}));
}

TEST(DragonflyPolicy, NoMinimalPathMakesTheAlternatesPrimaries) {
    const auto plan = plan_group(DragonflyPolicy{}, {{200, {hop(3, "10.0.3.2")}}});
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->primaries, (std::vector<NextHop>{hop(3, "10.0.3.2")}));
    EXPECT_TRUE(plan->alternates.empty());
    EXPECT_FALSE(plan_group(DragonflyPolicy{}, {{100, {hop(3, "10.0.3.2")}}}));  // a table it does not read
    EXPECT_FALSE(plan_group(DragonflyPolicy{}, {}));
}

TEST(DragonflyPolicy, WeightsSplitOneTable) {
    DragonflyPolicy pol;
    pol.source = DragonflyPolicy::Source::Weights;
    pol.primary_weight_min = 10;
    const auto plan = plan_group(
        pol, {{kMainTable, {hop(1, "10.0.1.2", 100), hop(2, "10.0.2.2", 1), hop(3, "10.0.3.2", 10)}}});
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->primaries, (std::vector<NextHop>{hop(1, "10.0.1.2"), hop(3, "10.0.3.2")}));  // weights 1
    EXPECT_EQ(plan->alternates, (std::vector<NextHop>{hop(2, "10.0.2.2")}));
    // Every one light: all are primaries.
    const auto light = plan_group(pol, {{kMainTable, {hop(1, "10.0.1.2", 1), hop(2, "10.0.2.2", 2)}}});
    ASSERT_TRUE(light);
    EXPECT_EQ(light->primaries.size(), 2u);
    EXPECT_TRUE(light->alternates.empty());
    // The second table means nothing in this mode.
    EXPECT_FALSE(plan_group(pol, {{200, {hop(1, "10.0.1.2")}}}));
}

TEST(DragonflyPolicy, EcmpWithoutAlternatesKeepsWeightsAndCapsAlternates) {
    DragonflyPolicy pol;
    pol.ecmp_without_alternates = true;
    pol.max_alternates = 1;
    const auto ecmp = plan_group(pol, {{kMainTable, {hop(1, "10.0.1.2", 3), hop(1, "10.0.1.2", 5)}}});
    ASSERT_TRUE(ecmp);
    EXPECT_FALSE(ecmp->ars);
    EXPECT_EQ(ecmp->primaries, (std::vector<NextHop>{hop(1, "10.0.1.2", 5)}));  // once, its largest weight
    const auto ars = plan_group(
        pol, {{kMainTable, {hop(1, "10.0.1.2")}}, {200, {hop(3, "10.0.3.2"), hop(2, "10.0.2.2")}}});
    ASSERT_TRUE(ars);
    EXPECT_TRUE(ars->ars);
    EXPECT_EQ(ars->alternates, (std::vector<NextHop>{hop(2, "10.0.2.2")}));
}

TEST(DragonflyPolicy, ABlackholeDropsFromThePrimaryTableAndAddsNothingFromTheAlternate) {
    auto drops = [](const std::optional<GroupPlan> &p) { return p && !p->ars && p->primaries.empty(); };
    const DragonflyPolicy tables;
    EXPECT_TRUE(drops(plan_group(tables, {{kMainTable, {}}, {200, {hop(3, "10.0.3.2")}}})));
    EXPECT_TRUE(drops(plan_group(tables, {{200, {}}})));  // no minimal path, the other a blackhole
    const auto primary_only = plan_group(tables, {{kMainTable, {hop(1, "10.0.1.2")}}, {200, {}}});
    ASSERT_TRUE(primary_only);
    EXPECT_TRUE(primary_only->ars);
    EXPECT_EQ(primary_only->primaries, (std::vector<NextHop>{hop(1, "10.0.1.2")}));
    EXPECT_TRUE(primary_only->alternates.empty());
    DragonflyPolicy weights;
    weights.source = DragonflyPolicy::Source::Weights;
    EXPECT_TRUE(drops(plan_group(weights, {{kMainTable, {}}})));
    DragonflyRib rib{tables};
    EXPECT_TRUE(rib.set(prefix("10.1.0.0/16"), kMainTable, {}));  // a blackhole is a route
    EXPECT_TRUE(drops(rib.plan(prefix("10.1.0.0/16"))));
    EXPECT_TRUE(rib.remove(prefix("10.1.0.0/16"), kMainTable));
    EXPECT_FALSE(rib.plan(prefix("10.1.0.0/16")));
}

TEST(DragonflyRib, ChangesAreReportedOnlyWhenThePlanChanges) {
    DragonflyRib rib{DragonflyPolicy{}};
    const IpPrefix p = prefix("10.9.0.0/16");
    EXPECT_TRUE(rib.set(p, kMainTable, {hop(1, "10.0.1.2")}));
    EXPECT_FALSE(rib.set(p, kMainTable, {hop(1, "10.0.1.2")}));  // zebra's replay: nothing to do
    EXPECT_TRUE(rib.set(p, 200, {hop(2, "10.0.2.2")}));
    EXPECT_EQ(rib.plan(p)->alternates, (std::vector<NextHop>{hop(2, "10.0.2.2")}));
    EXPECT_FALSE(rib.set(p, 100, {hop(5, "10.0.5.2")}));                      // not a table of the policy
    EXPECT_FALSE(rib.set(p, 200, {hop(1, "10.0.1.2"), hop(2, "10.0.2.2")}));  // same alternates
    // The minimal path's route withdrawn: the alternates carry it.
    EXPECT_TRUE(rib.remove(p, kMainTable));
    EXPECT_EQ(rib.plan(p)->primaries, (std::vector<NextHop>{hop(1, "10.0.1.2"), hop(2, "10.0.2.2")}));
    EXPECT_TRUE(rib.remove(p, 200));
    EXPECT_FALSE(rib.plan(p));
    EXPECT_EQ(rib.prefixes(), 0u);
    EXPECT_FALSE(rib.remove(p, 200));
}

}  // namespace
