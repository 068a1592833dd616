// The workloads' flows and the flow-size distributions.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "run_text.hpp"
#include "size_cdf.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim::test {
namespace {

TEST(SizeCdf, InterpolatesBetweenPointsAndKnowsItsMean) {
    const SizeCdf cdf = SizeCdf::parse("# sizes\n0 0\n1000 50\n3000 100\n", "t.cdf");
    EXPECT_EQ(cdf.sample(0.0), 1u);  // at least a byte
    EXPECT_EQ(cdf.sample(0.25), 500u);
    EXPECT_EQ(cdf.sample(0.5), 1000u);
    EXPECT_EQ(cdf.sample(0.75), 2000u);
    EXPECT_DOUBLE_EQ(cdf.mean(), 0.5 * 500 + 0.5 * 2000);
    EXPECT_THROW(SizeCdf::parse("0 0\n100 50\n50 100\n", "t.cdf"), routing::ParseError);
    EXPECT_THROW(SizeCdf::parse("0 0\n100 60\n200 50\n", "t.cdf"), routing::ParseError);
    EXPECT_THROW(SizeCdf::parse("0 0\n100 90\n", "t.cdf"), routing::ParseError);
    EXPECT_THROW(SizeCdf::parse("0 0 0\n100 100\n", "t.cdf"), routing::ParseError);
}

Results small(const std::string &workload) {
    return run_text("[fabric]\ntopology = ftree:k=4,n=2\n[transport]\ntype = roce\n[workload]\n" + workload);
}

TEST(Workload, PermutationIsOneCycleThroughEveryHost) {
    const Results r = small("type = permutation\nsize = 10KB\n");
    ASSERT_EQ(r.flows.size(), 8u);
    std::set<std::uint32_t> srcs, dsts;
    for (const FlowRecord &f : r.flows) {
        EXPECT_NE(f.src, f.dst);
        srcs.insert(f.src);
        dsts.insert(f.dst);
    }
    EXPECT_EQ(srcs.size(), 8u);
    EXPECT_EQ(dsts.size(), 8u);
    // Following the destinations from host 0 visits every host before coming back.
    std::map<std::uint32_t, std::uint32_t> next;
    for (const FlowRecord &f : r.flows) next[f.src] = f.dst;
    std::uint32_t at = 0, steps = 0;
    do {
        at = next[at];
        ++steps;
    } while (at != 0 && steps < 10);
    EXPECT_EQ(steps, 8u);
}

TEST(Workload, AllToAllAndIncast) {
    const Results a = small("type = all_to_all\nsize = 10KB\nfirst_host = 2\nhosts = 4\n");
    ASSERT_EQ(a.flows.size(), 12u);
    for (const FlowRecord &f : a.flows) {
        EXPECT_GE(f.src, 2u);
        EXPECT_LT(f.dst, 6u);
        EXPECT_TRUE(f.done());
    }
    const Results i = small("type = incast\nsenders = 5\nreceiver = 3\nsize = 10KB\n");
    ASSERT_EQ(i.flows.size(), 5u);
    for (const FlowRecord &f : i.flows) EXPECT_EQ(f.dst, 3u);
}

// A ring all-reduce over n hosts is 2(n-1) steps of size/n per host, each step starting when the
// one it needs is in: the steps' start times never come before the end of the step before.
TEST(Workload, RingAllreduceStepsWaitForTheirPredecessors) {
    const Results r = small("type = ring_allreduce\nsize = 80KB\n");
    ASSERT_EQ(r.flows.size(), 2u * 7 * 8);
    Time prev_end = 0;
    for (unsigned step = 0; step < 14; ++step) {
        Time first_start = kNever, last_end = 0;
        for (unsigned i = 0; i < 8; ++i) {
            const FlowRecord &f = r.flows[step * 8 + i];
            ASSERT_TRUE(f.done());
            EXPECT_EQ(f.bytes, 10000u);
            EXPECT_EQ(f.dst, (f.src + 1) % 8);
            first_start = std::min(first_start, f.start);
            last_end = std::max(last_end, f.finish);
            if (step > 0) {
                // Its own previous step and its left neighbour's are done.
                EXPECT_GE(f.start, r.flows[(step - 1) * 8 + i].finish);
                EXPECT_GE(f.start, r.flows[(step - 1) * 8 + (i + 7) % 8].finish);
            }
        }
        if (step == 0) {
            EXPECT_EQ(first_start, 0u);
        }
        EXPECT_GE(last_end, prev_end);
        prev_end = last_end;
    }
    ASSERT_EQ(r.workloads.size(), 1u);
    EXPECT_EQ(r.workloads[0].done, 112u);
}

TEST(Workload, TreeAllreduceReducesToTheRootThenBroadcasts) {
    const Results r = small("type = tree_allreduce\nsize = 50KB\nhosts = 7\n");
    ASSERT_EQ(r.flows.size(), 12u);
    Time reduce_done = 0, broadcast_start = kNever;
    for (const FlowRecord &f : r.flows) {
        ASSERT_TRUE(f.done());
        if (f.id < 6) {
            EXPECT_EQ(f.dst, (f.src - 1) / 2);  // up to the parent
            reduce_done = std::max(reduce_done, f.finish);
        } else {
            EXPECT_EQ(f.src, (f.dst - 1) / 2);  // down to a child
            broadcast_start = std::min(broadcast_start, f.start);
        }
    }
    EXPECT_GE(broadcast_start, reduce_done);
}

TEST(Workload, PoissonOffersItsLoad) {
    const std::string dir = write_temp("fixed.cdf", "100000 100\n");  // every flow 100 KB
    const Results r = run_text(R"(
[fabric]
topology = ftree:k=4,n=2
host_rate = 10G
[workload]
type = poisson
cdf = fixed.cdf
load = 0.4
duration = 20ms
)",
                               dir + "/poisson.ini");
    // 8 hosts x 10G x 0.4 x 20 ms = 80 MB offered: 800 flows of 100 KB, give or take the draw.
    EXPECT_NEAR(static_cast<double>(r.flows.size()), 800.0, 80.0);
    for (const FlowRecord &fl : r.flows) {
        EXPECT_EQ(fl.bytes, 100000u);
        EXPECT_LT(fl.start, 20 * kMs);
        EXPECT_NE(fl.src, fl.dst);
    }
}

}  // namespace
}  // namespace weft::sim::test
