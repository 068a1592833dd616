#include "weft/sm/smp_loop.hpp"

#include <cstdio>

namespace weft::sm {

void run_until_idle(SmpEngine &engine, const SmClock &clock,
                    const std::function<void(SmpCompletion &)> &on_done, std::chrono::milliseconds max_wait) {
    for (;;) {
        while (auto c = engine.next_completion()) on_done(*c);
        if (engine.idle()) return;
        engine.pump(clock, max_wait);
    }
}

namespace {

SmpKindCounters minus(const SmpKindCounters &a, const SmpKindCounters &b) {
    SmpKindCounters d;
    d.sent = a.sent - b.sent;
    d.received = a.received - b.received;
    d.retried = a.retried - b.retried;
    d.timed_out = a.timed_out - b.timed_out;
    d.malformed = a.malformed - b.malformed;
    d.error_status = a.error_status - b.error_status;
    d.send_failed = a.send_failed - b.send_failed;
    return d;
}

}  // namespace

SmpCounters counters_since(const SmpCounters &now, const SmpCounters &before) {
    SmpCounters d;
    for (const auto &[kind, k] : now.per_kind) {
        auto it = before.per_kind.find(kind);
        const SmpKindCounters delta = it == before.per_kind.end() ? k : minus(k, it->second);
        if (delta.sent || delta.received || delta.timed_out || delta.malformed) d.per_kind[kind] = delta;
    }
    d.unmatched = now.unmatched - before.unmatched;
    d.cancelled = now.cancelled - before.cancelled;
    d.unsolicited = now.unsolicited - before.unsolicited;
    d.malformed_unmatched = now.malformed_unmatched - before.malformed_unmatched;
    d.max_outstanding = now.max_outstanding;
    return d;
}

std::string failure_text(const SmpCompletion &c) {
    switch (c.outcome) {
        case SmpOutcome::kResponse:
            if (c.response.status == 0) return {};
            {
                char buf[32];
                std::snprintf(buf, sizeof buf, "status 0x%04x", c.response.status);
                return buf;
            }
        case SmpOutcome::kTimedOut:
            return "timed out after " + std::to_string(c.attempts) + " attempts";
        case SmpOutcome::kMalformed:
            return "malformed reply: " + (c.error ? c.error->message() : std::string("?"));
        case SmpOutcome::kSendFailed:
            return "send failed: " + c.transport_error;
        case SmpOutcome::kRejected:
            return "request rejected: " + (c.error ? c.error->message() : std::string("?"));
    }
    return "unknown outcome";
}

}  // namespace weft::sm
