// What OpenSM's option files do to the routes: -w hop weights, -O port search ordering,
// -X routing order, -m switch IDs for up/down.
#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const std::string &chain, const RoutingOptions &o = {}) {
    RoutingTables t;
    auto r = run_chain(chain, f, o, t);
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_EQ(t.engine, chain);
    return t;
}

Guid switch_guid(const Fabric &f, SwitchIdx s) {
    return f.node(f.switch_node(s)).guid;
}

// Ring of 4 (port 1 = next, 2 = previous, host on 3): LIDs sw0..sw3 = 1..4, h0..h3 = 5..8.
TEST(OptionFiles, HopWeightSteersAroundAnExpensivePort) {
    const Fabric f = test::ring(4, 1);
    const auto plain = route(f, "minhop");
    EXPECT_EQ(plain.hops[0][7], 3);  // sw0 -> sw1|sw3 -> sw2 -> h2
    RoutingOptions o;
    o.hop_weights = {{switch_guid(f, 0), 1, 3}};
    const auto t = route(f, "minhop", o);
    // Leaving sw0 by port 1 now costs 3: h2 (two hops either way) only via port 2, at cost 2+1.
    EXPECT_EQ(t.lft[0][7], 2);
    EXPECT_EQ(t.hops[0][7], 3);
    // h1 is 3 either way (port 1 direct, or sw3-sw2-sw1): cost 3 + 1 for the CA.
    EXPECT_EQ(t.hops[0][6], 4);
    // Nobody else leaves by sw0's port 1, so the rest of the fabric routes as before.
    for (SwitchIdx s = 1; s < 4; ++s) EXPECT_EQ(t.hops[s], plain.hops[s]) << "sw" << s;
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

// 4 leaves (hosts on ports 1-2, spines on ports 3 and 4), 2 spines; LIDs: switches 1-6,
// hosts 7..14 (see MinHop.TwoLevelFatTreeByHand for the table without options).
TEST(OptionFiles, PortSearchOrderingDecidesTies) {
    const Fabric f = test::two_level(4, 2, 2);
    const auto plain = route(f, "minhop");
    RoutingOptions o;
    o.port_search_order = {{switch_guid(f, 0), {4, 3}}};
    const auto t = route(f, "minhop", o);
    // sw0 searches port 4 before 3: every tie it broke towards 3 now goes to 4 and back. The
    // spines' own LIDs (5, 6) have one min-hop port each and no tie to break.
    for (Lid l = 1; l <= 14; ++l) {
        const PortNum p = plain.lft[0][l];
        const bool tie = l != 5 && l != 6;
        const PortNum want = !tie ? p : p == 3 ? 4 : p == 4 ? 3 : p;
        EXPECT_EQ(t.lft[0][l], want) << "LID " << l;
    }
    for (SwitchIdx s = 1; s < f.switch_count(); ++s) EXPECT_EQ(t.lft[s], plain.lft[s]) << "sw" << s;
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

TEST(OptionFiles, RoutingOrderRoutesListedPortsFirst) {
    const Fabric f = test::two_level(4, 2, 2);
    const auto plain = route(f, "minhop");
    ASSERT_EQ(plain.lft[0][14], 4);  // h7 comes late and finds port 3 busier
    RoutingOptions o;
    const auto owner = f.lid_owner(14);
    ASSERT_TRUE(owner);
    o.guid_routing_order = {f.port(owner->node, owner->port).guid, 0xdead};  // unknown GUIDs are skipped
    const auto t = route(f, "minhop", o);
    EXPECT_EQ(t.lft[0][14], 3);  // routed first: the first least-loaded port
    EXPECT_EQ(test::check_all_routes(f, t), "");
}

// Ring of 5 rooted at sw0: ranks 0,1,2,2,1; the sw2-sw3 link joins equal ranks, and which way
// is up follows the switch IDs (GUIDs unless -m gives others).
TEST(OptionFiles, IdsDecideUpBetweenEqualRanks) {
    const Fabric f = test::ring(5, 1);
    RoutingOptions o;
    o.root_guids = {switch_guid(f, 0)};
    const Lid h4 = 10;  // LIDs: switches 1-5, hosts 6-10
    const auto by_guid = route(f, "updn", o);
    // By GUID sw2 -> sw3 is down, so sw2 cannot go on up to sw4 that way: the long way round.
    EXPECT_EQ(by_guid.hops[2][h4], 4);
    o.ids_guids = {{switch_guid(f, 2), 100}, {switch_guid(f, 3), 1}};
    const auto by_id = route(f, "updn", o);
    EXPECT_EQ(by_id.hops[2][h4], 3);  // sw2 -> sw3 is up now: sw2, sw3, sw4, h4
    EXPECT_EQ(by_id.lft[2][h4], 1);
    EXPECT_EQ(test::check_all_routes(f, by_id), "");
    EXPECT_EQ(test::cdg_cycles(f, by_id), 0u);
}

}  // namespace
}  // namespace weft::routing
