// libFuzzer target: generator specs. Hostile specs must not ask for huge
// fabrics within the time budget (numbers are clamped to 12); anything else must parse or throw ParseError.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "weft/routing/generators.hpp"
#include "weft/routing/parse_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 64) return 0;
    std::string spec(reinterpret_cast<const char *>(data), size);
    // Keep the numbers small (each at most 12) so a spec cannot ask for a huge fabric.
    std::string small;
    for (std::size_t i = 0; i < spec.size();) {
        if (spec[i] < '0' || spec[i] > '9') {
            small += spec[i++];
            continue;
        }
        unsigned v = 0;
        while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9')
            v = std::min(100u, v * 10 + unsigned(spec[i++] - '0'));
        small += std::to_string(std::min(v, 12u));
    }
    if (small.find("ft36") != std::string::npos || small.find("ftree") != std::string::npos) return 0;
    try {
        (void)weft::routing::generate(small);
    } catch (const weft::routing::ParseError &) {
    } catch (const std::runtime_error &) {  // random: no simple connected graph for these numbers
    }
    return 0;
}
