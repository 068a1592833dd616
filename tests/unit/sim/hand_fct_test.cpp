// Tiny fabrics whose flow completion times follow from the link rates and delays by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "run_text.hpp"

namespace weft::sim::test {
namespace {

constexpr const char *kOneSwitch = R"(
[fabric]
topology = pgft:h=1;m=3;w=1;p=1
host_rate = 10G
fabric_rate = 10G
link_delay = 1us
switch_latency = 500ns
[switch]
buffer = 10MB
pfc_xoff = 5MB
pfc_xon = 4MB
[transport]
type = roce
mtu = 1500
header = 64
)";

// One switch, hosts at 10G (0.8 ns a byte): 10000 bytes in packets of 1500 (1436 of payload)
// are 6 full packets (1200 ns each) and one of 1384 + 64 = 1448 bytes: 10448 bytes, 8358.4 ns.
// The switch's port to the receiver starts when the first packet is in (1200 ns + 1 us + 0.5 us)
// and never idles (the short last packet catches up and waits), so the last byte is in at
// 2700 + 8358.4 + 1000 = 12058.4 ns.
TEST(HandFct, OneFlowThroughOneSwitch) {
    const Results r = run_text(std::string(kOneSwitch) + R"(
[workload]
type = incast
senders = 1
receiver = 1
size = 10000
)");
    ASSERT_EQ(r.flows.size(), 1u);
    const FlowRecord &f = r.flows[0];
    ASSERT_TRUE(f.done());
    EXPECT_EQ(f.src, 0u);
    EXPECT_EQ(f.dst, 1u);
    EXPECT_EQ(f.start, 0u);
    EXPECT_NEAR(static_cast<double>(f.fct()), 12058400.0, 2.0);
    // The ideal FCT is this same pipeline: the flow was alone.
    EXPECT_NEAR(static_cast<double>(f.ideal), 12058400.0, 2.0);
    EXPECT_EQ(f.retransmits, 0u);
    EXPECT_TRUE(r.counters.all_done);
    EXPECT_EQ(r.counters.data_packets, 7u);
}

// Two hosts send 10000 bytes each to a third at once. Their packets reach the switch at twice the
// rate its port to the receiver drains them, so that port is busy from the first packet's arrival
// (2700 ns) until all 2 x 8358.4 ns of bytes are out; the later flow's last packet arrives a link
// delay after that: 2700 + 16716.8 + 1000 = 20416.8 ns.
TEST(HandFct, TwoFlowsShareTheReceiversLink) {
    const Results r = run_text(std::string(kOneSwitch) + R"(
[workload]
type = incast
senders = 2
receiver = 2
size = 10000
)");
    ASSERT_EQ(r.flows.size(), 2u);
    Time last = 0;
    for (const FlowRecord &f : r.flows) {
        ASSERT_TRUE(f.done());
        last = std::max(last, f.fct());
    }
    EXPECT_NEAR(static_cast<double>(last), 20416800.0, 4.0);
    // No PFC at these thresholds, nothing lost.
    EXPECT_EQ(r.counters.pause_frames, 0u);
    EXPECT_EQ(r.counters.drops_buffer, 0u);
}

// Across a two-level fat tree at 10G hosts and 40G fabric (0.2 ns a byte): the receiver's 10G
// link is the one that never idles once the first packet is through the three links before it
// (1200 + 300 + 300 ns), then carries all 10448 bytes (8358.4 ns); four link delays (4 us) and
// three switches (1.5 us): 15658.4 ns.
TEST(HandFct, OneFlowAcrossTheFabric) {
    const Results r = run_text(R"(
[fabric]
topology = ftree:k=4,n=2
host_rate = 10G
fabric_rate = 40G
link_delay = 1us
switch_latency = 500ns
[transport]
type = roce
mtu = 1500
header = 64
[workload]
type = incast
senders = 1
receiver = 2
size = 10000
)");
    ASSERT_EQ(r.flows.size(), 1u);
    const FlowRecord &f = r.flows[0];
    ASSERT_TRUE(f.done());
    EXPECT_EQ(f.src, 0u);
    EXPECT_EQ(f.dst, 2u);
    EXPECT_NEAR(static_cast<double>(f.fct()), 15658400.0, 2.0);
    EXPECT_NEAR(static_cast<double>(f.ideal), 15658400.0, 2.0);
}

}  // namespace
}  // namespace weft::sim::test
