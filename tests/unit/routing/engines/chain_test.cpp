#include <gtest/gtest.h>

#include <algorithm>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {
namespace {

TEST(Chain, RegistryKnowsTheEngines) {
    const auto names = EngineRegistry::instance().names();
    for (const char *n : {"minhop", "updn", "dnup", "ftree", "sssp", "dfsssp", "file"})
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    EXPECT_EQ(EngineRegistry::instance().make("no-such-engine"), nullptr);
}

TEST(Chain, TokensAreTrimmedAndEmptyOnesDropped) {
    using V = std::vector<std::string>;
    EXPECT_EQ(chain_tokens("ftree,updn"), (V{"ftree", "updn"}));
    EXPECT_EQ(chain_tokens(" ftree ,\tupdn\t, no_fallback "), (V{"ftree", "updn", "no_fallback"}));
    EXPECT_EQ(chain_tokens(",,minhop,, ,"), (V{"minhop"}));
    EXPECT_EQ(chain_tokens(""), V{});
    EXPECT_EQ(chain_tokens(" , "), V{});
    EXPECT_EQ(chain_tokens("torus-2QoS"), (V{"torus-2QoS"}));
}

TEST(Chain, UnknownEngineIsAnError) {
    const Fabric f = test::two_level(2, 2, 1);
    RoutingTables t;
    const auto r = run_chain("updn,bogus", f, {}, t);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("bogus"), std::string::npos);
    EXPECT_TRUE(r.engine.empty());
}

TEST(Chain, FirstEngineThatRoutesWins) {
    const Fabric f = test::two_level(4, 2, 2);
    RoutingTables t;
    const auto r = run_chain("updn,minhop", f, {}, t);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.engine, "updn");
    EXPECT_EQ(t.engine, "updn");
    EXPECT_TRUE(r.failures.empty());
}

TEST(Chain, FailedEngineFallsBackToMinhopAndSaysWhy) {
    // A ring has no switch whose CA histogram has one dominant bar: updn finds no roots.
    const Fabric f = test::ring(6, 1);
    RoutingTables t;
    const auto r = run_chain("updn", f, {}, t);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.engine, "minhop");
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].rfind("updn: ", 0), 0u) << r.failures[0];
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

TEST(Chain, NoFallbackFailsOutright) {
    const Fabric f = test::ring(6, 1);
    RoutingTables t;
    auto r = run_chain("updn,no_fallback", f, {}, t);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failures.size(), 1u);
    EXPECT_FALSE(r.error.empty());
    EXPECT_TRUE(t.engine.empty());
    RoutingOptions o;
    o.no_fallback = true;
    r = run_chain("updn", f, o, t);
    EXPECT_FALSE(r.ok);
}

TEST(Chain, EmptyChainIsMinhop) {
    const Fabric f = test::line(3, 1);
    RoutingTables t;
    const auto r = run_chain("", f, {}, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "minhop");
}

TEST(Chain, FileEngineWithoutFileFallsBack) {
    const Fabric f = test::line(3, 1);
    RoutingTables t;
    const auto r = run_chain("file", f, {}, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "minhop");
    ASSERT_EQ(r.failures.size(), 1u);
}

}  // namespace
}  // namespace weft::routing
