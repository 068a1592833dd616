#include "weft/ars/profile.hpp"

#include <string>

#include "validation.hpp"

namespace weft::ars {

ConfigErrors validate(const Profile &profile) {
    ConfigErrors errors;
    using detail::check_range;
    using detail::refuse;

    if (profile.algorithm != QualityAlgorithm::kEwma) {
        refuse(errors, "SAI_ARS_PROFILE_ATTR_ALGO",
               "value " + std::to_string(static_cast<int>(profile.algorithm)) +
                   " is not a known algorithm, allowed SAI_ARS_PROFILE_ALGO_EWMA (0)");
    }
    check_range(errors, "SAI_ARS_PROFILE_ATTR_SAMPLING_INTERVAL", profile.sampling_interval_us, 1,
                kMaxSamplingIntervalUs);
    check_range(errors, "SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT", profile.ewma_exponent, kMinEwmaExponent,
                kMaxEwmaExponent);

    if (!profile.past_load_enabled && !profile.future_load_enabled) {
        refuse(errors, "SAI_ARS_PROFILE_ATTR_PORT_LOAD_PAST",
               "past and future load are both disabled, allowed: at least one of "
               "SAI_ARS_PROFILE_ATTR_PORT_LOAD_PAST / SAI_ARS_PROFILE_ATTR_PORT_LOAD_FUTURE enabled");
    } else {
        const unsigned weight = (profile.past_load_enabled ? profile.past_load_weight : 0u) +
                                (profile.future_load_enabled ? profile.future_load_weight : 0u);
        if (weight == 0) {
            refuse(errors, "SAI_ARS_PROFILE_ATTR_PORT_LOAD_PAST_WEIGHT",
                   "the enabled loads all have weight 0, allowed 1..255 for at least one enabled load");
        }
    }

    for (int i = 0; i < kBandCount; ++i) {
        const LoadBand &band = profile.bands[i];
        const std::string prefix = "SAI_ARS_PROFILE_ATTR_QUANT_BAND_" + std::to_string(i);
        if (band.min_mbps >= band.max_mbps) {
            refuse(errors, prefix + "_MIN_THRESHOLD",
                   "min " + std::to_string(band.min_mbps) + " is not below max " +
                       std::to_string(band.max_mbps) + ", allowed min < max");
        }
        if (i > 0 && profile.bands[i - 1].max_mbps > band.min_mbps) {
            refuse(errors, prefix + "_MIN_THRESHOLD",
                   "min " + std::to_string(band.min_mbps) + " is below band " + std::to_string(i - 1) +
                       "'s max " + std::to_string(profile.bands[i - 1].max_mbps) +
                       " (bands overlap or are out of order), allowed min >= " +
                       std::to_string(profile.bands[i - 1].max_mbps));
        }
    }
    return errors;
}

}  // namespace weft::ars
