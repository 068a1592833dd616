// libFuzzer target: weft-sm's command line. The input is argv, one argument per line. Parsing
// must accept or throw UsageError, never crash; what it accepts must be within the ranges the
// SM runs with (a window of at least one SMP, an LMC of at most 7, a port of at most 254).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "argv_input.hpp"
#include "sm_args.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 4096) return 0;
    auto lines = weft::fuzz::argv_lines(data, size, "weft-sm");
    if (!lines) return 0;  // a C string ends at a NUL: no command line can hold one
    std::vector<std::string> &args = *lines;
    std::vector<char *> argv = weft::fuzz::argv_of(args);
    try {
        const weft::sm::tools::SmArgs a =
            weft::sm::tools::parse_sm_args(static_cast<int>(args.size()), argv.data());
        if (a.route.help) return 0;
        if (a.engine.max_wire_smps == 0 || a.route.lmc > 7 || a.port > 254) std::abort();
    } catch (const weft::routing::tools::UsageError &) {
    }
    return 0;
}
