#include "engines/nue/candidate_race.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

namespace weft::routing::engines::nue {

namespace {

class Race {
  public:
    Race(RaceRuns &runs, std::uint64_t floor)
        : runs_(runs),
          floor_(floor),
          busiest_(runs.slots(), 0),
          busy_(runs.slots(), 0),
          out_(runs.slots(), 0) {
        for (std::size_t i = 0; i < out_.size(); ++i) out_[i] = !runs.present(i);
    }

    // One thread's part of the race: step runs until none is left for it.
    void take_part(unsigned worker) {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (error_) return;
            bool held = false;
            const std::size_t pick = choose(held);
            if (pick == kNoRun) {
                if (!held) return;  // what is left is being stepped by other threads
                ++waiting_;
                more_.wait(lock);
                --waiting_;
                continue;
            }
            busy_[pick] = 1;
            lock.unlock();
            std::uint64_t busiest = 0;
            std::exception_ptr failed;
            try {
                busiest = runs_.step(pick, worker);
            } catch (...) {
                failed = std::current_exception();
            }
            lock.lock();
            busy_[pick] = 0;
            if (failed) {
                if (!error_) error_ = failed;
                more_.notify_all();
                return;
            }
            runs_.stepped();
            finish_step(pick, busiest);
        }
    }

    std::size_t kept() const { return kept_; }
    std::exception_ptr error() const { return error_; }

  private:
    std::uint64_t bound(std::size_t i) const { return std::max(busiest_[i], floor_); }
    bool beaten(std::size_t i) const {
        return kept_ != kNoRun && (bound(i) > busiest_[kept_] || (bound(i) == busiest_[kept_] && i > kept_));
    }
    bool held_back(std::size_t i) const {
        if (bound(i) != floor_) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (!out_[j] && busy_[j] && busiest_[j] == floor_) return true;
        return false;
    }
    void drop(std::size_t i) {
        out_[i] = 1;
        runs_.drop(i);
    }
    // The free run with the lowest bound, the earliest of equals; drops the runs beaten by now.
    // held: a run was left out only because it is held back.
    std::size_t choose(bool &held) {
        std::size_t pick = kNoRun;
        for (std::size_t i = 0; i < out_.size(); ++i) {
            if (out_[i] || busy_[i] || runs_.done(i)) continue;
            if (beaten(i)) {
                drop(i);
                continue;
            }
            if (held_back(i)) {
                held = true;
                continue;
            }
            if (pick == kNoRun || bound(i) < bound(pick)) pick = i;
        }
        return pick;
    }
    void finish_step(std::size_t pick, std::uint64_t busiest) {
        // Runs held back behind this one are free once it leaves the floor or finishes.
        const bool done = runs_.done(pick);
        const bool frees = done || (busiest_[pick] <= floor_ && busiest > floor_);
        busiest_[pick] = busiest;
        if (waiting_ && frees) more_.notify_all();
        if (!done) return;
        // Finished: it beats every run finished before it, else it would have been dropped;
        // compared anyway, in case two finished at once on two threads.
        if (kept_ != kNoRun && (busiest_[kept_] < busiest || (busiest_[kept_] == busiest && kept_ < pick))) {
            drop(pick);
        } else {
            if (kept_ != kNoRun) drop(kept_);
            kept_ = pick;
        }
    }

    RaceRuns &runs_;
    const std::uint64_t floor_;
    std::mutex mutex_;
    std::condition_variable more_;  // a held-back run may be free
    std::size_t waiting_ = 0;       // threads waiting on more_
    std::vector<std::uint64_t> busiest_;
    std::vector<char> busy_, out_;  // out_: empty slot or dropped
    std::size_t kept_ = kNoRun;
    std::exception_ptr error_;
};

}  // namespace

std::size_t race(RaceRuns &runs, std::uint64_t floor, Workers &workers) {
    Race r(runs, floor);
    workers.run([&](unsigned worker) { r.take_part(worker); });
    if (r.error()) std::rethrow_exception(r.error());
    return r.kept();
}

}  // namespace weft::routing::engines::nue
