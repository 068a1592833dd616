// SMP accounting like OpenSM's: per kind of SMP (method and attribute) how many were sent,
// answered, retried, timed out, malformed; and the fabric-wide oddities (late or duplicate
// replies, unsolicited traps, undecodable MADs nobody asked for).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "weft/sm/smp.hpp"
#include "weft/sm/smp_error.hpp"

namespace weft::sm {

struct SmpKind {
    Method method = Method::kGet;
    std::uint16_t attr_id = 0;
    friend auto operator<=>(const SmpKind &, const SmpKind &) = default;
};

struct SmpKindCounters {
    std::uint64_t sent = 0;          // every attempt on the wire, retries included
    std::uint64_t received = 0;      // replies matched to a request
    std::uint64_t retried = 0;       // attempts after the first
    std::uint64_t timed_out = 0;     // requests given up after the last retry
    std::uint64_t malformed = 0;     // replies that did not decode or did not answer the request
    std::uint64_t error_status = 0;  // replies with a non-zero MAD status
    std::uint64_t send_failed = 0;   // requests the transport could not send

    SmpKindCounters &operator+=(const SmpKindCounters &o);
    friend bool operator==(const SmpKindCounters &, const SmpKindCounters &) = default;
};

struct SmpCounters {
    std::map<SmpKind, SmpKindCounters> per_kind;
    std::uint64_t unmatched = 0;             // replies to no outstanding request (late, duplicate)
    std::uint64_t cancelled = 0;             // requests withdrawn by the caller (SmpEngine::cancel)
    std::uint64_t unsolicited = 0;           // traps and other requests from the fabric
    std::uint64_t malformed_unmatched = 0;   // MADs that did not decode and matched no request
    std::optional<SmpError> last_malformed;  // where the last undecodable MAD went wrong
    std::size_t max_outstanding = 0;         // the most SMPs ever on the wire at once

    SmpKindCounters total() const;
};

}  // namespace weft::sm
