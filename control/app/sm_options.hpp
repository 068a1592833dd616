// weft's options for the SM inside the switch (`--sm` and the routing options weft-route and
// weft-sm take, parsed by their shared code in routing/tools/route_args), apart from the other
// app options so that their getopt entries join weft's in one place. weft's own -i
// (--interactive) keeps its letter: the routing option -i (--ignore_guids) is long-only here.
#pragma once

#include <getopt.h>

#include <string>
#include <vector>

#include "route_args.hpp"
#include "weft/sm/smp_engine.hpp"

namespace weft::app {

struct SmOptions {
    bool enabled = false;         // --sm: start the SM with the switch
    routing::tools::Args route;   // -R (default auto), -l, -Q, --no_fallback, --mcast-groups, ...
    bool ethernet = false;        // --sm-ethernet: the Ethernet/RoCE tables after the LFTs
    unsigned sweep_seconds = 10;  // --sm-sweep: seconds between light sweeps
    std::string vms;              // --sm-vms: hypervisors and VMs (weft-sm's --vms)
    // --max_wire_smps, --transaction_timeout MS, --transaction_retries (as weft-sm's); a timeout
    // shorter than weft-sm's default: SMPs cross control threads that answer within milliseconds.
    // A wider window than OpenSM's 4 (which paces an HCA's QP0): every SMA on the way is a weft
    // control thread behind a 1024-entry punt ring, and a trap's re-programming (an LFT block to
    // each switch) then takes one round trip instead of one per four switches.
    sm::SmpEngineConfig engine{16, std::chrono::milliseconds(50), 3};
};

// getopt_long entries (codes apart from weft's and the routing options') and short letters.
const std::vector<option> &sm_long_options();
extern const char *const kSmShortOptions;

// Stores option `c` with `arg` into `o`; false when `c` is not one of these. Throws
// routing::tools::UsageError naming the option for a bad value.
bool parse_sm_option(int c, const char *arg, SmOptions &o);
// After every option: an unknown engine in -R is refused at start, as weft-sm does.
void check_sm_options(const SmOptions &o);

std::string sm_usage();

}  // namespace weft::app
