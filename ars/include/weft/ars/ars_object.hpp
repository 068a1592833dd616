// The ARS object (SAI_OBJECT_TYPE_ARS): how a next-hop group or LAG assigns paths.
#pragma once

#include <cstdint>

#include "weft/ars/types.hpp"

namespace weft::ars {

struct ArsObjectConfig {
    ArsObjectId id = 0;
    Mode mode = Mode::kFlowletQuality;
    std::uint32_t idle_time_us = 256;  // a flowlet ends when now - last seen > idle time
    std::uint32_t max_flows = 512;     // macro flows per table, a power of two
    bool monitoring = false;           // call the monitoring hook on every path reassignment
    std::uint32_t max_primary_members = 16;
    std::uint32_t max_alternate_members = 16;
};

inline constexpr std::uint32_t kMinIdleTimeUs = 1;
inline constexpr std::uint32_t kMaxIdleTimeUs = 1000000;

}  // namespace weft::ars
