#include "sm_options.hpp"

#include "weft/routing/parse_error.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::app {

namespace rt = weft::routing::tools;

namespace {

enum SmOpt : int { kSm = 1200, kSmEthernet, kSmSweep, kIgnoreGuids, kMaxWire, kTimeout, kRetries, kSmVms };

}  // namespace

const char *const kSmShortOptions = "l:R:a:u:G:H:U:w:O:X:m:QA";  // the routing letters but i:

const std::vector<option> &sm_long_options() {
    static const std::vector<option> opts = [] {
        std::vector<option> v = {
            {"sm", no_argument, nullptr, kSm},
            {"sm-ethernet", no_argument, nullptr, kSmEthernet},
            {"sm-sweep", required_argument, nullptr, kSmSweep},
            {"sm-vms", required_argument, nullptr, kSmVms},
            {"max_wire_smps", required_argument, nullptr, kMaxWire},
            {"transaction_timeout", required_argument, nullptr, kTimeout},
            {"transaction_retries", required_argument, nullptr, kRetries},
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
        case kSmVms:
            try {
                routing::parse_vm_spec(arg);  // refused here, located, rather than at the first sweep
            } catch (const routing::ParseError &e) {
                throw rt::UsageError(std::string("--sm-vms: ") + e.what());
            }
            o.vms = arg;
            return true;
        case kMaxWire:
            o.engine.max_wire_smps = rt::parse_number("--max_wire_smps", arg, 4096);
            if (o.engine.max_wire_smps == 0) throw rt::UsageError("--max_wire_smps: at least 1");
            return true;
        case kTimeout:
            o.engine.timeout =
                std::chrono::milliseconds(rt::parse_number("--transaction_timeout", arg, 60000));
            if (o.engine.timeout.count() == 0) throw rt::UsageError("--transaction_timeout: at least 1 ms");
            return true;
        case kRetries:
            o.engine.max_retries = static_cast<unsigned>(rt::parse_number("--transaction_retries", arg, 100));
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
               "  --sm-vms SPEC            every CA a vSwitch hypervisor with VMs (weft-sm's --vms, e.g.\n"
               "                           vfs=2,load=50,vlids=extended); `show sm vms`, `sm migrate`\n"
               "  --max_wire_smps N --transaction_timeout MS --transaction_retries N   the SM's window of\n"
               "                           SMPs (defaults 16, 50 ms, 3)\n"
               "  the routing options below as weft-route and weft-sm take them (-i, --ignore_guids, is\n"
               "  long-only here: -i is --interactive)\n") +
           rt::kEngineUsage;
}

}  // namespace weft::app
