// A phase of a sweep: times it, counts its SMPs and logs "phase NAME: 0.012 s, 123 SMPs (...)".
#pragma once

#include <cstdio>
#include <string>

#include "weft/sm/heavy_sweep.hpp"

namespace weft::sm {

class Phase {
  public:
    Phase(SweepReport &r, const SmpEngine &e, const SmClock &clock, const SweepOptions &o, std::string name)
        : r_(r), e_(e), clock_(clock), o_(o), before_(e.counters()), t0_(clock()) {
        r_.phases.push_back({std::move(name), 0, {}});
    }
    void end(const std::string &detail) {
        PhaseReport &p = r_.phases.back();
        p.seconds = std::chrono::duration<double>(clock_() - t0_).count();
        p.smps = counters_since(e_.counters(), before_);
        if (!o_.log) return;
        char head[96];
        std::snprintf(head, sizeof head, "phase %s: %.3f s, %llu SMPs", p.name.c_str(), p.seconds,
                      static_cast<unsigned long long>(p.smps.total().sent));
        const std::string kinds = smp_summary(p.smps);
        o_.log(std::string(head) + (kinds.empty() ? "" : " (" + kinds + ")") +
               (detail.empty() ? "" : "; " + detail));
    }

  private:
    SweepReport &r_;
    const SmpEngine &e_;
    const SmClock &clock_;
    const SweepOptions &o_;
    SmpCounters before_;
    SmTime t0_;
};

}  // namespace weft::sm
