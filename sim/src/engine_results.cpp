// The records a run returns, read off the engine's state at its end.
#include <set>

#include "engine.hpp"

namespace weft::sim {

Results Engine::collect(double wall_seconds) const {
    Results r;
    r.hosts = static_cast<std::uint32_t>(hosts_.size());
    r.switches = static_cast<std::uint32_t>(switches_.size());
    r.host_rate_bps = s_.fabric.host_rate.bps();
    r.flows.reserve(flows_.size());
    for (std::size_t i = 0; i < flows_.size(); ++i) {
        const Flow &f = flows_[i];
        FlowRecord fr;
        fr.id = static_cast<std::uint32_t>(i);
        fr.src = f.src;
        fr.dst = f.dst;
        fr.workload = f.workload;
        fr.bytes = f.bytes;
        fr.start =
            f.started ? f.start : kNever;  // never started: its collective's steps before it never ended
        fr.finish = f.finish;
        fr.ideal = ideal_fct(f);
        fr.retransmits = f.retransmits;
        fr.failure_hit = f.failure_hit;
        r.flows.push_back(fr);
    }
    for (std::size_t i = 0; i < ports_.size(); ++i) {
        const Port &p = ports_[i];
        if (p.peer == kNoPortIdx) continue;
        LinkRecord l;
        l.from = fabric_.node(p.node).desc;
        l.to = fabric_.node(p.peer_node).desc;
        l.from_port = static_cast<unsigned>(i - nodes_[p.node].first_port + 1);
        l.fabric = p.fabric;
        l.from_host = p.host_side;
        l.rate_bps = p.rate.bps();
        l.bytes_sent = p.bytes_sent;
        l.data_packets = p.data_packets;
        l.drops = p.drops;
        l.ecn_marks = p.ecn_marks;
        l.pauses_received = p.pauses_received;
        l.max_queue_bytes = p.max_queue_bytes;
        l.paused = p.paused_total + (p.paused ? now_ - p.paused_since : 0);
        r.links.push_back(std::move(l));
    }
    r.workloads.resize(s_.workloads.size());
    std::vector<std::set<std::uint32_t>> senders(s_.workloads.size());
    for (const FlowRecord &f : r.flows) {
        WorkloadRecord &w = r.workloads[f.workload];
        ++w.flows;
        w.bytes += f.bytes;
        if (f.start != kNever && f.start < w.first_start) w.first_start = f.start;
        if (f.done()) {
            ++w.done;
            if (f.finish > w.last_finish) w.last_finish = f.finish;
        }
        senders[f.workload].insert(f.src);
    }
    for (std::size_t i = 0; i < r.workloads.size(); ++i) {
        r.workloads[i].kind = s_.workloads[i].kind;
        r.workloads[i].senders = static_cast<std::uint32_t>(senders[i].size());
    }
    r.failures = failures_;
    r.counters = counters_;
    r.counters.wall_seconds = wall_seconds;
    arn_collect(r.counters);
    for (const SwitchNode &sw : switches_) {
        const ars::Worker *w = sw.worker.get();
        for (std::size_t d = 0; d < groups_.destinations.size(); ++d)
            if (w->config()->nhg(static_cast<ars::NhgId>(d)) != nullptr)
                r.counters.ars += w->nhg_counters(static_cast<ars::NhgId>(d));
    }
    return r;
}

}  // namespace weft::sim
