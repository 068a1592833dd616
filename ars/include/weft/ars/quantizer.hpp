// Quantization of a scaled load into the profile's bands.
#pragma once

#include <array>
#include <cstdint>

#include "weft/ars/profile.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

// Load band of a scaled load (Mbps normalised to 10G): the highest band whose min threshold the
// load reaches. So a load equal to band i's min is in band i; a load equal to band i's max (which
// is band i+1's min when bands are contiguous) is in band i+1; a load in a gap between two bands
// stays in the lower one; below band 0's min is band 0; at or above band 7's max is band 7.
constexpr int load_band(const std::array<LoadBand, kBandCount> &bands, std::uint64_t scaled_mbps) {
    int band = 0;
    for (int i = 1; i < kBandCount; ++i) band += scaled_mbps >= bands[i].min_mbps ? 1 : 0;
    return band;
}

// Quality band published for a load band: 7 = least loaded = best (see types.hpp).
constexpr QualityBand quality_of_load_band(int band) {
    return static_cast<QualityBand>(kBestQuality - band);
}

constexpr QualityBand quantize(const std::array<LoadBand, kBandCount> &bands, std::uint64_t scaled_mbps) {
    return quality_of_load_band(load_band(bands, scaled_mbps));
}

}  // namespace weft::ars
