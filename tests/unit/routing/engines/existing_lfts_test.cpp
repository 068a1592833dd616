// A re-route with what the switches hold (ExistingLfts): every entry that is still one of the
// ports the engine may choose stays, the rest is chosen afresh; the tables stay correct, change
// less than a fresh routing's, and without existing LFTs the routing is the fresh one.
#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const std::string &chain, RoutingOptions o = {}) {
    RoutingTables t;
    const ChainResult r = run_chain(chain, f, o, t);
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.engine, chain);
    return t;
}

std::size_t changed(const Fabric &f, const RoutingTables &a, const RoutingTables &b) {
    std::size_t n = 0;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (Lid l = 1; l <= f.max_lid(); ++l) n += a.lft[s][l] != b.lft[s][l];
    return n;
}

// The first switch-to-switch link of the first switch, cut.
Fabric without_a_link(Fabric f) {
    const NodeIdx n = f.switch_node(0);
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
        if (f.port(n, p).peer != kNoNode && f.node(f.port(n, p).peer).is_switch()) {
            f.disconnect(n, p);
            return f;
        }
    ADD_FAILURE() << "no switch link";
    return f;
}

class ExistingLftsTest : public ::testing::TestWithParam<const char *> {};

TEST_P(ExistingLftsTest, ARerouteKeepsWhatStillFits) {
    const std::string engine = GetParam();
    const Fabric before = test::generated("kary:k=4,n=3");
    const RoutingTables held = route(before, engine);
    const Fabric after = without_a_link(before);
    RoutingOptions o;
    o.existing.lfts = existing_lfts_of(before, held);
    const RoutingTables kept = route(after, engine, o);
    const RoutingTables fresh = route(after, engine);
    EXPECT_TRUE(trace_paths(after, kept).ok());
    EXPECT_FALSE(check_credit_loops(after, kept).has_cycle);
    std::size_t stayed = 0, could_stay = 0;
    for (SwitchIdx s = 0; s < after.switch_count(); ++s)
        for (Lid l = 1; l <= after.max_lid(); ++l) {
            const PortNum was = held.lft[s][l];
            if (was == kNoPort || was == 0) continue;
            // Still a port the engine may take: a min-hop port that is still cabled.
            const auto ok = equal_cost_ports(after, fresh, s, l);
            if (std::find(ok.begin(), ok.end(), was) == ok.end()) continue;
            ++could_stay;
            stayed += kept.lft[s][l] == was;
        }
    EXPECT_GT(could_stay, 0u);
    // minhop may take every min-hop port, so each one held stays; updn only those its up/down
    // rule allows (a subset of them).
    if (engine == "minhop") {
        EXPECT_EQ(stayed, could_stay);
    } else {
        EXPECT_GT(stayed, could_stay * 9 / 10) << engine;
    }
    EXPECT_LT(changed(after, held, kept), changed(after, held, fresh)) << engine;
    // Nothing held: the fresh routing, entry for entry.
    EXPECT_EQ(changed(after, route(after, engine, {}), fresh), 0u);
}

INSTANTIATE_TEST_SUITE_P(Engines, ExistingLftsTest, ::testing::Values("minhop", "updn"));

TEST(ExistingLftsReroute, TheSameFabricAgainChangesNothing) {
    // ftree's tables as what the switches hold, minhop routing the same fabric: every ftree
    // entry is a min-hop port on a fat tree, so nothing changes.
    const Fabric f = test::generated("kary:k=4,n=3");
    const RoutingTables tree = route(f, "ftree");
    RoutingOptions o;
    o.existing.lfts = existing_lfts_of(f, tree);
    const RoutingTables again = route(f, "minhop", o);
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (Lid l = 1; l <= f.max_lid(); ++l)
            if (tree.lft[s][l] != kNoPort) {
                EXPECT_EQ(again.lft[s][l], tree.lft[s][l]) << s << " " << l;
            }
}

}  // namespace
}  // namespace weft::routing
