#include "weft/control/input_line.hpp"

#include <cmdline.h>

#include <cstdio>

#include "weft/control/cli.hpp"

namespace weft::control {

namespace {

// The length of the UTF-8 character at the start of `s` that is printable text (not a C1
// control), or 0.
std::size_t utf8_char(std::string_view s) {
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = b(0);
    const std::size_t n = lead >= 0xF0 && lead <= 0xF4  ? 4
                          : lead >= 0xE0                ? 3
                          : lead >= 0xC2 && lead < 0xE0 ? 2
                                                        : 0;
    if (n == 0 || s.size() < n) return 0;
    for (std::size_t i = 1; i < n; ++i)
        if ((b(i) & 0xC0) != 0x80) return 0;
    if (n == 2 && lead == 0xC2 && b(1) < 0xA0) return 0;  // C1 controls
    if ((n == 3 && lead == 0xE0 && b(1) < 0xA0) || (n == 4 && lead == 0xF0 && b(1) < 0x90))
        return 0;  // overlong
    if ((n == 3 && lead == 0xED && b(1) >= 0xA0) || (n == 4 && lead == 0xF4 && b(1) >= 0x90))
        return 0;  // not scalar
    return n;
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const auto c = static_cast<unsigned char>(text[0]);
        std::size_t n = c >= 0x20 && c < 0x7F ? 1 : c >= 0x80 ? utf8_char(text) : 0;
        if (n != 0) {
            out.append(text.substr(0, n));
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
            n = 1;
        }
        text.remove_prefix(n);
    }
    return out;
}

bool run_input_line(CommandContext &ctx, struct cmdline *cl, std::string_view line) {
    const std::string shown = printable(line);
    cmdline_printf(cl, "weft> %s\n", shown.c_str());
    if (const auto nul = line.find('\0'); nul != std::string_view::npos) {
        ++ctx.errors;
        cmdline_printf(cl, "error: a NUL byte at column %zu; the line is refused whole\n", nul + 1);
        return false;
    }
    return run_line(ctx, cl, std::string(line));
}

}  // namespace weft::control
