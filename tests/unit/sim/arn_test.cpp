// ARN in the simulator: a congested global link's news reaches every switch of its group over
// the group's prefix multicast, as fast as the modelled links allow, and moves traffic of the
// group's other switches off the paths through that link; a seed gives one run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "run_text.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim::test {
namespace {

// dragonfly:a=3,p=2,h=1: 4 groups of 3 routers (ports: hosts 1-2, local 3-4, global 5), 24 hosts;
// g0-r0's global link leads to g1-r2, g0-r1's to g2-r1, g0-r2's to group 3. Hosts 0-1 hang
// off g0-r0, 2-3 off g0-r1, 6-7 off g1-r0, 8-9 off g1-r1, 10-11 off g1-r2.
//
// Cross traffic: both hosts of g0-r0 send to g1-r2 over g0-r0's own global link (dfsssp's groups
// leave them no other way), which they fill twice over. Test traffic: g0-r1's hosts send to
// g1-r1, their primary through g0-r0 and that link, their alternate g0-r1's own global link; g0-r1's
// own ports are idle, so only ARN can tell it the primary's path is full.
std::string crossed(bool arn, const std::string &balancing = "flowlet_quality", unsigned seed = 1) {
    return R"(
[fabric]
topology = dragonfly:a=3,p=2,h=1
host_rate = 100G
fabric_rate = 100G
link_delay = 1us
switch_latency = 500ns
routing = dfsssp
alternates = 2
[switch]
balancing = )" +
           balancing + R"(
idle_time = 10us
buffer = 1MB
ecn_kmin = 200KB
ecn_kmax = 200KB
[arn]
enabled = )" +
           (arn ? "on" : "off") +
           R"(
repeat_interval = 200us
min_gap = 20us
[transport]
type = dctcp
mtu = 4096
[workload]
type = file
file = crossed.flows
[run]
stop = 20ms
seed = )" + std::to_string(seed) +
           "\n";
}

// src dst bytes [start]: g0-r0's hosts to g1-r2's, g0-r1's hosts to g1-r1's a little later.
const char *kFlows = "0 10 3000000\n1 11 3000000\n2 8 2000000 50us\n3 9 2000000 50us\n";

Results run_crossed(bool arn, const std::string &balancing = "flowlet_quality", unsigned seed = 1) {
    const std::string dir = write_temp("crossed.flows", kFlows);
    return run_text(crossed(arn, balancing, seed), dir + "/arn.ini");
}

TEST(Arn, CongestedGlobalLinkReachesEveryGroupSwitchWithinTheModelledDelays) {
    const Results r = run_crossed(true);
    const ArnCounters &a = r.counters.arn;
    ASSERT_TRUE(r.counters.all_done);
    EXPECT_EQ(a.watched_ports, 12u);  // every router's one global port
    EXPECT_GT(a.messages, 0u);
    EXPECT_EQ(a.refused, 0u);
    EXPECT_EQ(a.lost, 0u);
    // Every message reached both other switches of its group (a run ends when its flows are
    // done, so the last messages may still be travelling).
    EXPECT_GT(a.complete, 0u);
    EXPECT_LE(a.incomplete, 2u);
    EXPECT_EQ(a.complete + a.incomplete, a.messages);
    EXPECT_GE(a.delivered, 2 * a.complete);
    // A group of three all-to-all is a star from its first router: one local hop from it, two
    // from the others. A hop is the link's delay and the far switch's latency, plus the frame's
    // serialization (at most 72 bytes at 100G: 5.8 ns) after what is already on its way out: at
    // most one data packet (4096 bytes: 327.7 ns) and the few ACKs queued before it (5.1 ns each).
    const Time hop_min = 1 * kUs + 500 * kNs;
    const Time hop_max = hop_min + 6 * kNs + 328 * kNs + 20 * 6 * kNs;
    EXPECT_GE(a.latency_sum, hop_min * a.complete);
    EXPECT_LE(a.latency_max, 2 * hop_max);
    // Within two sampling intervals of detection (the issue's goal), with room to spare.
    EXPECT_LT(a.latency_max, 2 * 16 * kUs);
    EXPECT_GT(a.rechosen, 0u);
}

TEST(Arn, NewsMovesTheOtherSwitchesTrafficOffTheCongestedLink) {
    const Results off = run_crossed(false);
    const Results on = run_crossed(true);
    ASSERT_TRUE(off.counters.all_done);
    ASSERT_TRUE(on.counters.all_done);
    // g0-r1's local link to g0-r0 (port 3) carries its hosts' traffic toward the full global
    // link without ARN; with ARN most of it leaves by g0-r1's own global link instead.
    const LinkRecord *via_r0_off = link(off, "g0-r1", "g0-r0");
    const LinkRecord *via_r0_on = link(on, "g0-r1", "g0-r0");
    const LinkRecord *own_off = link(off, "g0-r1", "g2-r1");
    const LinkRecord *own_on = link(on, "g0-r1", "g2-r1");
    ASSERT_TRUE(via_r0_off && via_r0_on && own_off && own_on);
    EXPECT_GT(via_r0_off->bytes_sent, 3000000u);
    EXPECT_LT(via_r0_on->bytes_sent * 2, via_r0_off->bytes_sent);
    EXPECT_GT(own_on->bytes_sent, own_off->bytes_sent + 1000000);
    // And g0-r1's flows end sooner.
    auto last_of_r1 = [](const Results &r) {
        Time t = 0;
        for (const FlowRecord &f : r.flows)
            if (f.src == 2 || f.src == 3) t = std::max(t, f.finish);
        return t;
    };
    EXPECT_LT(last_of_r1(on), last_of_r1(off));
    EXPECT_EQ(off.counters.arn.messages, 0u);
}

TEST(Arn, OneSeedOneRun) {
    const Results a = run_crossed(true, "flowlet_quality", 3);
    const Results b = run_crossed(true, "flowlet_quality", 3);
    ASSERT_EQ(a.flows.size(), b.flows.size());
    for (std::size_t i = 0; i < a.flows.size(); ++i) EXPECT_EQ(a.flows[i].finish, b.flows[i].finish);
    EXPECT_EQ(a.counters.events, b.counters.events);
    EXPECT_EQ(a.counters.arn.messages, b.counters.arn.messages);
    EXPECT_EQ(a.counters.arn.latency_sum, b.counters.arn.latency_sum);
    EXPECT_EQ(a.counters.arn.rechosen, b.counters.arn.rechosen);
}

TEST(Arn, RefusedWhereSwitchesHaveNoGroupNames) {
    const std::string ini = R"(
[fabric]
topology = hypercube:d=3
[arn]
enabled = on
[workload]
type = permutation
)";
    EXPECT_THROW(run_text(ini), routing::ParseError);
    EXPECT_THROW(read_scenario("[arn]\nutil_on = 60\nutil_off = 70\n[fabric]\ntopology = ftree:k=4,n=2\n"
                               "[workload]\ntype = permutation\n",
                               "t.ini"),
                 routing::ParseError);
}

}  // namespace
}  // namespace weft::sim::test
