#include <gtest/gtest.h>

#include "hand_fabrics.hpp"
#include "weft/routing/lft_compare.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

using testing::Ring3;
using testing::TwoLevel;

TEST(TracePaths, CleanRingDeliversEverything) {
    Ring3 r;
    const PathReport p = trace_paths(r.f, r.t);
    // 6 LID owners (3 switches, 3 hosts) as sources, 6 destinations, minus self.
    EXPECT_EQ(p.pairs, 30u);
    EXPECT_EQ(p.unreachable, 0u);
    EXPECT_EQ(p.loops, 0u);
    EXPECT_TRUE(p.ok());
    // Clockwise is the long way round for one neighbour in three: s0 -> h2 takes two switch hops.
    EXPECT_GT(p.non_minimal, 0u);
    EXPECT_EQ(p.max_hops, 4u);  // h0 -> s0 -> s1 -> s2 -> h2
}

TEST(TracePaths, CatchesAHandBuiltLoop) {
    Ring3 r;
    const Lid d = r.host_lid(2);
    r.t.lft[0][d] = 1;  // s0 -> s1
    r.t.lft[1][d] = 2;  // s1 -> s0: ping-pong
    const PathReport p = trace_paths(r.f, r.t);
    // Sources at s0 and s1 (switch + host each) loop.
    EXPECT_EQ(p.loops, 4u);
    EXPECT_FALSE(p.ok());
    bool named = false;
    for (const auto &e : p.examples) named |= e.what.rfind("loop:", 0) == 0 && e.dst == d;
    EXPECT_TRUE(named);
}

TEST(TracePaths, CatchesUnreachableAndWrongNode) {
    Ring3 r;
    r.t.lft[0][r.host_lid(1)] = kNoPort;  // no entry
    r.t.lft[1][r.host_lid(2)] = 3;        // delivers to h1, which is not the owner
    const PathReport p = trace_paths(r.f, r.t);
    // h1 from s0 (s0, h0) and from s2 via s0 (s2, h2); h2 from s1 (s1, h1) and from s0 via s1 (s0, h0).
    EXPECT_EQ(p.unreachable, 4u);         // h0 -> h1, h2 -> h1, h1 -> h2, h0 -> h2
    EXPECT_EQ(p.switch_unreachable, 4u);  // the same from s0, s2, s1, s0
    EXPECT_EQ(p.loops, 0u);
    EXPECT_FALSE(p.ok());
}

TEST(TracePaths, MinimalFatTree) {
    TwoLevel t(4, 2, 2);
    const PathReport p = trace_paths(t.f, t.t);
    EXPECT_TRUE(p.ok());
    EXPECT_EQ(p.non_minimal, 0u);
    EXPECT_EQ(p.max_hops, 4u);
}

TEST(CreditLoops, FindsAndNamesTheRingCycle) {
    Ring3 r;
    const CreditLoopReport c = check_credit_loops(r.f, r.t);
    ASSERT_TRUE(c.has_cycle);
    ASSERT_EQ(c.cycle.size(), 3u);
    for (const Channel &ch : c.cycle) {
        EXPECT_EQ(ch.port, 1) << "every channel of the cycle is a clockwise link";
        EXPECT_EQ(ch.vl, 0);
    }
    const std::string text = c.describe(r.f);
    EXPECT_NE(text.find("'ring0'"), std::string::npos) << text;
    EXPECT_NE(text.find("'ring1'"), std::string::npos) << text;
    EXPECT_NE(text.find("'ring2'"), std::string::npos) << text;
}

TEST(CreditLoops, DatelineVlBreaksTheCycle) {
    Ring3 r;
    // Packets entering s0 from s2 (port 2) and leaving clockwise (port 1) switch to VL 1.
    r.t.sl2vl.assign(3, std::vector<Sl2Vl>(25, Sl2Vl{}));
    r.t.sl2vl[0][2 * 5 + 1][0] = 1;
    const CreditLoopReport c = check_credit_loops(r.f, r.t);
    EXPECT_FALSE(c.has_cycle) << c.describe(r.f);
    EXPECT_EQ(c.vls, 2u);
    // Same tables with the dateline on the wrong SL: the loop is back.
    r.t.sl2vl[0][2 * 5 + 1][0] = 0;
    r.t.sl2vl[0][2 * 5 + 1][1] = 1;
    EXPECT_TRUE(check_credit_loops(r.f, r.t).has_cycle);
}

TEST(CreditLoops, PathSlSeparatesLayers) {
    Ring3 r;
    // Without SL2VL tables VL = SL: put the paths that cross s2 -> s0 on SL 1.
    r.t.path_sl.assign(3, std::vector<std::uint8_t>(r.f.max_lid() + 1, 0));
    r.t.path_sl[2][r.host_lid(1)] = 1;  // s2 -> s0 -> s1
    r.t.path_sl[1][r.host_lid(0)] = 1;  // s1 -> s2 -> s0
    EXPECT_FALSE(check_credit_loops(r.f, r.t).has_cycle);
}

TEST(CreditLoops, FatTreeIsFree) {
    TwoLevel t(4, 2, 2);
    const CreditLoopReport c = check_credit_loops(t.f, t.t);
    EXPECT_FALSE(c.has_cycle);
    EXPECT_GT(c.dependencies, 0u);
}

TEST(CompareLfts, SameAndBroken) {
    TwoLevel a(3, 2, 2), b(3, 2, 2);
    LftComparison c = compare_lfts(a.f, a.t, b.t);
    EXPECT_EQ(c.only_a, 0u);
    EXPECT_EQ(c.only_b, 0u);
    EXPECT_EQ(c.same_length, c.pairs);
    EXPECT_EQ(c.both_minimal, c.pairs);
    EXPECT_EQ(c.differing_entries, 0u);
    const Lid d = a.f.port(a.host[5], 1).lid;
    b.t.lft[a.f.node(a.root[1]).sw][d] = kNoPort;
    c = compare_lfts(a.f, a.t, b.t);
    EXPECT_EQ(c.differing_entries, 1u);
    EXPECT_GT(c.only_a, 0u);
    EXPECT_EQ(c.only_b, 0u);
}

}  // namespace
}  // namespace weft::routing
