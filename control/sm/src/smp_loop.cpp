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
