// Telemetry request parameters (/weft/port_stats,<port>, /weft/ars_nhg,<id>): any bytes give an
// id only when they are its canonical decimal spelling within the limit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "weft/dataplane/telemetry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte picks the limit, the rest is the parameter (cut at a NUL, as C strings are).
    static constexpr std::uint64_t kLimits[] = {0, 1, 9, 10, 31, 65535, 0xFFFFFFFFu, UINT64_MAX};
    const std::uint64_t max = kLimits[data[0] % 8];
    const std::string params(reinterpret_cast<const char *>(data + 1), size - 1);
    const auto id = weft::dataplane::telemetry_id(params.c_str(), max);
    const std::string cut(params.c_str());
    if (id) {
        if (*id > max || std::to_string(*id) != cut) std::abort();
    } else if (!cut.empty() && cut.size() <= 20 && cut.find_first_not_of("0123456789") == std::string::npos &&
               (cut == "0" || cut[0] != '0')) {
        // Canonical digits refused: only because the value is above the limit.
        const unsigned long long v = std::strtoull(cut.c_str(), nullptr, 10);
        if (cut.size() < 20 && v <= max) std::abort();
    }
    return 0;
}
