// Nue's race of candidate runs. Each candidate routes the same destinations (in its own order,
// with its own search or partition), one destination a step; Nue keeps the run whose busiest
// channel carries the fewest routes, the earliest in slot order of equals.
//
// Loads only grow, so a run's busiest channel so far is a lower bound on its final one, and no
// routes can load their busiest channel less than the minimal routes' total load spread evenly
// over the channels (the floor). The race always steps the run of the lowest bound (the earliest
// of equals) and drops a run once a finished one beats its bound: the kept run is the same as if
// every run were routed to the end, and each loser is routed only as far as needed to rule it
// out. With the floor in the bound, the earliest run stays ahead while it is at the floor, so a
// run that finishes there rules out every later one before it routes a destination (on fat
// trees the first run does).
//
// On several threads each takes the lowest-bound run no other thread is stepping. The kept run
// does not depend on the timing: a run is dropped only when a finished one provably beats it, and
// a run's routes depend on its own steps only. A run at the floor waits while an earlier run that
// is exactly at the floor is being stepped: if that one finishes there, it rules the later one
// out, and stepping it would be wasted.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engines/nue/workers.hpp"

namespace weft::routing::engines::nue {

// The runs of a race, by slot (the order that decides ties). step() of different slots may run
// on different threads at once; the other calls are made one at a time.
class RaceRuns {
  public:
    virtual ~RaceRuns() = default;
    virtual std::size_t slots() const = 0;
    // Whether the slot holds a candidate (slots may be left empty).
    virtual bool present(std::size_t slot) const = 0;
    virtual bool done(std::size_t slot) const = 0;
    // Routes the run's next destination on `worker` (Workers numbering); returns the most routes
    // on one channel of the run's routes so far.
    virtual std::uint64_t step(std::size_t slot, unsigned worker) = 0;
    // The run can no longer win: its memory may go.
    virtual void drop(std::size_t slot) = 0;
    // After each step, for progress reports.
    virtual void stepped() {}
};

inline constexpr std::size_t kNoRun = ~std::size_t{0};

// Races the runs on every worker; returns the kept slot, or kNoRun when no run routed anything
// (no destinations). Rethrows the first exception a step threw, after stopping the race.
std::size_t race(RaceRuns &runs, std::uint64_t floor, Workers &workers);

}  // namespace weft::routing::engines::nue
