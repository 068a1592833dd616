#include "weft/sm/smp_engine.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace weft::sm {

namespace {

SmpCompletion completion_of(const SmpRequest &r, SmpOutcome outcome, SmTime now) {
    SmpCompletion c;
    c.cookie = r.cookie;
    c.outcome = outcome;
    c.request = r.smp;
    c.completed = now;
    return c;
}

// The reply must answer the request: same attribute, same modifier, a GetResp.
std::optional<SmpError> check_answers(const Smp &reply, const Smp &request) {
    if (reply.method != Method::kGetResp)
        return SmpError{"SMP.method", static_cast<std::uint8_t>(reply.method), "GetResp for a Get or Set"};
    if (reply.mgmt_class != request.mgmt_class)
        return SmpError{"SMP.mgmt_class", static_cast<std::uint8_t>(reply.mgmt_class), "the request's class"};
    if (reply.attr_id != request.attr_id)
        return SmpError{"SMP.attr_id", reply.attr_id, "the request's attribute"};
    if (reply.attr_mod != request.attr_mod)
        return SmpError{"SMP.attr_mod", reply.attr_mod, "the request's attribute modifier"};
    return std::nullopt;
}

OutgoingSmp outgoing(const SmpRequest &r, const SmpBytes &bytes, std::chrono::milliseconds timeout) {
    OutgoingSmp out;
    out.bytes = bytes;
    out.tid = r.smp.tid;
    out.directed = r.smp.directed();
    out.dlid = out.directed ? kPermissiveLid : r.dlid;
    out.timeout = timeout;
    return out;
}

}  // namespace

SmpEngine::SmpEngine(SmpTransport &transport, SmpEngineConfig config)
    : transport_(transport), config_(config) {
    if (config_.max_wire_smps == 0) config_.max_wire_smps = 1;
}

std::uint64_t SmpEngine::next_tid() {
    // 32-bit TIDs, never 0 (see kTidMask); the window is far smaller than the TID space, so a TID
    // is not reused while its request could still be answered.
    tid_ = (tid_ + 1) & kTidMask;
    if (tid_ == 0) tid_ = 1;
    return tid_;
}

SmpKindCounters &SmpEngine::kind(const Smp &smp) {
    return counters_.per_kind[SmpKind{smp.method, smp.attr_id}];
}

std::uint64_t SmpEngine::submit(SmpRequest request, SmTime now) {
    Pending p;
    p.request = std::move(request);
    p.request.smp.tid = next_tid();
    p.request.smp.direction = false;
    p.request.smp.hop_pointer = 0;
    auto bytes = encode_smp(p.request.smp);
    const std::uint64_t tid = p.request.smp.tid;
    if (!bytes) {
        SmpCompletion c = completion_of(p.request, SmpOutcome::kRejected, now);
        c.error = bytes.error();
        done_.push_back(std::move(c));
        return tid;
    }
    p.out = outgoing(p.request, bytes.value(),
                     std::chrono::duration_cast<std::chrono::milliseconds>(config_.timeout));
    p.tids.push_back(tid);
    queue_.push_back(std::move(p));
    fill(now);
    return tid;
}

bool SmpEngine::post(SmpRequest request, SmTime) {
    const auto bytes = encode_smp(request.smp);
    if (!bytes) return false;
    SmpKindCounters &k = kind(request.smp);
    if (!transport_.send(outgoing(request, bytes.value(), std::chrono::milliseconds(0)))) {
        ++k.send_failed;
        return false;
    }
    ++k.sent;
    return true;
}

std::size_t SmpEngine::cancel(const std::function<bool(const SmpRequest &)> &which, SmTime now) {
    const auto picked = [&which](const Pending &p) { return which(p.request); };
    const std::size_t n = std::erase_if(queue_, picked) + std::erase_if(wire_, picked);
    counters_.cancelled += n;
    fill(now);
    return n;
}

void SmpEngine::fill(SmTime now) {
    while (wire_.size() < config_.max_wire_smps && !queue_.empty()) {
        Pending p = std::move(queue_.front());
        queue_.pop_front();
        send(std::move(p), now);
    }
}

void SmpEngine::send(Pending p, SmTime now) {
    SmpKindCounters &k = kind(p.request.smp);
    if (!transport_.send(p.out)) {
        ++k.send_failed;
        SmpCompletion c = completion_of(p.request, SmpOutcome::kSendFailed, now);
        c.transport_error = transport_.error();
        c.attempts = p.attempts;
        c.first_sent = p.first_sent;
        done_.push_back(std::move(c));
        return;
    }
    ++k.sent;
    if (p.attempts > 0) ++k.retried;
    if (p.attempts == 0) p.first_sent = now;
    ++p.attempts;
    p.deadline = now + config_.timeout;
    wire_.push_back(std::move(p));
    counters_.max_outstanding = std::max(counters_.max_outstanding, wire_.size());
}

std::vector<SmpEngine::Pending>::iterator SmpEngine::find(std::uint64_t tid, bool current_attempt_only) {
    tid &= kTidMask;
    return std::find_if(wire_.begin(), wire_.end(), [&](const Pending &p) {
        if (current_attempt_only) return p.tids.back() == tid;
        return std::find(p.tids.begin(), p.tids.end(), tid) != p.tids.end();
    });
}

void SmpEngine::complete(Pending &p, SmpOutcome outcome, SmTime now) {
    SmpCompletion c = completion_of(p.request, outcome, now);
    c.attempts = p.attempts;
    c.first_sent = p.first_sent;
    done_.push_back(std::move(c));
}

void SmpEngine::on_receive(const ReceivedSmp &r, SmTime now) {
    switch (r.kind) {
        case ReceiveKind::kTimedOut:
            // The transport gave up on the current attempt: the same as our deadline passing.
            if (auto it = find(r.tid, true); it != wire_.end()) it->deadline = now;
            advance(now);
            return;
        case ReceiveKind::kSendFailed:
            if (auto it = find(r.tid, true); it != wire_.end()) {
                ++kind(it->request.smp).send_failed;
                complete(*it, SmpOutcome::kSendFailed, now);
                done_.back().transport_error = r.error;
                wire_.erase(it);
            }
            fill(now);
            return;
        case ReceiveKind::kMad:
            break;
    }
    const std::size_t n = std::min(r.length, r.bytes.size());
    Result<Smp> smp = r.length == kSmpSize ? decode_smp(std::span(r.bytes.data(), n))
                                           : Result<Smp>(SmpError{"SMP.size", r.length, "256 bytes"});
    if (!smp) {
        counters_.last_malformed = smp.error();
        std::uint64_t tid = 0;
        if (n >= 16)
            for (std::size_t i = 8; i < 16; ++i) tid = tid << 8 | r.bytes[i];
        // A broken reply to a request ends it: what it would say again is as broken.
        if (auto it = n >= 16 ? find(tid, false) : wire_.end(); it != wire_.end()) {
            ++kind(it->request.smp).malformed;
            complete(*it, SmpOutcome::kMalformed, now);
            done_.back().error = smp.error();
            wire_.erase(it);
            fill(now);
        } else {
            ++counters_.malformed_unmatched;
        }
        return;
    }
    if (!smp->is_response()) {
        ++counters_.unsolicited;
        unsolicited_.push_back(UnsolicitedSmp{std::move(smp).value(), r.slid});
        return;
    }
    auto it = find(smp->tid, false);
    if (it == wire_.end()) {
        ++counters_.unmatched;
        return;
    }
    SmpKindCounters &k = kind(it->request.smp);
    if (auto err = check_answers(smp.value(), it->request.smp)) {
        ++k.malformed;
        counters_.last_malformed = err;
        complete(*it, SmpOutcome::kMalformed, now);
        done_.back().error = err;
    } else {
        ++k.received;
        if (smp->status != 0) ++k.error_status;
        complete(*it, SmpOutcome::kResponse, now);
        done_.back().response = std::move(smp).value();
    }
    wire_.erase(it);
    fill(now);
}

void SmpEngine::advance(SmTime now) {
    std::vector<Pending> retry;
    for (auto it = wire_.begin(); it != wire_.end();) {
        if (it->deadline > now) {
            ++it;
            continue;
        }
        if (it->attempts > config_.max_retries) {
            ++kind(it->request.smp).timed_out;
            complete(*it, SmpOutcome::kTimedOut, now);
        } else {
            // A fresh TID per attempt: the transport's report for the old one then names a
            // request that has moved on; a late reply to it still matches (tids keeps them all).
            Pending p = std::move(*it);
            const std::uint64_t tid = next_tid();
            p.request.smp.tid = tid;
            for (std::size_t i = 0; i < 8; ++i)
                p.out.bytes[8 + i] = static_cast<std::uint8_t>(tid >> (56 - 8 * i));
            p.out.tid = tid;
            p.tids.push_back(tid);
            retry.push_back(std::move(p));
        }
        it = wire_.erase(it);
    }
    // Retries go out before queued requests: they have waited longest.
    for (Pending &p : retry) send(std::move(p), now);
    fill(now);
}

bool SmpEngine::pump(const std::function<SmTime()> &clock, std::chrono::milliseconds max_wait) {
    const SmTime now = clock();
    auto wait = max_wait;
    if (auto deadline = next_deadline()) {
        const auto until = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - now);
        wait = std::clamp(until + std::chrono::milliseconds(1), std::chrono::milliseconds(0), max_wait);
    }
    // What came in a burst is taken in the same round (bounded, so deadlines are still looked
    // at under a flood).
    constexpr int kMaxPerRound = 256;
    std::optional<ReceivedSmp> r = transport_.receive(wait);
    for (int taken = 1; r; ++taken) {
        on_receive(*r, clock());
        if (taken == kMaxPerRound) break;
        r = transport_.receive(std::chrono::milliseconds(0));
    }
    advance(clock());
    return !idle();
}

std::optional<SmpCompletion> SmpEngine::next_completion() {
    if (done_.empty()) return std::nullopt;
    SmpCompletion c = std::move(done_.front());
    done_.pop_front();
    return c;
}

std::optional<UnsolicitedSmp> SmpEngine::next_unsolicited() {
    if (unsolicited_.empty()) return std::nullopt;
    UnsolicitedSmp u = std::move(unsolicited_.front());
    unsolicited_.pop_front();
    return u;
}

std::optional<SmTime> SmpEngine::next_deadline() const {
    if (wire_.empty()) return std::nullopt;
    SmTime d = wire_.front().deadline;
    for (const Pending &p : wire_) d = std::min(d, p.deadline);
    return d;
}

void SmpEngine::count_malformed(const Smp &request) {
    ++kind(request).malformed;
}

}  // namespace weft::sm
