// RouteUpdater: routes to group ids and to next-hop lists, groups with weights, one publication
// per commit, the groups made for next-hop lists shared and dropped with their last route, and
// ARS groups joining an ARS state in the same publication, changed in place.
#include <gtest/gtest.h>

#include "eal_environment.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/control/fabric/ethernet_fib.hpp"
#include "weft/control/route_updater.hpp"

namespace weft::control {
namespace {

namespace dp = weft::dataplane;

const auto *const kEal = ::testing::AddGlobalTestEnvironment(new dp::test::EalEnvironment("route_updater"));

dp::IpPrefix pfx(const char *text) {
    return *dp::IpPrefix::parse(text);
}

std::uint64_t lookup4(const dp::FibSnapshot &s, const char *addr) {
    std::uint32_t a = dp::IpAddr::parse(addr)->v4_host_order();
    std::uint64_t nh = 0;
    s.lookup4(&a, &nh, 1);
    return nh;
}

class RouteUpdaterTest : public ::testing::Test {
  protected:
    RouteUpdaterTest() : fib(config()), publisher(2), updater(fib, publisher) {}
    static dp::FibConfig config() {
        dp::FibConfig c;
        c.num_ports = 4;
        return c;
    }
    std::uint64_t index_of(std::uint32_t id) const { return *fib.nhg_index(id); }
    dp::FibBuilder fib;
    dp::FibPublisher publisher;
    RouteUpdater updater;
};

TEST_F(RouteUpdaterTest, RoutesToGroupsAndToNextHopListsInOnePublication) {
    ASSERT_TRUE(updater.set_nhg(7, {{1, {}, 1}, {2, {}, 3}}).ok());
    ASSERT_TRUE(updater.set_route(pfx("10.0.0.0/8"), 7).ok());
    ASSERT_TRUE(updater.set_route(pfx("10.1.0.0/16"), {{3, {}, 1}, {1, {}, 1}}).ok());
    ASSERT_TRUE(updater.set_route(pfx("10.2.0.0/16"), {{1, {}, 1}, {3, {}, 1}}).ok());  // the same list
    EXPECT_EQ(updater.implicit_groups(), 1u);
    EXPECT_EQ(publisher.current(), nullptr);  // staged only
    const auto r = updater.commit();
    ASSERT_TRUE(r.published) << r.error;
    EXPECT_EQ(r.prefixes, 3u);
    const dp::FibSnapshot *s = publisher.current();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(lookup4(*s, "10.9.9.9"), index_of(7));
    const std::uint32_t made = fib.routes().at(pfx("10.1.0.0/16"));
    EXPECT_GE(made, kImplicitNhgFirst);
    EXPECT_EQ(fib.routes().at(pfx("10.2.0.0/16")), made);
    EXPECT_EQ(lookup4(*s, "10.1.1.1"), index_of(made));
    EXPECT_EQ(s->nhg(*fib.nhg_index(7))->member_count, 4u);  // weights 1 and 3: four slots
}

TEST_F(RouteUpdaterTest, AListGroupGoesWithItsLastRoute) {
    ASSERT_TRUE(updater.set_route(pfx("10.1.0.0/16"), {{1, {}, 1}, {2, {}, 1}}).ok());
    ASSERT_TRUE(updater.set_route(pfx("10.2.0.0/16"), {{1, {}, 1}, {2, {}, 1}}).ok());
    ASSERT_TRUE(updater.commit().published);
    const std::uint32_t made = fib.routes().at(pfx("10.1.0.0/16"));
    ASSERT_TRUE(updater.set_route(pfx("10.1.0.0/16"), {{3, {}, 1}}).ok());  // replaced
    EXPECT_EQ(updater.commit().groups_freed, 0u);                           // 10.2/16 still uses it
    ASSERT_TRUE(updater.del_route(pfx("10.2.0.0/16")).ok());
    const auto r = updater.commit();
    EXPECT_EQ(r.groups_freed, 1u);
    EXPECT_FALSE(fib.nhg_index(made));
    EXPECT_EQ(updater.implicit_groups(), 1u);  // 10.1/16's new list
    // A route refused (no such port) leaves no group behind.
    EXPECT_FALSE(updater.set_route(pfx("10.3.0.0/16"), {{9, {}, 1}}).ok());
    ASSERT_TRUE(updater.set_route(pfx("10.4.0.0/16"), {{2, {}, 1}}).ok());
    ASSERT_TRUE(updater.del_route(pfx("10.4.0.0/16")).ok());  // made and unused within one batch
    EXPECT_EQ(updater.commit().groups_freed, 1u);
    EXPECT_EQ(fib.nhgs().size(), 1u);
}

TEST_F(RouteUpdaterTest, AGroupReplacedInPlaceKeepsItsIndexAndRoutes) {
    ASSERT_TRUE(updater.set_nhg(5, {{1, {}, 1}}).ok());
    ASSERT_TRUE(updater.set_route(pfx("10.0.0.0/8"), 5).ok());
    ASSERT_TRUE(updater.commit().published);
    const std::uint64_t index = index_of(5);
    ASSERT_TRUE(updater.set_nhg(5, {{1, {}, 1}, {2, {}, 2}}).ok());
    const auto r = updater.commit();
    EXPECT_EQ(r.prefixes, 0u);  // no route changed
    EXPECT_EQ(index_of(5), index);
    const dp::FibSnapshot *s = publisher.current();
    EXPECT_EQ(lookup4(*s, "10.1.1.1"), index);
    EXPECT_EQ(s->nhg(static_cast<std::uint32_t>(index))->member_count, 3u);
}

TEST_F(RouteUpdaterTest, IdsNotTheCallersAndArsGroupsAreRefused) {
    EXPECT_FALSE(updater.set_nhg(kImplicitNhgFirst, {{1, {}, 1}}).ok());
    EXPECT_FALSE(updater.set_nhg(fabric::kFabricNhgFirst, {{1, {}, 1}}).ok());
    EXPECT_FALSE(updater.set_route(pfx("10.0.0.0/8"), fabric::kFabricNhgFirst).ok());
    ASSERT_TRUE(fib.set_nhg(3, {{1, {}}}, dp::NhgMode::Ars).ok());
    const dp::Status s = updater.set_nhg(3, {{2, {}, 1}});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("ARS group"), std::string::npos) << s.message();
    EXPECT_FALSE(updater.set_nhg(4, {{1, {}, 300}}).ok());  // weight above 255
}

class RouteUpdaterArsTest : public RouteUpdaterTest {
  protected:
    RouteUpdaterArsTest() : ars(fib, 4), ars_updater(fib, publisher, &ars) {
        EXPECT_TRUE(
            fib.set_neighbour(*dp::IpAddr::parse("10.0.1.2"), rte_ether_addr{{2, 0, 0, 0, 1, 2}}, 1).ok());
    }
    static NextHop hop(std::uint16_t port) { return NextHop{port, std::nullopt, 1}; }
    const ars::NhgConfig &group(std::uint32_t id) const { return ars.ars_state().nhgs.at(id); }
    std::uint32_t member_id(std::uint32_t id, std::uint16_t port) const {
        for (const ars::NhgMember &m : group(id).members)
            if (m.target.id == port) return m.member_id;
        return ~0u;
    }
    OwnArsState ars;
    RouteUpdater ars_updater;
};

TEST_F(RouteUpdaterArsTest, AnArsGroupIsPublishedWithItsArsStateInOneCommit) {
    ArsGroupSpec spec;
    spec.primaries = {NextHop{1, *dp::IpAddr::parse("10.0.1.2"), 1}};
    spec.alternates = {hop(2), hop(3), hop(1)};  // port 1 is a primary already: once
    spec.ars_object = 5;                         // not in the state: made with ARS's defaults
    spec.path.primary_quality_threshold = 6;
    spec.path.alternate_cost = 1;
    ASSERT_TRUE(ars_updater.set_ars_group(100, spec).ok());
    ASSERT_TRUE(ars_updater.set_route(pfx("10.9.0.0/16"), 100).ok());
    EXPECT_FALSE(ars.ars_state().nhgs.contains(100));  // adopted by the commit, not before
    const auto r = ars_updater.commit();
    ASSERT_TRUE(r.published) << r.error;
    EXPECT_TRUE(r.error.empty()) << r.error;
    const ars::NhgConfig &n = group(100);
    ASSERT_EQ(n.members.size(), 3u);
    EXPECT_EQ(n.members[0].role, ars::MemberRole::kPrimary);
    EXPECT_EQ(n.members[1].role, ars::MemberRole::kAlternate);
    EXPECT_EQ(n.path_selection.primary_quality_threshold, 6u);
    EXPECT_EQ(n.path_selection.alternate_cost, 1u);
    ASSERT_TRUE(ars.ars_state().objects.contains(5));
    EXPECT_EQ(ars.ars_state().objects.at(5).mode, ars::Mode::kFlowletQuality);
    // The dataplane's members in ARS's order, the primary's MAC from its neighbour.
    const dp::NhgSpec &spec_in_fib = fib.nhgs().at(100);
    EXPECT_EQ(spec_in_fib.mode, dp::NhgMode::Ars);
    ASSERT_EQ(spec_in_fib.members.size(), 3u);
    EXPECT_EQ(spec_in_fib.members[0].port, 1);
    EXPECT_EQ(spec_in_fib.members[0].via, dp::IpAddr::parse("10.0.1.2"));
    EXPECT_EQ(spec_in_fib.members[2].port, 3);
    const dp::FibSnapshot *s = publisher.current();
    ASSERT_NE(s, nullptr);
    const dp::NhgEntry *e = s->nhg(static_cast<std::uint32_t>(index_of(100)));
    ASSERT_NE(e, nullptr);
    EXPECT_TRUE(e->ars_selectable);  // the snapshot's ARS configuration knows it
    EXPECT_NE(s->ars()->nhg(100), nullptr);
    EXPECT_EQ(lookup4(*s, "10.9.1.1"), index_of(100));
}

TEST_F(RouteUpdaterArsTest, MembersThatStayKeepTheirIdsWhenTheGroupChangesInPlace) {
    ArsGroupSpec spec;
    spec.primaries = {hop(1)};
    spec.alternates = {hop(2), hop(3)};
    ASSERT_TRUE(ars_updater.set_ars_group(7, spec).ok());
    ASSERT_TRUE(ars_updater.set_route(pfx("10.7.0.0/16"), 7).ok());
    ASSERT_TRUE(ars_updater.commit().published);
    const auto index = index_of(7);
    const std::uint32_t id2 = member_id(7, 2), id3 = member_id(7, 3), id1 = member_id(7, 1);
    // The primary's link cut and BGP converged: the alternates are the primaries now.
    spec.primaries = {hop(3), hop(2)};
    spec.alternates = {hop(0)};
    ASSERT_TRUE(ars_updater.set_ars_group(7, spec).ok());
    const auto r = ars_updater.commit();
    ASSERT_TRUE(r.published) << r.error;
    EXPECT_EQ(r.prefixes, 0u);  // the route stays on the group
    EXPECT_EQ(index_of(7), index);
    EXPECT_EQ(member_id(7, 2), id2);
    EXPECT_EQ(member_id(7, 3), id3);
    const std::uint32_t fresh = member_id(7, 0);
    EXPECT_NE(fresh, id1);  // a new member never takes a departed member's id in the same life
    EXPECT_NE(fresh, id2);
    EXPECT_NE(fresh, id3);
    for (const ars::NhgMember &m : group(7).members)
        EXPECT_EQ(m.role, m.target.id == 0 ? ars::MemberRole::kAlternate : ars::MemberRole::kPrimary);
    // Deleted with its last route, in one batch.
    ASSERT_TRUE(ars_updater.del_route(pfx("10.7.0.0/16")).ok());
    ASSERT_TRUE(ars_updater.del_ars_group(7).ok());
    ASSERT_TRUE(ars_updater.commit().published);
    EXPECT_FALSE(ars.ars_state().nhgs.contains(7));
    EXPECT_FALSE(fib.nhgs().contains(7));
    EXPECT_FALSE(ars_updater.del_ars_group(7).ok());
}

TEST_F(RouteUpdaterArsTest, GroupsThatWouldNotBuildAreRefusedAndChangeNothing) {
    ArsGroupSpec spec;
    spec.primaries = {hop(1)};
    EXPECT_FALSE(updater.set_ars_group(8, spec).ok());  // no ARS state to join
    EXPECT_FALSE(ars_updater.set_ars_group(ars::Capabilities{}.max_ecmp_groups, spec).ok());
    EXPECT_FALSE(ars_updater.set_ars_group(fabric::kFabricNhgFirst, spec).ok());
    EXPECT_FALSE(ars_updater.set_ars_group(9, ArsGroupSpec{}).ok());  // no members
    ArsGroupSpec too_many;
    too_many.ars_object = 2;  // made with ARS's defaults: 16 alternates at most
    for (std::uint16_t p = 0; p < 4; ++p) too_many.primaries.push_back(hop(p));
    ars::ArsObjectConfig narrow;
    narrow.id = 3;
    narrow.max_primary_members = 2;
    ArsState with_narrow = ars.ars_state();
    with_narrow.objects[3] = narrow;
    ASSERT_FALSE(ars.adopt_ars_state(with_narrow));
    too_many.ars_object = 3;
    const dp::Status s = ars_updater.set_ars_group(10, too_many);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("PRIMARY_MEMBERS"), std::string::npos) << s.message();
    EXPECT_FALSE(fib.nhgs().contains(10));
    spec.primaries = {hop(9)};  // no such port
    EXPECT_FALSE(ars_updater.set_ars_group(11, spec).ok());
    const auto r = ars_updater.commit();
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(ars.ars_state().nhgs.empty());
}

}  // namespace
}  // namespace weft::control
