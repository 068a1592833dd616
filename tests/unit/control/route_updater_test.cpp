// RouteUpdater: routes to group ids and to next-hop lists, groups with weights, one publication
// per commit, and the groups made for next-hop lists shared and dropped with their last route.
#include <gtest/gtest.h>

#include "eal_environment.hpp"
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

}  // namespace
}  // namespace weft::control
