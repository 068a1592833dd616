// Nue: hand-checkable fabrics (a ring that cannot be routed minimally in one layer, a small mesh),
// then properties on generated fabrics for 1, 2, 4 and 8 layers: every pair reachable, no loops,
// no credit loop within the reported layers, VLs no more than allowed; both partitioners; LMC;
// switches as endpoints; multicast trees.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <numeric>
#include <set>

#include "test_fabrics.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/nue.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

RoutingOptions nue_options(unsigned vls) {
    RoutingOptions o;
    o.qos = true;
    o.nue_max_num_vls = vls;
    o.no_fallback = true;
    return o;
}

RoutingTables route(const Fabric &f, const RoutingOptions &o, NuePartitioner p = NuePartitioner::Auto,
                    NueStats *st = nullptr) {
    RoutingTables t;
    const auto r = route_nue(f, o, t, p, st);
    EXPECT_TRUE(r.ok) << r.error;
    return t;
}

// Everything the engine promises for CA traffic, checked by the library's verifiers.
void expect_sound(const Fabric &f, const RoutingTables &t, unsigned max_layers, const std::string &what) {
    const PathReport pr = trace_paths(f, t);
    EXPECT_EQ(pr.unreachable, 0u) << what;
    EXPECT_EQ(pr.loops, 0u) << what;
    const CreditLoopReport cl = check_credit_loops(f, t);
    EXPECT_FALSE(cl.has_cycle) << what << "\n" << cl.describe(f);
    EXPECT_EQ(test::cdg_cycles(f, t), 0u) << what;
    EXPECT_GE(t.vls_used, 1u) << what;
    EXPECT_LE(t.vls_used, max_layers) << what;
    for (const auto &row : t.path_sl)
        for (auto sl : row) ASSERT_LT(sl, t.vls_used) << what;
}

// Dependency cycles per layer among the routes of every switch to every LID (switch sources and
// switch destinations included, for nue_include_switches).
bool all_routes_acyclic(const Fabric &f, const RoutingTables &t) {
    std::vector<SwitchIdx> sources(f.switch_count());
    std::iota(sources.begin(), sources.end(), SwitchIdx{0});
    std::vector<Lid> dests;
    for (Lid l = 1; l <= f.max_lid(); ++l)
        if (f.lid_owner(l)) dests.push_back(l);
    for (SwitchIdx s : sources)
        for (Lid l : dests)
            if (!test::walk(f, t, s, l)) return false;
    return test::cdg_cycles(f, t, sources, dests) == 0;
}

Fabric gen(const std::string &spec, std::uint8_t lmc = 0) {
    Fabric f = generate(spec);
    LidOptions lo;
    lo.lmc = lmc;
    assign_lids(f, lo);
    return f;
}

TEST(Nue, RingNeedsADetourInOneLayer) {
    // Six switches in a ring, one host each. Minimal routes in one layer would chase each other
    // around the ring, so Nue refuses the turns that close the cycle and some routes go the long
    // way round; the escape tree keeps every destination routable.
    const Fabric f = test::ring(6, 1);
    NueStats st;
    const auto t = route(f, nue_options(1), NuePartitioner::Auto, &st);
    expect_sound(f, t, 1, "ring");
    EXPECT_EQ(t.vls_used, 1u);
    EXPECT_FALSE(t.has_sl2vl());  // one layer: no SL2VL needed
    EXPECT_GT(st.rejected_dependencies, 0u);
    const PathReport pr = trace_paths(f, t);
    EXPECT_GT(pr.non_minimal, 0u);
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    // The same ring routed minimally (sssp) has a credit loop: the detours are what saves it.
    RoutingTables m;
    ASSERT_TRUE(run_chain("sssp", f, nue_options(1), m).ok);
    EXPECT_TRUE(check_credit_loops(f, m).has_cycle);
}

TEST(Nue, RingWithTwoLayersStaysMinimalWherePossible) {
    const Fabric f = test::ring(6, 1);
    NueStats st;
    const auto t = route(f, nue_options(2), NuePartitioner::Auto, &st);
    expect_sound(f, t, 2, "ring, 2 layers");
    EXPECT_EQ(st.layers_allowed, 2u);
    const PathReport one = trace_paths(f, route(f, nue_options(1)));
    EXPECT_LE(trace_paths(f, t).non_minimal, one.non_minimal);
}

TEST(Nue, EscapePathsSolveAnImpasse) {
    // A 4x4x4 torus with 6 failed links split by OpenSM's round-robin partition into 2 layers:
    // for some destinations the kept search ends with switches every remaining channel of which
    // would close a cycle, and backtracking finds no way out either (an impasse). Their routes
    // are taken back and laid along the escape tree, whose dependencies were reserved, so the
    // result is still complete and free of credit loops.
    const Fabric f = gen("torus:4x4x4,hosts=1/fail-links=6,seed=2");
    NueStats st;
    const auto t = route(f, nue_options(2), NuePartitioner::PortGuidRoundRobin, &st);
    expect_sound(f, t, 2, "torus with failed links, 2 layers");
    EXPECT_GT(st.escape_routed, 0u);
    EXPECT_GT(st.rejected_dependencies, 0u);
    EXPECT_EQ(st.central_nodes.size(), 2u);
}

TEST(Nue, SmallMeshByHand) {
    // 3x3 mesh, one host per switch: a mesh has minimal deadlock-free routes in one layer (XY),
    // and Nue finds routes that are minimal and free of credit loops.
    const Fabric f = gen("mesh:3x3,hosts=1");
    const auto t = route(f, nue_options(1));
    expect_sound(f, t, 1, "mesh 3x3");
    EXPECT_EQ(trace_paths(f, t).non_minimal, 0u);
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

TEST(Nue, PropertiesOnGeneratedFabrics) {
    const char *specs[] = {
        "torus:4x4,hosts=2",
        "mesh:4x4,hosts=1",
        "torus:3x3x3,hosts=1",
        "hypercube:d=4,hosts=2",
        "dragonfly:a=4,p=2,h=2",
        "random:switches=24,degree=4,hosts=2,seed=3",
        "torus:4x4x4,hosts=1/fail-links=6,seed=2",
        "random:switches=24,degree=5,hosts=1,seed=9/fail-switches=2,seed=4",
        "kary:k=4,n=3",
    };
    for (const char *spec : specs) {
        const Fabric f = gen(spec);
        for (unsigned k : {1u, 2u, 4u, 8u}) {
            NueStats st;
            const auto t = route(f, nue_options(k), NuePartitioner::Auto, &st);
            const std::string what = std::string(spec) + " nue_max_num_vls=" + std::to_string(k);
            expect_sound(f, t, k, what);
            EXPECT_EQ(t.vls_used, st.layers_used) << what;
            std::cout << "[ nue ] " << what << ": VLs " << t.vls_used << (st.metis_used ? " (METIS)" : "")
                      << ", escape-routed " << st.escape_routed << "/" << st.destinations << "\n";
        }
    }
}

TEST(Nue, MetisPartitionKeepsLayersCompact) {
    if (!nue_has_metis()) GTEST_SKIP() << "built without METIS";
    const Fabric f = gen("torus:4x4x4,hosts=2");
    NueStats st;
    const auto t = route(f, nue_options(4), NuePartitioner::Metis, &st);
    ASSERT_TRUE(st.metis_used);
    expect_sound(f, t, 4, "metis");
    EXPECT_EQ(t.vls_used, 4u);
    // METIS cuts the switch graph: both hosts of a switch share a layer, and the layers are
    // about equally large (16 of 64 switches each, METIS's default 3% imbalance).
    std::map<unsigned, unsigned> per_layer;
    for (Lid l : test::ca_lids(f)) {
        const NodeIdx sw = f.attached_switch(l);
        for (Lid m : test::ca_lids(f))
            if (f.attached_switch(m) == sw) {
                ASSERT_EQ(t.sl(0, l), t.sl(0, m));
            }
        ++per_layer[t.sl(0, l)];
    }
    for (auto [layer, n] : per_layer) EXPECT_NEAR(n, 32.0, 4.0) << "layer " << layer;
}

TEST(Nue, SemiRandomFallbackDealsDestinationsEvenly) {
    const Fabric f = gen("torus:4x4x4,hosts=2");
    NueStats st;
    const auto t = route(f, nue_options(4), NuePartitioner::SemiRandom, &st);
    EXPECT_FALSE(st.metis_used);
    expect_sound(f, t, 4, "semi-random");
    std::map<unsigned, unsigned> per_layer;
    for (Lid l : test::ca_lids(f)) ++per_layer[t.sl(0, l)];
    ASSERT_EQ(per_layer.size(), 4u);
    for (auto [layer, n] : per_layer) EXPECT_EQ(n, 32u) << "layer " << layer;
    // Seeded: the same seed gives the same tables, another seed another split.
    EXPECT_EQ(route(f, nue_options(4), NuePartitioner::SemiRandom).lft, t.lft);
    RoutingOptions other = nue_options(4);
    other.seed = 99;
    EXPECT_NE(route(f, other, NuePartitioner::SemiRandom).path_sl, t.path_sl);
}

TEST(Nue, PortGuidDealMatchesOpenSmWithoutMetis) {
    // Debian's OpenSM (no METIS) deals the CA LIDs round-robin over the layers in the order of
    // its port table: GUIDs compared in network byte order, i.e. byte-swapped on x86.
    const Fabric f = gen("torus:4x4x4,hosts=2");
    NueStats st;
    const auto t = route(f, nue_options(4), NuePartitioner::PortGuidRoundRobin, &st);
    EXPECT_FALSE(st.metis_used);
    expect_sound(f, t, 4, "port GUID deal");
    auto swapped = [&](Lid l) {
        const auto owner = f.lid_owner(l);
        std::uint64_t v = f.port(owner->node, owner->port).guid, r = 0;
        for (int i = 0; i < 8; ++i, v >>= 8) r = (r << 8) | (v & 0xFF);
        return r;
    };
    std::vector<Lid> cas = test::ca_lids(f);
    std::sort(cas.begin(), cas.end(), [&](Lid a, Lid b) { return swapped(a) < swapped(b); });
    for (std::size_t i = 0; i < cas.size(); ++i) EXPECT_EQ(t.sl(0, cas[i]), i % 4) << "LID " << cas[i];
    // RoutingOptions::nue_metis = false picks this deal for the registered engine.
    RoutingOptions o = nue_options(4);
    o.nue_metis = false;
    EXPECT_EQ(test::route_alone("nue", f, o).path_sl, t.path_sl);
}

TEST(Nue, AutoFallsBackWhenMetisCannotSplit) {
    // Two switches with hosts cannot be cut into 4 parts: Auto says why and deals the LIDs
    // semi-randomly; Metis alone fails.
    const Fabric f = test::line(2, 4);
    NueStats st;
    const auto t = route(f, nue_options(4), NuePartitioner::Auto, &st);
    EXPECT_FALSE(st.metis_used);
    EXPECT_FALSE(st.partition_note.empty());
    expect_sound(f, t, 4, "line of 2");
    EXPECT_EQ(t.vls_used, 4u);
    RoutingTables m;
    EXPECT_FALSE(route_nue(f, nue_options(4), m, NuePartitioner::Metis).ok);
    // The same tables and stats whatever the thread count.
    for (unsigned threads : {1u, 2u, 4u}) {
        RoutingOptions o = nue_options(4);
        o.nue_threads = threads;
        NueStats many;
        const auto u = route(f, o, NuePartitioner::Auto, &many);
        EXPECT_EQ(u.lft, t.lft) << threads;
        EXPECT_EQ(u.path_sl, t.path_sl) << threads;
        EXPECT_EQ(many.partition_note, st.partition_note) << threads;
        EXPECT_EQ(many.order, st.order) << threads;
    }
}

TEST(Nue, BudgetAutoAndQosLimits) {
    const Fabric f = gen("torus:3x3x3,hosts=1");
    NueStats st;
    RoutingOptions o = nue_options(0);  // auto: every operational VL
    route(f, o, NuePartitioner::SemiRandom, &st);
    EXPECT_EQ(st.layers_allowed, 8u);
    o.qos_max_vls = 4;
    route(f, o, NuePartitioner::SemiRandom, &st);
    EXPECT_EQ(st.layers_allowed, 4u);
    o.nue_max_num_vls = 12;  // never more than the fabric offers
    route(f, o, NuePartitioner::SemiRandom, &st);
    EXPECT_EQ(st.layers_allowed, 4u);
    // SL i -> VL i % operational VLs on every switch.
    const auto t = route(f, o, NuePartitioner::SemiRandom, &st);
    ASSERT_TRUE(t.sl2vl_all.has_value());
    EXPECT_TRUE(t.sl2vl.empty());
    for (unsigned sl = 0; sl < 16; ++sl) EXPECT_EQ((*t.sl2vl_all)[sl], sl % 4);
}

TEST(Nue, LayersWithoutQosFallBackToOneLikeOpenSm) {
    // OpenSM (NUE48): more than one layer needs QoS's SL2VL tables; without -Q it warns and
    // routes with one VL.
    const Fabric f = gen("torus:3x3x3,hosts=1");
    RoutingOptions o = nue_options(4);
    o.qos = false;
    NueStats st;
    const auto t = route(f, o, NuePartitioner::SemiRandom, &st);
    EXPECT_EQ(st.layers_allowed, 1u);
    EXPECT_EQ(t.vls_used, 1u);
    EXPECT_FALSE(t.has_sl2vl());
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_NE(t.warnings[0].find("needs QoS"), std::string::npos) << t.warnings[0];
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    o.nue_max_num_vls = 1;  // one layer asked for: nothing to warn about
    EXPECT_TRUE(route(f, o, NuePartitioner::SemiRandom).warnings.empty());
    EXPECT_TRUE(route(f, nue_options(4), NuePartitioner::SemiRandom).warnings.empty());
}

TEST(Nue, BalancesParallelCables) {
    // Leaf 0 reaches leaf 1's hosts over two parallel cables to the spine: the balancing weights
    // spread the LIDs over both.
    const Fabric f = test::two_level(2, 1, 4, 2);
    const auto t = route(f, nue_options(1));
    std::set<PortNum> ports;
    for (Lid l : test::ca_lids(f))
        if (f.attached_switch(l) != f.switch_node(0)) ports.insert(t.lft[0][l]);
    EXPECT_EQ(ports.size(), 2u);
    expect_sound(f, t, 1, "two-level");
}

TEST(Nue, LmcGivesEachLidItsOwnRoute) {
    const Fabric f = test::two_level(4, 2, 2, 1, 1);
    const auto t = route(f, nue_options(2));
    expect_sound(f, t, 2, "lmc 1");
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    unsigned differ = 0;
    for (Lid l : test::ca_lids(f))
        for (SwitchIdx s = 0; s < 4; ++s)
            if (f.switch_node(s) != f.attached_switch(l) && t.lft[s][l] != t.lft[s][l + 1]) ++differ;
    EXPECT_GT(differ, 0u);
    // Through the chain as well (nue supports LMC).
    RoutingOptions o = nue_options(2);
    o.lmc = 1;
    RoutingTables c;
    const auto r = run_chain("nue", f, o, c);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(c.engine, "nue");
}

TEST(Nue, IncludeSwitchesMakesSwitchRoutesDeadlockFreeToo) {
    const Fabric f = gen("torus:4x4,hosts=1");
    RoutingOptions o = nue_options(1);
    o.nue_include_switches = true;
    const auto t = route(f, o);
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_TRUE(all_routes_acyclic(f, t));
    expect_sound(f, t, 1, "include switches");
}

TEST(Nue, MulticastTreeRootedCentrallyOnLightLinks) {
    const Fabric f = gen("torus:4x4,hosts=1");
    const auto t = route(f, nue_options(2));
    McastGroup g;
    g.mlid = 0xC000;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch()) g.members.push_back({n, 1});
    McastTree tree;
    const auto r = build_nue_mcast_tree(f, t, g, tree);
    ASSERT_TRUE(r.ok) << r.error;
    // Every switch is on the tree (each has a member), the tree has switches - 1 cables (each
    // counted at both ends) plus one member port per switch, and it is connected.
    std::size_t ports = 0;
    for (const auto &p : tree.ports) ports += p.size();
    EXPECT_EQ(ports, 2 * (f.switch_count() - 1) + f.switch_count());
    std::set<NodeIdx> reached{f.switch_node(0)};
    std::vector<NodeIdx> queue{f.switch_node(0)};
    for (std::size_t i = 0; i < queue.size(); ++i)
        for (PortNum p : tree.ports[f.node(queue[i]).sw]) {
            const Port &x = f.port(queue[i], p);
            if (x.linked() && f.node(x.peer).is_switch() && reached.insert(x.peer).second)
                queue.push_back(x.peer);
        }
    EXPECT_EQ(reached.size(), f.switch_count());
    // Through the engine hook as well.
    RoutingContext ctx{f, nue_options(2), {}};
    auto e = EngineRegistry::instance().make("nue");
    ASSERT_TRUE(e && e->provides_mcast_tree());
    McastTree via_hook;
    ASSERT_TRUE(e->build_mcast_tree(ctx, t, g, via_hook).ok);
    EXPECT_EQ(via_hook.ports, tree.ports);
}

TEST(Nue, MulticastRootIsTheMinMaxHopSwitch) {
    // Line of 5 switches with members on the two end switches: the middle switch (2 hops to
    // either end) is the root; the tree is the whole line.
    const Fabric f = test::line(5, 1);
    const auto t = route(f, nue_options(1));
    McastGroup g;
    g.mlid = 0xC001;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch()) {
            const NodeIdx sw = f.port(n, 1).peer;
            if (sw == f.switch_node(0) || sw == f.switch_node(4)) g.members.push_back({n, 1});
        }
    McastTree tree;
    ASSERT_TRUE(build_nue_mcast_tree(f, t, g, tree).ok);
    for (SwitchIdx s = 1; s < 4; ++s) EXPECT_EQ(tree.ports[s].size(), 2u) << s;  // transit: both ring ports
    EXPECT_EQ(tree.ports[0].size(), 2u);                                         // member port + link
    EXPECT_EQ(tree.ports[4].size(), 2u);
}

}  // namespace
}  // namespace weft::routing

namespace weft::routing {
namespace {

// Largest number of CA-to-CA routes on one switch-to-switch channel.
unsigned busiest_channel(const Fabric &f, const RoutingTables &t) {
    std::map<std::pair<SwitchIdx, PortNum>, unsigned> load;
    unsigned most = 0;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (f.node(n).is_switch()) continue;
        const SwitchIdx s = f.node(f.port(n, 1).peer).sw;
        for (Lid l : test::ca_lids(f)) {
            if (f.port(n, 1).lid == l) continue;
            const auto path = test::walk(f, t, s, l);
            if (!path) return 0;
            for (const auto &c : *path) most = std::max(most, ++load[c]);
        }
    }
    return most;
}

TEST(Nue, KeepsTheBestOfThreeDestinationOrders) {
    // The 4x4x4 torus in one layer: the interleaved order routes every pair minimally with 128
    // routes on every channel; a fat tree keeps the per-switch order, as sssp balanced.
    const Fabric torus = gen("torus:4x4x4,hosts=2");
    NueStats st;
    const auto t = route(torus, nue_options(1), NuePartitioner::Auto, &st);
    EXPECT_EQ(st.order, NueOrder::Interleaved);
    EXPECT_EQ(trace_paths(torus, t).non_minimal, 0u);
    EXPECT_EQ(busiest_channel(torus, t), 128u);
    const Fabric tree = test::two_level(4, 2, 4);
    const auto u = route(tree, nue_options(1), NuePartitioner::Auto, &st);
    EXPECT_EQ(st.order, NueOrder::PerSwitch);
    // Each leaf: 4 hosts x 12 remote hosts = 48 routes over 2 uplinks (and 2 downlinks): 24 each.
    EXPECT_EQ(busiest_channel(tree, u), 24u);
    // The dragonfly in one layer keeps OpenSM's port-table order (with OpenSM's search), which
    // scatters the destinations: its busiest channel carries fewer routes than with the other two.
    const Fabric dragonfly = gen("dragonfly:a=4,p=2,h=2");
    const auto d = route(dragonfly, nue_options(1), NuePartitioner::Auto, &st);
    EXPECT_EQ(st.order, NueOrder::PortTable);
    expect_sound(dragonfly, d, 1, "dragonfly, port-table order");
    std::cout << "[ nue ] dragonfly nue:1 busiest channel " << busiest_channel(dragonfly, d) << "\n";
}

TEST(Nue, AutoTriesOpenSMsPartitionWhenMetisBalancesWorse) {
    // The dragonfly with 8 layers: METIS's partition leaves a busier channel than OpenSM's
    // round-robin one, which Auto then keeps (a METIS-only partitioner never tries it).
    if (!nue_has_metis()) GTEST_SKIP() << "built without METIS";
    const Fabric dragonfly = gen("dragonfly:a=4,p=2,h=2");
    NueStats metis, automatic;
    const auto m = route(dragonfly, nue_options(8), NuePartitioner::Metis, &metis);
    const auto a = route(dragonfly, nue_options(8), NuePartitioner::Auto, &automatic);
    EXPECT_TRUE(metis.metis_used);
    EXPECT_FALSE(automatic.metis_used);
    EXPECT_FALSE(automatic.partition_note.empty());
    expect_sound(dragonfly, a, 8, "dragonfly, round-robin partition kept");
    EXPECT_LT(busiest_channel(dragonfly, a), busiest_channel(dragonfly, m));
    EXPECT_LE(a.vls_used, 8u);
}

TEST(Nue, HopsAreTheLengthsOfTheRoutes) {
    // The kept run's hop counts are read off its LFTs; switch LIDs' from their own search.
    for (const char *spec : {"kary:k=4,n=3", "torus:4x4x4,hosts=2", "dragonfly:a=4,p=2,h=2"}) {
        const Fabric f = gen(spec);
        for (unsigned k : {1u, 8u}) {
            const RoutingTables t = route(f, nue_options(k));
            RoutingTables walked = t;
            hops_from_lfts(f, walked);
            EXPECT_EQ(walked.hops, t.hops) << spec << " nue_max_num_vls=" << k;
        }
    }
}

TEST(Nue, RacesOnSeveralThreads) {
    // Small fabrics where several candidates race (none finishes at the floor), for the
    // ThreadSanitizer build; ThreadsDoNotChangeTheKeptRoutes covers more fabrics.
    for (const char *spec : {"torus:3x3x3,hosts=1", "random:switches=16,degree=4,hosts=2,seed=3"}) {
        const Fabric f = gen(spec);
        for (unsigned k : {1u, 4u}) {
            RoutingOptions o = nue_options(k);
            o.nue_threads = 1;
            const auto t = route(f, o);
            for (unsigned threads : {2u, 4u}) {
                o.nue_threads = threads;
                const auto u = route(f, o);
                EXPECT_EQ(u.lft, t.lft) << spec << " threads=" << threads;
                EXPECT_EQ(u.hops, t.hops) << spec << " threads=" << threads;
                EXPECT_EQ(u.path_sl, t.path_sl) << spec << " threads=" << threads;
            }
        }
    }
}

TEST(Nue, ThreadsDoNotChangeTheKeptRoutes) {
    // The candidate runs race on several threads; which run is kept and its routes must not depend
    // on the thread count or the timing. Repeated, so that different interleavings get a chance.
    // Threads 0: the default, one per hardware thread.
    const char *specs[] = {
        "torus:4x4x4,hosts=2",
        "dragonfly:a=4,p=2,h=2",
        "random:switches=32,degree=6,hosts=2,seed=7",
        "random:switches=64,degree=8,hosts=4,seed=7",
        "torus:4x4x4,hosts=1/fail-links=3,seed=1",
        "kary:k=4,n=3",
    };
    for (const char *spec : specs) {
        const Fabric f = gen(spec);
        for (unsigned k : {1u, 2u, 8u}) {
            RoutingOptions o = nue_options(k);
            o.nue_threads = 1;
            NueStats one;
            const auto t = route(f, o, NuePartitioner::Auto, &one);
            for (unsigned threads : {0u, 2u, 3u, 4u, 8u}) {
                o.nue_threads = threads;
                for (int rep = 0; rep < 3; ++rep) {
                    NueStats many;
                    const auto u = route(f, o, NuePartitioner::Auto, &many);
                    const std::string what = std::string(spec) + " nue_max_num_vls=" + std::to_string(k) +
                                             " threads=" + std::to_string(threads);
                    EXPECT_EQ(u.lft, t.lft) << what;
                    EXPECT_EQ(u.hops, t.hops) << what;
                    EXPECT_EQ(u.path_sl, t.path_sl) << what;
                    EXPECT_EQ(u.vls_used, t.vls_used) << what;
                    EXPECT_EQ(u.warnings, t.warnings) << what;
                    EXPECT_EQ(many.order, one.order) << what;
                    EXPECT_EQ(many.metis_used, one.metis_used) << what;
                    EXPECT_EQ(many.central_nodes, one.central_nodes) << what;
                    EXPECT_EQ(many.escape_routed, one.escape_routed) << what;
                    EXPECT_EQ(many.rejected_dependencies, one.rejected_dependencies) << what;
                }
            }
        }
    }
}

}  // namespace
}  // namespace weft::routing
