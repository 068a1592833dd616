// The congestion and failure detector of one switch: once per sampling interval, per watched
// port, from what the ARS quality sampler measured (the EWMA of the sent rate and the bytes
// queued), the ARNs that are due.
//
// Congestion has hysteresis: a port becomes congested when its utilization or its queue depth
// reaches the first severity level, and stays congested until both are below their "off"
// thresholds. Its severity (the Metric, 1..7) is the highest level either reaches, at least 1.
// Link down and up are failure detected and eliminated.
//
// What is compared with the thresholds: the sampler's measures averaged over the detector's
// window (an exponential average with that time constant, by the time between samples). The ARS
// sampler's own EWMA follows a few sampling intervals of 16 us, a few packets: alone it swings
// from idle to many times the line rate and back faster than any hysteresis holds, so a port
// under steady load would report congestion and its end every few hundred microseconds.
//
// What is sent, and when: a change of state (clear, congested at a severity, down) is sent as it
// is seen; news of a congested or failed port is repeated every repeat interval, so receivers
// that lost it catch up and their hold time (3 intervals, carried in the message) does not run
// out; a congestion message follows the port's previous message by at least the minimum gap
// (a port wavering around a threshold sends at most one per gap, and the last state is what
// goes out once the gap has passed); and every message takes a token from the switch's budget
// (a burst, refilled at a fixed rate), failures first, then changes, then repeats, so a flood of
// changes cannot crowd out a link failure nor exceed the budget. A message not sent for want of
// gap or token is not lost: the port's state is compared with what was last sent at the next
// sample.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "weft/arn/message.hpp"
#include "weft/arn/types.hpp"
#include "weft/ars/quality_sampler.hpp"

namespace weft::arn {

struct DetectorConfig {
    // Severity s (1..7) starts at util_levels[s - 1] percent of the line rate or at
    // queue_levels[s - 1] bytes queued; each list ascending. Level 1 is the "on" threshold.
    std::array<std::uint32_t, kMaxSeverity> util_levels = {85, 88, 91, 94, 96, 98, 100};
    std::array<std::uint64_t, kMaxSeverity> queue_levels = {64 << 10, 128 << 10, 256 << 10, 512 << 10,
                                                            1 << 20,  2 << 20,   4 << 20};
    // "Off" thresholds: a congested port is clear again once below both.
    std::uint32_t util_off_percent = 70;
    std::uint64_t queue_off_bytes = 16 << 10;

    std::uint32_t repeat_interval_us = 1000;  // news of a congested or failed port, again
    std::uint32_t min_gap_us = 100;           // between two congestion messages of one port
    std::uint32_t budget_burst = 64;          // messages the switch may send at once
    std::uint32_t budget_refill_us = 50;      // one more token every this often
    std::uint32_t hold_intervals = 3;         // hold time carried = repeat interval x this
    // Time constant of the average the thresholds judge; 0: each observation as it is (a caller
    // whose observations are already averaged over long enough, like the simulator's).
    std::uint32_t window_us = 0;
};

// Why a configuration is refused, or nothing.
std::optional<std::string> check_detector_config(const DetectorConfig &c);

// A port the detector watches: a link whose congestion matters to other switches of the group.
struct WatchedPort {
    PortNumber port = 0;                   // as the fabric numbers it (the ARN's port)
    std::uint64_t speed_mbps = 0;          // line rate, > 0
    std::optional<GroupId> peer_group;     // a global link: the group at the far end
    std::optional<std::uint32_t> path_id;  // the control plane's id of the link, if any
};

// One port's measurements over the last sampling interval.
struct PortObservation {
    bool link_up = true;
    std::uint64_t tx_mbps = 0;      // sent rate: the sampler's EWMA (ars::PortLoad::past_mbps)
    std::uint64_t queue_bytes = 0;  // queued at the end of the interval (ars::PortSample)
};

// What the ARS quality sampler measured, as the detector reads it.
inline PortObservation observe(const ars::PortLoad &load, const ars::PortSample &sample, bool link_up) {
    return {link_up, load.past_mbps, sample.bytes_queued};
}

enum class PortCondition : std::uint8_t { kClear, kCongested, kDown };

struct PortStatus {
    PortCondition condition = PortCondition::kClear;  // as measured, after hysteresis
    std::uint8_t severity = 0;                        // 1..7 while congested
    std::uint32_t util_percent = 0;                   // averaged over the window
    std::uint64_t queue_bytes = 0;                    // averaged over the window
    PortCondition sent = PortCondition::kClear;       // as the last message told the group
    std::uint8_t sent_severity = 0;
    bool ever_sent = false;
    Ticks sent_at = 0;
};

struct DetectorCounters {
    std::array<std::uint64_t, kMaxArnType + 1> sent{};  // by Type
    std::uint64_t repeats = 0;                          // of which repeats of unchanged news
    std::uint64_t deferred_gap = 0;                     // a change held back by the minimum gap
    std::uint64_t deferred_budget = 0;                  // a message held back for want of a token
};

class Detector {
  public:
    // Throws std::invalid_argument on a configuration check_detector_config refuses or a port
    // without a line rate.
    Detector(SwitchId self, const DetectorConfig &config, std::vector<WatchedPort> ports, Ticks ticks_per_us);

    // One sampling interval: observations[i] belongs to ports()[i]. Appends the ARNs due now.
    void sample(Ticks now, std::span<const PortObservation> observations, std::vector<ArnMessage> &out);

    const std::vector<WatchedPort> &ports() const { return ports_; }
    const PortStatus &status(std::size_t i) const { return status_[i]; }
    const DetectorCounters &counters() const { return counters_; }
    std::uint16_t hold_ms() const { return hold_ms_; }

  private:
    enum class Due : std::uint8_t { kNothing, kFailure, kChange, kRepeat };

    struct Average {
        double util = 0;   // percent
        double queue = 0;  // bytes
    };
    void measure(std::size_t port, const PortObservation &o, double weight);
    Due due(const PortStatus &s, Ticks now) const;
    bool take_token(Ticks now);
    ArnMessage message_for(const PortStatus &s, const WatchedPort &p);

    SwitchId self_;
    DetectorConfig config_;
    std::vector<WatchedPort> ports_;
    std::vector<PortStatus> status_;
    std::vector<Average> average_;
    Ticks repeat_ticks_;
    Ticks gap_ticks_;
    Ticks refill_ticks_;
    std::uint16_t hold_ms_;
    std::uint32_t tokens_;
    Ticks refilled_at_ = 0;
    bool started_ = false;
    Ticks window_ticks_;
    std::optional<Ticks> sampled_at_;  // the previous sample
    std::uint32_t sequence_ = 0;
    DetectorCounters counters_;
};

}  // namespace weft::arn
