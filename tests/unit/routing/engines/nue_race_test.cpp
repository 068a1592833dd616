// Nue's race of candidate runs (engines/nue/candidate_race.hpp) on made-up runs: the kept run is
// the one with the fewest routes on its busiest channel, the earliest of equals, whatever the
// thread count; a failing step stops the race and its error comes out.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

#include "engines/nue/candidate_race.hpp"
#include "engines/nue/workers.hpp"

namespace weft::routing::engines::nue {
namespace {

// Each slot's busiest channel after each of its steps (non-decreasing, as loads only grow).
class ScriptedRuns : public RaceRuns {
  public:
    explicit ScriptedRuns(std::vector<std::vector<std::uint64_t>> script)
        : script_(std::move(script)), next_(script_.size()), present_(script_.size(), 1) {}
    std::size_t slots() const override { return script_.size(); }
    bool present(std::size_t slot) const override { return present_[slot] != 0; }
    bool done(std::size_t slot) const override { return next_[slot] == script_[slot].size(); }
    std::uint64_t step(std::size_t slot, unsigned) override {
        if (slot == fail_at) throw std::runtime_error("step failed");
        ++steps;
        return script_[slot][next_[slot]++];
    }
    void drop(std::size_t slot) override { dropped.push_back(slot); }
    void leave_out(std::size_t slot) { present_[slot] = 0; }

    std::atomic<std::size_t> steps{0};
    std::vector<std::size_t> dropped;
    std::size_t fail_at = kNoRun;

  private:
    std::vector<std::vector<std::uint64_t>> script_;
    std::vector<std::size_t> next_;
    std::vector<char> present_;
};

// The slot with the least final busiest channel, the earliest of equals.
std::size_t best(const std::vector<std::vector<std::uint64_t>> &script) {
    std::size_t b = kNoRun;
    for (std::size_t i = 0; i < script.size(); ++i)
        if (!script[i].empty() && (b == kNoRun || script[i].back() < script[b].back())) b = i;
    return b;
}

TEST(NueRace, KeepsTheBestBalancedRunWhateverTheThreads) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t slots = 1 + rng() % 5, steps = 1 + rng() % 30;
        const std::uint64_t floor = rng() % 40;
        std::vector<std::vector<std::uint64_t>> script(slots);
        for (auto &s : script) {
            std::uint64_t v = rng() % 30;
            for (std::size_t k = 0; k < steps; ++k) s.push_back(v += rng() % 4);
            s.back() = std::max(s.back(), floor);  // no routes end below the floor
        }
        for (unsigned threads : {1u, 2u, 3u, 5u}) {
            Workers workers(threads);
            ScriptedRuns runs(script);
            EXPECT_EQ(race(runs, floor, workers), best(script))
                << "trial " << trial << " threads " << threads;
        }
    }
}

TEST(NueRace, RunsAtTheFloorAreRuledOutUnrouted) {
    // The first run ends at the floor: no later run can beat it, so none takes a step.
    const std::vector<std::vector<std::uint64_t>> script = {{5, 5, 5, 5}, {5, 5, 5, 5}, {9, 9, 9, 9}};
    Workers workers(1);
    ScriptedRuns runs(script);
    EXPECT_EQ(race(runs, 5, workers), 0u);
    EXPECT_EQ(runs.steps, 4u);
}

TEST(NueRace, EmptySlotsAndNoDestinations) {
    ScriptedRuns runs({{3, 4}, {1, 2}, {2, 2}});
    runs.leave_out(1);
    Workers workers(2);
    EXPECT_EQ(race(runs, 0, workers), 2u);
    ScriptedRuns none({{}, {}});
    EXPECT_EQ(race(none, 0, workers), kNoRun);
}

TEST(NueRace, AFailingStepStopsTheRace) {
    for (unsigned threads : {1u, 3u}) {
        ScriptedRuns runs({{1, 2, 3}, {1, 1, 1}, {4, 5, 6}});
        runs.fail_at = 1;
        Workers workers(threads);
        EXPECT_THROW(race(runs, 0, workers), std::runtime_error) << threads;
        // The workers serve the next job as before.
        ScriptedRuns again({{2, 2}, {1, 1}});
        EXPECT_EQ(race(again, 0, workers), 1u) << threads;
    }
}

TEST(NueWorkers, EveryWorkerRunsTheJobOnce) {
    for (unsigned n : {1u, 2u, 4u}) {
        Workers workers(n);
        EXPECT_EQ(workers.count(), n);
        std::vector<std::atomic<int>> ran(n);
        for (int round = 0; round < 3; ++round) workers.run([&](unsigned w) { ++ran[w]; });
        for (unsigned w = 0; w < n; ++w) EXPECT_EQ(ran[w], 3) << w;
        EXPECT_THROW(workers.run([&](unsigned w) {
            if (w == n - 1) throw std::runtime_error("helper failed");
        }),
                     std::runtime_error);
    }
    EXPECT_EQ(Workers::resolve(3), 3u);
    EXPECT_GE(Workers::resolve(0), 1u);
}

}  // namespace
}  // namespace weft::routing::engines::nue
