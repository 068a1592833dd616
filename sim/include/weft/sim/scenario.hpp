// A simulation scenario: the fabric, the switches' settings, the hosts' transport, the workloads,
// the failures and the run. Read from a small INI-style file (sim/scenarios/README.md lists every
// key) by read_scenario(), which refuses a bad file with a located routing::ParseError
// (file:line:column: expected ..., found '...').
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "weft/ars/types.hpp"
#include "weft/sim/time.hpp"

namespace weft::sim {

// How switches choose among a next-hop group's members.
enum class Balancing : std::uint8_t {
    kEcmp,            // static hash, no ARS object (what a switch does without ARS)
    kFlowletQuality,  // ARS FLOWLET_QUALITY
    kFlowletRandom,   // ARS FLOWLET_RANDOM (LetFlow)
    kPacketQuality,   // ARS PER_PACKET_QUALITY
    kPacketRandom,    // ARS PER_PACKET_RANDOM (packet spraying)
    kFixed,           // ARS FIXED
};
std::string_view to_string(Balancing b);

struct FabricSettings {
    std::size_t line = 0;            // the section's header, for located errors found later
    std::string topology;            // a routing generator spec (weft-route --gen), or
    std::string topology_file;       // a topology file (any format routing reads)
    std::size_t topology_line = 0;   // where the topology was given
    std::string routing = "minhop";  // routing engine chain (-R)
    Rate host_rate{100e9};           // host <-> switch links
    Rate fabric_rate{100e9};         // switch <-> switch links
    Time link_delay = 1 * kUs;       // propagation delay of every link
    Time switch_latency = 0;         // from a switch's ingress to its output queue
    unsigned alternates = 0;         // ARS alternates: extra hops allowed (0 = primaries only)
    unsigned max_alternates = 0;     // per group, 0 = no limit
};

struct SwitchSettings {
    Balancing balancing = Balancing::kEcmp;
    // ARS object and profile (SAI names in sim/scenarios/README.md).
    std::uint32_t idle_time_us = 256;
    std::uint32_t max_flows = 512;
    std::uint32_t sampling_interval_us = 16;
    std::uint8_t ewma_exponent = 2;
    std::uint8_t past_load_weight = 16;
    std::uint8_t future_load_weight = 16;
    bool current_load = false;
    std::uint32_t primary_threshold = 16;
    std::uint32_t alternate_cost = 0;
    std::uint32_t alternate_bias = 0;
    // Output queues.
    std::uint64_t buffer_bytes = 1000000;  // per output queue: lossy traffic is tail-dropped beyond it
    std::uint64_t ecn_kmin = 0;            // 0: no ECN marking
    std::uint64_t ecn_kmax = 0;            // marking probability rises from kmin to kmax (DCQCN)
    double ecn_pmax = 1.0;
    // PFC (lossless transports): per ingress port, bytes held in the switch.
    std::uint64_t pfc_xoff = 0;  // 0: derived from the buffer (see simulator.cpp)
    std::uint64_t pfc_xon = 0;
    Time link_detect = 0;  // a link's loss reaches the ARS board after this long
};

// ARN (arn/): congestion and failure news spread through each dragonfly group. Each switch's
// detector watches its global ports from the ARS sampler's loads, every sampling interval; its
// messages travel as high-priority frames over the group's local links by prefix multicast, and
// each receiver's best-path table publishes the remote quality ARS counts its members with.
enum class ArnAction : std::uint8_t { kRemove, kPenalize };

struct ArnSettings {
    std::size_t line = 0;
    bool enabled = false;
    // Severity 1 starts at util_on percent of the line rate (then evenly up to 100 %) or at
    // queue_on bytes queued (then doubling); clear again below both util_off and queue_off.
    std::uint32_t util_on = 85;
    std::uint32_t util_off = 70;
    std::uint64_t queue_on = 64 << 10;
    std::uint64_t queue_off = 16 << 10;
    std::uint32_t repeat_interval_us = 1000;
    std::uint32_t min_gap_us = 100;
    std::uint32_t budget_burst = 64;
    std::uint32_t budget_refill_us = 50;
    std::uint32_t hold_intervals = 3;
    ArnAction action = ArnAction::kRemove;
    std::uint32_t penalty = 1;
};

enum class TransportKind : std::uint8_t { kDctcp, kRoce };
std::string_view to_string(TransportKind t);

struct TransportSettings {
    TransportKind kind = TransportKind::kDctcp;
    std::uint32_t mtu = 1500;   // wire bytes of a full data packet
    std::uint32_t header = 64;  // of those, headers (payload = mtu - header)
    std::uint32_t ack_size = 64;
    std::uint32_t ack_every = 1;  // the receiver acknowledges every n-th packet (and the last)
    Time min_rto = 1 * kMs;
    // DCTCP
    double init_cwnd = 10;  // packets
    double dctcp_g = 1.0 / 16;
    std::uint32_t dupack_threshold = 3;
    // RoCE
    // The receiver places packets out of order (as NICs built for adaptive routing and packet
    // spraying do) instead of asking for everything after a gap again.
    bool ooo_receive = false;
    bool dcqcn = false;
    Time cnp_interval = 50 * kUs;
    double dcqcn_g = 1.0 / 256;
    Time dcqcn_alpha_period = 55 * kUs;
    Time dcqcn_increase_period = 55 * kUs;
    std::uint32_t dcqcn_fast_recovery = 5;
    double dcqcn_ai_fraction = 0.005;   // additive increase, of the line rate
    double dcqcn_min_fraction = 0.001;  // lowest rate, of the line rate
};

enum class WorkloadKind : std::uint8_t {
    kPermutation,
    kAllToAll,
    kIncast,
    kRingAllreduce,
    kTreeAllreduce,
    kPoisson,
    kFile,  // flows listed in a file: src dst bytes [start]
};
std::string_view to_string(WorkloadKind w);

struct WorkloadSettings {
    std::size_t line = 0;
    WorkloadKind kind = WorkloadKind::kPermutation;
    std::uint64_t size = 1000000;  // bytes per flow (all-reduce: the buffer reduced)
    Time start = 0;
    // Hosts taking part: [first, first + count), count 0 = to the last host.
    std::uint32_t first_host = 0;
    std::uint32_t host_count = 0;
    // Poisson: destinations in [to_first_host, to_first_host + to_hosts) (to_hosts 0: the same
    // hosts as the sources).
    std::uint32_t to_first_host = 0;
    std::uint32_t to_hosts = 0;
    std::uint32_t shift = 0;     // permutation: host i sends to i + shift (0: a random cycle)
    std::uint32_t senders = 8;   // incast
    std::uint32_t receiver = 0;  // incast, relative to first_host
    // Poisson arrivals: flow sizes from a CDF file, each host offering `load` of its link.
    std::string cdf;   // resolved against the scenario file's folder
    std::string file;  // the `file` workload's flow list, resolved the same way
    double load = 0.5;
    Time duration = 1 * kMs;  // arrivals stop after start + duration
};

enum class FailureAction : std::uint8_t { kDown, kUp, kRate };

struct FailureSettings {
    std::size_t line = 0;
    Time at = 0;                  // 0 = before routing: the link is absent from the start
    std::string node;             // a node's description (e.g. L1-0001), or its index #n
    unsigned port = 0;            // the node's port
    std::size_t link_column = 0;  // where `link` was given, for errors found later
    std::size_t link_line = 0;
    FailureAction action = FailureAction::kDown;
    Rate rate;                    // kRate: the link's new rate
    Time reroute_after = kNever;  // the SM routes the changed fabric again after this long
};

struct RunSettings {
    std::uint64_t seed = 1;
    Time stop = 100 * kMs;  // simulated time limit
};

struct Scenario {
    std::string file;  // as given, for messages
    std::string dir;   // the file's folder, for relative paths
    FabricSettings fabric;
    SwitchSettings sw;
    ArnSettings arn;
    TransportSettings transport;
    std::vector<WorkloadSettings> workloads;
    std::vector<FailureSettings> failures;
    RunSettings run;
};

// Reads a scenario; `name` is used in errors and its folder resolves relative paths.
Scenario read_scenario_file(const std::string &path);
Scenario read_scenario(std::string_view text, const std::string &name);

// A command-line override "section.key=value" (workload.* and failure.* apply to every such
// section). Errors are located in `origin` (e.g. "--set"), column 1 being the setting's start.
void apply_override(Scenario &s, std::string_view setting, const std::string &origin);

}  // namespace weft::sim
