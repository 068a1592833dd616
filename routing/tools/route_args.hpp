// weft-route's command line: the options, their parsing and the usage text, apart from the tool
// so that a fuzz target can parse hostile command lines the way the tool does. The routing
// options (OpenSM's names: -R, -l, --guid2lid, the engines' files and settings) are parsed in
// one place for every tool that routes (weft-route, weft-sm): their getopt entries, their
// parser, their usage section and the reading of their files are exported here.
#pragma once

#include <getopt.h>

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

std::string usage();  // weft-route's --help

struct Args {
    std::string topo, gen, guid2lid, chain = "auto", dump, json, dot, disc, net, g2l;
    std::string root_file, cn_file, io_file, ignore_file, lfts_file, cmp_a, cmp_b;
    std::string hop_weights_file, port_order_file, routing_order_file, ids_file, mcast_groups, mft_dump;
    std::string rerouted_dump;  // --dump-rerouted-lfts: the last --reroute's LFTs
    std::vector<std::string> reroute;
    // Live migration: --migrate FILE or --migrate-pattern P, --reconfig M, --migrate-check N.
    std::string migrate_file, migrate_pattern, reconfig;
    unsigned migrate_check = 1;
    bool migrate_check_percent = false;  // migrate_check is a percentage of the steps
    // ARS next-hop groups (Ethernet/RoCE): --ars, --ars-groups FILE, --ars-naive and the limits.
    std::string ars_groups;
    bool ars = false, ars_naive = false;
    unsigned ars_max_extra_hops = 2, ars_max_alternates = 0;
    unsigned lmc = 0, ebb_runs = 100, max_reverse_hops = 0;
    long shifts = 16;
    std::uint64_t seed = 1;
    std::optional<FailureParams> failures;  // --fail
    bool help = false;                      // --help: nothing else was parsed
    bool verify = false, metrics = false, no_fallback = false, quiet = false, chain_given = false;
    bool ignore_existing_lfts = false;  // re-routes start afresh instead of keeping what still fits
    RoutingOptions engine;              // engine-specific options, passed through as given
};

// Codes of the long-only routing options; a tool's own long-only options start at kOptFirstTool.
enum EngineOption : int {
    kOptGuid2lid = 1000,
    kOptNoFallback,
    kOptSeed,
    kOptQosMaxVls,
    kOptMaxVls,
    kOptLashStartVl,
    kOptMeshAnalysis,
    kOptTorusConfig,
    kOptNueMaxVls,
    kOptNueSwitches,
    kOptNueNoMetis,
    kOptNueThreads,
    kOptNoEqualize,
    kOptMcastGroups,
    kOptIgnoreExistingLfts,
    kOptMigrate,
    kOptMigratePattern,
    kOptReconfig,
    kOptFirstTool = 1100,
};
// A number 0..max in C notation (decimal, 0x hex, 0 octal); UsageError naming `opt` otherwise.
std::uint64_t parse_number(const char *opt, const char *s, std::uint64_t max);
extern const char *const kEngineUsage;         // the "Routing" section of a tool's --help
extern const char *const kEngineShortOptions;  // for getopt_long's optstring
const std::vector<option> &engine_long_options();
// --migrate FILE, --migrate-pattern P and --reconfig M, shared by weft-route and weft-sm: true
// when c was one of them (checked, into a; UsageError on a bad value).
const std::vector<option> &migration_long_options();
bool parse_migration_option(int c, const char *arg, Args &a);
// Stores routing option `c` (getopt_long's return) with argument `arg` into a; false when `c` is
// not a routing option. Throws UsageError for a bad number.
bool parse_engine_option(int c, const char *arg, Args &a);
// getopt_long's refusal of argv[optind - 1] (c is ':' for a missing argument, else '?') as the
// UsageError every tool throws; and the check that no operand is left after the options.
[[noreturn]] void throw_getopt_error(int c, char **argv);
void check_no_operands(int argc, char **argv);
// An unknown name in -R is a usage error before any fabric is read (OpenSM, too, sets up its
// engine list at start-up, not when it first routes).
void check_chain(const std::string &chain);
// The engine options of `a` with their files read (guid lists, hop weights, port orders, ...).
// Throws ParseError for a bad file, std::runtime_error for one that cannot be read.
RoutingOptions routing_options(const Args &a);

// Parses argv[1..argc) (getopt_long, started afresh on every call). Throws UsageError for an
// unknown option, a bad number or a missing argument (naming the option), ParseError for a bad
// --fail spec; an unknown name in -R is a UsageError before any topology is read.
Args parse_args(int argc, char **argv);

}  // namespace weft::routing::tools
