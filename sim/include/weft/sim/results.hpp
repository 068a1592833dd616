// What a run produces: one record per flow, per link direction, per workload and per failure, the
// run's counters; and the summary computed from them (FCT statistics, slowdown, throughput, link
// utilization, ARS decisions), written as text, JSON and CSV.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "weft/ars/counters.hpp"
#include "weft/sim/scenario.hpp"
#include "weft/sim/time.hpp"

namespace weft::sim {

struct FlowRecord {
    std::uint32_t id = 0;
    std::uint32_t src = 0, dst = 0;  // hosts
    std::uint32_t workload = 0;      // index of its [workload] section
    std::uint64_t bytes = 0;
    Time start = 0;
    Time finish = kNever;  // the receiver held every byte; kNever: not finished by the end
    Time ideal = 0;        // alone in the fabric: propagation, store-and-forward, bytes at the bottleneck
    std::uint32_t retransmits = 0;
    bool failure_hit = false;  // lost a packet to a failed link

    bool done() const { return finish != kNever; }
    Time fct() const { return finish - start; }
};

struct LinkRecord {
    std::string from, to;  // node descriptions
    unsigned from_port = 0;
    bool fabric = false;     // switch to switch
    bool from_host = false;  // a host's NIC
    double rate_bps = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t data_packets = 0;
    std::uint64_t drops = 0;
    std::uint64_t ecn_marks = 0;
    std::uint64_t pauses_received = 0;  // XOFF frames the far end sent this port
    std::uint64_t max_queue_bytes = 0;
    Time paused = 0;  // total time paused
};

struct WorkloadRecord {
    WorkloadKind kind = WorkloadKind::kPermutation;
    std::uint64_t flows = 0, done = 0;
    std::uint64_t bytes = 0;
    Time first_start = kNever, last_finish = 0;
    std::uint32_t senders = 0;  // distinct sending hosts
};

struct FailureRecord {
    Time at = 0;
    std::string link;
    // Dropped since, on a failed link (queued, in flight, or sent to it before its switch saw it
    // go) or for want of a route (a group with no live member, until the SM's new routing).
    std::uint64_t lost_packets = 0;
    std::uint64_t lost_at_link = 0, lost_unroutable = 0;
    Time last_loss = 0;       // the last such drop (0: none)
    Time last_link_loss = 0;  // the last on the link: until then its own switch still used it
};

// ARN: what the detectors sent, what travelled and what the best-path tables took in. A message's
// latency runs from the sample that detected it to the last switch of its group that applied it.
struct ArnCounters {
    std::uint64_t messages = 0;    // originated by the detectors (repeats included)
    std::uint64_t repeats = 0;     // of which repeats of unchanged news
    std::uint64_t frames = 0;      // copies put on a link (an origin's and every forwarding switch's)
    std::uint64_t delivered = 0;   // applied by a receiving switch's best-path table
    std::uint64_t stale = 0;       // of which ignored as stale by the table
    std::uint64_t refused = 0;     // frames the codec refused, or with no flood-table entry
    std::uint64_t lost = 0;        // frames lost on a failed link
    std::uint64_t complete = 0;    // messages that reached every other switch of their group
    std::uint64_t incomplete = 0;  // messages that did not (lost, or still travelling at the end)
    Time latency_sum = 0;          // over complete messages, detection to the last switch
    Time latency_max = 0;
    std::uint64_t rechosen = 0;  // best-path changes, over every switch and destination group
    std::uint64_t expired = 0;   // news that ran out of hold time
    std::uint64_t deferred = 0;  // messages the detectors held back (minimum gap or budget)
    std::uint64_t watched_ports = 0;
    std::uint64_t remote_slots = 0;
};

struct RunCounters {
    Time end = 0;  // simulated time when the run stopped
    bool all_done = false;
    std::uint64_t events = 0;
    std::uint64_t data_packets = 0;  // sent by hosts, first transmissions
    std::uint64_t retransmitted_packets = 0;
    std::uint64_t ctrl_packets = 0;
    std::uint64_t drops_buffer = 0;
    std::uint64_t drops_link = 0;        // queued or in flight on a link that failed, or sent to it
    std::uint64_t drops_unroutable = 0;  // no eligible member (ARS drop)
    std::uint64_t drops_receiver = 0;    // beyond the receiver's reorder window or go-back-N
    std::uint64_t ecn_marks = 0;
    std::uint64_t pause_frames = 0;
    std::uint64_t cnps = 0;
    std::uint64_t reroutes = 0;
    double wall_seconds = 0;
    ars::CounterValues ars;  // summed over every switch and group
    // Decisions for groups of one member, given without the engine (its answer is fixed), and
    // the drops among them (the member's link down).
    std::uint64_t single_member_decisions = 0;
    std::uint64_t single_member_drops = 0;
    ArnCounters arn;
};

struct Results {
    std::vector<FlowRecord> flows;
    std::vector<LinkRecord> links;
    std::vector<WorkloadRecord> workloads;
    std::vector<FailureRecord> failures;
    RunCounters counters;
    std::uint32_t hosts = 0, switches = 0;
    double host_rate_bps = 0;
};

// FCT statistics of a set of flows, in microseconds.
struct FctStats {
    std::uint64_t count = 0;
    double mean_us = 0, p50_us = 0, p99_us = 0, max_us = 0;
    double mean_slowdown = 0, p99_slowdown = 0;
};

struct Summary {
    FctStats all;
    // By size: <= 100KB, 100KB..1MB, 1MB..10MB, > 10MB.
    static constexpr int kBuckets = 4;
    FctStats bucket[kBuckets];
    static const char *bucket_name(int b);
    FctStats failure_hit;  // flows that lost a packet to a failed link
    std::uint64_t flows = 0, unfinished = 0;
    double goodput_gbps = 0;                           // payload delivered / (last finish - first start)
    double mean_flow_rate_fraction = 0;                // mean over finished flows of bytes / FCT / host rate
    double fabric_util_mean = 0, fabric_util_max = 0;  // over switch-to-switch links, per direction
    double host_util_mean = 0;
};

Summary summarize(const Results &r);
void write_summary_text(std::ostream &out, const Scenario &s, const Results &r, const Summary &sum);
void write_summary_json(std::ostream &out, const Scenario &s, const Results &r, const Summary &sum);
void write_flows_csv(std::ostream &out, const Results &r);
// One line per link direction: its ends, bytes and packets sent, utilization over the run, drops,
// ECN marks, pauses, the deepest queue.
void write_links_csv(std::ostream &out, const Results &r);

}  // namespace weft::sim
