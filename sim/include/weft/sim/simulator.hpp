// weft-sim's discrete-event fabric simulator: a scenario's fabric built by the routing library,
// every switch forwarding with weft's own ARS engine (ars::Worker over next-hop groups compiled
// by routing::compile_ars_groups, port quality from ars::QualitySampler), hosts with a DCTCP-like
// or RoCE-like transport, and the scenario's workloads and failures.
//
//   Simulator sim(read_scenario_file("x.ini"));
//   Results r = sim.run([](const Simulator::Progress &p) { ... });
//
// Deterministic: the same scenario (seed included) gives the same results, event for event.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "weft/sim/results.hpp"
#include "weft/sim/scenario.hpp"

namespace weft::sim {

class Engine;

class Simulator {
  public:
    // Builds the fabric, routes it and creates the workloads' flows. Throws routing::ParseError
    // located in the scenario for what only shows now (an unknown node, a workload the fabric
    // cannot hold, a topology spec the generator refuses) and std::runtime_error otherwise.
    explicit Simulator(const Scenario &scenario);
    ~Simulator();
    Simulator(const Simulator &) = delete;
    Simulator &operator=(const Simulator &) = delete;

    struct Progress {
        Time now = 0, stop = 0;
        std::uint64_t events = 0;
        std::uint64_t flows_started = 0, flows_done = 0;
        double wall_seconds = 0;
    };
    // Runs to the scenario's stop time or until every flow is done and nothing is scheduled that
    // could start another. `progress` is called about every `progress_every` seconds of wall time.
    Results run(const std::function<void(const Progress &)> &progress = {}, double progress_every = 1.0);

    // One line: hosts, switches, links, routing engine, ARS groups.
    std::string describe() const;

  private:
    std::unique_ptr<Engine> engine_;
};

}  // namespace weft::sim
