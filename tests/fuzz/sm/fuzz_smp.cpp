// libFuzzer target: the SMP header (decode_smp) of both classes. A decoded SMP encodes, and
// decodes back to itself.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace weft::sm;
    const auto smp = decode_smp(std::span(data, size));
    if (!smp) {
        if (smp.error().field.empty()) std::abort();  // every error names its field
        return 0;
    }
    fuzz::expect_round_trip(smp.value(), encode_smp, [](const SmpBytes &b) { return decode_smp(b); });
    return 0;
}
