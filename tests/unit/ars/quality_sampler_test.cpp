// EWMA, snap-down, weights, scaling and LAG aggregation of the quality sampler.
#include <gtest/gtest.h>

#include <vector>

#include "rig.hpp"
#include "weft/ars/ewma.hpp"
#include "weft/ars/quality_sampler.hpp"
#include "weft/ars/quantizer.hpp"

namespace weft::ars {
namespace {

TEST(Ewma, ExponentWeighsThePreviousValue) {
    Ewma fast, slow;
    for (int i = 0; i < 3; ++i) {
        fast.update(1000, 1, false);
        slow.update(1000, 4, false);
    }
    // exponent 1: 500, 750, 875. exponent 4: 62.5, 121.09, 176.5.
    EXPECT_EQ(fast.value(), 875u);
    EXPECT_EQ(slow.value(), 176u);
}

TEST(Ewma, SnapDownOnlyWhenCurrentLoadEnabled) {
    Ewma smooth, snap;
    for (int i = 0; i < 40; ++i) {
        smooth.update(1000, 2, false);
        snap.update(1000, 2, true);
    }
    EXPECT_EQ(smooth.value(), 999u);  // fixed point converges from below
    smooth.update(100, 2, false);
    snap.update(100, 2, true);
    EXPECT_GT(smooth.value(), 700u);  // 999 - (899 / 4)
    EXPECT_EQ(snap.value(), 100u);    // the average snaps down to the sample
    snap.update(500, 2, true);        // rising is still smoothed
    EXPECT_EQ(snap.value(), 200u);
}

struct SamplerRig {
    PortBoard board{test::kPorts, test::kLags};
    QualitySampler sampler{test::kPorts};
    std::vector<PortSample> samples = std::vector<PortSample>(test::kPorts);

    void run(const Config &c, int intervals) {
        for (int i = 0; i < intervals; ++i) sampler.update(c, samples, board);
    }
};

// Bytes that make `mbps` over the default 16 us interval.
std::uint64_t bytes_for(std::uint64_t mbps) {
    return mbps * 16 / 8;
}

TEST(QualitySampler, PastLoadDrivesTheBand) {
    Profile profile;
    profile.future_load_enabled = false;
    auto c = test::build(test::builder(Mode::kFlowletQuality, profile));
    SamplerRig rig;
    rig.samples[0].bytes_sent = bytes_for(5000);  // 5 Gbps on a 10G port
    rig.samples[1].bytes_sent = bytes_for(9000);
    rig.run(*c, 60);
    EXPECT_EQ(rig.sampler.port_load(0).past_mbps, 4999u);
    EXPECT_EQ(rig.board.port_quality(0), 4);  // 3750..5000 is load band 3 -> quality 4
    EXPECT_EQ(rig.board.port_quality(1), 0);
    EXPECT_EQ(rig.board.port_quality(2), 7);  // idle
}

// A late caller passes the intervals that passed: the same as one update per interval, for every
// count (including ones past the point where the averages stop moving).
TEST(QualitySampler, SeveralIntervalsAtOnceEqualOneUpdateEach) {
    Profile profile;
    profile.ewma_exponent = 3;
    auto c = test::build(test::builder(Mode::kFlowletQuality, profile));
    for (int k : {1, 2, 3, 7, 40, 200}) {
        SamplerRig one, many;
        for (SamplerRig *r : {&one, &many}) {
            r->samples[0].bytes_sent = bytes_for(6000);
            r->samples[0].bytes_queued = bytes_for(1000);
            r->samples[1].bytes_sent = bytes_for(300);
            r->run(*c, 5);
            r->samples[0].bytes_sent = bytes_for(2000);  // falling: snap-down
            r->samples[1].bytes_sent = bytes_for(9500);  // rising: smoothed
        }
        one.run(*c, k);
        many.sampler.update(*c, many.samples, many.board, static_cast<std::uint64_t>(k));
        for (PortId p = 0; p < 2; ++p) {
            EXPECT_EQ(one.sampler.port_load(p).past_mbps, many.sampler.port_load(p).past_mbps) << k;
            EXPECT_EQ(one.sampler.port_load(p).future_mbps, many.sampler.port_load(p).future_mbps) << k;
            EXPECT_EQ(one.board.port_quality(p), many.board.port_quality(p)) << k;
        }
    }
}

TEST(QualitySampler, WeightedCombinationOfPastAndFuture) {
    Profile profile;
    profile.past_load_weight = 3;
    profile.future_load_weight = 1;
    auto b = test::builder(Mode::kFlowletQuality, profile);
    auto c = test::build(b);
    SamplerRig rig;
    rig.samples[0].bytes_sent = bytes_for(8000);
    rig.samples[0].bytes_queued = 0;
    rig.run(*c, 60);
    // (3 * 7999 + 1 * 0) / 4
    EXPECT_EQ(rig.sampler.port_load(0).combined_mbps, 5999u);
}

TEST(QualitySampler, PortPercentWeightsAndScaling) {
    Profile profile;
    ConfigBuilder b(profile, test::kTicksPerUs);
    b.add_port(PortConfig{0, true, 100, 100, 0});   // 100G, future weight 0 %
    b.add_port(PortConfig{1, true, 25, 100, 100});  // 25G
    auto c = test::build(b);
    SamplerRig rig;
    rig.samples[0].bytes_sent = bytes_for(50000);    // 50 Gbps on 100G = 5 Gbps scaled
    rig.samples[0].bytes_queued = bytes_for(90000);  // ignored: 0 %
    rig.samples[1].bytes_sent = bytes_for(20000);    // 20 Gbps on 25G = 8 Gbps scaled
    rig.samples[1].bytes_queued = bytes_for(20000);
    rig.run(*c, 80);
    EXPECT_EQ(rig.sampler.port_load(0).scaled_mbps, 4999u);
    EXPECT_EQ(rig.board.port_quality(0), 4);
    EXPECT_EQ(rig.sampler.port_load(1).scaled_mbps, 7999u);
    EXPECT_EQ(rig.board.port_quality(1), 1);  // 7500..8750 is load band 6
}

TEST(QualitySampler, SaiSpeedTable) {
    EXPECT_EQ(scale_tenths_for_speed_gbps(10), 10u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(25), 25u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(40), 40u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(50), 50u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(100), 100u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(200), 200u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(400), 400u);
    EXPECT_EQ(scale_tenths_for_speed_gbps(800), 800u);
    EXPECT_FALSE(scale_tenths_for_speed_gbps(1));
}

TEST(QualitySampler, CurrentLoadSnapsTheBandUpAtOnce) {
    Profile profile;
    profile.current_load_enabled = true;
    profile.future_load_enabled = false;
    auto c = test::build(test::builder(Mode::kFlowletQuality, profile));
    SamplerRig rig;
    rig.samples[0].bytes_sent = bytes_for(9500);
    rig.run(*c, 60);
    EXPECT_EQ(rig.board.port_quality(0), 0);
    rig.samples[0].bytes_sent = 0;
    rig.run(*c, 1);
    EXPECT_EQ(rig.board.port_quality(0), 7);
}

TEST(QualitySampler, LagIsOneBigPortOfItsUpMembers) {
    auto b = test::builder();
    b.add_lag(LagConfig{2, kNoArsObject, {4, 5}});
    auto c = test::build(b);
    SamplerRig rig;
    rig.board.set_link_up(4, true);
    rig.board.set_link_up(5, true);
    rig.samples[4].bytes_sent = bytes_for(9000);
    rig.samples[5].bytes_sent = bytes_for(1000);
    Profile p;
    rig.run(*c, 60);
    // (8999 + 999) / 2 ports -> 4999 Mbps per 10G -> quality 4 (both loads enabled, queue 0 -> half).
    const std::uint64_t combined =
        rig.sampler.port_load(4).combined_mbps + rig.sampler.port_load(5).combined_mbps;
    EXPECT_EQ(rig.board.lag_quality(2), quantize(p.bands, combined * 10 / 20));
    rig.board.set_link_up(5, false);
    rig.run(*c, 1);
    EXPECT_EQ(rig.board.lag_quality(2), quantize(p.bands, rig.sampler.port_load(4).combined_mbps));
    rig.board.set_link_up(4, false);
    rig.run(*c, 1);
    EXPECT_EQ(rig.board.lag_quality(2), kWorstQuality);
}

TEST(QualitySampler, IntervalsBetween) {
    auto c = test::build(test::builder());
    EXPECT_EQ(QualitySampler::intervals_between(*c, 0, test::us(15)), 0u);
    EXPECT_EQ(QualitySampler::intervals_between(*c, 0, test::us(16)), 1u);
    EXPECT_EQ(QualitySampler::intervals_between(*c, test::us(5), test::us(100)), 5u);
}

}  // namespace
}  // namespace weft::ars
