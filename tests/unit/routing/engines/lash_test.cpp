#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const RoutingOptions &o = {}) {
    return test::route_alone("lash", f, o);
}

using test::generated;
using test::switch_lid;

TEST(Lash, FourSwitchRingNeedsTwoLayersByHand) {
    // BFS trees in GUID order route every two-hop pair clockwise (port 1): 0-1-2, 1-2-3, 2-3-0,
    // 3-0-1 depend on each other in a ring. Pairs go in order (0,1), (0,2), ...: (0,2) fits
    // layer 0, (1,3) would close the ring there and opens layer 1. Balancing then moves one
    // single-hop pair (10 paths against 2 -> 8 against 4, below OpenSM's limit of 6); (0,2)
    // cannot follow, its dependencies would close the ring in layer 1.
    const Fabric f = test::ring(4, 1);
    const auto t = route(f);
    EXPECT_EQ(t.vls_used, 2u);
    EXPECT_EQ(t.lft[0], (std::vector<PortNum>{kNoPort, 0, 1, 1, 2, 3, 1, 1, 2}));
    EXPECT_EQ(t.lft[1], (std::vector<PortNum>{kNoPort, 2, 0, 1, 1, 2, 3, 1, 1}));
    EXPECT_EQ(t.sl(1, switch_lid(f, 3)), 1);
    EXPECT_EQ(t.sl(3, switch_lid(f, 1)), 1);
    EXPECT_EQ(t.sl(0, switch_lid(f, 2)), 0);
    EXPECT_EQ(t.sl(2, switch_lid(f, 0)), 0);
    unsigned in_layer1 = 0;
    for (SwitchIdx a = 0; a < 4; ++a)
        for (SwitchIdx b = a + 1; b < 4; ++b) in_layer1 += t.sl(a, switch_lid(f, b));
    EXPECT_EQ(in_layer1, 2u);  // (1,3) and the one single-hop pair balancing moved
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    // Without layers this ring deadlocks: one layer is not enough.
    RoutingOptions one;
    one.max_vls = 1;
    one.no_fallback = true;
    RoutingTables t1;
    const auto r = run_chain("lash", f, one, t1);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("more than 1 layers"), std::string::npos) << r.failures[0];
}

TEST(Lash, StartVlOffsetsEverySlButSameSwitchPaths) {
    const Fabric f = test::ring(4, 1);
    RoutingOptions o;
    o.lash_start_vl_set = true;
    o.lash_start_vl = 3;
    const auto t = route(f, o);
    EXPECT_EQ(t.vls_used, 2u);
    EXPECT_EQ(t.sl(1, switch_lid(f, 3)), 4);
    EXPECT_EQ(t.sl(0, switch_lid(f, 2)), 3);
    EXPECT_EQ(t.sl(0, switch_lid(f, 0)), 0);  // OpenSM's default SL within one switch
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
    // The start VL must leave room: 8 VLs from 7 leave one layer, and the ring needs two.
    o.lash_start_vl = 7;
    o.no_fallback = true;
    RoutingTables t2;
    EXPECT_FALSE(run_chain("lash", f, o, t2).ok);
    o.lash_start_vl = 8;
    const auto r = run_chain("lash", f, o, t2);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.failures[0].find("lash_start_vl 8"), std::string::npos) << r.failures[0];
}

TEST(Lash, FallsBackWithLmcAndWithoutEnoughVls) {
    Fabric f = test::ring(4, 1);
    test::assign_lids(f, 1);
    RoutingOptions o;
    o.lmc = 1;
    RoutingTables t;
    auto r = run_chain("lash", f, o, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(t.engine, "minhop");
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("LMC"), std::string::npos);
    RoutingOptions small;
    small.qos_max_vls = 1;  // the QoS VL limit caps the budget too
    r = run_chain("lash", test::ring(4, 1), small, t);
    EXPECT_EQ(t.engine, "minhop");
}

TEST(Lash, SameSlBothWaysAndCreditLoopFreeOnGeneratedFabrics) {
    for (const char *spec :
         {"torus:4x4,hosts=1", "torus:4x4x4,hosts=1", "mesh:4x3,hosts=2", "hypercube:d=4,hosts=1",
          "dragonfly:a=4,p=1,h=2", "random:switches=24,degree=4,hosts=1,seed=3",
          "torus:5x5,hosts=1/fail-links=3,seed=2", "torus:4x4/fail-switches=1,seed=4", "kary:k=3,n=3"}) {
        SCOPED_TRACE(spec);
        const Fabric f = generated(spec);
        RoutingOptions o;
        o.qos = true;
        const auto t = route(f, o);
        EXPECT_EQ(test::check_all_routes(f, t), "");
        EXPECT_EQ(test::cdg_cycles(f, t), 0u);
        const CreditLoopReport cl = check_credit_loops(f, t);
        EXPECT_FALSE(cl.has_cycle) << cl.describe(f);
        EXPECT_LE(cl.vls, t.vls_used);
        EXPECT_LE(t.vls_used, 8u);
        const PathReport pr = trace_paths(f, t);
        EXPECT_TRUE(pr.ok());
        EXPECT_EQ(pr.non_minimal, 0u);
        for (SwitchIdx a = 0; a < f.switch_count(); ++a)
            for (SwitchIdx b = 0; b < f.switch_count(); ++b)
                ASSERT_EQ(t.sl(a, switch_lid(f, b)), t.sl(b, switch_lid(f, a))) << a << " " << b;
        EXPECT_TRUE(t.warnings.empty());
    }
}

TEST(Lash, ToriNeedLayersMeshesAndTreesDoNot) {
    EXPECT_EQ(route(generated("mesh:4x4x4,hosts=1")).vls_used, 1u);
    EXPECT_EQ(route(generated("hypercube:d=5,hosts=1")).vls_used, 1u);
    EXPECT_EQ(route(generated("kary:k=4,n=2")).vls_used, 1u);
    // OpenSM 3.3 needs 5 layers on this torus (its log: "Lanes needed: 5"); same routes here.
    EXPECT_EQ(route(generated("torus:4x4x4,hosts=1")).vls_used, 5u);
}

TEST(Lash, BalancingIsSeeded) {
    const Fabric f = generated("torus:4x4x4,hosts=1");
    RoutingOptions a, b;
    a.seed = b.seed = 7;
    const auto ta = route(f, a), tb = route(f, b);
    EXPECT_EQ(ta.path_sl, tb.path_sl);
    EXPECT_EQ(ta.lft, tb.lft);
}

TEST(Lash, WarnsWhenQosIsOff) {
    const auto t = route(test::ring(4, 1));
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_NE(t.warnings[0].find("QoS"), std::string::npos);
}

RoutingOptions mesh_analysis() {
    RoutingOptions o;
    o.qos = true;
    o.do_mesh_analysis = true;
    return o;
}

TEST(Lash, MeshAnalysisRoutesA4x4x4TorusAsTheSixCubeItIs) {
    // Every switch of a 4x4x4 torus sees its 6 neighbours pairwise at distance 2: the local shape
    // of a 6-cube (which the torus is). In that dimension order lash needs one layer instead of 5
    // (OpenSM 3.3.23: "Lanes needed: 1", LFTs identical, see lash_mesh_vs_opensm.sh).
    const Fabric f = generated("torus:4x4x4,hosts=1");
    const auto t = route(f, mesh_analysis());
    EXPECT_EQ(t.vls_used, 1u);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    EXPECT_EQ(trace_paths(f, t).non_minimal, 0u);
    EXPECT_TRUE(t.warnings.empty());
}

TEST(Lash, MeshAnalysisNeedsFewerLayersOnA2dTorus) {
    // Interior shape "6+ x 6+": axes and coordinates from one seed, links in dimension order.
    const Fabric f = generated("torus:6x6,hosts=1");
    RoutingOptions plain;
    plain.qos = true;
    EXPECT_EQ(route(f, plain).vls_used, 5u);
    const auto t = route(f, mesh_analysis());
    EXPECT_EQ(t.vls_used, 3u);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
}

TEST(Lash, MeshAnalysisLeavesOtherShapesAlone) {
    // No switch of this random graph has a mesh's neighbourhood and no cables are parallel:
    // the same tables as without the analysis.
    const Fabric f = generated("random:switches=24,degree=4,hosts=1,seed=3");
    RoutingOptions plain;
    plain.qos = true;
    const auto a = route(f, plain), b = route(f, mesh_analysis());
    EXPECT_EQ(a.lft, b.lft);
    EXPECT_EQ(a.path_sl, b.path_sl);
}

TEST(Lash, MeshAnalysisTakesParallelCablesInTurnInLidOrder) {
    // Two leaves (hosts on ports 1-2) with two cables each (ports 3-4) to one spine. Leaf 0's
    // LIDs beyond the spine alternate over its two cables in LID order: leaf 1 (LID 2) port 3,
    // spine (LID 3) port 4, leaf 1's hosts (LIDs 6, 7) ports 3 and 4. Without the analysis
    // every route takes the first cable.
    const Fabric f = test::two_level(2, 1, 2, 2);
    RoutingOptions plain;
    plain.qos = true;
    EXPECT_EQ(route(f, plain).lft[0], (std::vector<PortNum>{kNoPort, 0, 3, 3, 1, 2, 3, 3}));
    const auto t = route(f, mesh_analysis());
    EXPECT_EQ(t.lft[0], (std::vector<PortNum>{kNoPort, 0, 3, 4, 1, 2, 3, 4}));
    EXPECT_EQ(t.lft[2], (std::vector<PortNum>{kNoPort, 1, 3, 0, 2, 1, 4, 3}));
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

TEST(Lash, SwitchesWithMoreThan64LinksKeepLayersAcyclic) {
    // The layers track dependencies as 64-bit masks per channel: a ring switch here has 66
    // switch links (64 parallel cables to its leaf switch first, then the ring), so the ring's
    // dependencies sit in a channel's second mask word. The ring still needs two layers, and
    // each layer's dependency graph must stay acyclic.
    test::Builder b;
    for (unsigned i = 0; i < 4; ++i) b.sw(66);  // ring switches
    for (unsigned i = 0; i < 4; ++i) b.sw(65);  // leaf switches
    for (unsigned i = 0; i < 4; ++i) {
        for (PortNum p = 1; p <= 64; ++p) b.f.connect(b.sws[i], p, b.sws[4 + i], p);
        b.f.connect(b.sws[i], 65, b.sws[(i + 1) % 4], 66);
        b.host(b.sws[4 + i], 65);
    }
    test::assign_lids(b.f);
    const Fabric &f = b.f;
    const auto t = route(f);
    EXPECT_EQ(t.vls_used, 2u);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
    RoutingOptions one;
    one.max_vls = 1;
    one.no_fallback = true;
    RoutingTables t1;
    EXPECT_FALSE(run_chain("lash", f, one, t1).ok);
}

}  // namespace
}  // namespace weft::routing
