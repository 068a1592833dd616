// Properties every engine promises, over the fabric families of the generators: each engine of
// the registry on each fabric, checked against one line of the promise table below. A new
// engine joins by adding its line; an engine without a line is skipped (and says so).
//
// Promises: when the engine routes, every CA reaches every LID (reachability) without a loop;
// deadlock-free engines leave no credit loop within the VLs they report; minimal engines route
// shortest paths; the multicast tree built with the engine that routed is a tree over the
// group. Families an engine must route or must refuse are listed; anything else it may refuse
// (the chain then falls back). VL counts are printed at the end.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

enum Family : unsigned {
    kTorus = 1,
    kMesh = 2,
    kHypercube = 4,
    kDragonfly = 8,
    kRandom = 16,
    kFatTree = 32,
    kAll = 63,
};

struct FabricCase {
    const char *name;
    const char *spec;
    Family family;
    bool faulty;  // seeded link/switch failures on top
};

const FabricCase kFabrics[] = {
    {"torus4x4", "torus:4x4,hosts=1", kTorus, false},
    {"torus3x3x3", "torus:3x3x3,hosts=2", kTorus, false},
    {"torus5x5", "torus:5x5,hosts=2", kTorus, false},
    {"mesh4x4", "mesh:4x4,hosts=2", kMesh, false},
    {"hypercube4", "hypercube:d=4,hosts=1", kHypercube, false},
    {"dragonfly", "dragonfly:a=4,p=2,h=2", kDragonfly, false},
    {"dfplus", "dfplus:groups=3,leaves=2,spines=2,hosts=2", kDragonfly, false},
    {"random32", "random:switches=32,degree=6,hosts=2,seed=7", kRandom, false},
    {"kary4_3", "kary:k=4,n=3", kFatTree, false},
    {"ftree8_2", "ftree:k=8,n=2", kFatTree, false},
    // Hypervisors with VMs (seed 002): engines that know nothing of VMs route VF LIDs as the PF.
    {"kary4_3_vm", "kary:k=4,n=3/vms:vfs=4,load=50,dist=random", kFatTree, false},
    // The same with vLIDs (0x10000 and up, past IB's 49151 unicast LIDs), and on a torus.
    {"kary4_3_vmx", "kary:k=4,n=3/vms:vfs=4,load=50,dist=random,vlids=extended", kFatTree, false},
    {"torus4x4_vmx", "torus:4x4,hosts=1/vms:vfs=2,load=100,vlids=extended", kTorus, false},
    {"torus4x4_f", "torus:4x4,hosts=1/fail-links=2,seed=1", kTorus, true},
    {"mesh4x4_f", "mesh:4x4,hosts=1/fail-switches=1,seed=3", kMesh, true},
    {"hypercube4_f", "hypercube:d=4,hosts=1/fail-links=3,seed=2", kHypercube, true},
    {"dragonfly_f", "dragonfly:a=4,p=1,h=1/fail-switches=1,seed=2", kDragonfly, true},
    {"random16_f", "random:switches=16,degree=4,hosts=1,seed=7/fail-links=3,seed=5", kRandom, true},
    {"kary4_3_fl", "kary:k=4,n=3/fail-links=2,seed=3", kFatTree, true},
    {"kary4_3_fs", "kary:k=4,n=3/fail-switches=1,seed=1", kFatTree, true},
};

struct Promise {
    const char *engine;
    unsigned must_route;         // families routed, intact
    unsigned must_route_faulty;  // families routed with failures
    unsigned must_refuse;        // families refused, intact or faulty
    bool deadlock_free;          // no credit loop within the VLs the engine reports
    bool minimal;                // shortest paths only
    const char *skip = nullptr;  // why the suite cannot run this engine
};

// One line per engine.
const Promise kPromises[] = {
    {"minhop", kAll, kAll, 0, false, true},
    {"updn", kFatTree, kFatTree, 0, true, false},
    // GUID order among equal ranks can cut switches off: dnup refuses those fabrics.
    {"dnup", kFatTree, 0, 0, true, false},
    {"ftree", kFatTree, 0, kAll & ~kFatTree, true, true},
    {"vswitch-ftree", kFatTree, 0, kAll & ~kFatTree, true, true},
    {"sssp", kAll, kAll, 0, false, true},
    {"dfsssp", kAll, kAll, 0, true, true},
    {"file", 0, 0, 0, false, false, "routes an LFT dump (lft_dump_test, lmc_test)"},
    {"nue", kAll, kAll, 0, true, false},
    {"lash", kAll, kAll, 0, true, true},
    // Credit-loop free only on consistently cabled meshes and hypercubes (dor_test checks that).
    {"dor", kAll, kAll, 0, false, true},
    {"torus-2QoS", 0, 0, 0, true, false,
     "needs -Q and a torus-2QoS.conf per fabric (torus2qos_test, integration)"},
    // Up the tree, at most one cross link, down the tree: one VL, never minimal on meshes.
    {"prefix", kAll, kAll, 0, true, false},
};

const Promise *promise(const std::string &engine) {
    for (const Promise &p : kPromises)
        if (engine == p.engine) return &p;
    return nullptr;
}

std::map<std::string, std::map<std::string, std::string>> &vl_table() {
    static std::map<std::string, std::map<std::string, std::string>> t;
    return t;
}

class PrintVls : public ::testing::Environment {
  public:
    void TearDown() override {
        std::printf("VLs used (engine x fabric; '-' = refused):\n%-12s", "");
        for (const FabricCase &c : kFabrics) std::printf(" %12s", c.name);
        std::printf("\n");
        for (const auto &[engine, row] : vl_table()) {
            std::printf("%-12s", engine.c_str());
            for (const FabricCase &c : kFabrics) {
                auto it = row.find(c.name);
                std::printf(" %12s", it == row.end() ? "" : it->second.c_str());
            }
            std::printf("\n");
        }
    }
};
const auto *const kPrintVls = ::testing::AddGlobalTestEnvironment(new PrintVls);

class Properties : public ::testing::TestWithParam<std::tuple<std::string, FabricCase>> {};

// "<engine>_<fabric>" with every character gtest does not allow in a name made '_'.
std::string case_name(const ::testing::TestParamInfo<std::tuple<std::string, FabricCase>> &info) {
    std::string n = std::get<0>(info.param) + "_" + std::get<1>(info.param).name;
    for (char &c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

TEST_P(Properties, EnginePromises) {
    const auto &[engine, fc] = GetParam();
    const Promise *p = promise(engine);
    if (!p) GTEST_SKIP() << "no promise line for engine '" << engine << "' in properties_test.cpp";
    if (p->skip) GTEST_SKIP() << engine << ": " << p->skip;
    Fabric f = generate(fc.spec);
    assign_lids(f, {});
    RoutingOptions o;
    o.no_fallback = true;
    RoutingTables t;
    const ChainResult r = run_chain(engine, f, o, t);
    const unsigned must = fc.faulty ? p->must_route_faulty : p->must_route;
    if (!r.ok) {
        vl_table()[engine][fc.name] = "-";
        EXPECT_FALSE(must & fc.family) << engine << " must route " << fc.name
                                       << " but refused: " << (r.failures.empty() ? r.error : r.failures[0]);
        return;
    }
    EXPECT_FALSE(p->must_refuse & fc.family) << engine << " must refuse " << fc.name;
    vl_table()[engine][fc.name] = std::to_string(t.vls_used);

    if (std::string_view(fc.spec).find("vlids=extended") != std::string_view::npos) {
        // Every VM's vLID is past 0xFFFF and in every switch's table (the trace below reaches them).
        ASSERT_FALSE(f.vms().empty());
        for (const VirtualMachine &vm : f.vms()) ASSERT_GE(vm.lid, kFirstVlid);
        for (const auto &lft : t.lft) ASSERT_GT(lft.size(), std::size_t{f.max_lid()});
    }
    const PathReport pr = trace_paths(f, t);
    EXPECT_EQ(pr.unreachable, 0u) << engine << " on " << fc.name << ": "
                                  << (pr.examples.empty() ? "" : pr.examples[0].what);
    EXPECT_EQ(pr.loops, 0u) << engine << " on " << fc.name;
    if (p->minimal) {
        EXPECT_EQ(pr.non_minimal, 0u) << engine << " on " << fc.name;
    }
    if (p->deadlock_free) {
        const CreditLoopReport cl = check_credit_loops(f, t);
        EXPECT_FALSE(cl.has_cycle) << engine << " on " << fc.name << " (VLs " << t.vls_used << "):\n"
                                   << cl.describe(f);
        EXPECT_LE(cl.vls, t.vls_used) << engine << " on " << fc.name;
    }

    // A multicast group of every third end port.
    McastGroup g;
    g.mlid = 0xC000;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch() && f.port(n, 1).linked() && n % 3 == 0) g.members.push_back({n, 1});
    McastTree tree;
    const HookResult h = build_mcast_tree(r, f, o, t, g, tree);
    ASSERT_TRUE(h.ok) << engine << " on " << fc.name << ": " << h.error;
    const McastTreeReport mr = verify_mcast_tree(f, g, tree);
    EXPECT_TRUE(mr.ok()) << engine << " on " << fc.name << ": "
                         << (mr.problems.empty() ? "" : mr.problems[0]);
}

INSTANTIATE_TEST_SUITE_P(All, Properties,
                         ::testing::Combine(::testing::ValuesIn(EngineRegistry::instance().names()),
                                            ::testing::ValuesIn(kFabrics)),
                         case_name);

// LMC 1 on a few families: an engine that says it supports LMC keeps its promises for every LID
// of every group; one that does not is refused by the chain with OpenSM's reason.
class LmcProperties : public ::testing::TestWithParam<std::tuple<std::string, FabricCase>> {};

TEST_P(LmcProperties, EnginePromisesWithLmc1) {
    const auto &[engine, fc] = GetParam();
    const Promise *p = promise(engine);
    if (!p) GTEST_SKIP() << "no promise line for engine '" << engine << "' in properties_test.cpp";
    if (p->skip) GTEST_SKIP() << engine << ": " << p->skip;
    Fabric f = generate(fc.spec);
    LidOptions lo;
    lo.lmc = 1;
    assign_lids(f, lo);
    RoutingOptions o;
    o.lmc = 1;
    o.no_fallback = true;
    RoutingTables t;
    const ChainResult r = run_chain(engine, f, o, t);
    if (!EngineRegistry::instance().make(engine)->supports_lmc()) {
        EXPECT_FALSE(r.ok);
        ASSERT_EQ(r.failures.size(), 1u);
        EXPECT_NE(r.failures[0].find("LMC > 0 is not supported"), std::string::npos) << r.failures[0];
        return;
    }
    const unsigned must = fc.faulty ? p->must_route_faulty : p->must_route;
    if (!r.ok) {
        EXPECT_FALSE(must & fc.family) << engine << " must route " << fc.name
                                       << " with LMC 1: " << (r.failures.empty() ? r.error : r.failures[0]);
        return;
    }
    if (std::string_view(fc.spec).find("vlids=extended") != std::string_view::npos) {
        // Every VM's vLID is past 0xFFFF and in every switch's table (the trace below reaches them).
        ASSERT_FALSE(f.vms().empty());
        for (const VirtualMachine &vm : f.vms()) ASSERT_GE(vm.lid, kFirstVlid);
        for (const auto &lft : t.lft) ASSERT_GT(lft.size(), std::size_t{f.max_lid()});
    }
    const PathReport pr = trace_paths(f, t);
    EXPECT_EQ(pr.unreachable, 0u) << engine << " on " << fc.name << ": "
                                  << (pr.examples.empty() ? "" : pr.examples[0].what);
    EXPECT_EQ(pr.loops, 0u) << engine << " on " << fc.name;
    if (p->deadlock_free) {
        const CreditLoopReport cl = check_credit_loops(f, t);
        EXPECT_FALSE(cl.has_cycle) << engine << " on " << fc.name << " with LMC 1:\n" << cl.describe(f);
    }
}

const FabricCase kLmcFabrics[] = {
    {"kary4_3", "kary:k=4,n=3", kFatTree, false},
    {"torus4x4", "torus:4x4,hosts=1", kTorus, false},
    {"random16_f", "random:switches=16,degree=4,hosts=1,seed=7/fail-links=3,seed=5", kRandom, true},
};

INSTANTIATE_TEST_SUITE_P(All, LmcProperties,
                         ::testing::Combine(::testing::ValuesIn(EngineRegistry::instance().names()),
                                            ::testing::ValuesIn(kLmcFabrics)),
                         case_name);

}  // namespace
}  // namespace weft::routing
