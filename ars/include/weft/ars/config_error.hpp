// A refused setting: which attribute, and why (with the allowed range).
#pragma once

#include <string>
#include <vector>

namespace weft::ars {

struct ConfigError {
    std::string attribute;  // SAI-style attribute name, e.g. "SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT"
    std::string message;    // full sentence naming the attribute, the value and the allowed range
};

using ConfigErrors = std::vector<ConfigError>;

}  // namespace weft::ars
