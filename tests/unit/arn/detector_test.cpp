// The detector: hysteresis, severity, repetition, the minimum gap, the budget, failures.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "weft/arn/codec.hpp"
#include "weft/arn/detector.hpp"

namespace weft::arn {
namespace {

constexpr Ticks kTicksPerUs = 10;
constexpr SwitchId kSelf = 0xABCD;
constexpr std::uint64_t kSpeed = 100000;  // 100G

Ticks us(std::uint64_t n) {
    return n * kTicksPerUs;
}

PortObservation util(std::uint32_t percent, std::uint64_t queue = 0) {
    return {true, kSpeed * percent / 100, queue};
}

struct Rig {
    explicit Rig(DetectorConfig c = {}, std::size_t ports = 1) {
        std::vector<WatchedPort> watched;
        for (std::size_t i = 0; i < ports; ++i)
            watched.push_back(
                {static_cast<PortNumber>(i + 1), kSpeed, static_cast<GroupId>(i + 10), std::nullopt});
        detector.emplace(kSelf, c, watched, kTicksPerUs);
    }
    // One sample of every port with the same observation.
    std::vector<ArnMessage> at(std::uint64_t t_us, PortObservation o) {
        std::vector<PortObservation> all(detector->ports().size(), o);
        return at(t_us, all);
    }
    std::vector<ArnMessage> at(std::uint64_t t_us, const std::vector<PortObservation> &all) {
        std::vector<ArnMessage> out;
        detector->sample(us(t_us), all, out);
        return out;
    }
    std::optional<Detector> detector;
};

TEST(ArnDetector, CongestionHasHysteresis) {
    Rig r;
    EXPECT_TRUE(r.at(0, util(80)).empty());  // under the on threshold (85)
    auto m = r.at(100, util(86));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kCongestionDetected);
    EXPECT_EQ(m[0].metric, 1);
    EXPECT_EQ(m[0].reporter, kSelf);
    EXPECT_EQ(m[0].port, 1);
    EXPECT_EQ(m[0].peer_group, 10);
    EXPECT_EQ(m[0].hold_ms, 3);  // 3 x 1 ms
    // Between off (70) and on: still congested, nothing new to say.
    EXPECT_TRUE(r.at(200, util(75)).empty());
    EXPECT_EQ(r.detector->status(0).condition, PortCondition::kCongested);
    EXPECT_EQ(r.detector->status(0).severity, 1);
    // Below off: eliminated.
    m = r.at(300, util(65));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kCongestionEliminated);
    EXPECT_EQ(m[0].metric, 0);
    EXPECT_FALSE(m[0].hold_ms);
    // Back between off and on from clear: not congested.
    EXPECT_TRUE(r.at(400, util(80)).empty());
    EXPECT_EQ(r.detector->status(0).condition, PortCondition::kClear);
}

TEST(ArnDetector, BothMeasuresMustFallBelowOff) {
    Rig r;
    ASSERT_EQ(r.at(0, util(90)).size(), 1u);
    // Utilization fell, the queue has not: still congested, at the lowest severity.
    auto m = r.at(100, util(10, 20 << 10));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kCongestionDetected);
    EXPECT_EQ(m[0].metric, 1);
    EXPECT_EQ(r.detector->status(0).condition, PortCondition::kCongested);
    m = r.at(200, util(10, 1 << 10));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kCongestionEliminated);
}

TEST(ArnDetector, SeverityIsTheHigherLevelOfEitherMeasure) {
    Rig r;
    auto m = r.at(0, util(10, 70 << 10));  // the queue alone: level 1
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].metric, 1);
    m = r.at(200, util(92, 70 << 10));  // utilization level 3
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kCongestionDetected);
    EXPECT_EQ(m[0].metric, 3);
    m = r.at(400, util(92, 3 << 20));  // queue level 6
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].metric, 6);
    m = r.at(600, util(100, 100 << 20));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].metric, kMaxSeverity);
}

TEST(ArnDetector, RepeatsWhileCongestedAtTheInterval) {
    Rig r;
    std::vector<std::uint64_t> sent_at;
    std::vector<std::uint32_t> sequences;
    for (std::uint64_t t = 0; t <= 5000; t += 100) {
        for (const ArnMessage &m : r.at(t, util(90))) {
            EXPECT_EQ(m.type, ArnType::kCongestionDetected);
            sent_at.push_back(t);
            sequences.push_back(*m.sequence);
        }
    }
    EXPECT_EQ(sent_at, (std::vector<std::uint64_t>{0, 1000, 2000, 3000, 4000, 5000}));
    EXPECT_EQ(sequences, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(r.detector->counters().repeats, 5u);
    // Clear: one elimination, then silence.
    std::size_t after = 0;
    for (std::uint64_t t = 5100; t <= 9000; t += 100) after += r.at(t, util(10)).size();
    EXPECT_EQ(after, 1u);
}

TEST(ArnDetector, AWaveringPortSendsAtMostOnePerGapAndEndsOnItsLastState) {
    DetectorConfig c;
    c.min_gap_us = 100;
    Rig r(c);
    // Severity alternating 1 and 3 every 10 us for 1 ms.
    std::vector<std::uint64_t> sent_at;
    for (std::uint64_t t = 0; t < 1000; t += 10)
        for (const ArnMessage &m : r.at(t, util(t % 20 == 0 ? 86 : 92))) {
            (void)m;
            sent_at.push_back(t);
        }
    for (std::size_t i = 1; i < sent_at.size(); ++i) EXPECT_GE(sent_at[i] - sent_at[i - 1], 100u);
    EXPECT_GE(sent_at.size(), 9u);
    EXPECT_GT(r.detector->counters().deferred_gap, 0u);
    // Settled at severity 2: what goes out once the gap passes is the settled state.
    std::vector<ArnMessage> last;
    for (std::uint64_t t = 1000; t < 1300; t += 10)
        for (const ArnMessage &m : r.at(t, util(89))) last.push_back(m);
    ASSERT_FALSE(last.empty());
    EXPECT_EQ(last.back().metric, 2);
    EXPECT_EQ(r.detector->status(0).sent_severity, 2);
}

TEST(ArnDetector, LinkDownAndUpAreFailureNews) {
    Rig r;
    ASSERT_EQ(r.at(0, util(90)).size(), 1u);
    auto m = r.at(10, PortObservation{false, 0, 0});  // within the gap: failures do not wait
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kFailureDetected);
    EXPECT_EQ(m[0].metric, kFailureLinkDown);
    EXPECT_EQ(m[0].hold_ms, 3);
    // Repeated while down.
    m = r.at(1010, PortObservation{false, 0, 0});
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kFailureDetected);
    // Up and busy: failure eliminated first, the congestion a gap later.
    m = r.at(1050, util(95));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kFailureEliminated);
    EXPECT_TRUE(r.at(1100, util(95)).empty());
    m = r.at(1150, util(95));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, ArnType::kCongestionDetected);
    EXPECT_EQ(m[0].metric, 4);
    const DetectorCounters &k = r.detector->counters();
    EXPECT_EQ(k.sent[static_cast<std::size_t>(ArnType::kFailureDetected)], 2u);
    EXPECT_EQ(k.sent[static_cast<std::size_t>(ArnType::kFailureEliminated)], 1u);
    EXPECT_EQ(k.sent[static_cast<std::size_t>(ArnType::kCongestionDetected)], 2u);
}

TEST(ArnDetector, TheBudgetBoundsAFloodAndFailuresGoFirst) {
    DetectorConfig c;
    c.budget_burst = 8;
    c.budget_refill_us = 100;
    Rig r(c, 20);
    // Every port congests and the last one also goes down.
    std::vector<PortObservation> all(20, util(90));
    all[19] = PortObservation{false, 0, 0};
    auto m = r.at(0, all);
    ASSERT_EQ(m.size(), 8u);
    EXPECT_EQ(m[0].type, ArnType::kFailureDetected);
    EXPECT_EQ(m[0].port, 20);
    EXPECT_EQ(r.detector->counters().deferred_budget, 12u);
    // One token per 100 us: the other ports' news follows, one per refill, before any repeat.
    for (std::uint64_t t = 100; t <= 1200; t += 100) {
        m = r.at(t, all);
        ASSERT_EQ(m.size(), 1u) << t;
        EXPECT_EQ(m[0].port, t / 100 + 7) << t;
    }
    for (std::size_t i = 0; i < 20; ++i) EXPECT_TRUE(r.detector->status(i).ever_sent) << i;
}

TEST(ArnDetector, ReadsWhatTheQualitySamplerMeasured) {
    ars::PortLoad load;
    load.past_mbps = 91000;
    ars::PortSample sample{0, 5000};
    const PortObservation o = observe(load, sample, true);
    EXPECT_EQ(o.tx_mbps, 91000u);
    EXPECT_EQ(o.queue_bytes, 5000u);
    Rig r;
    const auto m = r.at(0, o);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].metric, 3);
    EXPECT_EQ(r.detector->status(0).util_percent, 91u);
}

// What the ARS sampler's EWMA (16 us intervals, exponent 2) reads on a port of 10 Mbit/s that
// carries 1000-byte packets at `mbps` on average: a packet's interval alone is 500 Mbit/s, and
// the average is back near 0 a few intervals later. One observation per interval from t_us on.
struct BurstyPort {
    ars::Ewma ewma;
    std::uint64_t gap_us;
    explicit BurstyPort(std::uint64_t mbps) : gap_us(mbps == 0 ? 0 : 8000 / mbps) {}
    PortObservation at(std::uint64_t t_us) {
        const bool packet = gap_us != 0 && t_us % gap_us < 16;
        ewma.update(packet ? 1000 * 8 / 16 : 0, 2, false);
        return {true, ewma.value(), 0};
    }
};

// Twice the line rate for 50 ms, then idle; what the detector sends and when it first did.
struct Sent {
    std::vector<ArnMessage> messages;
    std::uint64_t first_us = 0;
};
Sent bursty_overload(std::uint32_t window_us) {
    DetectorConfig c;
    c.window_us = window_us;
    for (std::size_t i = 0; i < kMaxSeverity; ++i)
        c.util_levels[i] = static_cast<std::uint32_t>(50 + 50 * i / 6);
    c.util_off_percent = 30;
    std::vector<WatchedPort> watched{{1, 10, 2, std::nullopt}};
    Detector d(kSelf, c, watched, kTicksPerUs);
    BurstyPort busy(20), idle(0);
    Sent out;
    for (std::uint64_t t = 0; t < 80000; t += 16) {
        const PortObservation o = (t < 50000 ? busy : idle).at(t);
        d.sample(us(t), std::span<const PortObservation>(&o, 1), out.messages);
        if (out.first_us == 0 && !out.messages.empty()) out.first_us = t;
    }
    return out;
}

// One congestion detected (rising in severity as the average climbs, then repeated), one
// elimination once the load is gone, nothing in between.
TEST(ArnDetector, HysteresisHoldsOverTheSamplersShortEwma) {
    const Sent sent = bursty_overload(2000);
    const std::vector<ArnMessage> &out = sent.messages;
    std::vector<ArnType> changes;
    std::uint8_t worst = 0;
    for (const ArnMessage &m : out) {
        if (changes.empty() || changes.back() != m.type) changes.push_back(m.type);
        worst = std::max(worst, m.metric);
    }
    EXPECT_EQ(changes, (std::vector<ArnType>{ArnType::kCongestionDetected, ArnType::kCongestionEliminated}));
    EXPECT_EQ(worst, kMaxSeverity);  // 200 % of the line rate
    // The average passes 50 % a little over a third of a window in (1 - e^-x = 1/4).
    EXPECT_GT(sent.first_us, 400u);
    EXPECT_LT(sent.first_us, 1200u);
    // About one message per millisecond of the 50: repeats, and the severity's climb.
    EXPECT_GT(out.size(), 45u);
    EXPECT_LT(out.size(), 80u);
    // Without a window the same load reads as congestion ending and starting again all along.
    std::size_t flips = 0;
    const std::vector<ArnMessage> raw = bursty_overload(0).messages;
    for (std::size_t i = 1; i < raw.size(); ++i) flips += raw[i].type != raw[i - 1].type;
    EXPECT_GT(flips, 50u);
}

// The hold time goes out in whole milliseconds and 0 is no hold time on the wire (the codec
// refuses it): one shorter than a millisecond is carried as 1, a longer one rounded up.
TEST(ArnDetector, TheHoldTimeCarriedIsNeverZero) {
    for (const auto &[interval_us, intervals, want_ms] : {std::tuple{1u, 1u, 1u},
                                                          {100u, 3u, 1u},
                                                          {333u, 3u, 1u},
                                                          {334u, 3u, 2u},
                                                          {2000u, 3u, 6u},
                                                          {1000u, 50u, 50u}}) {
        DetectorConfig c;
        c.repeat_interval_us = interval_us;
        c.hold_intervals = intervals;
        Rig r(c);
        EXPECT_EQ(r.detector->hold_ms(), want_ms) << interval_us << " x " << intervals;
        const auto m = r.at(0, util(90));
        ASSERT_EQ(m.size(), 1u);
        EXPECT_EQ(m[0].hold_ms, want_ms);
        EXPECT_EQ(decode_arn(encode_arn(m[0])).message, m[0]);
    }
    DetectorConfig none;
    none.hold_intervals = 0;
    EXPECT_TRUE(check_detector_config(none));  // `arn hold 0` is refused, not sent as 0
}

TEST(ArnDetector, RefusesABadConfiguration) {
    DetectorConfig c;
    EXPECT_FALSE(check_detector_config(c));
    c.util_off_percent = 90;
    EXPECT_TRUE(check_detector_config(c));
    c = {};
    c.util_levels[3] = 50;
    EXPECT_TRUE(check_detector_config(c));
    c = {};
    c.queue_off_bytes = 1 << 30;
    EXPECT_TRUE(check_detector_config(c));
    c = {};
    c.repeat_interval_us = 0;
    EXPECT_TRUE(check_detector_config(c));
    c = {};
    c.repeat_interval_us = 30000000;
    EXPECT_TRUE(check_detector_config(c));
    c = {};
    c.budget_burst = 0;
    EXPECT_THROW(Detector(kSelf, c, {}, kTicksPerUs), std::invalid_argument);
    EXPECT_THROW(Detector(kSelf, DetectorConfig{}, {{1, 0, std::nullopt, std::nullopt}}, kTicksPerUs),
                 std::invalid_argument);
}

}  // namespace
}  // namespace weft::arn
