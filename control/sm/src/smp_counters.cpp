#include "weft/sm/smp_counters.hpp"

namespace weft::sm {

SmpKindCounters &SmpKindCounters::operator+=(const SmpKindCounters &o) {
    sent += o.sent;
    received += o.received;
    retried += o.retried;
    timed_out += o.timed_out;
    malformed += o.malformed;
    error_status += o.error_status;
    send_failed += o.send_failed;
    return *this;
}

SmpKindCounters SmpCounters::total() const {
    SmpKindCounters t;
    for (const auto &[kind, c] : per_kind) t += c;
    return t;
}

}  // namespace weft::sm
