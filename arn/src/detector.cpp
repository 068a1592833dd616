#include "weft/arn/detector.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace weft::arn {

std::optional<std::string> check_detector_config(const DetectorConfig &c) {
    if (!std::is_sorted(c.util_levels.begin(), c.util_levels.end()))
        return "utilization levels must not decrease";
    if (!std::is_sorted(c.queue_levels.begin(), c.queue_levels.end()))
        return "queue levels must not decrease";
    if (c.util_off_percent > c.util_levels[0])
        return "the utilization off threshold is above the on threshold (level 1)";
    if (c.queue_off_bytes > c.queue_levels[0])
        return "the queue off threshold is above the on threshold (level 1)";
    if (c.repeat_interval_us == 0) return "the repeat interval must be at least 1 us";
    if (c.budget_burst == 0) return "the message budget must allow at least one message";
    if (c.budget_refill_us == 0) return "the budget refill interval must be at least 1 us";
    if (c.hold_intervals == 0) return "the hold time must be at least one repeat interval";
    if (std::uint64_t{c.repeat_interval_us} * c.hold_intervals > std::uint64_t{0xFFFF} * 1000)
        return "the hold time (repeat interval x hold intervals) is over 65535 ms";
    return std::nullopt;
}

Detector::Detector(SwitchId self, const DetectorConfig &config, std::vector<WatchedPort> ports,
                   Ticks ticks_per_us)
    : self_(self),
      config_(config),
      ports_(std::move(ports)),
      status_(ports_.size()),
      average_(ports_.size()),
      repeat_ticks_(Ticks{config.repeat_interval_us} * ticks_per_us),
      gap_ticks_(Ticks{config.min_gap_us} * ticks_per_us),
      refill_ticks_(Ticks{config.budget_refill_us} * ticks_per_us),
      hold_ms_(0),
      tokens_(config.budget_burst),
      window_ticks_(Ticks{config.window_us} * ticks_per_us) {
    if (const auto why = check_detector_config(config)) throw std::invalid_argument("ARN detector: " + *why);
    if (ticks_per_us == 0) throw std::invalid_argument("ARN detector: ticks per microsecond must be > 0");
    for (const WatchedPort &p : ports_)
        if (p.speed_mbps == 0)
            throw std::invalid_argument("ARN detector: a watched port without a line rate");
    const std::uint64_t hold_us = std::uint64_t{config.repeat_interval_us} * config.hold_intervals;
    hold_ms_ = static_cast<std::uint16_t>(std::max<std::uint64_t>(1, (hold_us + 999) / 1000));
}

void Detector::measure(std::size_t port, const PortObservation &o, double weight) {
    PortStatus &s = status_[port];
    const WatchedPort &p = ports_[port];
    Average &a = average_[port];
    a.util += (static_cast<double>(o.tx_mbps) * 100.0 / static_cast<double>(p.speed_mbps) - a.util) * weight;
    a.queue += (static_cast<double>(o.queue_bytes) - a.queue) * weight;
    s.util_percent = static_cast<std::uint32_t>(std::min(a.util, double{0xFFFFFFFF}));
    s.queue_bytes = static_cast<std::uint64_t>(a.queue);
    if (!o.link_up) {
        s.condition = PortCondition::kDown;
        s.severity = 0;
        return;
    }
    // The highest level either measure reaches.
    std::uint8_t level = 0;
    for (std::uint8_t i = 0; i < kMaxSeverity; ++i)
        if (s.util_percent >= config_.util_levels[i] || s.queue_bytes >= config_.queue_levels[i])
            level = static_cast<std::uint8_t>(i + 1);
    const bool below_off =
        s.util_percent < config_.util_off_percent && s.queue_bytes < config_.queue_off_bytes;
    const bool congested = level > 0 || (s.condition == PortCondition::kCongested && !below_off);
    s.condition = congested ? PortCondition::kCongested : PortCondition::kClear;
    s.severity = congested ? std::max<std::uint8_t>(level, 1) : 0;
}

Detector::Due Detector::due(const PortStatus &s, Ticks now) const {
    const bool down_news = (s.condition == PortCondition::kDown) != (s.sent == PortCondition::kDown);
    if (down_news) return Due::kFailure;
    const bool changed = s.condition != s.sent || s.severity != s.sent_severity;
    if (changed) return now - s.sent_at >= gap_ticks_ || !s.ever_sent ? Due::kChange : Due::kNothing;
    if (s.condition != PortCondition::kClear && now - s.sent_at >= repeat_ticks_) return Due::kRepeat;
    return Due::kNothing;
}

bool Detector::take_token(Ticks now) {
    if (!started_) {
        started_ = true;
        refilled_at_ = now;
    }
    if (now > refilled_at_) {
        const Ticks periods = (now - refilled_at_) / refill_ticks_;
        tokens_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(
            config_.budget_burst, tokens_ + std::min<Ticks>(periods, config_.budget_burst)));
        refilled_at_ += periods * refill_ticks_;
        if (tokens_ == config_.budget_burst) refilled_at_ = now;  // a full bucket does not bank time
    }
    if (tokens_ == 0) return false;
    --tokens_;
    return true;
}

ArnMessage Detector::message_for(const PortStatus &s, const WatchedPort &p) {
    ArnMessage m;
    const bool down = s.condition == PortCondition::kDown;
    if (down) {
        m.type = ArnType::kFailureDetected;
        m.metric = kFailureLinkDown;
    } else if (s.sent == PortCondition::kDown) {
        m.type = ArnType::kFailureEliminated;
        m.metric = 0;
    } else if (s.condition == PortCondition::kCongested) {
        m.type = ArnType::kCongestionDetected;
        m.metric = s.severity;
    } else {
        m.type = ArnType::kCongestionEliminated;
        m.metric = 0;
    }
    m.reporter = self_;
    m.port = p.port;
    m.peer_group = p.peer_group;
    m.path_id = p.path_id;
    m.sequence = sequence_++;
    if (m.type == ArnType::kCongestionDetected || m.type == ArnType::kFailureDetected) m.hold_ms = hold_ms_;
    return m;
}

void Detector::sample(Ticks now, std::span<const PortObservation> observations,
                      std::vector<ArnMessage> &out) {
    const std::size_t n = std::min(observations.size(), ports_.size());
    // The share of the average the new observation takes: all of it without a window, else
    // 1 - e^(-dt / window) for the time since the previous sample (the average starts idle).
    double weight = 1.0;
    if (window_ticks_ != 0) {
        const Ticks dt = sampled_at_ && now > *sampled_at_ ? now - *sampled_at_ : 0;
        weight = 1.0 - std::exp(-static_cast<double>(dt) / static_cast<double>(window_ticks_));
    }
    sampled_at_ = now;
    for (std::size_t i = 0; i < n; ++i) measure(i, observations[i], weight);

    // Failures first, then changes, then repeats: the budget goes to the news that matters most.
    for (const Due pass : {Due::kFailure, Due::kChange, Due::kRepeat}) {
        for (std::size_t i = 0; i < n; ++i) {
            PortStatus &s = status_[i];
            const Due d = due(s, now);
            if (d == Due::kNothing && pass == Due::kChange && s.ever_sent &&
                (s.condition != s.sent || s.severity != s.sent_severity))
                ++counters_.deferred_gap;
            if (d != pass) continue;
            if (!take_token(now)) {
                ++counters_.deferred_budget;
                continue;
            }
            const ArnMessage m = message_for(s, ports_[i]);
            ++counters_.sent[static_cast<std::size_t>(m.type)];
            if (d == Due::kRepeat) ++counters_.repeats;
            out.push_back(m);
            s.sent = m.type == ArnType::kFailureEliminated ? PortCondition::kClear : s.condition;
            s.sent_severity = m.type == ArnType::kFailureEliminated ? 0 : s.severity;
            s.sent_at = now;
            s.ever_sent = true;
        }
    }
}

}  // namespace weft::arn
