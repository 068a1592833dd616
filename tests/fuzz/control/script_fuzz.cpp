// weft --script files: any bytes parse to steps or to one located error, never a crash; every
// step kept is sane (sleeps in range, commands non-empty and free of control characters).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "weft/control/script.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using weft::control::ScriptStep;
    const auto p = weft::control::parse_script(std::string_view(reinterpret_cast<const char *>(data), size),
                                               "fuzz.cmds");
    if (!p.ok()) {
        if (p.error.rfind("fuzz.cmds:", 0) != 0) std::abort();
        return 0;
    }
    for (const ScriptStep &s : p.steps) {
        if (s.line == 0) std::abort();
        if (s.kind == ScriptStep::Kind::kSleep && !(s.seconds >= 0 && s.seconds <= 3600)) std::abort();
        if (s.kind != ScriptStep::Kind::kSleep && (s.text.empty() || s.text.size() > 500)) std::abort();
        for (const char c : s.text)
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t') std::abort();
    }
    return 0;
}
