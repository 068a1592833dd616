// The application arguments after EAL's: `weft [EAL args] -- [app args]`.
#pragma once

#include <optional>
#include <string>

#include "weft/dataplane/dataplane.hpp"

namespace weft::app {

struct AppOptions {
    dataplane::DataplaneConfig dataplane;
    bool interactive = false;
    std::string cmdline_file;
    std::string script;     // run while forwarding, then the prompt (-i) or exit
    double run_time_s = 0;  // > 0: exit after this long (bounded runs, tests)
    unsigned link_poll_ms = 10;
};

// Parses argv (argv[0] is the program name). Returns nullopt after printing `usage` or an error.
std::optional<AppOptions> parse_app_options(int argc, char **argv);
void print_app_usage(const char *prog);

}  // namespace weft::app
