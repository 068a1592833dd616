#include "route_args.hpp"

#include <getopt.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "weft/routing/auto_choice.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/option_files.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/text_file.hpp"

namespace weft::routing::tools {

const char *const kEngineUsage = R"(Routing (OpenSM's option names)
  -R, --routing_engine L   engine chain, e.g. ftree,updn, or auto (the default): recognise the
                           fabric's shape (fat tree, torus/mesh/hypercube, dragonfly, irregular)
                           and run the chain that suits it, saying which and why. OpenSM's own
                           default, minhop, is neither balanced on fat trees nor free of credit
                           loops on tori and irregular fabrics; -R minhop still routes exactly as
                           OpenSM does
  -a, --root_guid_file F   -u, --cn_guid_file F   -G, --io_guid_file F   -i, --ignore_guids F
  -H, --max_reverse_hops N --no_fallback           -U, --lfts_file F (file engine)
  -w, --hop_weights_file F -O, --port_search_ordering_file F (--dimn_ports_file F)
  -X, --guid_routing_order_file F                  -m, --ids_guid_file F
  --seed S                 seed for every randomized choice (default 1)
  -Q, --qos                --qos_max_vls N           --max_vls N (VL budget, default 8)
  --lash_start_vl N        --do_mesh_analysis        --torus_config F (torus-2QoS.conf)
  --nue_max_num_vls N      --nue_include_switches    --no_port_equalization (dor)
  --nue_no_metis           nue: split destinations over layers as OpenSM built without METIS does
  --nue_threads N          nue: threads racing the candidate runs (default: one per hardware
                           thread, at most one per candidate; the tables do not depend on it)
  -A, --ucast_cache        unicast cache: reuse the routing when only CAs/routers/leaf switches
                           went down or came back (see --reroute)
  --ignore_existing_lfts   a re-route (a resident SM's, --reroute) routes afresh; otherwise, as
                           OpenSM does, minhop/updn/dnup/dor keep each LFT entry that is still a
                           port they may choose, so only what must change changes
  --mcast-groups FILE      multicast groups to build trees (MFTs) for, as joins would: one
                           'MLID all|switches|PORT_GUID...' per line (routing/README.md)
)";

namespace {

const char *const kHead = R"(usage: weft-route (--topo FILE | --gen SPEC) [options]

Input
  --topo FILE              ibnetdiscover output, ibsim net file, opensm-subnet.lst or weft JSON
                           (format detected from the content)
  --gen SPEC               generated fabric, e.g. ftree:k=36,n=2  pgft:h=2;m=18,18;w=1,18;p=1,1
                           xgft:n=2;m=8,4;w=4,1  ft36:hosts=5832  kary:k=4,n=3  torus:4x4x4,hosts=1
                           mesh:8x8  hypercube:d=6  dragonfly:a=4,p=2,h=2  dfplus:groups=4,leaves=4,spines=4,hosts=4
                           random:switches=64,degree=8,hosts=4,seed=7 ; append /fail-links=3,seed=1
                           and /vms:vfs=4,load=50,dist=uniform|random,scheme=prepopulated|dynamic
                           (every CA a vSwitch hypervisor with VMs; vlids=extended for vLIDs)
  --fail SPEC              failures on the input: fail-links=N[,fail-switches=M][,seed=S]
  -l, --lmc N              LMC (0..7)
  --guid2lid FILE          keep the LIDs of OpenSM's guid2lid file

)";

const char *const kTail =
    R"(  --reroute FILE           after routing, route this topology (the fabric after a change; LIDs
                           kept by GUID) and say "cache hit: ..." or "recomputed: <reason>";
                           repeat for a sequence (e.g. host down, then the original file again)

ARS next-hop groups (Ethernet/RoCE: one group per switch and destination leaf)
  --ars                    compile them: primaries = the ports on minimal routes (the engine's
                           hops; on a dragonfly the fewest global links; with -w the cheapest),
                           fixed = the engine's LFT port, alternates = detours, each kept only
                           while the union of every choice stays free of credit loops per VL;
                           check that union and say how many members were left out and why
  --ars-groups FILE        --ars, and write every switch's groups and the summary as JSON
  --ars-naive              also check the union of every candidate unchecked (what naive ARS risks)
  --ars-max-extra-hops N   longest detour offered, in hops over the minimal path (default 2)
  --ars-max-alternates N   alternates per group (default 0 = no limit)

Live migration of VMs (fabrics with hypervisors: JSON "vms", or --gen .../vms:...)
  --migrate FILE           migrations to make, one 'migrate VM to HYPERVISOR' per line
  --migrate-pattern P      or generated from the placement (seed 002, Table 4): random,
                           consolidate, grouping, to-uniform (--seed)
  --reconfig M             the method applied after each step: ftree-minrc (the default on fat
                           trees), ftree-minrc-rebalance (its sub-tree routed again), itrc (the
                           default elsewhere) or full; all are planned and their switches and
                           LFT blocks (SMPs) printed
  --migrate-check N[%]     verify and measure (max routes per link and EBB over the VMs, beside a
                           full re-route) after every N-th step (or every N% of the steps) and
                           the last (default 1; 0: the last only)

Checks and metrics
  --verify                 trace all pairs (unreachable, loops, minimality) and check credit loops
  --metrics                routes per link, effective bisection bandwidth, shift and all-to-all
  --ebb-runs N             random bisections for EBB (default 100)
  --shifts N               shift patterns to sample evenly (default 16, 0 = none, -1 = all)

Output
  --dump-lfts FILE         LFTs in OpenSM's opensm-lfts.dump format
  --dump-rerouted-lfts F   the LFTs of the last --reroute (or after the last migration), same format
  --dump-mfts FILE         the --mcast-groups trees as MFT entries: 'MLID SWITCH_GUID PORTS' lines
  --write-json F  --write-dot F  --write-ibnetdiscover F  --write-net F  --write-guid2lid F
  --compare-lfts A B       compare two LFT dumps on this fabric (reachability, path lengths, balance)
  -q, --quiet              no progress on stderr

Environment
  GLIBC_TUNABLES=glibc.malloc.hugetlb=1
                           glibc's heap on transparent huge pages: on fabrics of thousands of
                           hosts a routing step fills tens of megabytes of fresh tables, and
                           fewer, larger pages mean fewer first-touch page faults
)";

}  // namespace

std::string usage() {
    return std::string(kHead) + kEngineUsage + kTail;
}

std::uint64_t parse_number(const char *opt, const char *s, std::uint64_t max) {
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s, &end, 0);
    if (!*s || *end || errno || v > max || s[0] == '-')
        throw UsageError(std::string(opt) + ": expected a number 0.." + std::to_string(max) + ", got '" + s +
                         "'");
    return v;
}

void throw_getopt_error(int c, char **argv) {
    if (c == ':') throw UsageError(std::string("option ") + argv[optind - 1] + " needs an argument");
    throw UsageError(std::string("unknown option ") + argv[optind - 1]);
}

void check_no_operands(int argc, char **argv) {
    if (optind < argc) throw UsageError(std::string("unexpected argument '") + argv[optind] + "'");
}

void check_chain(const std::string &chain) {
    const std::vector<std::string> known = EngineRegistry::instance().names();
    for (const std::string &name : chain_tokens(chain)) {
        if (name == "no_fallback" || name == kAutoEngine ||
            std::find(known.begin(), known.end(), name) != known.end())
            continue;
        std::string list;
        for (const auto &k : known) list += (list.empty() ? "" : ", ") + k;
        throw UsageError("-R: unknown routing engine '" + name + "' (known: " + list +
                         ", auto, no_fallback)");
    }
}

const std::vector<option> &engine_long_options() {
    static const std::vector<option> opts = {
        {"lmc", required_argument, nullptr, 'l'},
        {"guid2lid", required_argument, nullptr, kOptGuid2lid},
        {"routing_engine", required_argument, nullptr, 'R'},
        {"root_guid_file", required_argument, nullptr, 'a'},
        {"cn_guid_file", required_argument, nullptr, 'u'},
        {"io_guid_file", required_argument, nullptr, 'G'},
        {"ignore_guids", required_argument, nullptr, 'i'},
        {"max_reverse_hops", required_argument, nullptr, 'H'},
        {"no_fallback", no_argument, nullptr, kOptNoFallback},
        {"lfts_file", required_argument, nullptr, 'U'},
        {"hop_weights_file", required_argument, nullptr, 'w'},
        {"port_search_ordering_file", required_argument, nullptr, 'O'},
        {"dimn_ports_file", required_argument, nullptr, 'O'},
        {"guid_routing_order_file", required_argument, nullptr, 'X'},
        {"ids_guid_file", required_argument, nullptr, 'm'},
        {"seed", required_argument, nullptr, kOptSeed},
        {"qos", no_argument, nullptr, 'Q'},
        {"qos_max_vls", required_argument, nullptr, kOptQosMaxVls},
        {"max_vls", required_argument, nullptr, kOptMaxVls},
        {"lash_start_vl", required_argument, nullptr, kOptLashStartVl},
        {"do_mesh_analysis", no_argument, nullptr, kOptMeshAnalysis},
        {"torus_config", required_argument, nullptr, kOptTorusConfig},
        {"nue_max_num_vls", required_argument, nullptr, kOptNueMaxVls},
        {"nue_include_switches", no_argument, nullptr, kOptNueSwitches},
        {"nue_no_metis", no_argument, nullptr, kOptNueNoMetis},
        {"nue_threads", required_argument, nullptr, kOptNueThreads},
        {"no_port_equalization", no_argument, nullptr, kOptNoEqualize},
        {"ucast_cache", no_argument, nullptr, 'A'},
        {"mcast-groups", required_argument, nullptr, kOptMcastGroups},
        {"ignore_existing_lfts", no_argument, nullptr, kOptIgnoreExistingLfts},
    };
    return opts;
}

const char *const kEngineShortOptions = "l:R:a:u:G:i:H:U:w:O:X:m:QA";

bool parse_engine_option(int c, const char *arg, Args &a) {
    switch (c) {
        case 'l':
            a.lmc = static_cast<unsigned>(parse_number("--lmc", arg, 7));
            return true;
        case kOptGuid2lid:
            a.guid2lid = arg;
            return true;
        case 'R':
            a.chain = arg;
            a.chain_given = true;
            return true;
        case 'a':
            a.root_file = arg;
            return true;
        case 'u':
            a.cn_file = arg;
            return true;
        case 'G':
            a.io_file = arg;
            return true;
        case 'i':
            a.ignore_file = arg;
            return true;
        case 'H':
            a.max_reverse_hops = static_cast<unsigned>(parse_number("--max_reverse_hops", arg, 255));
            return true;
        case kOptNoFallback:
            a.no_fallback = true;
            return true;
        case 'U':
            a.lfts_file = arg;
            return true;
        case 'w':
            a.hop_weights_file = arg;
            return true;
        case 'O':
            a.port_order_file = arg;
            return true;
        case 'X':
            a.routing_order_file = arg;
            return true;
        case 'm':
            a.ids_file = arg;
            return true;
        case kOptSeed:
            a.seed = parse_number("--seed", arg, ~0ull);
            return true;
        case 'Q':
            a.engine.qos = true;
            return true;
        case kOptQosMaxVls:
            a.engine.qos_max_vls = static_cast<unsigned>(parse_number("--qos_max_vls", arg, 15));
            return true;
        case kOptMaxVls:
            a.engine.max_vls = static_cast<unsigned>(parse_number("--max_vls", arg, 15));
            return true;
        case kOptLashStartVl:
            a.engine.lash_start_vl = static_cast<unsigned>(parse_number("--lash_start_vl", arg, 15));
            a.engine.lash_start_vl_set = true;
            return true;
        case kOptMeshAnalysis:
            a.engine.do_mesh_analysis = true;
            return true;
        case kOptTorusConfig:
            a.engine.torus_config = arg;
            return true;
        case kOptNueMaxVls:
            a.engine.nue_max_num_vls = static_cast<unsigned>(parse_number("--nue_max_num_vls", arg, 15));
            return true;
        case kOptNueSwitches:
            a.engine.nue_include_switches = true;
            return true;
        case kOptNueNoMetis:
            a.engine.nue_metis = false;
            return true;
        case kOptNueThreads:
            a.engine.nue_threads = static_cast<unsigned>(parse_number("--nue_threads", arg, 64));
            return true;
        case kOptNoEqualize:
            a.engine.port_equalization = false;
            return true;
        case 'A':
            a.engine.ucast_cache = true;
            return true;
        case kOptMcastGroups:
            a.mcast_groups = arg;
            return true;
        case kOptIgnoreExistingLfts:
            a.ignore_existing_lfts = true;
            return true;
        default:
            return false;
    }
}

RoutingOptions routing_options(const Args &a) {
    RoutingOptions ro = a.engine;
    ro.lmc = static_cast<std::uint8_t>(a.lmc);
    ro.seed = a.seed;
    ro.no_fallback = a.no_fallback;
    ro.max_reverse_hops = a.max_reverse_hops;
    ro.lfts_file = a.lfts_file;
    if (!a.root_file.empty()) ro.root_guids = read_guid_list(read_text_file(a.root_file), a.root_file);
    if (!a.cn_file.empty()) ro.cn_guids = read_guid_list(read_text_file(a.cn_file), a.cn_file);
    if (!a.io_file.empty()) ro.io_guids = read_guid_list(read_text_file(a.io_file), a.io_file);
    if (!a.ignore_file.empty()) {
        IgnoreList ig = read_ignore_guids(read_text_file(a.ignore_file), a.ignore_file);
        ro.ignore_guids = std::move(ig.end_port_guids);
        ro.ignore_ports = std::move(ig.switch_ports);
    }
    if (!a.hop_weights_file.empty())
        ro.hop_weights = read_hop_weights(read_text_file(a.hop_weights_file), a.hop_weights_file);
    if (!a.port_order_file.empty())
        ro.port_search_order =
            read_port_search_ordering(read_text_file(a.port_order_file), a.port_order_file);
    if (!a.routing_order_file.empty())
        ro.guid_routing_order = read_guid_list(read_text_file(a.routing_order_file), a.routing_order_file);
    if (!a.ids_file.empty()) ro.ids_guids = read_ids_guids(read_text_file(a.ids_file), a.ids_file);
    return ro;
}

const std::vector<option> &migration_long_options() {
    static const std::vector<option> o = {
        {"migrate", required_argument, nullptr, kOptMigrate},
        {"migrate-pattern", required_argument, nullptr, kOptMigratePattern},
        {"reconfig", required_argument, nullptr, kOptReconfig},
    };
    return o;
}

bool parse_migration_option(int c, const char *arg, Args &a) {
    switch (c) {
        case kOptMigrate:
            a.migrate_file = arg;
            return true;
        case kOptMigratePattern:
            if (!parse_migration_pattern(arg))
                throw UsageError(
                    std::string(
                        "--migrate-pattern: expected random, consolidate, grouping or to-uniform, got '") +
                    arg + "'");
            a.migrate_pattern = arg;
            return true;
        case kOptReconfig:
            if (std::strcmp(arg, "full") && std::strcmp(arg, "itrc") && std::strcmp(arg, "ftree-minrc") &&
                std::strcmp(arg, "ftree-minrc-rebalance"))
                throw UsageError(
                    std::string(
                        "--reconfig: expected full, itrc, ftree-minrc or ftree-minrc-rebalance, got '") +
                    arg + "'");
            a.reconfig = arg;
            return true;
        default:
            return false;
    }
}

Args parse_args(int argc, char **argv) {
    enum {
        kTopo = kOptFirstTool,
        kGen,
        kFail,
        kVerify,
        kMetrics,
        kEbbRuns,
        kShifts,
        kDump,
        kJson,
        kDot,
        kDisc,
        kNet,
        kG2l,
        kCompare,
        kReroute,
        kDumpMfts,
        kDumpRerouted,
        kArs,
        kArsGroups,
        kArsNaive,
        kArsExtra,
        kArsMaxAlt,
        kMigrateCheck
    };
    std::vector<option> opts = {
        {"topo", required_argument, nullptr, kTopo},
        {"gen", required_argument, nullptr, kGen},
        {"fail", required_argument, nullptr, kFail},
        {"verify", no_argument, nullptr, kVerify},
        {"metrics", no_argument, nullptr, kMetrics},
        {"ebb-runs", required_argument, nullptr, kEbbRuns},
        {"shifts", required_argument, nullptr, kShifts},
        {"dump-lfts", required_argument, nullptr, kDump},
        {"dump-mfts", required_argument, nullptr, kDumpMfts},
        {"dump-rerouted-lfts", required_argument, nullptr, kDumpRerouted},
        {"write-json", required_argument, nullptr, kJson},
        {"write-dot", required_argument, nullptr, kDot},
        {"write-ibnetdiscover", required_argument, nullptr, kDisc},
        {"write-net", required_argument, nullptr, kNet},
        {"write-guid2lid", required_argument, nullptr, kG2l},
        {"compare-lfts", required_argument, nullptr, kCompare},
        {"reroute", required_argument, nullptr, kReroute},
        {"ars", no_argument, nullptr, kArs},
        {"ars-groups", required_argument, nullptr, kArsGroups},
        {"ars-naive", no_argument, nullptr, kArsNaive},
        {"ars-max-extra-hops", required_argument, nullptr, kArsExtra},
        {"ars-max-alternates", required_argument, nullptr, kArsMaxAlt},
        {"migrate-check", required_argument, nullptr, kMigrateCheck},
        {"quiet", no_argument, nullptr, 'q'},
        {"help", no_argument, nullptr, 'h'},
    };
    opts.insert(opts.end(), engine_long_options().begin(), engine_long_options().end());
    opts.insert(opts.end(), migration_long_options().begin(), migration_long_options().end());
    opts.push_back({nullptr, 0, nullptr, 0});
    const std::string shorts = std::string(":") + kEngineShortOptions + "qh";
    Args a;
    optind = 0;  // GNU getopt starts afresh (a process may parse more than one command line)
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts.c_str(), opts.data(), nullptr)) != -1) {
        if (parse_engine_option(c, optarg, a) || parse_migration_option(c, optarg, a)) continue;
        switch (c) {
            case kTopo:
                a.topo = optarg;
                break;
            case kGen:
                a.gen = optarg;
                break;
            case kFail:
                a.failures = parse_failures(optarg, "--fail");
                break;
            case kReroute:
                a.reroute.push_back(optarg);
                break;
            case kVerify:
                a.verify = true;
                break;
            case kMetrics:
                a.metrics = true;
                break;
            case kEbbRuns:
                a.ebb_runs = static_cast<unsigned>(parse_number("--ebb-runs", optarg, 1'000'000));
                break;
            case kShifts:
                a.shifts = std::strcmp(optarg, "-1") == 0
                               ? -1
                               : static_cast<long>(parse_number("--shifts", optarg, 1'000'000));
                break;
            case kDump:
                a.dump = optarg;
                break;
            case kDumpMfts:
                a.mft_dump = optarg;
                break;
            case kDumpRerouted:
                a.rerouted_dump = optarg;
                break;
            case kJson:
                a.json = optarg;
                break;
            case kDot:
                a.dot = optarg;
                break;
            case kDisc:
                a.disc = optarg;
                break;
            case kNet:
                a.net = optarg;
                break;
            case kG2l:
                a.g2l = optarg;
                break;
            case kCompare:
                a.cmp_a = optarg;
                if (optind >= argc || argv[optind][0] == '-')
                    throw UsageError("--compare-lfts needs two dump files");
                a.cmp_b = argv[optind++];
                break;
            case kArs:
                a.ars = true;
                break;
            case kArsGroups:
                a.ars = true;
                a.ars_groups = optarg;
                break;
            case kArsNaive:
                a.ars = a.ars_naive = true;
                break;
            case kArsExtra:
                a.ars_max_extra_hops =
                    static_cast<unsigned>(parse_number("--ars-max-extra-hops", optarg, 254));
                break;
            case kArsMaxAlt:
                a.ars_max_alternates =
                    static_cast<unsigned>(parse_number("--ars-max-alternates", optarg, 254));
                break;
            case kMigrateCheck: {
                // N steps, or N% of the steps.
                std::string v = optarg;
                a.migrate_check_percent = !v.empty() && v.back() == '%';
                if (a.migrate_check_percent) v.pop_back();
                a.migrate_check = static_cast<unsigned>(parse_number(
                    "--migrate-check", v.c_str(), a.migrate_check_percent ? 100 : 1'000'000'000));
                break;
            }
            case 'q':
                a.quiet = true;
                break;
            case 'h':
                a.help = true;
                return a;
            default:
                throw_getopt_error(c, argv);
        }
    }
    check_no_operands(argc, argv);
    if (a.topo.empty() == a.gen.empty()) throw UsageError("give exactly one of --topo FILE or --gen SPEC");
    check_chain(a.chain);
    if (!a.migrate_file.empty() && !a.migrate_pattern.empty())
        throw UsageError("give one of --migrate FILE or --migrate-pattern P");
    return a;
}

}  // namespace weft::routing::tools
