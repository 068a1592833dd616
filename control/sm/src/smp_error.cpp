#include "weft/sm/smp_error.hpp"

#include <cstdio>

namespace weft::sm {

std::string SmpError::message() const {
    char value_text[32];
    std::snprintf(value_text, sizeof value_text, "0x%llx", static_cast<unsigned long long>(value));
    std::string out(field);
    out += " = ";
    out += value_text;
    out += ": expected ";
    out += expected;
    return out;
}

}  // namespace weft::sm
