// Engines on a full-size fabric: correctness properties on the 648-host two-level 36-port tree.
// Speed on the larger trees is measured in perf/routing, not here.
#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/ftree.hpp"

namespace weft::routing {
namespace {

TEST(Scale, TwoLevel36Port648Hosts) {
    const Fabric f = test::two_level(36, 18, 18);
    for (const char *e : {"minhop", "updn", "ftree"}) {
        const RoutingTables t = test::route_alone(e, f);
        EXPECT_EQ(test::check_all_routes(f, t, false), "") << e;
        if (std::string(e) != "ftree") continue;
        const auto order = ftree_ca_order(f, {});
        ASSERT_TRUE(order.ok);
        EXPECT_EQ(test::worst_shift_load(f, t, order.lids()), 1u);
    }
}

}  // namespace
}  // namespace weft::routing
