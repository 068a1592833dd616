// weft-ca's command line, apart from the program so that a fuzz target parses hostile command
// lines the way the program does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "route_args.hpp"
#include "weft/sm/lid.hpp"
#include "weft/sm/smp_engine.hpp"

namespace weft::sm::tools {

struct CaArgs {
    routing::tools::Args route;  // --sm: -R and every engine option; route.help: --help
    std::string ifname;
    std::uint16_t ethertype = 0x88B5;
    std::uint64_t guid = 0;       // node GUID (required, non-zero)
    std::uint64_t port_guid = 0;  // 0: node GUID + 1
    std::string description;      // empty: "weft-ca <ifname>"
    bool sm = false;
    unsigned sweep_ms = 1000;  // --sm: between heavy sweeps
    SmpEngineConfig engine{4, std::chrono::milliseconds(100), 3};
    std::vector<Lid> send_to;  // round robin, each its own sequence numbers
    std::uint64_t count = 0;   // per destination; 0: until --duration ends
    unsigned rate = 1000;      // frames per second
    unsigned payload = 64;     // bytes (at least 24)
    std::uint8_t sl = 0;
    bool receive = false;
    std::uint64_t expect = 0;  // frames to receive before exiting
    unsigned duration_s = 0;   // 0: until done (or a signal)
    unsigned linger_ms = 500;  // done: go on answering SMPs this long
    bool json = false;
    unsigned report_ms = 0;  // > 0: the summary as a JSON line this often while running
};

// Parses argv[1..argc) (getopt_long, started afresh on every call). Throws
// routing::tools::UsageError naming the option for anything it cannot take.
CaArgs parse_ca_args(int argc, char **argv);

std::string ca_usage();  // --help

}  // namespace weft::sm::tools
