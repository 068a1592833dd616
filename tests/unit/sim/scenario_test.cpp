// The scenario reader: values with their units, overrides, and bad files refused with the file,
// line and column of the mistake.
#include <gtest/gtest.h>

#include <string>

#include "run_text.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::sim::test {
namespace {

constexpr const char *kGood = R"(# a comment
[fabric]
topology = ftree:k=4,n=2   # trailing comment
host_rate = 25G
fabric_rate = 400Gbps
link_delay = 1.5us
switch_latency = 250ns
alternates = 1

[switch]
balancing = spray
idle_time = 64us
max_flows = 1024
buffer = 2MiB
ecn_kmin = 100KB
ecn_kmax = 400KB
ecn_pmax = 0.2

[transport]
type = roce
mtu = 4096
dcqcn = on

[workload]
type = poisson
cdf = sizes.cdf
load = 0.45
duration = 2ms

[workload]
type = incast
senders = 3
size = 64KB
start = 1ms

[failure]
link = L1-0000:3
at = 500us
reroute_after = 1ms

[run]
seed = 42
stop = 5ms
)";

TEST(Scenario, ReadsEveryValueWithItsUnit) {
    const Scenario s = read_scenario(kGood, "dir/good.ini");
    EXPECT_EQ(s.dir, "dir");
    EXPECT_EQ(s.fabric.topology, "ftree:k=4,n=2");
    EXPECT_EQ(s.fabric.host_rate.bps(), 25e9);
    EXPECT_EQ(s.fabric.fabric_rate.bps(), 400e9);
    EXPECT_EQ(s.fabric.link_delay, 1500 * kNs);
    EXPECT_EQ(s.fabric.switch_latency, 250 * kNs);
    EXPECT_EQ(s.fabric.alternates, 1u);
    EXPECT_EQ(s.sw.balancing, Balancing::kPacketRandom);
    EXPECT_EQ(s.sw.idle_time_us, 64u);
    EXPECT_EQ(s.sw.max_flows, 1024u);
    EXPECT_EQ(s.sw.buffer_bytes, 2u * 1024 * 1024);
    EXPECT_EQ(s.sw.ecn_kmin, 100000u);
    EXPECT_EQ(s.sw.ecn_kmax, 400000u);
    EXPECT_DOUBLE_EQ(s.sw.ecn_pmax, 0.2);
    EXPECT_EQ(s.transport.kind, TransportKind::kRoce);
    EXPECT_EQ(s.transport.mtu, 4096u);
    EXPECT_TRUE(s.transport.dcqcn);
    ASSERT_EQ(s.workloads.size(), 2u);
    EXPECT_EQ(s.workloads[0].kind, WorkloadKind::kPoisson);
    EXPECT_DOUBLE_EQ(s.workloads[0].load, 0.45);
    EXPECT_EQ(s.workloads[0].duration, 2 * kMs);
    EXPECT_EQ(s.workloads[1].kind, WorkloadKind::kIncast);
    EXPECT_EQ(s.workloads[1].senders, 3u);
    EXPECT_EQ(s.workloads[1].size, 64000u);
    EXPECT_EQ(s.workloads[1].start, 1 * kMs);
    ASSERT_EQ(s.failures.size(), 1u);
    EXPECT_EQ(s.failures[0].node, "L1-0000");
    EXPECT_EQ(s.failures[0].port, 3u);
    EXPECT_EQ(s.failures[0].at, 500 * kUs);
    EXPECT_EQ(s.failures[0].reroute_after, 1 * kMs);
    EXPECT_EQ(s.run.seed, 42u);
    EXPECT_EQ(s.run.stop, 5 * kMs);
}

TEST(Scenario, OverridesSetEveryWorkload) {
    Scenario s = read_scenario(kGood, "good.ini");
    apply_override(s, "workload.start=3us", "--set");
    apply_override(s, "switch.balancing=flowlet_random", "--set");
    EXPECT_EQ(s.workloads[0].start, 3 * kUs);
    EXPECT_EQ(s.workloads[1].start, 3 * kUs);
    EXPECT_EQ(s.sw.balancing, Balancing::kFlowletRandom);
    try {
        apply_override(s, "switch.idle_time=3", "--set");
        FAIL() << "accepted";
    } catch (const routing::ParseError &e) {
        EXPECT_EQ(e.file(), "--set");
        EXPECT_EQ(e.column(), 19u);  // after the value's number: a unit was expected there
    }
    EXPECT_THROW(apply_override(s, "switch.nope=1", "--set"), routing::ParseError);
    EXPECT_THROW(apply_override(s, "nope.idle_time=1us", "--set"), routing::ParseError);
    EXPECT_THROW(apply_override(s, "balancing=ecmp", "--set"), routing::ParseError);
}

struct Bad {
    const char *text;
    std::size_t line, column;
    const char *expected;  // part of the message
};

class BadScenario : public ::testing::TestWithParam<Bad> {};

TEST_P(BadScenario, IsRefusedWhereTheMistakeIs) {
    const Bad &b = GetParam();
    try {
        read_scenario(b.text, "bad.ini");
        FAIL() << "accepted:\n" << b.text;
    } catch (const routing::ParseError &e) {
        EXPECT_EQ(e.file(), "bad.ini");
        EXPECT_EQ(e.line(), b.line) << e.what();
        EXPECT_EQ(e.column(), b.column) << e.what();
        EXPECT_NE(std::string(e.what()).find(b.expected), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(
    Files, BadScenario,
    ::testing::Values(
        Bad{"topology = x\n", 1, 1, "a [section] before the first setting"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[fabrik]\n", 3, 2, "a section"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\nhost_rate = 10Q\n", 3, 15, "a rate"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\nhost_rate = fast\n", 3, 13, "a rate"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\nlink_delay = 5\n", 3, 15, "a unit"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\ncolour = red\n", 3, 1, "a key of this section"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\ntopology = kary:k=2,n=2\n", 3, 1, "each key once"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[fabric]\n", 3, 2, "once"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\nhost_rate\n", 3, 1, "key = value"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\nhost_rate =\n", 3, 12, "a value"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[switch]\nbalancing = conga\n", 4, 13, "one of ecmp"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[switch]\nmax_flows = 1000\n", 4, 13, "a power of two"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[switch]\nidle_time = 1500ns\n", 4, 13,
            "whole number of microseconds"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[switch]\necn_pmax = 1.5\n", 4, 12, "a number 0..1"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[workload]\nload = 0.5x\n", 4, 8, "a number"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[failure]\nlink = L1-0000\n", 4, 8, "node:port"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[failure]\nlink = L1-0000:0\n", 4, 16,
            "a whole number 1..254"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\nhost_rate = 1\x01G\n", 3, 14, "printable"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[transport]\nmtu = 1500\nheader = 1500\n[workload]\n", 5, 10,
            "a whole number 0..200"},
        Bad{"[fabric]\nhost_rate = 10G\n[workload]\n", 1, 0, "one of topology or topology_file"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n", 0, 0, "at least one [workload]"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[workload]\ntype = poisson\n", 3, 0, "a cdf"},
        Bad{"[fabric]\ntopology = ftree:k=4,n=2\n[workload]\n[failure]\nat = 1ms\n", 4, 0, "a link"}));

// What only shows once the fabric is built is refused at the scenario line that asked for it.
void expect_refused(const std::string &text, std::size_t line, const std::string &expected) {
    const Scenario s = read_scenario(text, "built.ini");
    try {
        Simulator sim(s);
        FAIL() << "accepted:\n" << text;
    } catch (const routing::ParseError &e) {
        EXPECT_EQ(e.file(), "built.ini") << e.what();
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
}

TEST(Scenario, RefusedWhenTheFabricIsBuilt) {
    expect_refused("[fabric]\ntopology = ftree:k=3,n=2\n[workload]\n", 2, "a topology the generator builds");
    expect_refused("[fabric]\ntopology = ftree:k=4,n=2\n[workload]\n[failure]\nlink = L9-0000:1\n", 5,
                   "a node of the fabric");
    expect_refused("[fabric]\ntopology = ftree:k=4,n=2\n[workload]\n[failure]\nlink = L1-0000:9\n", 5,
                   "a cabled port");
    expect_refused("[fabric]\ntopology = ftree:k=4,n=2\n\n[workload]\nfirst_host = 8\n", 4, "first_host");
    expect_refused("[fabric]\ntopology = ftree:k=4,n=2\n[workload]\ntype = incast\nsenders = 8\n", 3,
                   "at most 7 senders");
    expect_refused("[fabric]\ntopology = ftree:k=4,n=2\n[workload]\ntype = poisson\ncdf = /nonexistent.cdf\n",
                   3, "a readable file");
}

TEST(Scenario, FlowListsAreCheckedAgainstTheFabric) {
    const std::string dir = write_temp("flows.txt", "0 1 10KB\n# a comment\n2 9 1MB 5us\n");
    try {
        Simulator sim(
            read_scenario("[fabric]\ntopology = ftree:k=4,n=2\n[workload]\ntype = file\nfile = flows.txt\n",
                          dir + "/flows.ini"));
        FAIL() << "accepted";
    } catch (const routing::ParseError &e) {
        EXPECT_EQ(e.line(), 3u) << e.what();
        EXPECT_EQ(e.column(), 3u) << e.what();
        EXPECT_NE(e.file().find("flows.txt"), std::string::npos);
    }
}

}  // namespace
}  // namespace weft::sim::test
