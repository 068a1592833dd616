// weft-sm's command line: its own options (OpenSM's names where OpenSM has them) beside the
// routing options it shares with weft-route (route_args.hpp), apart from the tool so that a fuzz
// target parses hostile command lines the way the tool does.
#pragma once

#include <string>

#include "route_args.hpp"
#include "weft/sm/smp_engine.hpp"

namespace weft::sm::tools {

struct SmArgs {
    routing::tools::Args route;  // -R, -l, --guid2lid and every engine option; route.help: --help
    bool once = false, verify_only = false, quiet = false;
    unsigned sweep_seconds = 10;
    std::string ca, dump_dir, write_net, log_file;
    // Seed 002: hypervisors and VMs on the discovered CAs (--vms, a generator "vms:" component's
    // settings), and live migrations after the sweep (route.migrate_file / migrate_pattern,
    // route.reconfig).
    std::string vms;
    int port = 0;
    SmpEngineConfig engine;
};

// Parses argv[1..argc) (getopt_long, started afresh on every call). Throws
// routing::tools::UsageError naming the option for anything it cannot take.
SmArgs parse_sm_args(int argc, char **argv);

std::string sm_usage();  // --help

}  // namespace weft::sm::tools
