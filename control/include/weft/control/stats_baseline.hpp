// What `clear port stats` zeroes on weft's side. The workers' per-lcore counters are never reset
// (a worker is their only writer, and nothing may lock or stop it); the control thread remembers
// their sums at the clear and the CLI shows the difference. Gauges (TX backlog) are not cleared.
// Telemetry keeps reporting the cumulative counters.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::control {

class StatsBaseline {
  public:
    using Counters = std::vector<const dataplane::WorkerCounters *>;

    // Port `port`'s counters since its last clear.
    dataplane::PortTotals port(const Counters &counters, std::uint16_t port) const;
    // The all-port totals (received, forwarded, replicas, drops by reason) since `clear all`.
    dataplane::Totals totals(const Counters &counters) const;

    void clear_port(const Counters &counters, std::uint16_t port);
    void clear_totals(const Counters &counters);

  private:
    std::array<dataplane::PortTotals, dataplane::kMaxPorts> ports_{};
    dataplane::Totals totals_{};
};

}  // namespace weft::control
