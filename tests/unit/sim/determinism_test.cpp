// A seed gives the same run, event for event; another seed another run.
#include <gtest/gtest.h>

#include <string>

#include "run_text.hpp"

namespace weft::sim::test {
namespace {

std::string scenario(const std::string &balancing, unsigned seed) {
    return R"(
[fabric]
topology = ftree:k=4,n=2
host_rate = 25G
fabric_rate = 25G
[switch]
balancing = )" +
           balancing + R"(
idle_time = 5us
ecn_kmin = 30KB
ecn_kmax = 60KB
ecn_pmax = 0.5
buffer = 200KB
[transport]
type = dctcp
[workload]
type = poisson
cdf = sizes.cdf
load = 0.7
duration = 300us
[run]
seed = )" + std::to_string(seed) +
           "\n";
}

bool same(const Results &a, const Results &b) {
    if (a.flows.size() != b.flows.size() || a.counters.events != b.counters.events) return false;
    for (std::size_t i = 0; i < a.flows.size(); ++i) {
        const FlowRecord &x = a.flows[i], &y = b.flows[i];
        if (x.src != y.src || x.dst != y.dst || x.bytes != y.bytes || x.start != y.start ||
            x.finish != y.finish || x.retransmits != y.retransmits)
            return false;
    }
    return a.counters.ecn_marks == b.counters.ecn_marks &&
           a.counters.ars.next_hop_reassignments == b.counters.ars.next_hop_reassignments;
}

class Determinism : public ::testing::TestWithParam<const char *> {};

TEST_P(Determinism, SameSeedSameRunOtherSeedOtherRun) {
    // The scenario's folder holds its CDF.
    const std::string dir = write_temp("sizes.cdf", "0 0\n2000 40\n50000 80\n400000 100\n");
    const std::string name = dir + "/determinism.ini";
    const Results a = run_text(scenario(GetParam(), 7), name);
    const Results b = run_text(scenario(GetParam(), 7), name);
    const Results c = run_text(scenario(GetParam(), 8), name);
    ASSERT_GT(a.flows.size(), 20u);
    EXPECT_GT(a.counters.ecn_marks, 0u);
    EXPECT_TRUE(same(a, b));
    EXPECT_FALSE(same(a, c));
}

INSTANTIATE_TEST_SUITE_P(Balancing, Determinism,
                         ::testing::Values("ecmp", "flowlet_quality", "flowlet_random", "packet_quality",
                                           "spray"));

}  // namespace
}  // namespace weft::sim::test
