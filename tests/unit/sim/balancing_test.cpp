// What the switches' ARS engine does to the traffic: ECMP and flowlets keep a flow on one path,
// spraying spreads it, quality steers new flowlets away from a slow link, failed links are left.
#include <gtest/gtest.h>

#include <string>

#include "run_text.hpp"

namespace weft::sim::test {
namespace {

// Leaf L1-0000 of ftree:k=8,n=2 has hosts on ports 1-4 and uplinks on ports 5-8.
unsigned uplinks_used(const Results &r, const std::string &leaf) {
    unsigned used = 0;
    for (const LinkRecord &l : r.links)
        if (l.from == leaf && l.fabric && l.data_packets > 0) ++used;
    return used;
}

std::string one_flow(const std::string &balancing) {
    return R"(
[fabric]
topology = ftree:k=8,n=2
[switch]
balancing = )" +
           balancing + R"(
idle_time = 1000us
[transport]
type = roce
ooo_receive = on
[workload]
type = incast
senders = 1
receiver = 4
size = 2MB
)";
}

TEST(Balancing, EcmpAndFlowletsKeepAFlowOnOnePathSprayingSpreadsIt) {
    EXPECT_EQ(uplinks_used(run_text(one_flow("ecmp")), "L1-0000"), 1u);
    EXPECT_EQ(uplinks_used(run_text(one_flow("flowlet_quality")), "L1-0000"), 1u);
    EXPECT_EQ(uplinks_used(run_text(one_flow("flowlet_random")), "L1-0000"), 1u);
    const Results sprayed = run_text(one_flow("spray"));
    EXPECT_EQ(uplinks_used(sprayed, "L1-0000"), 4u);
    EXPECT_EQ(sprayed.counters.ars.decisions[static_cast<int>(ars::Mode::kPerPacketRandom)] > 0, true);
    EXPECT_TRUE(sprayed.counters.all_done);
}

std::string slow_uplink(const std::string &balancing) {
    return R"(
[fabric]
topology = ftree:k=4,n=2
host_rate = 10G
fabric_rate = 10G
[switch]
balancing = )" +
           balancing + R"(
idle_time = 20us
buffer = 400KB
ecn_kmin = 60KB
ecn_kmax = 60KB
[transport]
type = dctcp
[workload]
type = poisson
cdf = sizes.cdf
load = 0.3
duration = 20ms
first_host = 0
hosts = 2
to_first_host = 2
to_hosts = 6
[failure]
link = L1-0000:3
at = 1us
action = rate
rate = 1G
[run]
seed = 3
)";
}

double share_of_slow_uplink(const Results &r) {
    const LinkRecord *slow = link(r, "L1-0000", "L2-0000");
    const LinkRecord *fast = link(r, "L1-0000", "L2-0001");
    EXPECT_NE(slow, nullptr);
    EXPECT_NE(fast, nullptr);
    return static_cast<double>(slow->data_packets) /
           static_cast<double>(slow->data_packets + fast->data_packets);
}

TEST(Balancing, QualitySteersNewFlowletsAwayFromASlowLink) {
    const std::string dir = write_temp("sizes.cdf", "0 0\n10000 50\n200000 100\n");
    const Results quality = run_text(slow_uplink("flowlet_quality"), dir + "/slow.ini");
    const Results random = run_text(slow_uplink("flowlet_random"), dir + "/slow.ini");
    const Results ecmp = run_text(slow_uplink("ecmp"), dir + "/slow.ini");
    // Flowlets that pick blindly put more on the uplink running at a tenth of the rate than
    // flowlets that pick by quality, and their flows take longer; hashing whole flows onto it
    // takes longest.
    EXPECT_LT(share_of_slow_uplink(quality), share_of_slow_uplink(random));
    const double q = summarize(quality).all.mean_us, r = summarize(random).all.mean_us;
    EXPECT_LT(q, 0.75 * r);
    EXPECT_LT(r, summarize(ecmp).all.mean_us);
    EXPECT_GT(quality.counters.ars.next_hop_reassignments, 0u);
}

TEST(Balancing, ALinkFailedFromTheStartIsNotInTheFabric) {
    const Results r = run_text(R"(
[fabric]
topology = pgft:h=2;m=4,2;w=1,2;p=1,2
[switch]
balancing = flowlet_quality
[workload]
type = permutation
size = 100KB
[failure]
link = L1-0001:7
)");
    EXPECT_TRUE(r.counters.all_done);
    unsigned leaf1_up = 0;
    for (const LinkRecord &l : r.links) leaf1_up += l.from == "L1-0001" && l.fabric;
    EXPECT_EQ(leaf1_up, 3u);
    EXPECT_EQ(r.counters.drops_link + r.counters.drops_unroutable, 0u);
}

std::string midrun(const std::string &balancing, const std::string &detect = "5us", unsigned port = 3) {
    return R"(
[fabric]
topology = ftree:k=4,n=2
[switch]
balancing = )" +
           balancing + R"(
idle_time = 10us
link_detect = )" +
           detect + R"(
[transport]
type = dctcp
min_rto = 200us
[workload]
type = permutation
size = 2MB
[failure]
link = L1-0000:)" +
           std::to_string(port) + R"(
at = 50us
reroute_after = 100us
)";
}

TEST(Balancing, ALinkFailingMidRunLosesPacketsUntilTheSwitchesMoveTheFlows) {
    for (const char *b : {"ecmp", "flowlet_quality"}) {
        const Results r = run_text(midrun(b));
        SCOPED_TRACE(b);
        ASSERT_EQ(r.failures.size(), 1u);
        const FailureRecord &f = r.failures[0];
        EXPECT_EQ(f.link, "L1-0000:3");
        EXPECT_GT(f.lost_packets, 0u);
        // Nothing is lost once the SM's routing is in (the leaf itself moved its flows when it saw
        // the link go, the spine behind it when the new groups came).
        EXPECT_LE(f.last_loss, f.at + 100 * kUs);
        EXPECT_EQ(r.counters.reroutes, 1u);
        EXPECT_TRUE(r.counters.all_done);
        unsigned hit = 0;
        for (const FlowRecord &fl : r.flows) hit += fl.failure_hit;
        EXPECT_GT(hit, 0u);
    }
    // Seen at once, the failure of an uplink that leaf 0's flows use (the same run stopped at
    // 40 us, before the failure, shows which) finds flowlets running on it: they move at their
    // next packet instead of waiting for the idle time, counted apart.
    const Results before = run_text(midrun("flowlet_quality", "0") + "\n[run]\nstop = 40us\n");
    const LinkRecord *up3 = link(before, "L1-0000", "L2-0000");
    ASSERT_NE(up3, nullptr);
    const unsigned used = up3->data_packets > 0 ? 3 : 4;
    EXPECT_GT(run_text(midrun("flowlet_quality", "0", used)).counters.ars.link_down_reassignments, 0u);
}

}  // namespace
}  // namespace weft::sim::test
