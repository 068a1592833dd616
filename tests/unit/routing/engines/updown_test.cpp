#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const std::string &chain, RoutingOptions o = {}) {
    o.no_fallback = true;
    RoutingTables t;
    auto r = run_chain(chain, f, o, t);
    EXPECT_TRUE(r.ok) << r.error << (r.failures.empty() ? "" : r.failures[0]);
    return t;
}

// Ring sw0..sw3 (port 1 = next, 2 = previous), host hi on swi port 3; LIDs: switches 1-4,
// hosts 5-8. Root sw0: ranks sw0 0, sw1/sw3 1, sw2 2.
TEST(Updn, RingByHandAvoidsTheCycle) {
    const Fabric f = test::ring(4, 1);
    RoutingOptions o;
    o.root_guids = {f.node(f.switch_node(0)).guid};
    const auto t = route(f, "updn", o);
    EXPECT_EQ(t.engine, "updn");
    // To h1 (on sw1): sw3 must climb to the root (port 1), never go down to sw2 and up again.
    EXPECT_EQ(t.lft[3][6], 1);
    EXPECT_EQ(t.lft[0][6], 1);
    EXPECT_EQ(t.lft[2][6], 2);
    // To h3 (on sw3): mirror image.
    EXPECT_EQ(t.lft[1][8], 2);
    EXPECT_EQ(t.lft[0][8], 2);
    EXPECT_EQ(t.lft[2][8], 1);
    // To h2 (below both rank-1 switches): straight down.
    EXPECT_EQ(t.lft[1][7], 1);
    EXPECT_EQ(t.lft[3][7], 2);
    EXPECT_EQ(t.hops[3][6], 3);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
}

TEST(Updn, CaGuidAsRootMeansItsSwitch) {
    const Fabric f = test::ring(4, 1);
    RoutingOptions a, b;
    a.root_guids = {f.node(f.switch_node(0)).guid};
    const NodeIdx h0 = f.port(f.switch_node(0), 3).peer;
    b.root_guids = {f.port(h0, 1).guid};
    EXPECT_EQ(route(f, "updn", a).lft, route(f, "updn", b).lft);
}

TEST(Updn, FindsSpinesAsRootsOnAFatTree) {
    const Fabric f = test::two_level(4, 2, 3);
    const auto t = route(f, "updn");
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    // Spines are roots, so leaf-to-leaf goes over a spine and the spine LIDs are one hop.
    EXPECT_EQ(t.hops[0][5], 1);
    EXPECT_EQ(t.hops[0][1 + 1], 2);
    // As in OpenSM, two roots cannot reach each other: that would take a down-then-up turn.
    EXPECT_EQ(t.lft[4][6], kNoPort);
    EXPECT_EQ(t.hops[4][6], kInfHops);
}

TEST(Updn, NoRootsFails) {
    const Fabric f = test::ring(6, 1);
    RoutingTables t;
    RoutingOptions o;
    o.no_fallback = true;
    EXPECT_FALSE(run_chain("updn", f, o, t).ok);
    o.root_guids = {0xdeadbeef};
    EXPECT_FALSE(run_chain("updn", f, o, t).ok);
}

TEST(Updn, TorusWithGivenRootIsDeadlockFree) {
    const Fabric f = test::torus2d(4, 4);
    RoutingOptions o;
    o.root_guids = {f.node(f.switch_node(5)).guid};
    const auto t = route(f, "updn", o);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    const auto m = route(f, "minhop");
    EXPECT_GT(test::cdg_cycles(f, m), 0u);
}

TEST(Updn, SurvivesLinkFaults) {
    Fabric f = test::kary_ntree(4, 3);
    // Cut two leaf uplinks and one middle uplink: still a connected up/down fabric.
    f.disconnect(f.switch_node(0), 5);
    f.disconnect(f.switch_node(5), 6);
    f.disconnect(f.switch_node(17), 7);
    const auto t = route(f, "updn");
    // CA-to-CA only: in a k-ary-n-tree some middle switches share no root (OpenSM alike).
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
}

// Dnup ranks from the CAs. Here a CA hangs off the spine (close to the "root"), which is what
// dnup exists for.
TEST(Dnup, FatTreeWithCaOnASpine) {
    test::Builder b;
    for (int i = 0; i < 4; ++i) b.sw(6);  // leaves 0,1; spines 2,3
    for (int l = 0; l < 2; ++l)
        for (int s = 0; s < 2; ++s) b.f.connect(b.sws[l], 3 + s, b.sws[2 + s], 1 + l);
    b.host(b.sws[0], 1);
    b.host(b.sws[1], 1);
    b.host(b.sws[2], 5);  // an I/O node on a spine
    test::assign_lids(b.f);
    const auto t = route(b.f, "dnup");
    EXPECT_EQ(t.engine, "dnup");
    EXPECT_EQ(test::check_all_routes(b.f, t), "");
    EXPECT_EQ(test::cdg_cycles(b.f, t), 0u);
}

TEST(Dnup, RingRoutesDeadlockFree) {
    const Fabric f = test::ring(6, 1);
    const auto t = route(f, "dnup");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
}

TEST(Dnup, NoCasFails) {
    test::Builder b;
    b.sw(2);
    b.sw(2);
    b.f.connect(b.sws[0], 1, b.sws[1], 1);
    test::assign_lids(b.f);
    RoutingTables t;
    RoutingOptions o;
    o.no_fallback = true;
    EXPECT_FALSE(run_chain("dnup", b.f, o, t).ok);
}

}  // namespace
}  // namespace weft::routing
