// LMC > 0: every engine that claims LMC support routes every LID of every group, spreads the
// LIDs of a group over different systems/nodes where the fabric allows, and the chain passes
// over engines that cannot (ftree) the way OpenSM does, saying so.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/lft_dump.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

const char *const kLmcEngines[] = {"minhop", "updn", "dnup", "sssp", "dfsssp"};

RoutingTables route(const Fabric &f, const std::string &chain, std::uint8_t lmc, ChainResult *res = nullptr) {
    RoutingOptions o;
    o.lmc = lmc;
    o.no_fallback = true;
    RoutingTables t;
    const ChainResult r = run_chain(chain, f, o, t);
    EXPECT_TRUE(r.ok) << chain << ": " << r.error << (r.failures.empty() ? "" : " / " + r.failures[0]);
    if (res) *res = r;
    return t;
}

class LmcEngines : public ::testing::TestWithParam<std::tuple<const char *, int>> {};

TEST_P(LmcEngines, EveryLidOfEveryGroupIsReachable) {
    const auto [engine, lmc] = GetParam();
    for (const Fabric &f : {test::two_level(4, 2, 2, 1, static_cast<std::uint8_t>(lmc)),
                            test::two_level(3, 3, 2, 2, static_cast<std::uint8_t>(lmc))}) {
        const RoutingTables t = route(f, engine, static_cast<std::uint8_t>(lmc));
        EXPECT_EQ(t.engine, engine);
        EXPECT_EQ(test::check_all_routes(f, t, false), "") << engine << " LMC " << lmc;
        const PathReport pr = trace_paths(f, t);
        EXPECT_TRUE(pr.ok()) << engine << ": " << (pr.examples.empty() ? "" : pr.examples[0].what);
        EXPECT_EQ(pr.non_minimal, 0u) << engine;
    }
}

TEST_P(LmcEngines, LidsOfAGroupTakeDifferentSpines) {
    // Two spines (different systems): from every other leaf, the 2 LIDs of a port go through
    // both spines (rule b for the min-hop builder, link weights for sssp/dfsssp).
    const auto [engine, lmc] = GetParam();
    const Fabric f = test::two_level(4, 2, 2, 1, static_cast<std::uint8_t>(lmc));
    const RoutingTables t = route(f, engine, static_cast<std::uint8_t>(lmc));
    for (SwitchIdx s = 0; s < 4; ++s)
        for (Lid base : test::ca_lids(f)) {
            if (f.attached_switch(base) == f.switch_node(s)) continue;
            std::set<PortNum> used;
            for (Lid l = base; l < base + (Lid{1} << lmc); ++l) used.insert(t.lft[s][l]);
            EXPECT_EQ(used.size(), 2u) << engine << " switch " << s << " LID " << base;
        }
}

INSTANTIATE_TEST_SUITE_P(All, LmcEngines,
                         ::testing::Combine(::testing::ValuesIn(kLmcEngines), ::testing::Values(1, 2)),
                         [](const auto &param_info) {
                             return std::string(std::get<0>(param_info.param)) + "_lmc" +
                                    std::to_string(std::get<1>(param_info.param));
                         });

// Two leaves, each with one host on port 1 and one cable to each of three spines on ports
// 2-4: spines 0 and 1 are one system (a chassis), spine 2 another.
Fabric chassis_fabric(std::uint8_t lmc) {
    Fabric f;
    const NodeIdx a = f.add_node(NodeType::Switch, 0x10, 4, "leafA");
    const NodeIdx b = f.add_node(NodeType::Switch, 0x11, 4, "leafB");
    const NodeIdx s0 = f.add_node(NodeType::Switch, 0x20, 2, "spine0", 0x99);
    const NodeIdx s1 = f.add_node(NodeType::Switch, 0x21, 2, "spine1", 0x99);
    const NodeIdx s2 = f.add_node(NodeType::Switch, 0x22, 2, "spine2");
    PortNum sp = 2;
    for (NodeIdx s : {s0, s1, s2}) {
        f.connect(a, sp, s, 1);
        f.connect(b, sp, s, 2);
        ++sp;
    }
    for (NodeIdx leaf : {a, b}) {
        const Guid g = 0x100 + leaf;
        const NodeIdx h = f.add_node(NodeType::Ca, g, 1, "h" + std::to_string(leaf));
        f.set_port_guid(h, 1, g + 1);
        f.connect(leaf, 1, h, 1);
    }
    test::assign_lids(f, lmc);
    return f;
}

TEST(Lmc, OtherSystemFirstThenOtherNode) {
    // From leaf A to the host on leaf B (4 LIDs): LID 0 takes the first least-loaded spine
    // (spine0, port 2); LID 1 a spine of another system (rule b: spine2, port 4); LID 2 the
    // node of the used system not used yet (rule c: spine1, port 3).
    for (const char *engine : {"minhop", "updn", "dnup"}) {
        const Fabric f = chassis_fabric(2);
        const NodeIdx hb = f.node_count() - 1;
        const Lid base = f.port(hb, 1).lid;
        const RoutingTables t = route(f, engine, 2);
        EXPECT_EQ(t.lft[0][base + 0], 2) << engine;
        EXPECT_EQ(t.lft[0][base + 1], 4) << engine;
        EXPECT_EQ(t.lft[0][base + 2], 3) << engine;
        EXPECT_EQ(test::check_all_routes(f, t, false), "") << engine;
    }
}

TEST(Lmc, FtreeFallsThroughToMinhopAndSaysWhy) {
    const Fabric f = test::two_level(4, 2, 2, 1, 1);
    RoutingOptions o;
    o.lmc = 1;
    RoutingTables t;
    ChainResult r = run_chain("ftree", f, o, t);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.engine, "minhop");
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0], "ftree: LMC > 0 is not supported by ftree routing (LMC 1)");
    EXPECT_EQ(test::check_all_routes(f, t), "");
    // The next engine of the chain routes when it supports LMC.
    r = run_chain("ftree,updn", f, o, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "updn");
    EXPECT_EQ(r.failures.size(), 1u);
    // With no_fallback and nothing else in the chain, the chain fails.
    r = run_chain("ftree,no_fallback", f, o, t);
    EXPECT_FALSE(r.ok);
    // LMC 0: ftree routes.
    const Fabric f0 = test::two_level(4, 2, 2);
    r = run_chain("ftree", f0, {}, t);
    EXPECT_EQ(r.engine, "ftree");
    EXPECT_FALSE(EngineRegistry::instance().make("ftree")->supports_lmc());
}

TEST(Lmc, FileEngineLoadsEveryLidOfAGroup) {
    const Fabric f = test::two_level(4, 2, 2, 1, 2);
    const RoutingTables t = route(f, "minhop", 2);
    const std::string path = ::testing::TempDir() + "weft-lmc-lfts.dump";
    std::ofstream(path) << write_lft_dump(f, t);
    RoutingOptions o;
    o.lmc = 2;
    o.lfts_file = path;
    o.no_fallback = true;
    RoutingTables loaded;
    const ChainResult r = run_chain("file", f, o, loaded);
    std::remove(path.c_str());
    ASSERT_TRUE(r.ok) << (r.failures.empty() ? r.error : r.failures[0]);
    EXPECT_EQ(loaded.lft, t.lft);
    EXPECT_EQ(test::check_all_routes(f, loaded, false), "");
}

}  // namespace
}  // namespace weft::routing
