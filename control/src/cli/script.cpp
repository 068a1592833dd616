#include "weft/control/script.hpp"

#include <cmdline.h>

#include <charconv>
#include <cmath>

#include "weft/control/cli.hpp"
#include "weft/control/input_line.hpp"

namespace weft::control {

namespace {

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

std::string located(std::string_view name, unsigned line, const std::string &what) {
    return std::string(name) + ":" + std::to_string(line) + ": " + what;
}

// Shown in messages: at most 40 characters, control characters as '?'.
std::string quoted(std::string_view s) {
    std::string out;
    for (const char c : s.substr(0, 40)) out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    return "'" + out + (s.size() > 40 ? "...'" : "'");
}

}  // namespace

ScriptParse parse_script(std::string_view text, std::string_view name) {
    ScriptParse r;
    unsigned line = 0;
    while (!text.empty()) {
        ++line;
        const auto nl = text.find('\n');
        std::string_view raw = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (raw.size() > kMaxScriptLine) {
            r.error = located(name, line,
                              "expected a line of at most " + std::to_string(kMaxScriptLine) +
                                  " characters, got " + std::to_string(raw.size()));
            return r;
        }
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);  // CRLF line ends
        for (const char c : raw) {
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
                r.error = located(
                    name, line,
                    "expected text, got control character " + std::to_string(static_cast<unsigned char>(c)));
                return r;
            }
        }
        const std::string_view s = trim(raw);
        if (s.empty()) continue;
        if (s[0] == '#') {
            if (s.find("----") != std::string_view::npos)
                r.steps.push_back({ScriptStep::Kind::kBanner, std::string(s), 0, line});
            continue;
        }
        if (s == "sleep" || s.substr(0, 6) == "sleep " || s.substr(0, 6) == "sleep\t") {
            const std::string_view arg = trim(s.substr(5));
            double seconds = -1;
            const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), seconds);
            if (arg.empty() || ec != std::errc() || end != arg.data() + arg.size() ||
                !std::isfinite(seconds) || seconds < 0 || seconds > kMaxScriptSleepSeconds) {
                r.error = located(name, line,
                                  "expected `sleep <seconds>` with 0 to 3600 seconds, got " + quoted(s));
                return r;
            }
            r.steps.push_back({ScriptStep::Kind::kSleep, {}, seconds, line});
            continue;
        }
        r.steps.push_back({ScriptStep::Kind::kCommand, std::string(s), 0, line});
    }
    return r;
}

bool ScriptRunner::run(CommandContext &ctx, struct cmdline *cl, double now_s) {
    if (now_s < resume_at_) return true;
    while (next_ < steps_.size()) {
        const ScriptStep &step = steps_[next_++];
        switch (step.kind) {
            case ScriptStep::Kind::kSleep:
                resume_at_ = now_s + step.seconds;
                return true;
            case ScriptStep::Kind::kBanner:
                cmdline_printf(cl, "weft> %s\n", printable(step.text).c_str());
                break;
            case ScriptStep::Kind::kCommand:
                run_input_line(ctx, cl, step.text);
                if (ctx.quit) return false;
                break;
        }
    }
    return false;
}

}  // namespace weft::control
