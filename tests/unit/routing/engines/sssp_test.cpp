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

// Layers with a channel dependency cycle among the routes from every CA to every LID, the
// switches' own included: the routes OpenSM's dfsssp makes deadlock-free.
unsigned cycles_with_switch_destinations(const Fabric &f, const RoutingTables &t) {
    std::vector<Lid> dests = test::ca_lids(f);
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) dests.push_back(test::switch_lid(f, s));
    return test::cdg_cycles(f, t, test::switches_with_cas(f), dests);
}

TEST(Sssp, LineByHand) {
    const Fabric f = test::line(3, 1);  // unique paths: same as minhop
    const auto t = route(f, "sssp");
    EXPECT_EQ(t.engine, "sssp");
    EXPECT_EQ(t.lft[0], (std::vector<PortNum>{kNoPort, 0, 1, 1, 3, 1, 1}));
    EXPECT_EQ(t.lft[2], (std::vector<PortNum>{kNoPort, 2, 2, 0, 2, 2, 3}));
    EXPECT_EQ(t.hops[0][6], 3);
}

TEST(Sssp, BalancesParallelCablesByLoad) {
    // Leaf 0 sends to leaf 1's four hosts over two cables to the spine: each LID's route loads
    // its cable with leaf 0's four sources, so the next LID takes the other cable.
    const Fabric f = test::two_level(2, 1, 4, 2);
    const auto t = route(f, "sssp");
    std::vector<PortNum> ports;
    for (Lid l : test::ca_lids(f))
        if (f.attached_switch(l) != f.switch_node(0)) ports.push_back(t.lft[0][l]);
    EXPECT_EQ(ports, (std::vector<PortNum>{5, 6, 5, 6}));
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

TEST(Sssp, RoutesEverythingOnFatTreesAndTori) {
    for (const Fabric &f : {test::kary_ntree(3, 3), test::torus2d(4, 4), test::ring(6, 2)}) {
        const auto t = route(f, "sssp");
        EXPECT_EQ(test::check_all_routes(f, t), "");
        for (SwitchIdx s = 0; s < f.switch_count(); ++s)
            for (Lid l : test::ca_lids(f))
                ASSERT_FALSE(equal_cost_ports(f, t, s, l).empty() && t.hops[s][l] > 1);
    }
}

TEST(Sssp, LoadNeverBuysALongerPath) {
    // OpenSM starts every link at P^2 (P = LIDs), so balancing only chooses among minimal paths.
    for (const Fabric &f : {test::torus2d(4, 4), test::ring(6, 2), test::kary_ntree(3, 3)}) {
        const auto t = route(f, "sssp");
        RoutingTables min;
        build_minhop_matrices(f, min);
        for (SwitchIdx s = 0; s < f.switch_count(); ++s)
            for (Lid l : test::ca_lids(f)) ASSERT_EQ(t.hops[s][l], min.hops[s][l]) << s << " " << l;
    }
}

TEST(Sssp, HeavyLoadsTakeTheDijkstraPath) {
    // On a long line the middle links soon carry more than P^2 / (longest route), where the
    // layered shortcut no longer applies; Dijkstra must give the same unique routes.
    const Fabric f = test::line(12, 2);
    const auto t = route(f, "sssp");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    RoutingTables min;
    build_minhop_matrices(f, min);
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (Lid l : test::ca_lids(f)) ASSERT_EQ(t.hops[s][l], min.hops[s][l]) << s << " " << l;
}

TEST(Dfsssp, RingNeedsTwoLayersAndHasNoCreditLoopInEither) {
    const Fabric f = test::ring(5, 1);
    const auto t = route(f, "dfsssp");
    EXPECT_EQ(t.engine, "dfsssp");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(t.vls_used, 2u);
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    // The same routes on one layer would deadlock.
    RoutingTables flat = t;
    flat.path_sl.clear();
    EXPECT_GT(test::cdg_cycles(f, flat), 0u);
}

TEST(Dfsssp, TorusWithinBudget) {
    const Fabric f = test::torus2d(4, 4);
    const auto t = route(f, "dfsssp");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    EXPECT_LE(t.vls_used, 8u);
    ASSERT_EQ(t.path_sl.size(), f.switch_count());
}

TEST(Dfsssp, FatTreeNeedsOneLayer) {
    const Fabric f = test::kary_ntree(4, 3);
    const auto t = route(f, "dfsssp");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    EXPECT_EQ(t.vls_used, 1u);
}

TEST(Dfsssp, OverBudgetFailsOverToTheNextEngine) {
    const Fabric f = test::ring(5, 1);
    RoutingOptions o;
    o.max_vls = 1;
    RoutingTables t;
    const auto r = run_chain("dfsssp,updn,minhop", f, o, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "minhop");  // updn finds no roots on a ring
    ASSERT_EQ(r.failures.size(), 2u);
    EXPECT_NE(r.failures[0].find("virtual layers"), std::string::npos) << r.failures[0];
    EXPECT_TRUE(t.path_sl.empty());
    EXPECT_EQ(t.vls_used, 1u);
}

TEST(Dfsssp, SurvivesLinkFaults) {
    Fabric f = test::torus2d(4, 4);
    f.disconnect(f.switch_node(0), 1);
    f.disconnect(f.switch_node(5), 3);
    f.disconnect(f.switch_node(10), 2);
    const auto t = route(f, "dfsssp");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
}

TEST(Dfsssp, RoutesFromCasToSwitchesAreInTheLayersToo) {
    // OpenSM's dfsssp breaks the credit loops of the routes from CAs to switches' own LIDs as
    // well (management and SA traffic to switches use them).
    for (const char *spec :
         {"torus:4x4,hosts=1", "dragonfly:a=4,p=2,h=2", "random:switches=24,degree=4,hosts=1,seed=2"}) {
        const Fabric f = test::generated(spec);
        const auto t = route(f, "dfsssp");
        EXPECT_EQ(cycles_with_switch_destinations(f, t), 0u) << spec;
        EXPECT_EQ(test::cdg_cycles(f, t), 0u) << spec;
    }
}

}  // namespace
}  // namespace weft::routing
