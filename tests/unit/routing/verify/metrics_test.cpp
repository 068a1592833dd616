#include <gtest/gtest.h>

#include "hand_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/routing_metrics.hpp"

namespace weft::routing {
namespace {

using testing::Ring3;
using testing::TwoLevel;

std::uint64_t routes_on(const Fabric &f, const LinkLoad &l, NodeIdx n, PortNum p) {
    return l.routes[f.node(n).port_base + p];
}

TEST(RoutesPerLink, CountsHandWorkedRing) {
    Ring3 r;
    const LinkLoad l = routes_per_link(r.f, r.t);
    // Host LIDs only as destinations, hosts as sources: 3 x 2 = 6 routes.
    // Clockwise routing: s0->s1 carries h0->h1, h0->h2, h2->h1 = 3.
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(routes_on(r.f, l, r.sw[i], 1), 3u);
        EXPECT_EQ(routes_on(r.f, l, r.sw[i], 2), 0u);
        EXPECT_EQ(routes_on(r.f, l, r.sw[i], 3), 2u);    // down to the host: from two others
        EXPECT_EQ(routes_on(r.f, l, r.host[i], 1), 2u);  // up from the host: to two others
    }
    EXPECT_EQ(l.switch_links.links, 6u);
    EXPECT_EQ(l.switch_links.max, 3u);
    EXPECT_EQ(l.switch_links.min, 0u);
    EXPECT_DOUBLE_EQ(l.switch_links.mean, 1.5);
    EXPECT_DOUBLE_EQ(l.switch_links.stddev, 1.5);
    EXPECT_EQ(l.all.links, 12u);
}

TEST(RoutesPerLink, FatTreeDmodK) {
    TwoLevel t(4, 2, 2);  // 8 hosts, each leaf sends its 2 hosts' traffic to 6 remote hosts
    const LinkLoad l = routes_per_link(t.f, t.t);
    // Leaf up-link to root r: remote destinations with d mod 2 == r (3) from 2 local hosts = 6.
    for (unsigned i = 0; i < 4; ++i)
        for (unsigned r = 0; r < 2; ++r) EXPECT_EQ(routes_on(t.f, l, t.leaf[i], 3 + r), 6u);
    EXPECT_EQ(l.switch_links.min, 6u);
    EXPECT_EQ(l.switch_links.max, 6u);
}

TEST(Ebb, FullBisectionTreeGivesOne) {
    // Four roots for four hosts: destination d owns root d, so no two flows of a matching share
    // a link: EBB is exactly 1.
    TwoLevel t(2, 2, 4);
    const PatternResult e = effective_bisection_bandwidth(t.f, t.t, 50, 7);
    EXPECT_EQ(e.flows, 50u * 4);
    EXPECT_EQ(e.undelivered, 0u);
    EXPECT_DOUBLE_EQ(e.mean_bandwidth, 1.0);
    EXPECT_DOUBLE_EQ(e.min_bandwidth, 1.0);
    EXPECT_DOUBLE_EQ(shift_pattern(t.f, t.t).mean_bandwidth, 1.0);
}

TEST(Ebb, OversubscribedTreeIsBelowOneAndSeeded) {
    TwoLevel t(4, 4, 1);  // 16 hosts through a single root
    const PatternResult a = effective_bisection_bandwidth(t.f, t.t, 40, 1);
    const PatternResult b = effective_bisection_bandwidth(t.f, t.t, 40, 1);
    EXPECT_LT(a.mean_bandwidth, 0.6);
    EXPECT_GT(a.mean_bandwidth, 0.2);
    EXPECT_DOUBLE_EQ(a.mean_bandwidth, b.mean_bandwidth);
    // Shift by 4 (the next leaf): every leaf sends 4 flows up one link -> 1/4 each.
    const PatternResult s = shift_pattern(t.f, t.t, {4});
    EXPECT_DOUBLE_EQ(s.mean_bandwidth, 0.25);
}

TEST(Ebb, BrokenRoutesCountAsUndelivered) {
    TwoLevel t(2, 2, 4);
    for (auto &row : t.t.lft) std::fill(row.begin(), row.end(), kNoPort);
    const PatternResult e = effective_bisection_bandwidth(t.f, t.t, 5, 1);
    EXPECT_EQ(e.undelivered, e.flows);
    EXPECT_DOUBLE_EQ(e.mean_bandwidth, 0.0);
}

TEST(AllToAll, RingBottleneck) {
    Ring3 r;
    // Every flow crosses at least one clockwise switch link (3 routes) or a host link (2):
    // h0->h1 crosses s0->s1 (3): 1/3; all flows touch a 3-route link.
    const PatternResult a = all_to_all(r.f, r.t);
    EXPECT_EQ(a.flows, 6u);
    EXPECT_DOUBLE_EQ(a.mean_bandwidth, 1.0 / 3);
}

// Without VMs the endpoints are the host ports and the counts are the hosts' own.
TEST(Endpoints, HostsGiveTheHostCounts) {
    TwoLevel t(4, 2, 2);
    const LinkLoad a = routes_per_link(t.f, t.t), b = routes_per_link(t.f, t.t, traffic_endpoints(t.f));
    EXPECT_EQ(a.routes, b.routes);
    const PatternResult x = effective_bisection_bandwidth(t.f, t.t, 20, 3),
                        y = effective_bisection_bandwidth(t.f, t.t, traffic_endpoints(t.f), 20, 3);
    EXPECT_DOUBLE_EQ(x.mean_bandwidth, y.mean_bandwidth);
}

// VMs: each sends to every VM not behind its own vSwitch. Two hypervisors on one switch, 3 and 1
// VMs: the 3-VM uplink carries 3 x 1 routes up and 1 x 3 down; VM pairs on one vSwitch use no
// link and get a full share.
TEST(Endpoints, VmsBehindOneVswitchShareNoLink) {
    Fabric f;
    const NodeIdx s = f.add_node(NodeType::Switch, 0x1, 2, "s");
    const NodeIdx a = f.add_node(NodeType::Ca, 0x10, 1, "a"), b = f.add_node(NodeType::Ca, 0x20, 1, "b");
    f.connect(s, 1, a, 1);
    f.connect(s, 2, b, 1);
    f.add_vswitch(a, 3);
    f.add_vswitch(b, 1);
    assign_lids(f, {});
    for (std::uint16_t i = 0; i < 3; ++i) f.add_vm("a" + std::to_string(i), a, i);
    f.add_vm("b0", b, 0);
    RoutingTables t;
    ASSERT_TRUE(run_chain("minhop", f, {}, t).ok);
    const LinkLoad l = routes_per_link(f, t, traffic_endpoints(f));
    EXPECT_EQ(routes_on(f, l, a, 1), 3u);  // a's 3 VMs to b0
    EXPECT_EQ(routes_on(f, l, s, 1), 3u);  // b0 to a's 3 VMs
    EXPECT_EQ(routes_on(f, l, b, 1), 3u);
    EXPECT_EQ(routes_on(f, l, s, 2), 3u);
    // Pairs: a VM of a with b0 (each direction shares the 1-VM side's link with nothing) and a
    // pair inside a; every flow gets a full share.
    const PatternResult e = effective_bisection_bandwidth(f, t, traffic_endpoints(f), 10, 1);
    EXPECT_EQ(e.undelivered, 0u);
    EXPECT_DOUBLE_EQ(e.mean_bandwidth, 1.0);
}

}  // namespace
}  // namespace weft::routing
