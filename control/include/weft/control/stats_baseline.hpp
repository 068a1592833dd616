// What `clear port stats` and `clear nhg stats` zero on weft's side. The workers' per-lcore counters are
// never reset (a worker is their only writer, and nothing may lock or stop it); the control thread remembers
// each worker's values at the clear and the CLI shows the difference, per worker (`show fwd
// stats`) or summed (`show port stats`), so the two always agree. Gauges (TX backlog) are not
// cleared. Telemetry keeps reporting the cumulative counters.
//
// Baselines and shows read each worker between two of its polling rounds (a Snapshot): a frame
// is counted received at the start of a round and forwarded or dropped later in it, so figures
// read mid-round (or a baseline taken mid-round) would show more drops than frames received.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "weft/ars/counters.hpp"
#include "weft/ars/worker.hpp"

#include "weft/dataplane/counters.hpp"
#include "weft/dataplane/limits.hpp"

namespace weft::control {

class StatsBaseline {
  public:
    using Counters = std::vector<const dataplane::WorkerCounters *>;
    // Every worker's counters, each read between two of its rounds.
    using Snapshot = std::vector<dataplane::WorkerReading>;
    static Snapshot read(const Counters &counters);

    dataplane::PortTotals worker_port(const Snapshot &now, std::size_t worker, std::uint16_t port) const;
    dataplane::Totals worker_totals(const Snapshot &now, std::size_t worker) const;
    dataplane::PortTotals port(const Snapshot &now, std::uint16_t port) const;
    dataplane::Totals totals(const Snapshot &now) const;
    void clear_port(const Snapshot &now, std::uint16_t port);
    void clear_totals(const Snapshot &now);

    // The same from a fresh reading.
    // Port `port`'s counters of worker `worker` since the port's last clear.
    dataplane::PortTotals worker_port(const Counters &counters, std::size_t worker, std::uint16_t port) const;
    // Worker `worker`'s totals (received, forwarded, replicas, punted, drops by reason) since `clear all`.
    dataplane::Totals worker_totals(const Counters &counters, std::size_t worker) const;
    // The same summed over the workers.
    dataplane::PortTotals port(const Counters &counters, std::uint16_t port) const;
    dataplane::Totals totals(const Counters &counters) const;

    void clear_port(const Counters &counters, std::uint16_t port);
    void clear_totals(const Counters &counters);

    // NHG `id` (index `index` in the FIB) since `clear nhg stats`: the dataplane's packets and
    // bytes (`show nhg`) and the ARS engine's counters (`show ars nhg`), summed over workers.
    using ArsWorkers = std::span<const ars::Worker *const>;
    std::pair<std::uint64_t, std::uint64_t> nhg(const Counters &counters, std::uint32_t id,
                                                std::uint32_t index) const;
    ars::CounterValues ars_nhg(ArsWorkers workers, std::uint32_t id) const;
    void clear_nhg(const Counters &counters, ArsWorkers workers, std::uint32_t id, std::uint32_t index);
    // A deleted group's baseline goes with it (its ARS counters restart at 0, and its index may
    // be given to another group).
    void forget_nhg(std::uint32_t id) { nhgs_.erase(id); }

  private:
    struct Worker {
        std::array<dataplane::PortTotals, dataplane::kMaxPorts> ports{};
        dataplane::Totals totals{};
    };
    const Worker &base(std::size_t worker) const;
    Worker &base_for(std::size_t worker);

    std::vector<Worker> workers_;  // grows to the number of workers at the first clear
    struct Nhg {
        std::uint32_t index = 0;
        std::uint64_t pkts = 0, bytes = 0;
        ars::CounterValues ars;
    };
    std::map<std::uint32_t, Nhg> nhgs_;  // by NHG id, once cleared
};

}  // namespace weft::control
