// libFuzzer target: scenario files. The input is a scenario, optionally followed by a line "%%"
// and overrides (one "section.key=value" per line) applied to it when it reads. Every refusal
// must be a located routing::ParseError; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "weft/routing/parse_error.hpp"
#include "weft/sim/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 16384) return 0;
    const std::string_view in(reinterpret_cast<const char *>(data), size);
    const std::size_t split = in.find("\n%%\n");
    const std::string_view text = in.substr(0, split);
    try {
        weft::sim::Scenario s = weft::sim::read_scenario(text, "fuzz.ini");
        if (split == std::string_view::npos) return 0;
        std::string_view rest = in.substr(split + 4);
        while (!rest.empty()) {
            const std::size_t end = rest.find('\n');
            const std::string_view line = rest.substr(0, end);
            try {
                weft::sim::apply_override(s, line, "--set");
            } catch (const weft::routing::ParseError &e) {
                if (e.line() != 1) __builtin_trap();  // an override is one line
            }
            if (end == std::string_view::npos) break;
            rest.remove_prefix(end + 1);
        }
    } catch (const weft::routing::ParseError &e) {
        if (e.file() != "fuzz.ini") __builtin_trap();
    }
    return 0;
}
