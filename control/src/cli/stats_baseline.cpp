#include "weft/control/stats_baseline.hpp"

#include <tuple>

namespace weft::control {

namespace dp = weft::dataplane;

namespace {

// Counter values only grow; a value below its baseline would mean a counter went back, so it
// reads as zero rather than wrapping.
std::uint64_t since(std::uint64_t now, std::uint64_t base) {
    return now >= base ? now - base : 0;
}

void add(dp::PortTotals &sum, const dp::PortTotals &t) {
    sum.rx_pkts += t.rx_pkts;
    sum.rx_bytes += t.rx_bytes;
    sum.tx_pkts += t.tx_pkts;
    sum.tx_bytes += t.tx_bytes;
    sum.tx_dropped += t.tx_dropped;
    sum.backlog_bytes += t.backlog_bytes;
}

void add(dp::Totals &sum, const dp::Totals &t) {
    sum.rx_pkts += t.rx_pkts;
    sum.rx_bytes += t.rx_bytes;
    sum.fwd_pkts += t.fwd_pkts;
    sum.replicas += t.replicas;
    sum.punted += t.punted;
    for (std::size_t i = 0; i < sum.drops.size(); ++i) sum.drops[i] += t.drops[i];
}

}  // namespace

const StatsBaseline::Worker &StatsBaseline::base(std::size_t worker) const {
    static const Worker kZero{};
    return worker < workers_.size() ? workers_[worker] : kZero;
}

StatsBaseline::Worker &StatsBaseline::base_for(std::size_t worker) {
    if (worker >= workers_.size()) workers_.resize(worker + 1);
    return workers_[worker];
}

StatsBaseline::Snapshot StatsBaseline::read(const Counters &counters) {
    Snapshot now;
    now.reserve(counters.size());
    for (const dp::WorkerCounters *w : counters) now.push_back(dp::read_between_rounds(*w));
    return now;
}

dp::PortTotals StatsBaseline::worker_port(const Snapshot &now, std::size_t worker, std::uint16_t port) const {
    dp::PortTotals t = now.at(worker).ports.at(port);
    const dp::PortTotals &b = base(worker).ports.at(port);
    t.rx_pkts = since(t.rx_pkts, b.rx_pkts);
    t.rx_bytes = since(t.rx_bytes, b.rx_bytes);
    t.tx_pkts = since(t.tx_pkts, b.tx_pkts);
    t.tx_bytes = since(t.tx_bytes, b.tx_bytes);
    t.tx_dropped = since(t.tx_dropped, b.tx_dropped);
    return t;  // backlog_bytes is a gauge
}

dp::Totals StatsBaseline::worker_totals(const Snapshot &now, std::size_t worker) const {
    dp::Totals t = now.at(worker).totals;
    const dp::Totals &b = base(worker).totals;
    t.rx_pkts = since(t.rx_pkts, b.rx_pkts);
    t.rx_bytes = since(t.rx_bytes, b.rx_bytes);
    t.fwd_pkts = since(t.fwd_pkts, b.fwd_pkts);
    t.replicas = since(t.replicas, b.replicas);
    t.punted = since(t.punted, b.punted);
    for (std::size_t i = 0; i < t.drops.size(); ++i) t.drops[i] = since(t.drops[i], b.drops[i]);
    return t;
}

dp::PortTotals StatsBaseline::port(const Snapshot &now, std::uint16_t port) const {
    dp::PortTotals sum;
    for (std::size_t w = 0; w < now.size(); ++w) add(sum, worker_port(now, w, port));
    return sum;
}

dp::Totals StatsBaseline::totals(const Snapshot &now) const {
    dp::Totals sum;
    for (std::size_t w = 0; w < now.size(); ++w) add(sum, worker_totals(now, w));
    return sum;
}

void StatsBaseline::clear_port(const Snapshot &now, std::uint16_t port) {
    for (std::size_t w = 0; w < now.size(); ++w) base_for(w).ports.at(port) = now[w].ports.at(port);
}

void StatsBaseline::clear_totals(const Snapshot &now) {
    for (std::size_t w = 0; w < now.size(); ++w) base_for(w).totals = now[w].totals;
}

dp::PortTotals StatsBaseline::worker_port(const Counters &counters, std::size_t worker,
                                          std::uint16_t port) const {
    return worker_port(read(counters), worker, port);
}

dp::Totals StatsBaseline::worker_totals(const Counters &counters, std::size_t worker) const {
    return worker_totals(read(counters), worker);
}

dp::PortTotals StatsBaseline::port(const Counters &counters, std::uint16_t port) const {
    return this->port(read(counters), port);
}

dp::Totals StatsBaseline::totals(const Counters &counters) const {
    return totals(read(counters));
}

void StatsBaseline::clear_port(const Counters &counters, std::uint16_t port) {
    clear_port(read(counters), port);
}

void StatsBaseline::clear_totals(const Counters &counters) {
    clear_totals(read(counters));
}

std::pair<std::uint64_t, std::uint64_t> StatsBaseline::nhg(const Counters &counters, std::uint32_t id,
                                                           std::uint32_t index) const {
    auto [pkts, bytes] = dp::sum_nhg(counters, index);
    const auto it = nhgs_.find(id);
    if (it != nhgs_.end() && it->second.index == index) {
        pkts = since(pkts, it->second.pkts);
        bytes = since(bytes, it->second.bytes);
    }
    return {pkts, bytes};
}

ars::CounterValues StatsBaseline::ars_nhg(ArsWorkers workers, std::uint32_t id) const {
    ars::CounterValues v = ars::sum_nhg_counters(workers, id);
    const auto it = nhgs_.find(id);
    if (it == nhgs_.end()) return v;
    const ars::CounterValues &b = it->second.ars;
    v.packet_drops = since(v.packet_drops, b.packet_drops);
    v.next_hop_reassignments = since(v.next_hop_reassignments, b.next_hop_reassignments);
    v.port_reassignments = since(v.port_reassignments, b.port_reassignments);
    v.link_down_reassignments = since(v.link_down_reassignments, b.link_down_reassignments);
    for (std::size_t m = 0; m < v.decisions.size(); ++m)
        v.decisions[m] = since(v.decisions[m], b.decisions[m]);
    v.static_hash_decisions = since(v.static_hash_decisions, b.static_hash_decisions);
    return v;
}

void StatsBaseline::clear_nhg(const Counters &counters, ArsWorkers workers, std::uint32_t id,
                              std::uint32_t index) {
    Nhg &b = nhgs_[id];
    b.index = index;
    std::tie(b.pkts, b.bytes) = dp::sum_nhg(counters, index);
    b.ars = ars::sum_nhg_counters(workers, id);
}

}  // namespace weft::control
