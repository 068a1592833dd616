// The dragonfly policy applied to a real FIB builder: prefixes with the same plan share an ARS
// group, a group whose prefixes all change together is changed in place (same index, the members
// that stay keep their ARS ids), a prefix that changes alone moves, and nothing is left behind.
#include "weft/control/fib/dragonfly_groups.hpp"

#include <gtest/gtest.h>

#include "eal_environment.hpp"

namespace weft::control::fib {
namespace {

namespace dp = weft::dataplane;

const auto *const kEal =
    ::testing::AddGlobalTestEnvironment(new dp::test::EalEnvironment("dragonfly_groups"));

dp::IpPrefix pfx(const char *text) {
    return *dp::IpPrefix::parse(text);
}
NextHop hop(std::uint16_t port) {
    return NextHop{port, std::nullopt, 1};
}
constexpr std::uint32_t kAlt = 200;

class DragonflyGroupsTest : public ::testing::Test {
  protected:
    DragonflyGroupsTest()
        : fib(config()),
          publisher(2),
          ars(fib, 8),
          updater(fib, publisher, &ars),
          groups(updater, policy()) {}
    static dp::FibConfig config() {
        dp::FibConfig c;
        c.num_ports = 8;
        return c;
    }
    static DragonflyPolicy policy() {
        DragonflyPolicy p;
        p.ars_object = 4;
        p.path.primary_quality_threshold = 5;
        return p;
    }
    void commit() {
        groups.flush();
        const auto r = updater.commit();
        ASSERT_TRUE(r.published) << r.error;
        ASSERT_TRUE(r.error.empty()) << r.error;
    }
    std::uint32_t group_in_fib(const char *prefix) const {
        const auto it = fib.routes().find(pfx(prefix));
        return it == fib.routes().end() ? 0 : it->second;
    }
    std::vector<std::uint16_t> ports(std::uint32_t id, ars::MemberRole role) const {
        std::vector<std::uint16_t> out;
        for (const ars::NhgMember &m : ars.ars_state().nhgs.at(id).members)
            if (m.role == role) out.push_back(m.target.id);
        return out;
    }
    // Switch 1 of three (the integration test's): 10.2/24 minimal on port 1 (alternate 2),
    // 10.3/24 minimal on 2 (alternate 1).
    void switch_one() {
        groups.set(pfx("10.2.0.0/24"), kMainTable, {hop(1)});
        groups.set(pfx("10.2.0.0/24"), kAlt, {hop(2)});
        groups.set(pfx("10.3.0.0/24"), kMainTable, {hop(2)});
        groups.set(pfx("10.3.0.0/24"), kAlt, {hop(1)});
        commit();
    }
    // Port 1's link cut and BGP converged: both prefixes only on port 2.
    void cut_port_one() {
        groups.remove(pfx("10.2.0.0/24"), kMainTable);
        groups.remove(pfx("10.3.0.0/24"), kAlt);
        commit();
    }
    std::uint32_t member_id(std::uint32_t id, std::uint16_t port) const {
        for (const ars::NhgMember &m : ars.ars_state().nhgs.at(id).members)
            if (m.target.id == port) return m.member_id;
        return ~0u;
    }

    dp::FibBuilder fib;
    dp::FibPublisher publisher;
    OwnArsState ars;
    RouteUpdater updater;
    DragonflyGroups groups;
};

TEST_F(DragonflyGroupsTest, PrefixesWithOnePlanShareAnArsGroupOfPrimariesAndAlternates) {
    for (const char *p : {"10.2.0.0/16", "10.3.0.0/16"}) {
        groups.set(pfx(p), kMainTable, {hop(1)});
        groups.set(pfx(p), kAlt, {hop(2), hop(3)});
    }
    groups.set(pfx("10.4.0.0/16"), kMainTable, {hop(2)});
    groups.set(pfx("10.9.0.0/16"), 100, {hop(5)});  // not a table of the policy
    commit();
    const std::uint32_t g = group_in_fib("10.2.0.0/16");
    EXPECT_TRUE(is_policy_nhg(g));
    EXPECT_EQ(group_in_fib("10.3.0.0/16"), g);
    EXPECT_EQ(group_in_fib("10.9.0.0/16"), 0u);
    EXPECT_EQ(groups.groups(), 2u);
    EXPECT_EQ(groups.prefixes(), 3u);
    EXPECT_EQ(ports(g, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(ports(g, ars::MemberRole::kAlternate), (std::vector<std::uint16_t>{2, 3}));
    const ars::NhgConfig &n = ars.ars_state().nhgs.at(g);
    EXPECT_EQ(n.ars_object, 4);
    EXPECT_EQ(n.path_selection.primary_quality_threshold, 5u);
    EXPECT_EQ(ars.ars_state().objects.at(4).mode, ars::Mode::kFlowletQuality);  // the default
    const std::uint32_t g4 = group_in_fib("10.4.0.0/16");
    EXPECT_NE(g4, g);
    EXPECT_EQ(ports(g4, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{2}));  // no alternates
    EXPECT_EQ(fib.nhgs().at(g).mode, dp::NhgMode::Ars);
    EXPECT_TRUE(publisher.current()->nhg(*fib.nhg_index(g))->ars_selectable);
}

TEST_F(DragonflyGroupsTest, AGroupWhosePrefixesAllChangeTogetherChangesInPlace) {
    for (const char *p : {"10.2.0.0/16", "10.3.0.0/16"}) {
        groups.set(pfx(p), kMainTable, {hop(1)});
        groups.set(pfx(p), kAlt, {hop(2), hop(3)});
    }
    commit();
    const std::uint32_t g = group_in_fib("10.2.0.0/16");
    const auto index = *fib.nhg_index(g);
    const std::uint32_t id2 = member_id(g, 2), id3 = member_id(g, 3);
    // The global link of port 1 cut, BGP converged: the minimal route is gone for both prefixes,
    // the non-minimal ones carry them (as primaries).
    for (const char *p : {"10.2.0.0/16", "10.3.0.0/16"}) groups.remove(pfx(p), kMainTable);
    commit();
    EXPECT_EQ(group_in_fib("10.2.0.0/16"), g);
    EXPECT_EQ(group_in_fib("10.3.0.0/16"), g);
    EXPECT_EQ(*fib.nhg_index(g), index);
    EXPECT_EQ(ports(g, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{2, 3}));
    EXPECT_TRUE(ports(g, ars::MemberRole::kAlternate).empty());
    EXPECT_EQ(member_id(g, 2), id2);  // their flowlets stay
    EXPECT_EQ(member_id(g, 3), id3);
    EXPECT_EQ(groups.counters().groups_changed_in_place, 1u);
    EXPECT_EQ(groups.counters().prefixes_moved, 0u);
    // The link back: in place again.
    for (const char *p : {"10.2.0.0/16", "10.3.0.0/16"}) groups.set(pfx(p), kMainTable, {hop(1)});
    commit();
    EXPECT_EQ(group_in_fib("10.3.0.0/16"), g);
    EXPECT_EQ(ports(g, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(groups.counters().groups_changed_in_place, 2u);
    EXPECT_EQ(groups.groups(), 1u);
}

TEST_F(DragonflyGroupsTest, TwoGroupsConvergingToOnePlanBothStayInPlace) {
    switch_one();
    const std::uint32_t g2 = group_in_fib("10.2.0.0/24"), g3 = group_in_fib("10.3.0.0/24");
    ASSERT_NE(g2, g3);
    // Port 1's link cut and converged: both prefixes only on port 2. Each group changes in place
    // (10.3/24's flowlets on port 2 are not moved to 10.2/24's group).
    cut_port_one();
    EXPECT_EQ(group_in_fib("10.2.0.0/24"), g2);
    EXPECT_EQ(group_in_fib("10.3.0.0/24"), g3);
    EXPECT_EQ(ports(g2, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(ports(g3, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(groups.counters().groups_changed_in_place, 2u);
    EXPECT_EQ(groups.counters().prefixes_moved, 0u);
    // A new prefix with that plan joins one of them; the groups go with their last prefixes.
    groups.set(pfx("10.4.0.0/24"), kMainTable, {hop(2)});
    commit();
    EXPECT_EQ(group_in_fib("10.4.0.0/24"), std::min(g2, g3));
    EXPECT_EQ(groups.groups(), 2u);
    for (const char *p : {"10.2.0.0/24", "10.3.0.0/24", "10.4.0.0/24"}) {
        groups.remove(pfx(p), kMainTable);
        groups.remove(pfx(p), kAlt);
    }
    commit();
    EXPECT_EQ(groups.groups(), 0u);
    EXPECT_TRUE(fib.nhgs().empty());
}

TEST_F(DragonflyGroupsTest, PrefixesWithdrawnAndAnnouncedAgainTakeTheirGroupsBack) {
    switch_one();
    const std::uint32_t g2 = group_in_fib("10.2.0.0/24"), g3 = group_in_fib("10.3.0.0/24");
    cut_port_one();  // both on port 2 alone, each group in place
    ASSERT_EQ(group_in_fib("10.2.0.0/24"), g2);
    ASSERT_EQ(group_in_fib("10.3.0.0/24"), g3);
    // The session on port 2 flaps meanwhile: the switch has no path, zebra withdraws both
    // prefixes (one batch), then announces them again (a later one).
    groups.remove(pfx("10.2.0.0/24"), kAlt);
    groups.remove(pfx("10.3.0.0/24"), kMainTable);
    commit();
    EXPECT_EQ(group_in_fib("10.2.0.0/24"), 0u);
    EXPECT_FALSE(fib.nhgs().contains(g2));
    EXPECT_EQ(groups.groups(), 0u);
    groups.set(pfx("10.2.0.0/24"), kAlt, {hop(2)});
    groups.set(pfx("10.3.0.0/24"), kMainTable, {hop(2)});
    commit();
    EXPECT_EQ(group_in_fib("10.2.0.0/24"), g2);
    EXPECT_EQ(group_in_fib("10.3.0.0/24"), g3);
    // The link back: each group changes in place, none made.
    groups.set(pfx("10.2.0.0/24"), kMainTable, {hop(1)});
    groups.set(pfx("10.3.0.0/24"), kAlt, {hop(1)});
    commit();
    EXPECT_EQ(group_in_fib("10.2.0.0/24"), g2);
    EXPECT_EQ(group_in_fib("10.3.0.0/24"), g3);
    EXPECT_EQ(ports(g2, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(ports(g2, ars::MemberRole::kAlternate), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(ports(g3, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(groups.counters().prefixes_moved, 0u);
    EXPECT_EQ(groups.counters().groups_made, 4u);  // two, and the same two again
    // Prefixes that shared a group share it again when they come back.
    groups.set(pfx("10.4.0.0/24"), kMainTable, {hop(1)});
    groups.set(pfx("10.4.0.0/24"), kAlt, {hop(2)});
    commit();
    ASSERT_EQ(group_in_fib("10.4.0.0/24"), g2);
    for (const char *p : {"10.2.0.0/24", "10.4.0.0/24"}) groups.remove(pfx(p), kMainTable);
    commit();
    for (const char *p : {"10.2.0.0/24", "10.4.0.0/24"}) groups.remove(pfx(p), kAlt);
    commit();
    EXPECT_FALSE(fib.nhgs().contains(g2));
    for (const char *p : {"10.4.0.0/24", "10.2.0.0/24"}) groups.set(pfx(p), kMainTable, {hop(3)});
    commit();
    EXPECT_EQ(group_in_fib("10.2.0.0/24"), g2);
    EXPECT_EQ(group_in_fib("10.4.0.0/24"), g2);
    EXPECT_EQ(ports(g2, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{3}));
}

TEST_F(DragonflyGroupsTest, APrefixThatChangesAloneMovesAndTheLastOneOutFreesTheGroup) {
    for (const char *p : {"10.2.0.0/16", "10.3.0.0/16"}) {
        groups.set(pfx(p), kMainTable, {hop(1)});
        groups.set(pfx(p), kAlt, {hop(2)});
    }
    groups.set(pfx("10.4.0.0/16"), kMainTable, {hop(3)});
    commit();
    const std::uint32_t g = group_in_fib("10.2.0.0/16");
    const std::uint32_t g4 = group_in_fib("10.4.0.0/16");
    // 10.3/16 now has 10.4/16's plan: it moves to that group; 10.2/16 keeps its own.
    groups.remove(pfx("10.3.0.0/16"), kAlt);
    groups.set(pfx("10.3.0.0/16"), kMainTable, {hop(3)});
    commit();
    EXPECT_EQ(group_in_fib("10.3.0.0/16"), g4);
    EXPECT_EQ(group_in_fib("10.2.0.0/16"), g);
    EXPECT_EQ(groups.counters().prefixes_moved, 1u);
    EXPECT_EQ(groups.counters().groups_changed_in_place, 0u);
    // Every table's route gone: the prefix leaves, and its group with its last prefix.
    groups.remove(pfx("10.2.0.0/16"), kMainTable);
    groups.remove(pfx("10.2.0.0/16"), kAlt);
    commit();
    EXPECT_EQ(group_in_fib("10.2.0.0/16"), 0u);
    EXPECT_FALSE(fib.nhgs().contains(g));
    EXPECT_FALSE(ars.ars_state().nhgs.contains(g));
    EXPECT_EQ(groups.counters().groups_freed, 1u);
    groups.clear();
    commit();
    EXPECT_TRUE(fib.routes().empty());
    EXPECT_TRUE(fib.nhgs().empty());
    EXPECT_TRUE(ars.ars_state().nhgs.empty());
    EXPECT_EQ(groups.groups(), 0u);
}

TEST_F(DragonflyGroupsTest, WithoutAlternatesAnEcmpPlanIsAWeightedHashGroup) {
    DragonflyPolicy p = policy();
    p.ecmp_without_alternates = true;
    DragonflyGroups ecmp(updater, p);
    ecmp.set(pfx("10.5.0.0/16"), kMainTable, {NextHop{1, std::nullopt, 3}, NextHop{2, std::nullopt, 1}});
    ecmp.flush();
    ASSERT_TRUE(updater.commit().published);
    const std::uint32_t id = group_in_fib("10.5.0.0/16");
    EXPECT_GE(id, kImplicitNhgFirst);
    EXPECT_EQ(fib.nhgs().at(id).mode, dp::NhgMode::Ecmp);
    EXPECT_EQ(ecmp.group_of(pfx("10.5.0.0/16")), 0u);
    // An alternate arrives: the prefix becomes an ARS group, the list's group goes.
    ecmp.set(pfx("10.5.0.0/16"), kAlt, {hop(4)});
    ecmp.flush();
    ASSERT_TRUE(updater.commit().published);
    EXPECT_TRUE(is_policy_nhg(group_in_fib("10.5.0.0/16")));
    EXPECT_FALSE(fib.nhgs().contains(id));
}

TEST_F(DragonflyGroupsTest, ARefusedPrefixIsCountedAndTriedAgainWhenSentAgain) {
    groups.set(pfx("10.6.0.0/16"), kMainTable, {hop(9)});  // no port 9 in this FIB
    commit();
    EXPECT_EQ(groups.refused(), 1u);
    EXPECT_EQ(groups.prefixes(), 0u);
    EXPECT_EQ(groups.counters().refusals, 1u);
    EXPECT_EQ(group_in_fib("10.6.0.0/16"), 0u);
    groups.set(pfx("10.6.0.0/16"), kMainTable, {hop(6)});
    commit();
    EXPECT_EQ(groups.refused(), 0u);
    EXPECT_TRUE(is_policy_nhg(group_in_fib("10.6.0.0/16")));
}

}  // namespace
}  // namespace weft::control::fib
