// Per-port ARS settings (SAI_PORT_ATTR_ARS_*).
#pragma once

#include <cstdint>
#include <optional>

#include "weft/ars/types.hpp"

namespace weft::ars {

struct PortConfig {
    PortId id = 0;
    // A port without ARS does not take part in ARS selection: members on it get no ARS traffic.
    bool ars_enabled = true;
    // Load scaling factor in tenths, normalised to 10G (10G = 10, 25G = 25, 100G = 100), so the
    // SAI table's 2.5 for 25G is exact. The scaled load is load * 10 / scale_tenths.
    std::uint32_t scale_tenths = 10;
    // Per-port weights of past and future load, percent of the profile's weights (0..100).
    std::uint8_t past_weight_percent = 100;
    std::uint8_t future_weight_percent = 100;
};

inline constexpr std::uint32_t kMaxScaleTenths = 100000;  // up to a 100T port

// SAI's speed table (10G = 1, 25G = 2.5, 40G = 4, 50G = 5, 100G = 10, 200G = 20, 400G = 40,
// 800G = 80), in tenths. Other speeds have no entry.
constexpr std::optional<std::uint32_t> scale_tenths_for_speed_gbps(std::uint32_t gbps) {
    switch (gbps) {
        case 10:
            return 10;
        case 25:
            return 25;
        case 40:
            return 40;
        case 50:
            return 50;
        case 100:
            return 100;
        case 200:
            return 200;
        case 400:
            return 400;
        case 800:
            return 800;
        default:
            return std::nullopt;
    }
}

}  // namespace weft::ars
