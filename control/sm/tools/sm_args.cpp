#include "sm_args.hpp"

#include <getopt.h>

#include <vector>

#include "weft/routing/parse_error.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::sm::tools {

namespace rt = weft::routing::tools;

namespace {

unsigned unsigned_arg(const char *opt, const char *s, unsigned max) {
    return static_cast<unsigned>(rt::parse_number(opt, s, max));
}

const char *const kHead = R"(usage: weft-sm [-o] [-R ENGINES] [options]

Subnet manager: sweep the fabric by directed-route SMPs, assign LIDs, route, verify (all pairs
reach, no LFT loop, no credit loop) and program the switches; a routing that fails verification
is not programmed. Runs on rdma-core's umad (a real HCA, or ibsim through libumad2sim).

Sweeps
  -o, --once               one sweep, then exit
  -s, --sweep N            not -o: seconds between light sweeps (default 10), one SwitchInfo
                           per switch; a heavy sweep when one sees a change, and at once on a
                           trap 128 (a port changed state)
  --ca NAME  --port N      the HCA port to run on (default: the first port with a link)
  --max_wire_smps N        SMPs on the wire at once (default 4)
  --transaction_timeout MS --transaction_retries N   (defaults 200 ms, 3)
  --verify_only            sweep, assign, route and verify, but program nothing

LIDs
  -l, --lmc N              LMC (0..7)
  --guid2lid FILE          OpenSM's guid2lid: LIDs kept from it (if it exists) and written back

Output
  -D, --dump_files_dir DIR opensm-lfts.dump, opensm-subnet.lst and guid2lid of the programmed
                           fabric, as OpenSM writes them
  --write-net FILE         the discovered fabric as an ibsim net file
  -f, --log_file FILE      the log also to FILE
  -q, --quiet              only problems and the outcome

Virtualized fabrics (seed 002)
  --vms SPEC               every CA a vSwitch hypervisor with VMs, e.g. vfs=4,load=50,
                           dist=uniform|random,scheme=prepopulated|dynamic,vlids=legacy|extended,
                           seed=S (as weft-route's /vms: component). vlids=extended asks every
                           switch (WeftExtendedLids) and takes vLIDs only if all forward them;
                           otherwise, and with vlids=legacy, VF LIDs come from the 16-bit space
  --migrate FILE           with --vms: once the fabric is programmed, move VMs live, one 'migrate
  --migrate-pattern P      VM to HYPERVISOR' per line, or generated (random, consolidate, grouping,
                           to-uniform; --seed), sending only the LFT blocks the method changes;
                           without -o the SM stays resident and keeps the VMs where they went
  --reconfig M             ftree-minrc (the default on fat trees), ftree-minrc-rebalance, itrc
                           (the default elsewhere) or full; -D dumps the LFTs after the moves

)";

const char *const kTail = R"(
Exit status: 0 programmed, 1 programmed with failed Sets, 2 usage, 3 the fabric cannot be
reached, 4 no engine routed or the routing failed verification (nothing programmed).
)";

}  // namespace

SmArgs parse_sm_args(int argc, char **argv) {
    enum { kCa = rt::kOptFirstTool, kPort, kMaxWire, kTimeout, kRetries, kVerifyOnly, kWriteNet, kVms };
    std::vector<option> opts = {
        {"once", no_argument, nullptr, 'o'},
        {"sweep", required_argument, nullptr, 's'},
        {"ca", required_argument, nullptr, kCa},
        {"port", required_argument, nullptr, kPort},
        {"max_wire_smps", required_argument, nullptr, kMaxWire},
        {"transaction_timeout", required_argument, nullptr, kTimeout},
        {"transaction_retries", required_argument, nullptr, kRetries},
        {"verify_only", no_argument, nullptr, kVerifyOnly},
        {"dump_files_dir", required_argument, nullptr, 'D'},
        {"write-net", required_argument, nullptr, kWriteNet},
        {"vms", required_argument, nullptr, kVms},
        {"log_file", required_argument, nullptr, 'f'},
        {"quiet", no_argument, nullptr, 'q'},
        {"help", no_argument, nullptr, 'h'},
    };
    opts.insert(opts.end(), rt::engine_long_options().begin(), rt::engine_long_options().end());
    opts.insert(opts.end(), rt::migration_long_options().begin(), rt::migration_long_options().end());
    opts.push_back({nullptr, 0, nullptr, 0});
    const std::string shorts = std::string(":") + rt::kEngineShortOptions + "os:D:f:qh";
    SmArgs a;
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts.c_str(), opts.data(), nullptr)) != -1) {
        if (rt::parse_engine_option(c, optarg, a.route) || rt::parse_migration_option(c, optarg, a.route))
            continue;
        switch (c) {
            case 'o':
                a.once = true;
                break;
            case 's':
                a.sweep_seconds = unsigned_arg("--sweep", optarg, 86400);
                break;
            case kCa:
                a.ca = optarg;
                break;
            case kPort:
                a.port = static_cast<int>(unsigned_arg("--port", optarg, 254));
                break;
            case kMaxWire:
                a.engine.max_wire_smps = unsigned_arg("--max_wire_smps", optarg, 4096);
                if (a.engine.max_wire_smps == 0) throw rt::UsageError("--max_wire_smps: at least 1");
                break;
            case kTimeout:
                a.engine.timeout =
                    std::chrono::milliseconds(unsigned_arg("--transaction_timeout", optarg, 60000));
                break;
            case kRetries:
                a.engine.max_retries = unsigned_arg("--transaction_retries", optarg, 100);
                break;
            case kVerifyOnly:
                a.verify_only = true;
                break;
            case 'D':
                a.dump_dir = optarg;
                break;
            case kWriteNet:
                a.write_net = optarg;
                break;
            case kVms:
                try {
                    routing::parse_vm_spec(optarg);  // refused here, located, rather than at the sweep
                } catch (const routing::ParseError &e) {
                    throw rt::UsageError(std::string("--vms: ") + e.what());
                }
                a.vms = optarg;
                break;
            case 'f':
                a.log_file = optarg;
                break;
            case 'q':
                a.quiet = true;
                break;
            case 'h':
                a.route.help = true;
                return a;
            default:
                rt::throw_getopt_error(c, argv);
        }
    }
    rt::check_no_operands(argc, argv);
    rt::check_chain(a.route.chain);
    const bool migrate = !a.route.migrate_file.empty() || !a.route.migrate_pattern.empty();
    if (!a.route.migrate_file.empty() && !a.route.migrate_pattern.empty())
        throw rt::UsageError("give one of --migrate FILE or --migrate-pattern P");
    if (migrate && a.vms.empty()) throw rt::UsageError("--migrate/--migrate-pattern need --vms");
    if (!a.route.reconfig.empty() && !migrate)
        throw rt::UsageError("--reconfig needs --migrate or --migrate-pattern");
    return a;
}

std::string sm_usage() {
    return std::string(kHead) + rt::kEngineUsage + kTail;
}

}  // namespace weft::sm::tools
