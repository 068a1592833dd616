// The output queue models: tail drop for lossy traffic, ECN marking, PFC for lossless traffic.
// Incasts on one switch put every sender's packets into the receiver's port.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "run_text.hpp"

namespace weft::sim::test {
namespace {

std::string incast(const std::string &switch_section, const std::string &transport, unsigned senders) {
    return R"(
[fabric]
topology = pgft:h=1;m=9;w=1;p=1
host_rate = 10G
fabric_rate = 10G
link_delay = 1us
[switch]
)" + switch_section +
           R"(
[transport]
)" + transport +
           R"(
mtu = 1500
[workload]
type = incast
receiver = 0
size = 300KB
senders = )" +
           std::to_string(senders) + "\n";
}

// The switch's port towards host 0 (the incast's receiver).
const LinkRecord &to_receiver(const Results &r) {
    const LinkRecord *l = link(r, "L1-0000", "h00001");
    EXPECT_NE(l, nullptr);
    return *l;
}

TEST(QueueModel, TailDropKeepsTheQueueWithinItsBufferAndFlowsRecover) {
    const Results r = run_text(incast("buffer = 30KB", "type = dctcp\nmin_rto = 200us", 8));
    const LinkRecord &l = to_receiver(r);
    EXPECT_GT(l.drops, 0u);
    EXPECT_EQ(l.drops, r.counters.drops_buffer);
    EXPECT_LE(l.max_queue_bytes, 30000u);
    EXPECT_GT(r.counters.retransmitted_packets, 0u);
    EXPECT_TRUE(r.counters.all_done);
    for (const FlowRecord &f : r.flows) EXPECT_TRUE(f.done());
    EXPECT_EQ(r.counters.pause_frames, 0u);
}

TEST(QueueModel, EcnMarksOnlyAboveTheThreshold) {
    // The queue never reaches a threshold above the buffer: nothing is marked.
    const Results none = run_text(incast("buffer = 1MB\necn_kmin = 2MB\necn_kmax = 2MB", "type = dctcp", 4));
    EXPECT_EQ(none.counters.ecn_marks, 0u);
    // A 30KB threshold marks, and DCTCP keeps the queue near it instead of filling the buffer.
    const Results marked =
        run_text(incast("buffer = 1MB\necn_kmin = 30KB\necn_kmax = 30KB", "type = dctcp", 4));
    EXPECT_GT(marked.counters.ecn_marks, 0u);
    EXPECT_EQ(to_receiver(marked).ecn_marks, marked.counters.ecn_marks);
    EXPECT_LT(to_receiver(marked).max_queue_bytes, to_receiver(none).max_queue_bytes);
    EXPECT_EQ(marked.counters.drops_buffer, 0u);
}

TEST(QueueModel, PfcPausesTheSendersInsteadOfDropping) {
    const Results r = run_text(incast("buffer = 200KB\npfc_xoff = 20KB\npfc_xon = 10KB", "type = roce", 8));
    EXPECT_EQ(r.counters.drops_buffer, 0u);
    EXPECT_GT(r.counters.pause_frames, 0u);
    EXPECT_TRUE(r.counters.all_done);
    // The pauses reached the senders' NICs, and only theirs: the receiver sends nothing.
    std::uint64_t received = 0;
    for (const LinkRecord &l : r.links) {
        if (l.from_host && l.from != "h00001") {
            EXPECT_GT(l.pauses_received, 0u) << l.from;
            EXPECT_GT(l.paused, 0u) << l.from;
        }
        received += l.pauses_received;
    }
    EXPECT_EQ(received, r.counters.pause_frames);
    // Every sender's bytes are held to about XOFF plus what was in flight: eight of them fit.
    EXPECT_LE(to_receiver(r).max_queue_bytes, 200000u);
    // The receiver's link never idles while data waits: 8 x 300KB (plus headers) at 10G, well
    // within 10% of that.
    Time last = 0;
    for (const FlowRecord &f : r.flows) last = std::max(last, f.finish);
    const double bytes = 8 * 300000.0 * 1500 / 1436;
    EXPECT_LT(static_cast<double>(last), bytes * 800 * 1.1);
}

// DCQCN: switches mark ECN between kmin and kmax, receivers answer with CNPs, senders cut their
// rates; the incast then leans on PFC far less.
TEST(QueueModel, DcqcnCutsRatesSoPfcPausesLess) {
    const std::string sw =
        "buffer = 1MB\npfc_xoff = 100KB\npfc_xon = 80KB\necn_kmin = 20KB\necn_kmax = 200KB\necn_pmax = 0.2";
    const Results plain = run_text(incast(sw, "type = roce", 8));
    const Results dcqcn = run_text(incast(sw, "type = roce\ndcqcn = on", 8));
    EXPECT_EQ(plain.counters.cnps, 0u);
    EXPECT_GT(dcqcn.counters.cnps, 0u);
    EXPECT_GT(plain.counters.pause_frames, 0u);
    EXPECT_LT(dcqcn.counters.pause_frames, plain.counters.pause_frames / 2);
    EXPECT_TRUE(dcqcn.counters.all_done);
    EXPECT_EQ(dcqcn.counters.drops_buffer, 0u);
}

TEST(QueueModel, LossyTrafficIsNeverPaused) {
    const Results r = run_text(incast("buffer = 30KB\npfc_xoff = 5KB\npfc_xon = 2KB", "type = dctcp", 8));
    EXPECT_EQ(r.counters.pause_frames, 0u);
    EXPECT_GT(r.counters.drops_buffer, 0u);
}

}  // namespace
}  // namespace weft::sim::test
