// The ARS profile: one per switch, global quality-measurement settings (SAI ARS profile object).
#pragma once

#include <array>
#include <cstdint>

#include "weft/ars/config_error.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

enum class QualityAlgorithm : std::uint8_t { kEwma = 0 };

// One quantization band: scaled load in Mbps (normalised to a 10G port), [min, max).
struct LoadBand {
    std::uint32_t min_mbps = 0;
    std::uint32_t max_mbps = 0;
};

struct Profile {
    QualityAlgorithm algorithm = QualityAlgorithm::kEwma;
    std::uint32_t sampling_interval_us = 16;  // allowed 1..65535
    std::uint32_t random_seed = 0;

    bool past_load_enabled = true;  // bytes sent in the interval
    std::uint8_t past_load_weight = 16;
    bool future_load_enabled = true;  // bytes queued at the end of the interval
    std::uint8_t future_load_weight = 16;
    // PORT_LOAD_CURRENT: when the new sample is below the average, the average snaps down to it.
    bool current_load_enabled = false;
    // EWMA exponent e, 1..16: avg = sample * 2^-e + avg * (1 - 2^-e). Larger e weighs the
    // previous average more.
    std::uint8_t ewma_exponent = 2;

    // Load bands 0..7 in ascending load; contiguous 1.25 Gbps steps of a 10G port by default.
    std::array<LoadBand, kBandCount> bands = {{{0, 1250},
                                               {1250, 2500},
                                               {2500, 3750},
                                               {3750, 5000},
                                               {5000, 6250},
                                               {6250, 7500},
                                               {7500, 8750},
                                               {8750, 10000}}};
};

inline constexpr std::uint32_t kMaxSamplingIntervalUs = 65535;
inline constexpr std::uint8_t kMinEwmaExponent = 1;
inline constexpr std::uint8_t kMaxEwmaExponent = 16;

// Every refused setting of the profile; empty when the profile is valid.
ConfigErrors validate(const Profile &profile);

}  // namespace weft::ars
