// The application arguments after EAL's: `weft [EAL args] -- [app args]`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sm_options.hpp"
#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/fib_builder.hpp"

namespace weft::app {

struct AppOptions {
    dataplane::DataplaneConfig dataplane;
    dataplane::FibConfig fib;  // table sizes; num_ports and socket come from the dataplane
    bool interactive = false;
    std::string cmdline_file;
    std::string script;     // run while forwarding, then the prompt (-i) or exit
    double run_time_s = 0;  // > 0: exit after this long (bounded runs, tests)
    unsigned link_poll_ms = 10;
    // The switch's SMA (subnet management agent).
    std::uint64_t node_guid = 0;  // 0: from the first port's MAC
    std::string node_desc;        // empty: the host name
    bool fabric_all = false;      // --fabric-ports all
    std::vector<std::uint16_t> fabric_ports;
    bool ethernet = false;  // answer weft's vendor attributes (Ethernet/RoCE tables) from the start
    SmOptions sm;           // --sm and the routing options
    // The FPM server for FRR's zebra (listening from the start with --fpm; `fpm listen` later).
    bool fpm = false;
    std::string fpm_address = "127.0.0.1";
    std::uint16_t fpm_port = 2620;
    unsigned fpm_grace_s = 30;
    bool fpm_allow_remote = false;
    bool linux_cp = false;  // a kernel TAP interface per port (lcp::LinuxCp)
    std::vector<std::string> linux_cp_names;
};

// --fpm-grace bound (the CLI's `fpm grace` takes as much).
inline constexpr unsigned kMaxFpmGraceS = 3600;

// --idle-sleep-max-us bound (as Open vSwitch's pmd-sleep-max).
inline constexpr unsigned kMaxIdleSleepUs = 10000;

// A bounded run lasts at most this long; longer runs simply leave --run-time out.
inline constexpr double kMaxRunTimeSeconds = 366.0 * 24 * 3600;

struct AppOptionsParse {
    std::optional<AppOptions> options;  // set when the arguments were good
    bool help = false;                  // -h: print the usage and exit 0
    std::string error;                  // "--rxq: expected ..., got 'x'": names the option
};

// Parses argv (argv[0] is the program name). Prints nothing; re-entrant across calls.
AppOptionsParse parse_app_options(int argc, char **argv);
void print_app_usage(const char *prog);

}  // namespace weft::app
