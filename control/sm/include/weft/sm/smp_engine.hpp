// SmpEngine: the window of SMPs on the wire above any SmpTransport. Requests are queued and
// sent while fewer than max_wire_smps are outstanding (OpenSM's max_wire_smps); replies are
// matched by TID and checked; a request without a reply by its deadline is sent again with a
// fresh TID (a late reply to an earlier attempt still counts) up to max_retries times, then
// completes as timed out. Every SMP is counted per kind (smp_counters.hpp).
//
// Pure: time is a parameter (any monotonic clock's count), nothing blocks. The caller feeds
// what the transport received (on_receive), lets time pass (advance), and takes completions and
// unsolicited traps; pump() is that loop for a transport that can wait.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "weft/sm/smp.hpp"
#include "weft/sm/smp_counters.hpp"
#include "weft/sm/smp_transport.hpp"

namespace weft::sm {

using SmTime = std::chrono::nanoseconds;

struct SmpEngineConfig {
    std::size_t max_wire_smps = 4;                    // OpenSM's defaults: max_wire_smps 4,
    SmTime timeout = std::chrono::milliseconds(200);  // transaction_timeout 200 ms,
    unsigned max_retries = 3;                         // transaction_retries 3
};

struct SmpRequest {
    Smp smp;                    // its TID is the engine's to set
    Lid dlid = kPermissiveLid;  // LID-routed SMPs: the destination
    std::uint64_t cookie = 0;   // the caller's, handed back in the completion
};

enum class SmpOutcome : std::uint8_t {
    kResponse,    // `response` holds the reply (check its status: an SMA may refuse)
    kTimedOut,    // no reply after the last retry
    kMalformed,   // a reply came that did not decode or did not answer the request (`error`)
    kSendFailed,  // the transport refused it (`transport_error`)
    kRejected,    // the request itself does not encode (`error`): a bug of the caller
};

struct SmpCompletion {
    std::uint64_t cookie = 0;
    SmpOutcome outcome = SmpOutcome::kResponse;
    Smp request;
    Smp response;  // kResponse only
    std::optional<SmpError> error;
    std::string transport_error;
    unsigned attempts = 0;
    SmTime first_sent{0};
    SmTime completed{0};
};

struct UnsolicitedSmp {
    Smp smp;  // a Trap, TrapRepress, or a request from another SM
    Lid slid = 0;
};

class SmpEngine {
  public:
    SmpEngine(SmpTransport &transport, SmpEngineConfig config);

    // Queues `request` (sent now if the window has room). Returns the TID of its first attempt.
    std::uint64_t submit(SmpRequest request, SmTime now);

    // Sends an SMP no reply answers (a TrapRepress) past the window: counted as sent, nothing
    // waits for it. False when it does not encode or the transport refuses it.
    bool post(SmpRequest request, SmTime now);

    // What the transport received at `now`.
    void on_receive(const ReceivedSmp &received, SmTime now);

    // Lets time pass: retries and times out overdue requests, sends queued ones.
    void advance(SmTime now);

    // One round for a transport that can wait: receive (waiting until the next deadline, at
    // most `max_wait`; idle, the whole `max_wait`, for traps), then advance. `clock` gives the
    // time. False once nothing is queued or outstanding.
    bool pump(const std::function<SmTime()> &clock, std::chrono::milliseconds max_wait);

    // Withdraws the queued and outstanding requests `which` picks (ones the caller learned are
    // lost, e.g. sent through a link that went down): no completion comes for them, and a late
    // reply counts as unmatched. Returns how many.
    std::size_t cancel(const std::function<bool(const SmpRequest &)> &which, SmTime now);

    std::optional<SmpCompletion> next_completion();
    std::optional<UnsolicitedSmp> next_unsolicited();

    // When advance() has work next (the earliest deadline), if anything is outstanding.
    std::optional<SmTime> next_deadline() const;
    std::size_t outstanding() const { return wire_.size(); }
    std::size_t queued() const { return queue_.size(); }
    bool idle() const { return wire_.empty() && queue_.empty(); }

    const SmpCounters &counters() const { return counters_; }
    // Replies the caller found malformed at the attribute level count with their kind.
    void count_malformed(const Smp &request);
    const SmpEngineConfig &config() const { return config_; }

  private:
    struct Pending {
        SmpRequest request;
        OutgoingSmp out;
        std::vector<std::uint64_t> tids;  // one per attempt, the current one last
        unsigned attempts = 0;
        SmTime first_sent{0};
        SmTime deadline{0};
    };

    std::uint64_t next_tid();
    void fill(SmTime now);
    void send(Pending p, SmTime now);
    void complete(Pending &p, SmpOutcome outcome, SmTime now);
    std::vector<Pending>::iterator find(std::uint64_t tid, bool current_attempt_only);
    SmpKindCounters &kind(const Smp &smp);

    SmpTransport &transport_;
    SmpEngineConfig config_;
    std::uint64_t tid_ = 0;
    std::deque<Pending> queue_;
    std::vector<Pending> wire_;
    std::deque<SmpCompletion> done_;
    std::deque<UnsolicitedSmp> unsolicited_;
    SmpCounters counters_;
};

}  // namespace weft::sm
