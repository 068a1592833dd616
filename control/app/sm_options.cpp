#include "sm_options.hpp"

namespace weft::app {

namespace rt = weft::routing::tools;

namespace {

enum SmOpt : int { kSm = 1200, kSmEthernet, kSmSweep, kIgnoreGuids };

}  // namespace

const char *const kSmShortOptions = "l:R:a:u:G:H:U:w:O:X:m:QA";  // the routing letters but i:

const std::vector<option> &sm_long_options() {
    static const std::vector<option> opts = [] {
        std::vector<option> v = {
            {"sm", no_argument, nullptr, kSm},
            {"sm-ethernet", no_argument, nullptr, kSmEthernet},
            {"sm-sweep", required_argument, nullptr, kSmSweep},
        };
        for (option o : rt::engine_long_options()) {
            if (o.val == 'i') o.val = kIgnoreGuids;
            v.push_back(o);
        }
        return v;
    }();
    return opts;
}

bool parse_sm_option(int c, const char *arg, SmOptions &o) {
    switch (c) {
        case kSm:
            o.enabled = true;
            return true;
        case kSmEthernet:
            o.ethernet = true;
            return true;
        case kSmSweep:
            o.sweep_seconds = static_cast<unsigned>(rt::parse_number("--sm-sweep", arg, 86400));
            if (o.sweep_seconds == 0) throw rt::UsageError("--sm-sweep: at least 1 second");
            return true;
        case kIgnoreGuids:
            return rt::parse_engine_option('i', arg, o.route);
        case 'i':  // weft's --interactive
            return false;
        default:
            return rt::parse_engine_option(c, arg, o.route);
    }
}

void check_sm_options(const SmOptions &o) {
    rt::check_chain(o.route.chain);
}

std::string sm_usage() {
    return std::string(
               "The SM inside this switch (IB-over-Ethernet SMPs through its fabric ports):\n"
               "  --sm                     run the SM from start-up (`sm start|stop` at the prompt too)\n"
               "  --sm-ethernet            also program every weft switch's Ethernet/RoCE routes and ARS\n"
               "                           groups (host subnets learned from the leaves)\n"
               "  --sm-sweep N             seconds between light sweeps (default 10); a trap sweeps at once\n"
               "  the routing options below as weft-route and weft-sm take them (-i, --ignore_guids, is\n"
               "  long-only here: -i is --interactive)\n") +
           rt::kEngineUsage;
}

}  // namespace weft::app
