// libFuzzer target: flow lists (the `file` workload). Every refusal must be a located
// routing::ParseError, and every flow read must name two different hosts below the bound.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flow_list.hpp"
#include "weft/routing/parse_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 16384) return 0;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        for (const weft::sim::FlowSpec &f : weft::sim::parse_flow_list(text, "fuzz.flows", 64))
            if (f.src >= 64 || f.dst >= 64 || f.src == f.dst || f.bytes == 0) __builtin_trap();
    } catch (const weft::routing::ParseError &) {
    }
    return 0;
}
