// The loop every SM phase runs over an SmpEngine: take completions, let the caller react (it may
// submit more, so the window stays full), wait on the transport, until nothing is queued or on
// the wire.
#pragma once

#include <chrono>
#include <functional>

#include "weft/sm/smp_engine.hpp"

namespace weft::sm {

using SmClock = std::function<SmTime()>;

// Hands every completion to `on_done` until the engine is idle. `max_wait` bounds one wait on
// the transport (time for the caller's clock to move).
void run_until_idle(SmpEngine &engine, const SmClock &clock,
                    const std::function<void(SmpCompletion &)> &on_done,
                    std::chrono::milliseconds max_wait = std::chrono::milliseconds(50));

// Why a request got no usable reply, for a log line: "timed out after 4 attempts",
// "status 0x001c", "malformed: <where>", "send failed: <why>"; empty when it has one.
std::string failure_text(const SmpCompletion &c);

// What was counted between `before` and `now` (kinds with nothing sent or received left out;
// max_outstanding is now's).
SmpCounters counters_since(const SmpCounters &now, const SmpCounters &before);

}  // namespace weft::sm
