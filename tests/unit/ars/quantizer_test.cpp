// Quantization into bands at and around every edge.
#include <gtest/gtest.h>

#include "weft/ars/profile.hpp"
#include "weft/ars/quantizer.hpp"

namespace weft::ars {
namespace {

// SAI's example thresholds: band i covers [100 i, 100 (i + 1)) with band 0 starting at 10.
std::array<LoadBand, kBandCount> sai_example() {
    std::array<LoadBand, kBandCount> bands{};
    bands[0] = {10, 100};
    for (int i = 1; i < kBandCount; ++i) bands[i] = {100u * i, 100u * (i + 1)};
    return bands;
}

TEST(Quantizer, BandEdgesOfTheSaiExample) {
    const auto bands = sai_example();
    EXPECT_EQ(load_band(bands, 0), 0);   // below band 0's min
    EXPECT_EQ(load_band(bands, 10), 0);  // band 0's min
    EXPECT_EQ(load_band(bands, 99), 0);
    EXPECT_EQ(load_band(bands, 100), 1);  // band 0's max is band 1's min
    for (int i = 1; i < kBandCount; ++i) {
        EXPECT_EQ(load_band(bands, 100u * i - 1), i - 1) << i;
        EXPECT_EQ(load_band(bands, 100u * i), i) << i;
    }
    EXPECT_EQ(load_band(bands, 799), 7);
    EXPECT_EQ(load_band(bands, 800), 7);  // band 7's max: clamps to the top band
    EXPECT_EQ(load_band(bands, 1u << 30), 7);
}

TEST(Quantizer, QualityIsInvertedLoadBandSevenIsBest) {
    const auto bands = sai_example();
    EXPECT_EQ(quantize(bands, 0), kBestQuality);
    EXPECT_EQ(quantize(bands, 150), 6);
    EXPECT_EQ(quantize(bands, 799), kWorstQuality);
    EXPECT_EQ(kBestQuality, 7);
    EXPECT_EQ(kWorstQuality, 0);
}

TEST(Quantizer, GapBetweenBandsStaysInTheLowerBand) {
    auto bands = sai_example();
    bands[3] = {300, 350};  // gap 350..400 before band 4
    EXPECT_EQ(load_band(bands, 349), 3);
    EXPECT_EQ(load_band(bands, 350), 3);
    EXPECT_EQ(load_band(bands, 399), 3);
    EXPECT_EQ(load_band(bands, 400), 4);
}

TEST(Quantizer, DefaultProfileBandsCoverA10GPort) {
    const Profile p;
    EXPECT_EQ(quantize(p.bands, 0), 7);
    EXPECT_EQ(quantize(p.bands, 1249), 7);
    EXPECT_EQ(quantize(p.bands, 1250), 6);
    EXPECT_EQ(quantize(p.bands, 9999), 0);
    EXPECT_TRUE(validate(p).empty());
}

}  // namespace
}  // namespace weft::ars
