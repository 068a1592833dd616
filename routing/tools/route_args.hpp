// weft-route's command line: the options, their parsing and the usage text, apart from the tool
// so that a fuzz target can parse hostile command lines the way the tool does.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"

namespace weft::routing::tools {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

extern const char *const kUsage;

struct Args {
    std::string topo, gen, guid2lid, chain = "minhop", dump, json, dot, disc, net, g2l;
    std::string root_file, cn_file, io_file, ignore_file, lfts_file, cmp_a, cmp_b;
    std::string hop_weights_file, port_order_file, routing_order_file, ids_file;
    std::vector<std::string> reroute;
    unsigned lmc = 0, ebb_runs = 100, max_reverse_hops = 0;
    long shifts = 16;
    std::uint64_t seed = 1;
    std::optional<FailureParams> failures;  // --fail
    bool help = false;                      // --help: nothing else was parsed
    bool verify = false, metrics = false, no_fallback = false, quiet = false, chain_given = false;
    RoutingOptions engine;  // engine-specific options, passed through as given
};

// Parses argv[1..argc) (getopt_long, started afresh on every call). Throws UsageError for an
// unknown option, a bad number or a missing argument (naming the option), ParseError for a bad
// --fail spec; an unknown name in -R is a UsageError before any topology is read.
Args parse_args(int argc, char **argv);

}  // namespace weft::routing::tools
