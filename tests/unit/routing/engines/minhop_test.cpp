#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const std::string &chain, RoutingOptions o = {}) {
    RoutingTables t;
    auto r = run_chain(chain, f, o, t);
    EXPECT_TRUE(r.ok) << r.error;
    return t;
}

// 4 leaves (sw0..sw3, hosts on ports 1-2, spine0 on port 3, spine1 on port 4), 2 spines
// (sw4, sw5, leaf i on port i+1). LIDs: switches 1-6, hosts h0..h7 = 7..14.
TEST(MinHop, TwoLevelFatTreeByHand) {
    const Fabric f = test::two_level(4, 2, 2);
    const auto t = route(f, "minhop");
    EXPECT_EQ(t.engine, "minhop");
    // Leaf sw0: own hosts direct; remote hosts alternate over the two spines (equalized); the
    // switch LIDs (not counted in equalization) take the first least-loaded port.
    const std::vector<PortNum> sw0 = {0, 3, 3, 3, 3, 4, 1, 2, 3, 4, 3, 4, 3, 4};
    for (Lid l = 1; l <= 14; ++l) EXPECT_EQ(t.lft[0][l], sw0[l - 1]) << "sw0 LID " << l;
    // Spine sw4: each host behind its leaf's port, its own LID on 0, the other spine via leaf 0.
    const std::vector<PortNum> sw4 = {1, 2, 3, 4, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4};
    for (Lid l = 1; l <= 14; ++l) EXPECT_EQ(t.lft[4][l], sw4[l - 1]) << "sw4 LID " << l;
    EXPECT_EQ(t.hops[0][9], 3);  // sw0 -> spine -> sw1 -> h2
    EXPECT_EQ(t.hops[0][7], 1);
    EXPECT_EQ(t.hops[0][1], 0);
    EXPECT_EQ(equal_cost_ports(f, t, 0, 9), (std::vector<PortNum>{3, 4}));
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

TEST(MinHop, LineByHand) {
    // sw0 - sw1 - sw2 (port 1 = next, 2 = previous), one host each on port 3; LIDs 1-3, 4-6.
    const Fabric f = test::line(3, 1);
    const auto t = route(f, "minhop");
    EXPECT_EQ(t.lft[0], (std::vector<PortNum>{kNoPort, 0, 1, 1, 3, 1, 1}));
    EXPECT_EQ(t.lft[1], (std::vector<PortNum>{kNoPort, 2, 0, 1, 2, 3, 1}));
    EXPECT_EQ(t.lft[2], (std::vector<PortNum>{kNoPort, 2, 2, 0, 2, 2, 3}));
    EXPECT_EQ(t.hops[0][6], 3);
}

TEST(MinHop, RingHasCreditLoops) {
    // Shortest paths around a 5-ring chase each other: minhop promises nothing here.
    const Fabric f = test::ring(5, 1);
    const auto t = route(f, "minhop");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_GT(test::cdg_cycles(f, t), 0u);
}

TEST(MinHop, EqualizesParallelCables) {
    // Two leaves, one spine, two cables each: the 4 remote hosts split 2/2 over the cables.
    const Fabric f = test::two_level(2, 1, 4, 2);
    const auto t = route(f, "minhop");
    unsigned on5 = 0, on6 = 0;
    for (Lid l : test::ca_lids(f)) {
        if (f.attached_switch(l) == f.switch_node(0)) continue;
        on5 += t.lft[0][l] == 5;
        on6 += t.lft[0][l] == 6;
    }
    EXPECT_EQ(on5, 2u);
    EXPECT_EQ(on6, 2u);
}

TEST(MinHop, IgnoredPortIsLeftOutOfEqualization) {
    // With spine port 3 of sw0 ignored, its load never grows, so every remote host takes it.
    const Fabric f = test::two_level(4, 2, 2);
    RoutingOptions o;
    o.ignore_ports = {{f.node(f.switch_node(0)).guid, 3}};
    const auto t = route(f, "minhop", o);
    for (Lid l = 9; l <= 14; ++l) EXPECT_EQ(t.lft[0][l], 3) << l;
}

// Leaf A (sw0): spine0 on ports 2 and 3, spine1 on port 4; leaf B (sw1) the same; one host
// on leaf B port 1 with LMC 2 (LIDs 8-11).
Fabric lmc_fabric() {
    test::Builder b;
    const NodeIdx a = b.sw(4), bb = b.sw(4), s0 = b.sw(4), s1 = b.sw(4);
    b.f.connect(a, 2, s0, 1);
    b.f.connect(a, 3, s0, 2);
    b.f.connect(a, 4, s1, 1);
    b.f.connect(bb, 2, s0, 3);
    b.f.connect(bb, 3, s0, 4);
    b.f.connect(bb, 4, s1, 2);
    b.host(bb, 1);
    test::assign_lids(b.f, 2);
    return std::move(b.f);
}

TEST(MinHop, LmcPrefersOtherSystemsThenLeastUsedNode) {
    const Fabric f = lmc_fabric();
    const Lid base = f.port(f.node_count() - 1, 1).lid;
    ASSERT_EQ(f.port(f.node_count() - 1, 1).lmc, 2);
    RoutingOptions o;
    o.lmc = 2;
    const auto t = route(f, "minhop", o);
    // LID 0 of the group: first least-loaded port (2). LID 1: port 3 is as loaded as port 4,
    // but port 4 reaches another system (rule b). LID 2: both systems used: least load (3).
    // LID 3: all equally loaded: the node this group used least (spine1, rule d).
    EXPECT_EQ(t.lft[0][base + 0], 2);
    EXPECT_EQ(t.lft[0][base + 1], 4);
    EXPECT_EQ(t.lft[0][base + 2], 3);
    EXPECT_EQ(t.lft[0][base + 3], 4);
}

TEST(MinHop, LmcGroupsSpreadOverSpines) {
    const Fabric f = test::two_level(4, 2, 2, 1, 1);
    RoutingOptions o;
    o.lmc = 1;
    const auto t = route(f, "minhop", o);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    for (SwitchIdx s = 0; s < 4; ++s)
        for (Lid l : test::ca_lids(f)) {
            if (f.attached_switch(l) == f.switch_node(s)) continue;
            EXPECT_NE(t.lft[s][l], t.lft[s][l + 1]) << "switch " << s << " LID " << l;
        }
}

TEST(MinHop, UnconnectedEndPortStaysUnrouted) {
    Fabric f = test::two_level(2, 1, 2);
    const NodeIdx h = f.node_count() - 1;
    const Lid lid = f.port(h, 1).lid;
    f.disconnect(h, 1);
    const auto t = route(f, "minhop");
    EXPECT_EQ(t.lft[0][lid], kNoPort);
    EXPECT_EQ(t.hops[0][lid], kInfHops);
}

}  // namespace
}  // namespace weft::routing
