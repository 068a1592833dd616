// libFuzzer target: weft-ca's command line, one argument per line. Parsing must accept or throw
// UsageError, never crash; what it accepts is within the ranges weft-ca runs with.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "argv_input.hpp"
#include "ca_args.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 4096) return 0;
    auto lines = weft::fuzz::argv_lines(data, size, "weft-ca");
    if (!lines) return 0;
    std::vector<std::string> &args = *lines;
    std::vector<char *> argv = weft::fuzz::argv_of(args);
    try {
        const weft::sm::tools::CaArgs a =
            weft::sm::tools::parse_ca_args(static_cast<int>(args.size()), argv.data());
        if (a.route.help) return 0;
        if (a.ifname.empty() || a.guid == 0 || a.rate == 0 || a.payload < 24 || a.sl > 15 ||
            a.engine.max_wire_smps == 0 ||
            std::any_of(a.send_to.begin(), a.send_to.end(), [](auto l) { return l == 0 || l > 0xBFFF; }))
            std::abort();
    } catch (const weft::routing::tools::UsageError &) {
    }
    return 0;
}
