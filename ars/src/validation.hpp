// Helpers that phrase refused settings the same way everywhere: attribute, value, allowed range.
#pragma once

#include <cstdint>
#include <string>

#include "weft/ars/config_error.hpp"

namespace weft::ars::detail {

inline void refuse(ConfigErrors &errors, std::string attribute, std::string message) {
    errors.push_back({attribute, attribute + ": " + message});
}

inline void check_range(ConfigErrors &errors, const std::string &attribute, std::uint64_t value,
                        std::uint64_t lo, std::uint64_t hi) {
    if (value < lo || value > hi) {
        refuse(errors, attribute,
               "value " + std::to_string(value) + " is out of range, allowed " + std::to_string(lo) + ".." +
                   std::to_string(hi));
    }
}

inline std::string indexed(const std::string &base, std::uint64_t id) {
    return base + "[" + std::to_string(id) + "]";
}

}  // namespace weft::ars::detail
