// Engines on full-size fabrics: correctness properties on the 648-host two-level 36-port tree,
// and (disabled by default, run with --gtest_also_run_disabled_tests) timings on 5832 and
// 11664 hosts, printed for perf notes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/ftree.hpp"

namespace weft::routing {
namespace {

double timed(const Fabric &f, const std::string &engine, RoutingTables &t, RoutingOptions o = {}) {
    o.no_fallback = true;
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_chain(engine, f, o, t);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(r.ok) << engine << ": " << r.error << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.engine, engine);
    std::printf("  %-7s %5zu switches %6zu LIDs: %.3f s\n", engine.c_str(), f.switch_count(),
                std::size_t{f.max_lid()}, s);
    return s;
}

Fabric ft36_two_level() {
    return test::two_level(36, 18, 18);
}

TEST(Scale, TwoLevel36Port648Hosts) {
    const Fabric f = ft36_two_level();
    for (const char *e : {"minhop", "updn", "ftree"}) {
        RoutingTables t;
        timed(f, e, t);
        EXPECT_EQ(test::check_all_routes(f, t, false), "") << e;
    }
    RoutingTables t;
    timed(f, "ftree", t);
    const auto order = ftree_ca_order(f, {});
    ASSERT_TRUE(order.ok);
    EXPECT_EQ(test::worst_shift_load(f, t, order.lids()), 1u);
}

TEST(Scale, DISABLED_KaryNTree18x3With5832Hosts) {
    const Fabric f = test::kary_ntree(18, 3);
    for (const char *e : {"minhop", "updn", "ftree", "sssp", "dfsssp"}) {
        RoutingTables t;
        timed(f, e, t);
    }
}

TEST(Scale, DISABLED_ThreeLevel36Port11664Hosts) {
    const Fabric f = test::ft36_three_level();
    for (const char *e : {"ftree", "minhop", "updn"}) {
        RoutingTables t;
        timed(f, e, t);
    }
}

}  // namespace
}  // namespace weft::routing
