// The `auto` routing choice: every generator family recognised as what it is (several sizes,
// with and without seeded failures), random graphs not taken for trees or grids, and the chain
// it picks routing every pair free of credit loops by the library's own verification.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "weft/routing/auto_choice.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

struct Case {
    std::string spec, shape;
};

AutoChoice choose(const std::string &spec, const RoutingOptions &o = {}) {
    Fabric f = generate(spec);
    return choose_routing(f, o);
}

void expect_shape(const std::vector<Case> &cases) {
    for (const Case &c : cases) {
        const AutoChoice a = choose(c.spec);
        EXPECT_EQ(a.shape, c.shape) << c.spec << ": " << a.describe();
        EXPECT_FALSE(a.evidence.empty()) << c.spec;
        EXPECT_FALSE(a.why.empty()) << c.spec;
    }
}

bool starts_with(const std::string &s, const std::string &p) {
    return s.compare(0, p.size(), p) == 0;
}

TEST(AutoChoice, FatTrees) {
    expect_shape({
        {"kary:k=2,n=2", "fat tree"},
        {"kary:k=4,n=3", "fat tree"},
        {"kary:k=3,n=4", "fat tree"},
        {"ftree:k=8,n=3", "fat tree"},
        {"ft36:hosts=648", "fat tree"},
        {"ft36:hosts=324", "fat tree"},
        {"pgft:h=2;m=8,4;w=1,4;p=1,2", "fat tree"},
        {"pgft:h=3;m=4,4,4;w=1,2,2;p=1,2,1", "fat tree"},
        {"xgft:n=2;m=8,4;w=4,1", "fat tree"},
        {"kary:k=4,n=3/fail-links=3,seed=1", "fat tree"},
        {"kary:k=4,n=3/fail-switches=1,seed=2", "fat tree"},
        {"ft36:hosts=648/fail-links=5,seed=3", "fat tree"},
        {"ftree:k=8,n=3/fail-switches=2,fail-links=2,seed=4", "fat tree"},
    });
    const AutoChoice a = choose("kary:k=4,n=3");
    EXPECT_EQ(a.chain, "ftree,nue,updn");
    EXPECT_NE(a.evidence.find("3 levels of 16/16/16"), std::string::npos) << a.evidence;
}

// A switch cabled to a CA.
bool has_host(const Fabric &f, NodeIdx n) {
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
        if (f.port(n, p).linked() && !f.node(f.port(n, p).peer).is_switch()) return true;
    return false;
}

TEST(AutoChoice, FatTreeFromRootOrComputeNodeFiles) {
    Fabric f = generate("kary:k=4,n=3");
    // The roots of a 4-ary 3-tree: no hosts, and no neighbour with hosts.
    RoutingOptions roots;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const NodeIdx n = f.switch_node(s);
        bool near_leaf = has_host(f, n);
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (f.port(n, p).linked() && f.node(f.port(n, p).peer).is_switch())
                near_leaf = near_leaf || has_host(f, f.port(n, p).peer);
        if (!near_leaf) roots.root_guids.push_back(f.node(n).guid);
    }
    ASSERT_EQ(roots.root_guids.size(), 16u);
    const AutoChoice r = choose_routing(f, roots);
    EXPECT_EQ(r.shape, "fat tree") << r.describe();
    EXPECT_NE(r.evidence.find("root switches"), std::string::npos) << r.evidence;

    // Compute nodes: every host; I/O hosts elsewhere would be allowed with the file.
    RoutingOptions cn;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch() && f.port(n, 1).linked()) cn.cn_guids.push_back(f.port(n, 1).guid);
    const AutoChoice c = choose_routing(f, cn);
    EXPECT_EQ(c.shape, "fat tree") << c.describe();
    EXPECT_NE(c.evidence.find("compute nodes"), std::string::npos) << c.evidence;
}

TEST(AutoChoice, ToriMeshesHypercubes) {
    expect_shape({
        {"torus:5x5x5", "torus"},
        {"torus:6x6", "torus"},
        {"torus:8x4", "torus"},
        {"torus:7x5,hosts=2", "torus"},
        {"torus:4x4x4", "torus"},  // the 6-cube as a graph; the cabling shows the rings
        {"torus:6x6x6/fail-links=3,seed=2", "torus"},
        {"torus:6x6/fail-switches=1,seed=2", "torus"},
        {"torus:7x5/fail-switches=2,seed=4", "torus"},
        {"torus:8x8/fail-links=4,seed=6", "torus"},
        {"mesh:8x8", "mesh"},
        {"mesh:4x3,hosts=2", "mesh"},
        {"mesh:8x2", "mesh"},
        {"mesh:5x4x3", "mesh"},
        {"mesh:6x6/fail-links=2", "mesh"},
        {"mesh:6x6/fail-links=3,seed=5", "mesh"},
        {"mesh:12x12/fail-links=5,seed=4", "mesh"},
        {"mesh:10x10/fail-switches=2,seed=1", "mesh"},
        {"hypercube:d=4", "hypercube"},
        {"hypercube:d=6,hosts=2", "hypercube"},
        {"hypercube:d=7", "hypercube"},
        {"hypercube:d=6/fail-switches=1,seed=2", "hypercube"},
        {"hypercube:d=5/fail-links=2", "hypercube"},
        {"torus:4x4x4/fail-links=2,seed=1", "torus"},
    });
    EXPECT_EQ(choose("torus:5x5x5").evidence.find("5tx5tx5t") != std::string::npos, true);
    EXPECT_NE(choose("mesh:5x4x3").evidence.find("5x4x3"), std::string::npos);
    // dor only where dimension order stays dimension order: complete meshes and hypercubes.
    EXPECT_EQ(choose("mesh:8x8").chain, "dor,nue,updn");
    EXPECT_EQ(choose("hypercube:d=6").chain, "dor,nue,updn");
    EXPECT_EQ(choose("mesh:6x6/fail-links=2").chain, "nue,updn");
    EXPECT_EQ(choose("torus:6x6").chain, "nue,updn");
    EXPECT_EQ(choose("torus:4x4x4").chain, "nue,updn");
    // torus-2QoS first only with its file and QoS; the reason says what is missing.
    RoutingOptions o;
    o.torus_config = "/some/torus-2QoS.conf";
    EXPECT_NE(choose("torus:6x6", o).why.find("QoS (-Q)"), std::string::npos);
    o.qos = true;
    EXPECT_EQ(choose("torus:6x6", o).chain, "torus-2QoS,dfsssp,nue,updn");
    EXPECT_EQ(choose("mesh:8x8", o).chain, "torus-2QoS,dor,dfsssp,nue,updn");
    EXPECT_EQ(choose("torus:4x4x4", o).chain, "torus-2QoS,dfsssp,nue,updn");
    // dfsssp's layers need QoS (SL2VL maps) and more than one VL.
    RoutingOptions qos;
    qos.qos = true;
    EXPECT_EQ(choose("torus:6x6", qos).chain, "dfsssp,nue,updn");
    EXPECT_EQ(choose("kary:k=4,n=3", qos).chain, "ftree,dfsssp,nue,updn");
    EXPECT_NE(choose("torus:6x6").why.find("without QoS (no -Q)"), std::string::npos);
    qos.max_vls = 1;
    EXPECT_EQ(choose("torus:6x6", qos).chain, "nue,updn");
}

TEST(AutoChoice, Dragonflies) {
    expect_shape({
        {"dragonfly:a=4,p=2,h=2", "dragonfly"},
        {"dragonfly:a=4,p=2,h=2,g=5", "dragonfly"},
        {"dragonfly:a=6,p=3,h=3", "dragonfly"},
        {"dragonfly:a=4,p=2,h=2/fail-links=2,seed=1", "dragonfly"},
        {"dragonfly:a=6,p=3,h=3/fail-switches=1,seed=3", "dragonfly"},
        {"dfplus:groups=4,leaves=4,spines=4,hosts=4", "dragonfly+"},
        {"dfplus:groups=6,leaves=3,spines=5,hosts=2", "dragonfly+"},
        {"dfplus:groups=5,leaves=4,spines=4,hosts=4/fail-links=2", "dragonfly+"},
    });
    EXPECT_EQ(choose("dragonfly:a=4,p=2,h=2").chain, "nue,updn");
}

TEST(AutoChoice, RandomGraphsAreIrregular) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed)
        for (const char *shape : {"switches=16,degree=4,hosts=1", "switches=36,degree=4,hosts=1",
                                  "switches=64,degree=6,hosts=2", "switches=24,degree=3,hosts=1"}) {
            const std::string spec = std::string("random:") + shape + ",seed=" + std::to_string(seed);
            const AutoChoice a = choose(spec);
            EXPECT_EQ(a.shape, "irregular") << spec << ": " << a.describe();
            EXPECT_EQ(a.chain, "nue,updn") << spec;
        }
}

TEST(AutoChoice, SmallCases) {
    EXPECT_EQ(choose("kary:k=4,n=1").shape, "single switch");
    EXPECT_EQ(choose("kary:k=4,n=1").chain, "minhop");
}

// The chain auto runs routes every pair, free of credit loops, and says what it chose.
TEST(AutoChoice, ChosenChainRoutesDeadlockFree) {
    for (const char *spec :
         {"kary:k=4,n=3", "kary:k=4,n=3/fail-links=3,seed=1", "pgft:h=2;m=8,4;w=1,4;p=1,2", "torus:5x5x5",
          "torus:4x4x4", "torus:6x6/fail-switches=1,seed=2", "mesh:8x8", "mesh:6x6/fail-links=2",
          "hypercube:d=6", "dragonfly:a=4,p=2,h=2", "dfplus:groups=4,leaves=4,spines=4,hosts=4",
          "random:switches=36,degree=4,hosts=2,seed=3"}) {
        for (const bool qos : {false, true}) {
            Fabric f = generate(spec);
            assign_lids(f, {});
            RoutingOptions o;
            o.qos = qos;
            RoutingTables t;
            const ChainResult r = run_chain("auto", f, o, t);
            ASSERT_TRUE(r.ok) << spec << ": " << r.error;
            const AutoChoice a = choose_routing(f, o);
            EXPECT_EQ(r.auto_choice, a.describe()) << spec;
            EXPECT_NE(r.engine, "minhop") << spec << ": the fallback routed; failures: " << r.failures.size();
            EXPECT_NE(a.chain.find(r.engine), std::string::npos) << spec << " routed by " << r.engine;
            const PathReport pr = trace_paths(f, t);
            EXPECT_TRUE(pr.ok()) << spec << ": unreachable " << pr.unreachable << ", loops " << pr.loops;
            const CreditLoopReport cl = check_credit_loops(f, t);
            EXPECT_FALSE(cl.has_cycle) << spec << " (" << r.engine << "):\n" << cl.describe(f);
        }
    }
}

TEST(AutoChoice, ChainSemantics) {
    Fabric f = generate("kary:k=4,n=3");
    assign_lids(f, {});
    RoutingTables t;
    // An explicit engine is untouched by auto and says nothing about it.
    ChainResult r = run_chain("minhop", f, {}, t);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "minhop");
    EXPECT_TRUE(r.auto_choice.empty());
    // Engines before auto run first; auto's chain does not repeat them.
    r = run_chain("updn,auto", f, {}, t);
    EXPECT_EQ(r.engine, "updn");
    EXPECT_FALSE(r.auto_choice.empty());
    // LMC > 0: ftree is passed over as OpenSM does, the next engine routes.
    RoutingOptions lmc;
    lmc.lmc = 1;
    Fabric g = generate("kary:k=4,n=3");
    LidOptions lo;
    lo.lmc = 1;
    assign_lids(g, lo);
    r = run_chain("auto", g, lmc, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "nue");
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_TRUE(starts_with(r.failures[0], "ftree:")) << r.failures[0];
}

}  // namespace
}  // namespace weft::routing
