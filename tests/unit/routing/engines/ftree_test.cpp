#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/ftree.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const std::string &chain, RoutingOptions o = {}) {
    o.no_fallback = true;
    RoutingTables t;
    auto r = run_chain(chain, f, o, t);
    EXPECT_TRUE(r.ok) << r.error << (r.failures.empty() ? "" : r.failures[0]);
    return t;
}

// 4 leaves sw0..sw3 (hosts on ports 1-2, spine sw4 on port 3, sw5 on port 4); LIDs: switches
// 1-6, hosts h0..h7 = 7..14. Each leaf sends its first host's downward route over the least
// loaded spine: host 2i+0 arrives over spine sw4, host 2i+1 over sw5, on every leaf.
TEST(Ftree, TwoLevelByHand) {
    const Fabric f = test::two_level(4, 2, 2);
    const auto t = route(f, "ftree");
    EXPECT_EQ(t.engine, "ftree");
    for (SwitchIdx leaf = 0; leaf < 4; ++leaf)
        for (Lid l = 7; l <= 14; ++l) {
            const SwitchIdx dst_leaf = (l - 7) / 2;
            const PortNum want = dst_leaf == leaf ? static_cast<PortNum>(1 + (l - 7) % 2)
                                                  : static_cast<PortNum>(3 + (l - 7) % 2);
            EXPECT_EQ(t.lft[leaf][l], want) << "leaf " << leaf << " LID " << l;
        }
    // Spines go straight down to the host's leaf.
    for (Lid l = 7; l <= 14; ++l) {
        EXPECT_EQ(t.lft[4][l], 1 + (l - 7) / 2);
        EXPECT_EQ(t.lft[5][l], 1 + (l - 7) / 2);
    }
    EXPECT_EQ(t.hops[0][9], 3);
    EXPECT_EQ(t.hops[4][9], 2);
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    // The CN order: leaves in index order, hosts in port order.
    const auto order = ftree_ca_order(f, {});
    ASSERT_TRUE(order.ok) << order.error;
    EXPECT_EQ(order.text().substr(0, 18), "0x0007\th0\n0x0008\th");
    EXPECT_EQ(order.entries.size(), 8u);
}

TEST(Ftree, CaOrderPadsShortLeavesWithDummies) {
    Fabric f = test::two_level(3, 2, 2);
    f.disconnect(f.switch_node(1), 2);  // leaf 1 loses h3
    test::assign_lids(f);
    const auto order = ftree_ca_order(f, {});
    ASSERT_TRUE(order.ok) << order.error;
    ASSERT_EQ(order.entries.size(), 6u);
    EXPECT_EQ(order.entries[3].first, kFtreeDummyLid);
    EXPECT_EQ(order.text().find("0xFFFF\tDUMMY\n"), 30u);
}

class FtreeShift : public ::testing::TestWithParam<std::pair<unsigned, unsigned>> {};

TEST_P(FtreeShift, KaryNTreeIsCongestionFreeForShifts) {
    const auto [k, n] = GetParam();
    const Fabric f = test::kary_ntree(k, n);
    const auto t = route(f, "ftree");
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
    const auto order = ftree_ca_order(f, {});
    ASSERT_TRUE(order.ok) << order.error;
    EXPECT_EQ(test::worst_shift_load(f, t, order.lids()), 1u);
    // Minhop makes no such promise, and on three-level trees does not keep it.
    if (n >= 3) {
        const auto m = route(f, "minhop");
        EXPECT_GT(test::worst_shift_load(f, m, order.lids()), 1u);
    }
}

INSTANTIATE_TEST_SUITE_P(Trees, FtreeShift,
                         ::testing::Values(std::pair{2u, 3u}, std::pair{4u, 2u}, std::pair{4u, 3u},
                                           std::pair{3u, 3u}));

TEST(Ftree, TorusIsNotAFatTreeAndTheChainFallsBack) {
    const Fabric f = test::torus2d(4, 4);
    RoutingTables t;
    RoutingOptions o;
    o.root_guids = {f.node(f.switch_node(0)).guid};
    auto r = run_chain("ftree,updn,minhop", f, o, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "updn");
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].rfind("ftree: ", 0), 0u);
    r = run_chain("ftree", f, {}, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "minhop");
    r = run_chain("ftree,no_fallback", f, {}, t);
    EXPECT_FALSE(r.ok);
}

TEST(Ftree, LinkFaultBreaksPurityAndFallsBack) {
    Fabric f = test::kary_ntree(4, 2);
    f.disconnect(f.switch_node(0), 5);
    RoutingTables t;
    const auto r = run_chain("ftree,updn", f, {}, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "updn");
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
}

TEST(Ftree, WithRootsGivenADegradedTreeStillRoutes) {
    Fabric f = test::kary_ntree(4, 3);
    f.disconnect(f.switch_node(0), 5);
    f.disconnect(f.switch_node(20), 6);
    RoutingOptions o;
    for (SwitchIdx s = 32; s < 48; ++s) o.root_guids.push_back(f.node(f.switch_node(s)).guid);
    const auto t = route(f, "ftree", o);
    EXPECT_EQ(test::check_all_routes(f, t, false), "");
    EXPECT_EQ(test::cdg_cycles(f, t), 0u);
}

TEST(Ftree, LmcIsRefused) {
    const Fabric f = test::two_level(2, 2, 1, 1, 1);
    RoutingTables t;
    RoutingOptions o;
    o.lmc = 1;
    const auto r = run_chain("ftree", f, o, t);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.engine, "minhop");
}

// Two leaves (hosts h0..h3 are the compute nodes), two spines each with an I/O node on port 3.
TEST(Ftree, IoNodesNeedReverseHopsToReachEachOther) {
    test::Builder b;
    for (int i = 0; i < 4; ++i) b.sw(4);
    for (int l = 0; l < 2; ++l)
        for (int s = 0; s < 2; ++s) b.f.connect(b.sws[l], 3 + s, b.sws[2 + s], 1 + l);
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 2; ++h) b.host(b.sws[l], 1 + h);
    const NodeIdx io1 = b.host(b.sws[2], 3), io2 = b.host(b.sws[3], 3);
    test::assign_lids(b.f);
    RoutingOptions o;
    o.root_guids = {0x1002, 0x1003};
    for (int h = 0; h < 4; ++h) o.cn_guids.push_back(b.f.port(b.hosts[h], 1).guid);
    o.io_guids = {b.f.port(io1, 1).guid, b.f.port(io2, 1).guid};
    const Lid io2_lid = b.f.port(io2, 1).lid;
    auto t = route(b.f, "ftree", o);
    EXPECT_EQ(t.lft[2][io2_lid], kNoPort);  // spine 0 cannot go down and up again
    for (Lid cn : {Lid{5}, Lid{6}, Lid{7}, Lid{8}}) EXPECT_NE(t.lft[2][cn], kNoPort);
    o.max_reverse_hops = 1;
    t = route(b.f, "ftree", o);
    EXPECT_TRUE(test::walk(b.f, t, 2, io2_lid).has_value());
}

}  // namespace
}  // namespace weft::routing
