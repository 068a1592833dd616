#include <gtest/gtest.h>

#include <bit>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const RoutingOptions &o = {}) {
    return test::route_alone("dor", f, o);
}

using test::generated;
using test::switch_lid;

bool mentions(const std::vector<std::string> &lines, const std::string &what) {
    for (const auto &l : lines)
        if (l.find(what) != std::string::npos) return true;
    return false;
}

TEST(Dor, ThreeByThreeMeshByHand) {
    // Switch i sits at (i % 3, i / 3); ports 1/2 = +x/-x, 3/4 = +y/-y, host on 5. The centre
    // switch corrects x before y: toward a corner it takes the x port.
    const Fabric f = generated("mesh:3x3,hosts=1");
    const auto t = route(f);
    const PortNum centre[9] = {2, 4, 1, 2, 0, 1, 2, 3, 1};
    for (SwitchIdx d = 0; d < 9; ++d) EXPECT_EQ(t.lft[4][switch_lid(f, d)], centre[d]) << d;
    // From corner (0,0) to corner (2,2): +x, +x, then +y, +y.
    auto path = test::walk(f, t, 0, switch_lid(f, 8));
    ASSERT_TRUE(path);
    const std::vector<std::pair<SwitchIdx, PortNum>> xy = {{0, 1}, {1, 1}, {2, 3}, {5, 3}};
    EXPECT_EQ(*path, xy);
    // And back: -x first again.
    path = test::walk(f, t, 8, switch_lid(f, 0));
    ASSERT_TRUE(path);
    const std::vector<std::pair<SwitchIdx, PortNum>> back = {{8, 2}, {7, 2}, {6, 4}, {3, 4}};
    EXPECT_EQ(*path, back);
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
}

TEST(Dor, PortSearchOrderingFileSetsTheDimensionOrder) {
    // -O "3 4 1 2" on every switch: y is the first dimension, so (0,0) -> (2,2) goes +y, +y,
    // then +x, +x; without the file it went x first (ThreeByThreeMeshByHand).
    const Fabric f = generated("mesh:3x3,hosts=1");
    RoutingOptions o;
    for (SwitchIdx s = 0; s < 9; ++s)
        o.port_search_order.push_back({f.node(f.switch_node(s)).guid, {3, 4, 1, 2}});
    const auto t = route(f, o);
    auto path = test::walk(f, t, 0, switch_lid(f, 8));
    ASSERT_TRUE(path);
    const std::vector<std::pair<SwitchIdx, PortNum>> yx = {{0, 3}, {3, 3}, {6, 1}, {7, 1}};
    EXPECT_EQ(*path, yx);
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
    // A switch the file does not list keeps port order: only the centre switch is listed, so
    // from (0,0) x comes first, and at the centre y does.
    RoutingOptions centre;
    centre.port_search_order.push_back({f.node(f.switch_node(4)).guid, {4, 3}});
    const auto c = route(f, centre);
    path = test::walk(f, c, 1, switch_lid(f, 8));  // (1,0) -> (2,2): +x first
    ASSERT_TRUE(path);
    EXPECT_EQ(path->front(), (std::pair<SwitchIdx, PortNum>{1, 1}));
    EXPECT_EQ(c.lft[4][switch_lid(f, 8)], 3);  // centre -> (2,2): +y first
    EXPECT_EQ(c.lft[4][switch_lid(f, 0)], 4);  // centre -> (0,0): -y first
    EXPECT_EQ(c.lft[4][switch_lid(f, 5)], 1);  // same row: x is the only min-hop way
}

TEST(Dor, ThreeCubeTakesTheLowestDifferingDimension) {
    // Port k+1 is dimension k on every switch: e-cube routing.
    const Fabric f = generated("hypercube:d=3,hosts=1");
    const auto t = route(f);
    for (SwitchIdx s = 0; s < 8; ++s)
        for (SwitchIdx d = 0; d < 8; ++d)
            if (s != d) {
                EXPECT_EQ(t.lft[s][switch_lid(f, d)], 1 + std::countr_zero(s ^ d)) << s << "->" << d;
            }
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
}

Fabric two_switches_parallel(unsigned hosts) {
    // A's ports 1,2 (+x) to B's ports 3,4 (-x); hosts from port 5 on both.
    test::Builder b;
    const NodeIdx a = b.sw(static_cast<PortNum>(4 + hosts)), c = b.sw(static_cast<PortNum>(4 + hosts));
    b.f.connect(a, 1, c, 3);
    b.f.connect(a, 2, c, 4);
    for (unsigned h = 0; h < hosts; ++h) b.host(a, static_cast<PortNum>(5 + h));
    for (unsigned h = 0; h < hosts; ++h) b.host(c, static_cast<PortNum>(5 + h));
    test::assign_lids(b.f);
    return std::move(b.f);
}

TEST(Dor, ParallelCablesShareTheLoadUnlessEqualizationIsOff) {
    const Fabric f = two_switches_parallel(4);
    std::vector<Lid> far;  // B's hosts, in LID order
    for (Lid l : test::ca_lids(f))
        if (f.attached_switch(l) == f.switch_node(1)) far.push_back(l);
    ASSERT_EQ(far.size(), 4u);
    auto t = route(f);
    std::vector<PortNum> got;
    for (Lid l : far) got.push_back(t.lft[0][l]);
    EXPECT_EQ(got, (std::vector<PortNum>{1, 2, 1, 2}));
    EXPECT_TRUE(t.warnings.empty()) << t.warnings[0];
    RoutingOptions o;
    o.port_equalization = false;
    t = route(f, o);
    got.clear();
    for (Lid l : far) got.push_back(t.lft[0][l]);
    EXPECT_EQ(got, (std::vector<PortNum>{1, 1, 1, 1}));
}

TEST(Dor, ParallelCablesShareTheLoadWhenAnotherNeighbourSitsBetweenThem) {
    // A's ports 1 and 3 lead to B, port 2 to C: the LIDs toward B alternate over 1 and 3 (a
    // builder that took the parallel cables to be adjacent ports would get this wrong).
    test::Builder b;
    const NodeIdx a = b.sw(8), bb = b.sw(8), c = b.sw(8);
    b.f.connect(a, 1, bb, 1);
    b.f.connect(a, 2, c, 1);
    b.f.connect(a, 3, bb, 2);
    for (PortNum p = 5; p < 9; ++p) b.host(bb, p);
    b.host(c, 5);
    test::assign_lids(b.f);
    const Fabric &f = b.f;
    std::vector<PortNum> to_b, to_c;
    const auto t = route(f);
    for (Lid l : test::ca_lids(f)) (f.attached_switch(l) == bb ? to_b : to_c).push_back(t.lft[0][l]);
    EXPECT_EQ(to_b, (std::vector<PortNum>{1, 3, 1, 3}));
    EXPECT_EQ(to_c, (std::vector<PortNum>{2}));
}

TEST(Dor, EveryLidOfAnEndPortKeepsDimensionOrder) {
    // LMC 2: OpenSM's dor scans every LID of an end port from the first port again (other
    // engines resume after the previous LID's port), so no LID leaves dimension order and the
    // mesh stays free of credit loops.
    Fabric f = generated("mesh:3x3,hosts=1");
    test::assign_lids(f, 2);
    RoutingOptions o;
    o.lmc = 2;
    const auto t = route(f, o);
    for (Lid base : test::ca_lids(f))  // base LIDs
        for (SwitchIdx s = 0; s < 9; ++s)
            for (Lid l = base + 1; l < base + 4; ++l) EXPECT_EQ(t.lft[s][l], t.lft[s][base]) << s << " " << l;
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
    // With two parallel cables the LIDs of one end port still spread over both.
    Fabric two = two_switches_parallel(1);
    test::assign_lids(two, 1);
    const auto p = route(two, o);
    for (Lid l : test::ca_lids(two))
        if (two.attached_switch(l) == two.switch_node(1)) {
            EXPECT_NE(p.lft[0][l], p.lft[0][l + 1]) << l;
        }
}

TEST(Dor, ReportsInconsistentCablingAndStillRoutes) {
    // A line of three where the second cable joins port 1 to port 1 (hypercube style) while the
    // first joins port 1 to port 2 (mesh style): ports 1 and 2 no longer name one dimension.
    test::Builder b;
    for (int i = 0; i < 3; ++i) b.sw(3);
    b.f.connect(b.sws[0], 1, b.sws[1], 2);
    b.f.connect(b.sws[1], 1, b.sws[2], 1);
    for (int i = 0; i < 3; ++i) b.host(b.sws[i], 3);
    test::assign_lids(b.f);
    const auto t = route(b.f);
    EXPECT_TRUE(mentions(t.warnings, "inconsistent cabling")) << (t.warnings.empty() ? "" : t.warnings[0]);
    EXPECT_TRUE(mentions(t.warnings, "switch 'sw1'"));
    EXPECT_TRUE(mentions(t.warnings, "port 1"));
    EXPECT_EQ(test::check_all_routes(b.f, t), "");
}

TEST(Dor, ReportsADimensionLeadingToTwoNeighboursOneWay) {
    // 2x2 mesh whose switch 3 swaps its x and y port pairs: one port class, but switch 0's
    // "+" ports 1 and 3 lead to two different switches.
    test::Builder b;
    for (int i = 0; i < 4; ++i) b.sw(5);
    auto link = [&](int a, PortNum pa, int c, PortNum pc) { b.f.connect(b.sws[a], pa, b.sws[c], pc); };
    link(0, 1, 1, 2);  // x
    link(2, 1, 3, 4);  // x, but switch 3 takes it on a y port
    link(0, 3, 2, 4);  // y
    link(1, 3, 3, 2);  // y, on switch 3's x port
    for (int i = 0; i < 4; ++i) b.host(b.sws[i], 5);
    test::assign_lids(b.f);
    const auto t = route(b.f);
    EXPECT_TRUE(mentions(t.warnings, "inconsistent cabling"));
    EXPECT_EQ(test::check_all_routes(b.f, t), "");
}

TEST(Dor, ReportsLowerDimensionsOnHigherPorts) {
    // 2x2 mesh with x on ports 1 (+) / 4 (-) and y on 2 (+) / 3 (-): switch 1 has x on port 4
    // above its y port 2, so toward (0,1) it would turn y first while switch 0 turns x first.
    test::Builder b;
    for (int i = 0; i < 4; ++i) b.sw(5);
    auto link = [&](int a, PortNum pa, int c, PortNum pc) { b.f.connect(b.sws[a], pa, b.sws[c], pc); };
    link(0, 1, 1, 4);
    link(2, 1, 3, 4);
    link(0, 2, 2, 3);
    link(1, 2, 3, 3);
    for (int i = 0; i < 4; ++i) b.host(b.sws[i], 5);
    test::assign_lids(b.f);
    const auto t = route(b.f);
    ASSERT_EQ(t.warnings.size(), 2u) << t.warnings[0];
    EXPECT_TRUE(mentions(t.warnings, "switch 'sw1' (0x0000000000001001) port 4 is above port 2"));
    EXPECT_TRUE(mentions(t.warnings, "switch 'sw3' (0x0000000000001003) port 4 is above port 3"));
}

TEST(Dor, WarnsThatTorusRingsKeepCreditLoops) {
    const Fabric f = generated("torus:4x4,hosts=1");
    const auto t = route(f);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    ASSERT_EQ(t.warnings.size(), 2u);
    EXPECT_TRUE(mentions(t.warnings, "ports {1,2} close a ring of 4 switches"));
    EXPECT_TRUE(mentions(t.warnings, "ports {3,4} close a ring of 4 switches"));
    EXPECT_TRUE(check_credit_loops(f, t).has_cycle);  // what the warning says
}

TEST(Dor, CreditLoopFreeOnMeshesAndHypercubes) {
    for (const char *spec : {"mesh:4x4,hosts=2", "mesh:3x3x3,hosts=1", "mesh:5x2x3,hosts=1",
                             "hypercube:d=5,hosts=2", "hypercube:d=2,hosts=1", "mesh:6,hosts=1"}) {
        SCOPED_TRACE(spec);
        const Fabric f = generated(spec);
        const auto t = route(f);
        EXPECT_TRUE(t.warnings.empty()) << t.warnings[0];
        EXPECT_EQ(t.vls_used, 1u);
        const PathReport pr = trace_paths(f, t);
        EXPECT_TRUE(pr.ok());
        EXPECT_EQ(pr.non_minimal, 0u);
        const CreditLoopReport cl = check_credit_loops(f, t);
        EXPECT_FALSE(cl.has_cycle) << cl.describe(f);
        EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    }
}

TEST(Dor, RoutesEveryFabricLikeMinhopDoes) {
    // Inconsistent cabling is reported, not refused (as OpenSM routes it): still every pair,
    // minimal and loop-free.
    for (const char *spec : {"dragonfly:a=4,p=2,h=2", "random:switches=16,degree=4,hosts=1,seed=2",
                             "mesh:4x4,hosts=1/fail-links=3,seed=1", "kary:k=3,n=3"}) {
        SCOPED_TRACE(spec);
        const Fabric f = generated(spec);
        const auto t = route(f);
        const PathReport pr = trace_paths(f, t);
        EXPECT_TRUE(pr.ok());
        EXPECT_EQ(pr.non_minimal, 0u);
        EXPECT_EQ(test::check_all_routes(f, t), "");
    }
}

}  // namespace
}  // namespace weft::routing
