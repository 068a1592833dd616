// The summary of a run and its three renderings: text for people, JSON for scripts (the sweep
// and plot scripts read it), CSV with one line per flow.
#include "weft/sim/results.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace weft::sim {
namespace {

struct Sample {
    double fct_us;
    double slowdown;
};

// Nearest rank: the smallest value with at least p of the samples at or below it.
double percentile(const std::vector<double> &sorted, double p) {
    if (sorted.empty()) return 0;
    std::size_t rank = static_cast<std::size_t>(p * static_cast<double>(sorted.size()) + 0.999999999);
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

FctStats stats_of(const std::vector<Sample> &samples) {
    FctStats s;
    s.count = samples.size();
    if (samples.empty()) return s;
    std::vector<double> fct, slow;
    fct.reserve(samples.size());
    slow.reserve(samples.size());
    double sum = 0, sum_slow = 0;
    for (const Sample &x : samples) {
        fct.push_back(x.fct_us);
        slow.push_back(x.slowdown);
        sum += x.fct_us;
        sum_slow += x.slowdown;
    }
    std::sort(fct.begin(), fct.end());
    std::sort(slow.begin(), slow.end());
    s.mean_us = sum / static_cast<double>(samples.size());
    s.p50_us = percentile(fct, 0.50);
    s.p99_us = percentile(fct, 0.99);
    s.max_us = fct.back();
    s.mean_slowdown = sum_slow / static_cast<double>(samples.size());
    s.p99_slowdown = percentile(slow, 0.99);
    return s;
}

int bucket_of(std::uint64_t bytes) {
    if (bytes <= 100000) return 0;
    if (bytes <= 1000000) return 1;
    if (bytes <= 10000000) return 2;
    return 3;
}

nlohmann::json json_of(const FctStats &s) {
    return {{"count", s.count},
            {"mean_us", s.mean_us},
            {"p50_us", s.p50_us},
            {"p99_us", s.p99_us},
            {"max_us", s.max_us},
            {"mean_slowdown", s.mean_slowdown},
            {"p99_slowdown", s.p99_slowdown}};
}

void print_stats(std::ostream &out, const char *name, const FctStats &s) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "  %-14s %8" PRIu64
                  " flows  mean %10.1f us  p50 %10.1f us  p99 %10.1f us  slowdown mean %6.2f p99 %7.2f\n",
                  name, s.count, s.mean_us, s.p50_us, s.p99_us, s.mean_slowdown, s.p99_slowdown);
    out << line;
}

}  // namespace

const char *Summary::bucket_name(int b) {
    static const char *const kNames[kBuckets] = {"<=100KB", "100KB-1MB", "1MB-10MB", ">10MB"};
    return kNames[b];
}

Summary summarize(const Results &r) {
    Summary sum;
    std::vector<Sample> all, failure_hit, bucket[Summary::kBuckets];
    Time first = kNever, last = 0;
    std::uint64_t bytes = 0;
    double rate_sum = 0;
    for (const FlowRecord &f : r.flows) {
        ++sum.flows;
        if (!f.done()) {
            ++sum.unfinished;
            continue;
        }
        const Time fct = f.fct();
        const double fct_us = to_us(fct);
        const double slow =
            f.ideal > 0 ? std::max(1.0, static_cast<double>(fct) / static_cast<double>(f.ideal)) : 1.0;
        all.push_back({fct_us, slow});
        bucket[bucket_of(f.bytes)].push_back({fct_us, slow});
        if (f.failure_hit) failure_hit.push_back({fct_us, slow});
        first = std::min(first, f.start);
        last = std::max(last, f.finish);
        bytes += f.bytes;
        if (fct > 0)
            rate_sum += static_cast<double>(f.bytes) * 8e12 / static_cast<double>(fct) / r.host_rate_bps;
    }
    sum.all = stats_of(all);
    for (int b = 0; b < Summary::kBuckets; ++b) sum.bucket[b] = stats_of(bucket[b]);
    sum.failure_hit = stats_of(failure_hit);
    if (last > first && first != kNever)
        sum.goodput_gbps = static_cast<double>(bytes) * 8e3 / static_cast<double>(last - first);
    if (!all.empty()) sum.mean_flow_rate_fraction = rate_sum / static_cast<double>(all.size());
    const double seconds = static_cast<double>(r.counters.end) / 1e12;
    std::uint64_t fabric_links = 0, host_links = 0;
    for (const LinkRecord &l : r.links) {
        if (seconds <= 0 || l.rate_bps <= 0) continue;
        const double u = static_cast<double>(l.bytes_sent) * 8 / (l.rate_bps * seconds);
        if (l.fabric) {
            ++fabric_links;
            sum.fabric_util_mean += u;
            sum.fabric_util_max = std::max(sum.fabric_util_max, u);
        } else if (l.from_host) {
            ++host_links;
            sum.host_util_mean += u;
        }
    }
    if (fabric_links) sum.fabric_util_mean /= static_cast<double>(fabric_links);
    if (host_links) sum.host_util_mean /= static_cast<double>(host_links);
    return sum;
}

void write_summary_text(std::ostream &out, const Scenario &s, const Results &r, const Summary &sum) {
    const RunCounters &c = r.counters;
    char line[512];
    std::snprintf(line, sizeof line, "scenario %s: %u hosts, %u switches, %s, %s\n", s.file.c_str(), r.hosts,
                  r.switches, std::string(to_string(s.sw.balancing)).c_str(),
                  std::string(to_string(s.transport.kind)).c_str());
    out << line;
    std::snprintf(line, sizeof line,
                  "run: %.3f ms simulated%s, %" PRIu64
                  " events, %.2f s wall, %.2f M events/s, %.2f M data packets/s\n",
                  to_us(c.end) / 1000, c.all_done ? " (all flows done)" : "", c.events, c.wall_seconds,
                  c.wall_seconds > 0 ? static_cast<double>(c.events) / c.wall_seconds / 1e6 : 0,
                  c.wall_seconds > 0
                      ? static_cast<double>(c.data_packets + c.retransmitted_packets) / c.wall_seconds / 1e6
                      : 0);
    out << line;
    std::snprintf(line, sizeof line,
                  "flows: %" PRIu64 " (%" PRIu64
                  " unfinished), goodput %.2f Gb/s, mean flow rate %.1f%% of the host link\n",
                  sum.flows, sum.unfinished, sum.goodput_gbps, sum.mean_flow_rate_fraction * 100);
    out << line;
    out << "fct:\n";
    print_stats(out, "all", sum.all);
    for (int b = 0; b < Summary::kBuckets; ++b)
        if (sum.bucket[b].count) print_stats(out, Summary::bucket_name(b), sum.bucket[b]);
    if (sum.failure_hit.count) print_stats(out, "failure-hit", sum.failure_hit);
    for (std::size_t i = 0; i < r.workloads.size(); ++i) {
        const WorkloadRecord &w = r.workloads[i];
        const double span = w.last_finish > w.first_start && w.first_start != kNever
                                ? to_us(w.last_finish - w.first_start)
                                : 0;
        std::snprintf(line, sizeof line,
                      "workload %zu %s: %" PRIu64 "/%" PRIu64
                      " flows done, completion %.1f us, %.2f Gb/s per sender\n",
                      i, std::string(to_string(w.kind)).c_str(), w.done, w.flows, span,
                      span > 0 && w.senders ? static_cast<double>(w.bytes) * 8e-3 / span / w.senders : 0);
        out << line;
    }
    std::snprintf(line, sizeof line, "links: fabric utilization mean %.1f%% max %.1f%%, host links %.1f%%\n",
                  sum.fabric_util_mean * 100, sum.fabric_util_max * 100, sum.host_util_mean * 100);
    out << line;
    std::snprintf(line, sizeof line,
                  "packets: %" PRIu64 " data, %" PRIu64 " retransmitted, %" PRIu64
                  " ctrl; drops: buffer %" PRIu64 " link %" PRIu64 " unroutable %" PRIu64 " receiver %" PRIu64
                  "; ecn marks %" PRIu64 ", pauses %" PRIu64 ", cnps %" PRIu64 "\n",
                  c.data_packets, c.retransmitted_packets, c.ctrl_packets, c.drops_buffer, c.drops_link,
                  c.drops_unroutable, c.drops_receiver, c.ecn_marks, c.pause_frames, c.cnps);
    out << line;
    const ars::CounterValues &a = c.ars;
    std::uint64_t decisions = a.static_hash_decisions;
    for (auto d : a.decisions) decisions += d;
    std::snprintf(line, sizeof line,
                  "ars: %" PRIu64 " decisions (%" PRIu64 " static hash), reassignments %" PRIu64
                  " next-hop, %" PRIu64 " port, %" PRIu64 " link-down; %" PRIu64
                  " ARS drops; single-member groups: %" PRIu64 " decisions, %" PRIu64 " drops\n",
                  decisions, a.static_hash_decisions, a.next_hop_reassignments, a.port_reassignments,
                  a.link_down_reassignments, a.packet_drops, c.single_member_decisions,
                  c.single_member_drops);
    out << line;
    if (s.arn.enabled) {
        const ArnCounters &n = c.arn;
        std::snprintf(
            line, sizeof line,
            "arn: %" PRIu64 " messages (%" PRIu64 " repeats, %" PRIu64 " deferred), %" PRIu64
            " frames, %" PRIu64 " delivered (%" PRIu64 " stale), %" PRIu64 " refused, %" PRIu64
            " lost; to the whole group: %" PRIu64 " (%" PRIu64
            " not), detection to last switch mean %.2f us max %.2f us; %" PRIu64
            " best-path changes, %" PRIu64 " expired; %" PRIu64 " watched ports, %" PRIu64 " remote slots\n",
            n.messages, n.repeats, n.deferred, n.frames, n.delivered, n.stale, n.refused, n.lost, n.complete,
            n.incomplete, n.complete ? to_us(n.latency_sum) / static_cast<double>(n.complete) : 0.0,
            to_us(n.latency_max), n.rechosen, n.expired, n.watched_ports, n.remote_slots);
        out << line;
    }
    for (const FailureRecord &f : r.failures) {
        std::snprintf(line, sizeof line,
                      "failure %s at %.1f us: %" PRIu64 " packets lost (%" PRIu64
                      " at the link, the last %.1f us after; %" PRIu64
                      " for want of a route), the last %.1f us after\n",
                      f.link.c_str(), to_us(f.at), f.lost_packets, f.lost_at_link,
                      f.last_link_loss ? to_us(f.last_link_loss - f.at) : 0.0, f.lost_unroutable,
                      f.last_loss ? to_us(f.last_loss - f.at) : 0.0);
        out << line;
    }
}

void write_summary_json(std::ostream &out, const Scenario &s, const Results &r, const Summary &sum) {
    using nlohmann::json;
    const RunCounters &c = r.counters;
    json j;
    j["scenario"] = s.file;
    j["balancing"] = std::string(to_string(s.sw.balancing));
    j["transport"] = std::string(to_string(s.transport.kind));
    j["topology"] = s.fabric.topology.empty() ? s.fabric.topology_file : s.fabric.topology;
    j["seed"] = s.run.seed;
    j["hosts"] = r.hosts;
    j["switches"] = r.switches;
    j["host_rate_gbps"] = r.host_rate_bps / 1e9;
    json loads = json::array();
    for (const WorkloadSettings &w : s.workloads)
        loads.push_back({{"type", std::string(to_string(w.kind))}, {"load", w.load}, {"size", w.size}});
    j["workload_settings"] = loads;
    j["fct"] = json_of(sum.all);
    json buckets = json::object();
    for (int b = 0; b < Summary::kBuckets; ++b) buckets[Summary::bucket_name(b)] = json_of(sum.bucket[b]);
    j["fct_by_size"] = buckets;
    j["fct_failure_hit"] = json_of(sum.failure_hit);
    j["flows"] = sum.flows;
    j["unfinished"] = sum.unfinished;
    j["goodput_gbps"] = sum.goodput_gbps;
    j["mean_flow_rate_fraction"] = sum.mean_flow_rate_fraction;
    j["fabric_util_mean"] = sum.fabric_util_mean;
    j["fabric_util_max"] = sum.fabric_util_max;
    j["host_util_mean"] = sum.host_util_mean;
    json workloads = json::array();
    for (const WorkloadRecord &w : r.workloads) {
        const bool span = w.last_finish > w.first_start && w.first_start != kNever;
        workloads.push_back({{"type", std::string(to_string(w.kind))},
                             {"flows", w.flows},
                             {"done", w.done},
                             {"bytes", w.bytes},
                             {"senders", w.senders},
                             {"completion_us", span ? to_us(w.last_finish - w.first_start) : 0.0}});
    }
    j["workloads"] = workloads;
    json failures = json::array();
    for (const FailureRecord &f : r.failures)
        failures.push_back(
            {{"link", f.link},
             {"at_us", to_us(f.at)},
             {"lost_packets", f.lost_packets},
             {"lost_at_link", f.lost_at_link},
             {"lost_unroutable", f.lost_unroutable},
             {"last_link_loss_after_us", f.last_link_loss ? to_us(f.last_link_loss - f.at) : 0.0},
             {"last_loss_after_us", f.last_loss ? to_us(f.last_loss - f.at) : 0.0}});
    j["failures"] = failures;
    json ars_decisions = json::array();
    for (auto d : c.ars.decisions) ars_decisions.push_back(d);
    j["ars"] = {{"decisions_by_mode", ars_decisions},
                {"static_hash_decisions", c.ars.static_hash_decisions},
                {"next_hop_reassignments", c.ars.next_hop_reassignments},
                {"port_reassignments", c.ars.port_reassignments},
                {"link_down_reassignments", c.ars.link_down_reassignments},
                {"packet_drops", c.ars.packet_drops},
                {"single_member_decisions", c.single_member_decisions},
                {"single_member_drops", c.single_member_drops}};
    if (s.arn.enabled) {
        const ArnCounters &n = c.arn;
        j["arn"] = {
            {"messages", n.messages},
            {"repeats", n.repeats},
            {"deferred", n.deferred},
            {"frames", n.frames},
            {"delivered", n.delivered},
            {"stale", n.stale},
            {"refused", n.refused},
            {"lost", n.lost},
            {"complete", n.complete},
            {"incomplete", n.incomplete},
            {"latency_mean_us", n.complete ? to_us(n.latency_sum) / static_cast<double>(n.complete) : 0.0},
            {"latency_max_us", to_us(n.latency_max)},
            {"best_path_changes", n.rechosen},
            {"expired", n.expired},
            {"watched_ports", n.watched_ports},
            {"remote_slots", n.remote_slots}};
    }
    j["run"] = {{"simulated_us", to_us(c.end)},
                {"all_done", c.all_done},
                {"events", c.events},
                {"wall_seconds", c.wall_seconds},
                {"data_packets", c.data_packets},
                {"retransmitted_packets", c.retransmitted_packets},
                {"ctrl_packets", c.ctrl_packets},
                {"drops_buffer", c.drops_buffer},
                {"drops_link", c.drops_link},
                {"drops_unroutable", c.drops_unroutable},
                {"drops_receiver", c.drops_receiver},
                {"ecn_marks", c.ecn_marks},
                {"pause_frames", c.pause_frames},
                {"cnps", c.cnps},
                {"reroutes", c.reroutes}};
    out << j.dump(1) << "\n";
}

void write_links_csv(std::ostream &out, const Results &r) {
    out << "from,port,to,fabric,rate_gbps,bytes,data_packets,utilization,drops,ecn_marks,pauses,max_queue_"
           "bytes\n";
    const double span = static_cast<double>(r.counters.end) * 1e-12;
    char line[512];
    for (const LinkRecord &l : r.links) {
        std::snprintf(
            line, sizeof line,
            "%s,%u,%s,%d,%.1f,%" PRIu64 ",%" PRIu64 ",%.4f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
            l.from.c_str(), l.from_port, l.to.c_str(), l.fabric ? 1 : 0, l.rate_bps / 1e9, l.bytes_sent,
            l.data_packets,
            span > 0 && l.rate_bps > 0 ? static_cast<double>(l.bytes_sent) * 8 / l.rate_bps / span : 0.0,
            l.drops, l.ecn_marks, l.pauses_received, l.max_queue_bytes);
        out << line;
    }
}

void write_flows_csv(std::ostream &out, const Results &r) {
    out << "id,src,dst,workload,bytes,start_us,finish_us,fct_us,ideal_us,slowdown,retransmits,failure_hit\n";
    char line[256];
    for (const FlowRecord &f : r.flows) {
        if (f.start == kNever) {
            std::snprintf(line, sizeof line, "%u,%u,%u,%u,%" PRIu64 ",,,,%.3f,,0,0\n", f.id, f.src, f.dst,
                          f.workload, f.bytes, to_us(f.ideal));
        } else if (!f.done()) {
            std::snprintf(line, sizeof line, "%u,%u,%u,%u,%" PRIu64 ",%.3f,,,%.3f,,%u,%d\n", f.id, f.src,
                          f.dst, f.workload, f.bytes, to_us(f.start), to_us(f.ideal), f.retransmits,
                          f.failure_hit ? 1 : 0);
        } else {
            const double slow =
                f.ideal ? std::max(1.0, static_cast<double>(f.fct()) / static_cast<double>(f.ideal)) : 1.0;
            std::snprintf(line, sizeof line, "%u,%u,%u,%u,%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.4f,%u,%d\n", f.id,
                          f.src, f.dst, f.workload, f.bytes, to_us(f.start), to_us(f.finish), to_us(f.fct()),
                          to_us(f.ideal), slow, f.retransmits, f.failure_hit ? 1 : 0);
        }
        out << line;
    }
}

}  // namespace weft::sim
