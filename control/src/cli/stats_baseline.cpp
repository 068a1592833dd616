#include "weft/control/stats_baseline.hpp"

namespace weft::control {

namespace dp = weft::dataplane;

namespace {

// Counter sums only grow; a value below its baseline would mean a counter went back, so it
// reads as zero rather than wrapping.
std::uint64_t since(std::uint64_t now, std::uint64_t base) {
    return now >= base ? now - base : 0;
}

}  // namespace

dp::PortTotals StatsBaseline::port(const Counters &counters, std::uint16_t port) const {
    dp::PortTotals t = dp::sum_port(counters, port);
    const dp::PortTotals &b = ports_.at(port);
    t.rx_pkts = since(t.rx_pkts, b.rx_pkts);
    t.rx_bytes = since(t.rx_bytes, b.rx_bytes);
    t.tx_pkts = since(t.tx_pkts, b.tx_pkts);
    t.tx_bytes = since(t.tx_bytes, b.tx_bytes);
    t.tx_dropped = since(t.tx_dropped, b.tx_dropped);
    return t;  // backlog_bytes is a gauge
}

dp::Totals StatsBaseline::totals(const Counters &counters) const {
    dp::Totals t = dp::sum_totals(counters);
    t.rx_pkts = since(t.rx_pkts, totals_.rx_pkts);
    t.rx_bytes = since(t.rx_bytes, totals_.rx_bytes);
    t.fwd_pkts = since(t.fwd_pkts, totals_.fwd_pkts);
    t.replicas = since(t.replicas, totals_.replicas);
    for (std::size_t i = 0; i < t.drops.size(); ++i) t.drops[i] = since(t.drops[i], totals_.drops[i]);
    return t;
}

void StatsBaseline::clear_port(const Counters &counters, std::uint16_t port) {
    ports_.at(port) = dp::sum_port(counters, port);
}

void StatsBaseline::clear_totals(const Counters &counters) {
    totals_ = dp::sum_totals(counters);
}

}  // namespace weft::control
