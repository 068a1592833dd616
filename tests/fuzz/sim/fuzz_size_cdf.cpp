// libFuzzer target: flow-size CDFs. A CDF that reads must sample within its own range for any
// draw, and have a finite mean.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "size_cdf.hpp"
#include "weft/routing/parse_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 16384) return 0;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const weft::sim::SizeCdf cdf = weft::sim::SizeCdf::parse(text, "fuzz.cdf");
        const double top = cdf.points().back().bytes;
        for (double u : {0.0, 0.01, 0.5, 0.99, 0.999999}) {
            const std::uint64_t s = cdf.sample(u);
            if (s < 1 || static_cast<double>(s) > top + 1) __builtin_trap();
        }
        if (!std::isfinite(cdf.mean())) __builtin_trap();
    } catch (const weft::routing::ParseError &) {
    }
    return 0;
}
