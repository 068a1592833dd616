// The CLI command grammar through cmdline's own parser (cmdline_parse_check: every token of
// every instance, the ARS keyword grammars and the catch-all run; no command does): each line
// is taken by exactly one instance (never ambiguous, never left unanswered), a line no command
// takes is explained on one line followed by usage lines only, and help and completion of any
// prefix hold up.
#include <cmdline.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cli_internal.hpp"
#include "weft/control/cli.hpp"

namespace {

bool blank_or_comment(std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    return first == std::string_view::npos || line[first] == '#';
}

void check_line(cmdline *cl, const std::string &line) {
    using namespace weft::control::cli;
    const int rc = cmdline_parse_check(cl, (line + "\n").c_str());
    if (rc == CMDLINE_PARSE_AMBIGUOUS) std::abort();  // two commands take the same line
    if (rc < 0) std::abort();                         // the catch-all takes what none takes
    if (blank_or_comment(line)) return;
    if (!usage_of(line).empty()) return;  // a command takes it
    const std::string why = explain_refused(line);
    if (why.rfind("error: ", 0) != 0 || why.back() != '\n') std::abort();
    std::size_t at = why.find('\n');
    for (std::size_t i = 0; i < at; ++i)
        if (static_cast<unsigned char>(why[i]) < 0x20) std::abort();  // one line, nothing raw
    while (at + 1 < why.size()) {
        const std::size_t next = why.find('\n', at + 1);
        const std::string_view l(why.data() + at + 1, next - at - 1);
        if (l.rfind("usage: ", 0) != 0 && l.rfind("       ", 0) != 0) std::abort();
        at = next;
    }
    (void)help_for(line.substr(0, line.find(' ')));
    int state = 0;
    char dst[256];
    for (int i = 0; i < 4 && cmdline_complete(cl, line.c_str(), &state, dst, sizeof dst) > 0; ++i) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static weft::control::CommandContext ctx;
    static cmdline *cl = cmdline_new(weft::control::command_set(ctx), "", -1, -1);
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::size_t start = 0;
    for (unsigned lines = 0; start <= text.size() && lines < 12; ++lines) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line(text.substr(start, end - start));
        start = end + 1;
        // cmdline takes a line up to its newline (a carriage return ends it too) or NUL, and
        // completion reads at most its own buffer.
        line = line.substr(0, std::min(line.find_first_of(std::string("\r\0", 2)), std::size_t{400}));
        check_line(cl, line);
    }
    return 0;
}
