// The FPM server's RIB on a real FIB builder and publisher: routes before their group held and
// applied, groups changed in place, nexthops deleted under their routes, mark and sweep across a
// reconnection (a replayed group keeps its weft group), next hops held until they resolve.
#include <gtest/gtest.h>

#include <map>

#include "eal_environment.hpp"
#include "fpm_rib.hpp"
#include "weft/control/route_updater.hpp"

namespace weft::control::fpm {
namespace {

namespace dp = weft::dataplane;

const auto *const kEal = ::testing::AddGlobalTestEnvironment(new dp::test::EalEnvironment("fpm_rib"));

dp::IpPrefix pfx(const char *text) {
    return *dp::IpPrefix::parse(text);
}
dp::IpAddr ip(const char *text) {
    return *dp::IpAddr::parse(text);
}

RouteMsg route(const char *prefix, std::optional<std::uint32_t> nh_id, std::vector<NlNextHop> hops = {}) {
    RouteMsg r;
    r.prefix = pfx(prefix);
    r.nh_id = nh_id;
    r.hops = std::move(hops);
    return r;
}
RouteMsg del_route(const char *prefix) {
    RouteMsg r;
    r.add = false;
    r.prefix = pfx(prefix);
    return r;
}
NexthopMsg single(std::uint32_t id, const char *gateway) {
    NexthopMsg n;
    n.id = id;
    n.gateway = ip(gateway);
    n.ifindex = 9;
    return n;
}
NexthopMsg group(std::uint32_t id, std::vector<GroupMember> members) {
    NexthopMsg n;
    n.id = id;
    n.group = std::move(members);
    return n;
}
NexthopMsg del_nexthop(std::uint32_t id) {
    NexthopMsg n;
    n.add = false;
    n.id = id;
    return n;
}

class FpmRibTest : public ::testing::Test {
  protected:
    FpmRibTest()
        : fib(config()),
          publisher(2),
          updater(fib, publisher),
          rib(
              updater,
              [this](const NlNextHop &h) -> Resolved {
                  if (h.gateway) {
                      const auto it = gateways.find(*h.gateway);
                      if (it == gateways.end()) return {std::nullopt, Hold::Neighbour};
                      return {NextHop{it->second, std::nullopt, 1}, Hold::None};
                  }
                  const auto it = ifindexes.find(h.ifindex);
                  if (it == ifindexes.end()) return {std::nullopt, Hold::Port};
                  return {NextHop{it->second, std::nullopt, 1}, Hold::None};
              },
              std::chrono::seconds(5)) {
        gateways = {{ip("10.0.0.1"), 1}, {ip("10.0.0.2"), 2}, {ip("10.0.0.3"), 3}};
    }
    static dp::FibConfig config() {
        dp::FibConfig c;
        c.num_ports = 4;
        return c;
    }
    void commit() { ASSERT_TRUE(updater.commit().published); }
    std::optional<std::uint32_t> group_of(const char *prefix) const {
        const auto it = fib.routes().find(pfx(prefix));
        if (it == fib.routes().end()) return std::nullopt;
        return it->second;
    }
    std::vector<std::uint16_t> ports_of(std::uint32_t id) const {
        std::vector<std::uint16_t> out;
        for (const auto &m : fib.nhgs().at(id).members)
            for (unsigned w = 0; w < m.weight; ++w) out.push_back(m.port);
        return out;
    }

    dp::FibBuilder fib;
    dp::FibPublisher publisher;
    RouteUpdater updater;
    std::map<dp::IpAddr, std::uint16_t> gateways;
    std::map<std::uint32_t, std::uint16_t> ifindexes;
    Rib rib;
};

TEST_F(FpmRibTest, ARouteBeforeItsGroupIsHeldThenApplied) {
    rib.apply(route("10.1.0.0/16", 10));
    commit();
    EXPECT_FALSE(group_of("10.1.0.0/16"));
    EXPECT_EQ(rib.held(Hold::Group), 1u);
    EXPECT_EQ(rib.counters().held_for_group, 1u);
    rib.apply(single(1, "10.0.0.1"));
    rib.apply(single(2, "10.0.0.2"));
    EXPECT_EQ(rib.held(Hold::Group), 1u);  // 1 and 2 are not 10
    rib.apply(group(10, {{1, 1}, {2, 3}}));
    commit();
    const auto id = group_of("10.1.0.0/16");
    ASSERT_TRUE(id);
    EXPECT_GE(*id, kFpmNhgFirst);
    EXPECT_EQ(ports_of(*id), (std::vector<std::uint16_t>{1, 2, 2, 2}));  // weights 1 and 3
    EXPECT_EQ(rib.held_total(), 0u);
    EXPECT_EQ(rib.installed(), 1u);
    EXPECT_EQ(rib.counters().held_applied, 1u);
}

TEST_F(FpmRibTest, AGroupChangesInPlaceAndRoutesShareIt) {
    rib.apply(single(1, "10.0.0.1"));
    rib.apply(single(2, "10.0.0.2"));
    rib.apply(single(3, "10.0.0.3"));
    rib.apply(group(10, {{1, 1}, {2, 1}}));
    rib.apply(route("10.1.0.0/16", 10));
    rib.apply(route("10.2.0.0/16", 10));
    commit();
    const auto id = *group_of("10.1.0.0/16");
    EXPECT_EQ(group_of("10.2.0.0/16"), id);
    EXPECT_EQ(rib.groups(), 1u);
    rib.apply(group(10, {{1, 1}, {3, 1}}));  // a path replaced
    commit();
    EXPECT_EQ(group_of("10.1.0.0/16"), id);
    EXPECT_EQ(ports_of(id), (std::vector<std::uint16_t>{1, 3}));
    EXPECT_EQ(rib.counters().groups_updated_in_place, 1u);
    rib.apply(single(3, "10.0.0.2"));  // a member's gateway moves: its groups follow
    commit();
    EXPECT_EQ(ports_of(id), (std::vector<std::uint16_t>{1, 2}));
    // A route moved to another group, then the last route off the first: the group goes.
    rib.apply(route("10.1.0.0/16", 1));
    rib.apply(del_route("10.2.0.0/16"));
    commit();
    EXPECT_FALSE(fib.nhgs().contains(id));
    EXPECT_EQ(rib.groups(), 1u);
    EXPECT_EQ(ports_of(*group_of("10.1.0.0/16")), (std::vector<std::uint16_t>{1}));
}

TEST_F(FpmRibTest, ANexthopDeletedUnderItsRoutesTakesThemWithIt) {
    rib.apply(single(1, "10.0.0.1"));
    rib.apply(single(2, "10.0.0.2"));
    rib.apply(group(10, {{1, 1}, {2, 1}}));
    rib.apply(group(11, {{2, 1}}));
    rib.apply(route("10.1.0.0/16", 10));
    rib.apply(route("10.2.0.0/16", 11));
    rib.apply(route("10.3.0.0/16", 1));
    commit();
    // A member deleted: group 10 keeps the other, group 11 is left empty and goes with its route.
    rib.apply(del_nexthop(2));
    commit();
    EXPECT_EQ(ports_of(*group_of("10.1.0.0/16")), (std::vector<std::uint16_t>{1}));
    EXPECT_FALSE(group_of("10.2.0.0/16"));
    EXPECT_EQ(rib.counters().removed_with_nexthop, 1u);
    // A group deleted while a route uses it.
    rib.apply(del_nexthop(10));
    commit();
    EXPECT_FALSE(group_of("10.1.0.0/16"));
    EXPECT_TRUE(group_of("10.3.0.0/16"));
    EXPECT_EQ(rib.counters().removed_with_nexthop, 2u);
    EXPECT_EQ(rib.routes(), 1u);
    rib.apply(del_nexthop(77));
    rib.apply(del_route("10.9.0.0/16"));
    EXPECT_EQ(rib.counters().unknown_deletes, 2u);
}

TEST_F(FpmRibTest, AReconnectionReplaysSweepsTheRestAndNeverFlushes) {
    const auto t0 = Rib::Clock::now();
    rib.new_session(t0);
    rib.apply(single(1, "10.0.0.1"));
    rib.apply(single(2, "10.0.0.2"));
    rib.apply(group(10, {{1, 1}, {2, 1}}));
    rib.apply(route("10.1.0.0/16", 10));
    rib.apply(route("10.2.0.0/16", 10));
    rib.apply(route("10.3.0.0/16", 1));
    commit();
    const auto weft_group = *group_of("10.1.0.0/16");
    EXPECT_FALSE(rib.sweep_at());  // nothing stale at a first connection

    // Zebra restarted: new ids, and 10.3/16 is gone from its table.
    const auto t1 = t0 + std::chrono::seconds(60);
    rib.new_session(t1);
    EXPECT_EQ(rib.stale(), 3u);
    rib.apply(single(7, "10.0.0.1"));
    rib.apply(single(8, "10.0.0.2"));
    rib.apply(group(20, {{8, 1}, {7, 1}}));
    rib.apply(route("10.1.0.0/16", 20));
    rib.apply(route("10.2.0.0/16", 20));
    commit();
    EXPECT_EQ(fib.routes().size(), 3u);              // nothing flushed while replaying
    EXPECT_EQ(group_of("10.1.0.0/16"), weft_group);  // the same members: the same weft group
    EXPECT_EQ(rib.counters().groups_adopted, 1u);
    EXPECT_EQ(rib.stale(), 1u);
    EXPECT_FALSE(rib.sweep_due(t1 + std::chrono::seconds(4)));
    EXPECT_TRUE(rib.sweep_due(t1 + std::chrono::seconds(5)));
    EXPECT_EQ(rib.sweep(), 1u);
    commit();
    EXPECT_EQ(fib.routes().size(), 2u);
    EXPECT_FALSE(group_of("10.3.0.0/16"));
    EXPECT_EQ(fib.nhgs().size(), 1u);  // the one-member group of 10.3/16 went with it
    EXPECT_EQ(rib.stale(), 0u);
    EXPECT_FALSE(rib.sweep_at());
}

TEST_F(FpmRibTest, NextHopsAreHeldUntilTheyResolve) {
    rib.apply(route("10.1.0.0/16", std::nullopt, {{ip("10.0.0.9"), 9, 1}}));  // no such neighbour
    rib.apply(route("10.2.0.0/16", std::nullopt, {{std::nullopt, 5, 1}, {ip("10.0.0.1"), 9, 2}}));
    commit();
    EXPECT_EQ(rib.held(Hold::Neighbour), 1u);
    EXPECT_EQ(rib.held(Hold::Port), 1u);
    EXPECT_EQ(rib.retry_held(), 0u);
    ifindexes[5] = 3;
    gateways[ip("10.0.0.9")] = 2;
    EXPECT_EQ(rib.retry_held(), 2u);
    commit();
    EXPECT_EQ(ports_of(*group_of("10.1.0.0/16")), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(ports_of(*group_of("10.2.0.0/16")), (std::vector<std::uint16_t>{1, 1, 3}));
    EXPECT_GE(*group_of("10.2.0.0/16"), kImplicitNhgFirst);  // a list's group: RouteUpdater's
    // A route replaced by one that cannot resolve leaves the FIB rather than keep its old path.
    rib.apply(route("10.1.0.0/16", std::nullopt, {{ip("10.0.0.99"), 9, 1}}));
    commit();
    EXPECT_FALSE(group_of("10.1.0.0/16"));
    EXPECT_EQ(rib.held(Hold::Neighbour), 1u);
}

TEST_F(FpmRibTest, BlackholesAreDropGroupsAndFollowTheirNexthop) {
    RouteMsg r = route("10.8.0.0/16", std::nullopt);
    r.blackhole = true;
    rib.apply(r);
    NexthopMsg hole;
    hole.id = 5;
    hole.blackhole = true;
    rib.apply(hole);
    rib.apply(route("10.9.0.0/16", 5));  // a route to a blackhole nexthop (NHA_BLACKHOLE)
    commit();
    EXPECT_EQ(rib.held_total(), 0u);
    const auto drop = group_of("10.8.0.0/16");
    ASSERT_TRUE(drop);
    EXPECT_EQ(fib.nhgs().at(*drop).mode, dp::NhgMode::Drop);
    EXPECT_TRUE(fib.nhgs().at(*drop).members.empty());
    EXPECT_EQ(group_of("10.9.0.0/16"), drop);  // one Drop group for every blackhole
    const dp::NhgEntry *e = publisher.current()->nhg(*fib.nhg_index(*drop));
    ASSERT_NE(e, nullptr);  // a group without members is still there for the workers
    EXPECT_EQ(e->mode, dp::NhgMode::Drop);
    // The nexthop becomes a gateway: its route follows, the other stays dropped.
    rib.apply(single(5, "10.0.0.2"));
    commit();
    EXPECT_EQ(ports_of(*group_of("10.9.0.0/16")), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(group_of("10.8.0.0/16"), drop);
    rib.apply(del_route("10.8.0.0/16"));
    commit();
    EXPECT_FALSE(fib.nhgs().contains(*drop));  // gone with its last route
    EXPECT_EQ(rib.routes(), 1u);
}

// The dragonfly policy: zebra's main table and table 200 into ARS groups.
class FpmRibPolicyTest : public FpmRibTest {
  protected:
    FpmRibPolicyTest()
        : ars(fib, 4), ars_updater(fib, publisher, &ars), groups(ars_updater, fib::DragonflyPolicy{}) {
        policy_rib.set_policy(&groups);
    }
    void commit() {
        groups.flush();
        const auto r = ars_updater.commit();
        ASSERT_TRUE(r.published) << r.error;
        ASSERT_TRUE(r.error.empty()) << r.error;
    }
    static RouteMsg in_table(RouteMsg r, std::uint32_t table) {
        r.table = table;
        return r;
    }
    std::vector<std::uint16_t> ports(std::uint32_t id, ars::MemberRole role) const {
        std::vector<std::uint16_t> out;
        for (const ars::NhgMember &m : ars.ars_state().nhgs.at(id).members)
            if (m.role == role) out.push_back(m.target.id);
        return out;
    }
    OwnArsState ars;
    RouteUpdater ars_updater;
    fib::DragonflyGroups groups;
    Rib policy_rib{ars_updater,
                   [this](const NlNextHop &h) -> Resolved {
                       const auto it = gateways.find(*h.gateway);
                       if (it == gateways.end()) return {std::nullopt, Hold::Neighbour};
                       return {NextHop{it->second, std::nullopt, 1}, Hold::None};
                   },
                   std::chrono::seconds(5)};
};

TEST_F(FpmRibPolicyTest, MainTableRoutesArePrimariesTable200sAlternatesAndGroupsFollowInPlace) {
    EXPECT_TRUE(policy_rib.takes(254));
    EXPECT_TRUE(policy_rib.takes(200));
    EXPECT_FALSE(policy_rib.takes(100));
    policy_rib.apply(single(1, "10.0.0.1"));
    policy_rib.apply(single(2, "10.0.0.2"));
    policy_rib.apply(single(3, "10.0.0.3"));
    policy_rib.apply(group(20, {{2, 1}, {3, 1}}));
    policy_rib.apply(route("10.8.0.0/16", 1));                  // minimal: port 1
    policy_rib.apply(in_table(route("10.8.0.0/16", 20), 200));  // non-minimal: ports 2 and 3
    commit();
    const std::uint32_t g = *group_of("10.8.0.0/16");
    EXPECT_TRUE(fib::is_policy_nhg(g));
    EXPECT_EQ(ports(g, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(ports(g, ars::MemberRole::kAlternate), (std::vector<std::uint16_t>{2, 3}));
    EXPECT_EQ(policy_rib.installed(), 2u);
    // zebra changes its group 20 in place (a path gone): the ARS group follows, in place.
    policy_rib.apply(group(20, {{2, 1}}));
    commit();
    EXPECT_EQ(group_of("10.8.0.0/16"), g);
    EXPECT_EQ(ports(g, ars::MemberRole::kAlternate), (std::vector<std::uint16_t>{2}));
    // The minimal route withdrawn: the alternates carry the prefix, the group in place.
    policy_rib.apply(del_route("10.8.0.0/16"));
    commit();
    EXPECT_EQ(group_of("10.8.0.0/16"), g);
    EXPECT_EQ(ports(g, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(groups.counters().groups_changed_in_place, 2u);
    // The nexthop the last route names deleted: the route goes with it, and the group.
    policy_rib.apply(del_nexthop(20));
    commit();
    EXPECT_FALSE(group_of("10.8.0.0/16"));
    EXPECT_FALSE(fib.nhgs().contains(g));
    EXPECT_EQ(policy_rib.routes(), 0u);
}

TEST_F(FpmRibPolicyTest, BlackholesDropThePrefixOrAddNoAlternates) {
    auto drop_mode = [&](const char *prefix) {
        const auto g = group_of(prefix);
        return g && fib.nhgs().at(*g).mode == dp::NhgMode::Drop;
    };
    // A blackhole in the main table: the prefix drops, whatever table 200 holds.
    RouteMsg hole = route("10.7.0.0/16", std::nullopt);
    hole.blackhole = true;
    policy_rib.apply(hole);
    policy_rib.apply(in_table(route("10.7.0.0/16", std::nullopt, {{ip("10.0.0.2"), 9, 1}}), 200));
    commit();
    EXPECT_EQ(policy_rib.held_total(), 0u);
    EXPECT_TRUE(drop_mode("10.7.0.0/16"));
    // The main table's route becomes a path: an ARS group with table 200's alternate.
    policy_rib.apply(route("10.7.0.0/16", std::nullopt, {{ip("10.0.0.1"), 9, 1}}));
    commit();
    const auto g = group_of("10.7.0.0/16");
    ASSERT_TRUE(g);
    EXPECT_EQ(ports(*g, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(ports(*g, ars::MemberRole::kAlternate), (std::vector<std::uint16_t>{2}));
    // A blackhole nexthop in table 200: no alternates, the primary alone.
    NexthopMsg nh;
    nh.id = 30;
    nh.blackhole = true;
    policy_rib.apply(nh);
    policy_rib.apply(in_table(route("10.7.0.0/16", 30), 200));
    commit();
    const auto alone = group_of("10.7.0.0/16");
    ASSERT_TRUE(alone);
    EXPECT_FALSE(drop_mode("10.7.0.0/16"));
    EXPECT_EQ(ports(*alone, ars::MemberRole::kPrimary), (std::vector<std::uint16_t>{1}));
    EXPECT_TRUE(ports(*alone, ars::MemberRole::kAlternate).empty());
    // The main route withdrawn: table 200's blackhole is all that is left, and the prefix drops.
    policy_rib.apply(del_route("10.7.0.0/16"));
    commit();
    EXPECT_TRUE(drop_mode("10.7.0.0/16"));
    EXPECT_EQ(policy_rib.held_total(), 0u);
}

TEST_F(FpmRibPolicyTest, HeldRoutesJoinThePlanWhenTheyResolveAndAPolicySwitchMovesEverything) {
    policy_rib.apply(in_table(route("10.8.0.0/16", std::nullopt, {{ip("10.0.0.9"), 9, 1}}), 200));
    policy_rib.apply(route("10.8.0.0/16", std::nullopt, {{ip("10.0.0.1"), 9, 1}}));
    commit();
    const std::uint32_t g = *group_of("10.8.0.0/16");
    EXPECT_TRUE(ports(g, ars::MemberRole::kAlternate).empty());
    EXPECT_EQ(policy_rib.held(Hold::Neighbour), 1u);
    gateways[ip("10.0.0.9")] = 3;
    EXPECT_EQ(policy_rib.retry_held(), 1u);
    commit();
    EXPECT_EQ(ports(*group_of("10.8.0.0/16"), ars::MemberRole::kAlternate), (std::vector<std::uint16_t>{3}));
    // Policy off: the main table's route as zebra gave it, table 200's forgotten; in one batch.
    policy_rib.set_policy(nullptr);
    commit();
    const std::uint32_t plain = *group_of("10.8.0.0/16");
    EXPECT_GE(plain, kImplicitNhgFirst);
    EXPECT_EQ(ports_of(plain), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(policy_rib.routes(), 1u);
    EXPECT_TRUE(ars.ars_state().nhgs.empty());
    EXPECT_EQ(fib.nhgs().size(), 1u);
}

// zebra under the weights policy (the dragonfly integration test's S1): 10.0.0.1 is the minimal
// path (weight 90), 10.0.0.2 the non-minimal one (weight 9). The kernel forgets a neighbour when
// its link goes down and learns it again only after the link is back, while zebra's messages
// naming it may come first: the group must still change in place, never be freed and made again.
class FpmRibWeightsTest : public FpmRibPolicyTest {
  protected:
    static fib::DragonflyPolicy weights() {
        fib::DragonflyPolicy p;
        p.source = fib::DragonflyPolicy::Source::Weights;
        p.primary_weight_min = 20;
        return p;
    }
    fib::DragonflyGroups weighted{ars_updater, weights()};
    FpmRibWeightsTest() { policy_rib.set_policy(&weighted); }
    void commit() {
        weighted.flush();
        const auto r = ars_updater.commit();
        ASSERT_TRUE(r.published) << r.error;
        ASSERT_TRUE(r.error.empty()) << r.error;
    }
    // A route update as dplane_fpm_nl sends it: RTM_DELROUTE then RTM_NEWROUTE, one frame.
    void update(const char *prefix, std::uint32_t nh_id) {
        policy_rib.apply(del_route(prefix));
        policy_rib.apply(route(prefix, nh_id));
    }
    std::vector<std::uint16_t> primaries(std::uint32_t id) const {
        return ports(id, ars::MemberRole::kPrimary);
    }
    std::vector<std::uint16_t> alternates(std::uint32_t id) const {
        return ports(id, ars::MemberRole::kAlternate);
    }
};

TEST_F(FpmRibWeightsTest, ANextHopWaitingForItsNeighbourLeavesTheGroupInPlace) {
    policy_rib.apply(single(12, "10.0.0.2"));
    policy_rib.apply(single(13, "10.0.0.1"));
    policy_rib.apply(group(11, {{12, 9}, {13, 90}}));
    policy_rib.apply(route("10.2.0.0/24", 11));
    commit();
    const std::uint32_t g = *group_of("10.2.0.0/24");
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(alternates(g), (std::vector<std::uint16_t>{2}));

    // The cut: the link to 10.0.0.1 down, the kernel flushes its neighbour; zebra sends the
    // group again (its nexthop still listed) before BGP converges. The prefix keeps what
    // resolves, on the same group, and the next hop waits for its neighbour.
    gateways.erase(ip("10.0.0.1"));
    policy_rib.apply(single(13, "10.0.0.1"));
    policy_rib.apply(group(11, {{12, 9}, {13, 90}}));
    commit();
    EXPECT_EQ(group_of("10.2.0.0/24"), g);
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(policy_rib.installed(), 1u);
    // BGP converged: the route on a nexthop of its own, 10.0.0.2 alone; the old group deleted.
    policy_rib.apply(single(14, "10.0.0.2"));
    update("10.2.0.0/24", 14);
    for (std::uint32_t id : {11u, 12u, 13u}) policy_rib.apply(del_nexthop(id));
    commit();
    EXPECT_EQ(group_of("10.2.0.0/24"), g);
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{2}));
    EXPECT_TRUE(alternates(g).empty());

    // The link back: BGP's paths come before weft hears of the neighbour again. The prefix
    // stays on its group while 10.0.0.1 resolves, then takes it back in place.
    policy_rib.apply(single(29, "10.0.0.2"));
    policy_rib.apply(single(30, "10.0.0.1"));
    policy_rib.apply(group(28, {{29, 9}, {30, 90}}));
    update("10.2.0.0/24", 28);
    commit();
    EXPECT_EQ(group_of("10.2.0.0/24"), g);
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{2}));
    gateways[ip("10.0.0.1")] = 1;
    EXPECT_EQ(policy_rib.retry_held(), 1u);
    commit();
    EXPECT_EQ(group_of("10.2.0.0/24"), g);
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(alternates(g), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(policy_rib.retry_held(), 0u);  // nothing waits any more
    EXPECT_EQ(policy_rib.partial(), 0u);

    // The neighbour lost again, then zebra reconnects: the route keeps the next hop that resolves
    // while zebra replays (its nexthop ids are the old connection's).
    gateways.erase(ip("10.0.0.1"));
    policy_rib.apply(single(30, "10.0.0.1"));
    commit();
    EXPECT_EQ(policy_rib.partial(), 1u);
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{2}));
    policy_rib.new_session(Rib::Clock::now());
    EXPECT_EQ(policy_rib.retry_held(), 0u);
    commit();
    EXPECT_EQ(group_of("10.2.0.0/24"), g);
    EXPECT_EQ(primaries(g), (std::vector<std::uint16_t>{2}));
    EXPECT_EQ(weighted.counters().groups_made, 1u);
    EXPECT_EQ(weighted.counters().groups_freed, 0u);
    EXPECT_EQ(weighted.counters().prefixes_moved, 0u);
}

}  // namespace
}  // namespace weft::control::fpm
