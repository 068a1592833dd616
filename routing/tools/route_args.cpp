#include "route_args.hpp"

#include <getopt.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace weft::routing::tools {

const char *const kUsage = R"(usage: weft-route (--topo FILE | --gen SPEC) [options]

Input
  --topo FILE              ibnetdiscover output, ibsim net file, opensm-subnet.lst or weft JSON
                           (format detected from the content)
  --gen SPEC               generated fabric, e.g. ftree:k=36,n=2  pgft:h=2;m=18,18;w=1,18;p=1,1
                           xgft:n=2;m=8,4;w=4,1  ft36:hosts=5832  kary:k=4,n=3  torus:4x4x4,hosts=1
                           mesh:8x8  hypercube:d=6  dragonfly:a=4,p=2,h=2  dfplus:groups=4,leaves=4,spines=4,hosts=4
                           random:switches=64,degree=8,hosts=4,seed=7 ; append /fail-links=3,seed=1
  --fail SPEC              failures on the input: fail-links=N[,fail-switches=M][,seed=S]
  -l, --lmc N              LMC (0..7)
  --guid2lid FILE          keep the LIDs of OpenSM's guid2lid file

Routing (OpenSM's option names)
  -R, --routing_engine L   engine chain, e.g. ftree,updn (default minhop)
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
  --reroute FILE           after routing, route this topology (the fabric after a change; LIDs
                           kept by GUID) and say "cache hit: ..." or "recomputed: <reason>";
                           repeat for a sequence (e.g. host down, then the original file again)

Checks and metrics
  --verify                 trace all pairs (unreachable, loops, minimality) and check credit loops
  --metrics                routes per link, effective bisection bandwidth, shift and all-to-all
  --ebb-runs N             random bisections for EBB (default 100)
  --shifts N               shift patterns to sample evenly (default 16, 0 = none, -1 = all)

Output
  --dump-lfts FILE         LFTs in OpenSM's opensm-lfts.dump format
  --write-json F  --write-dot F  --write-ibnetdiscover F  --write-net F  --write-guid2lid F
  --compare-lfts A B       compare two LFT dumps on this fabric (reachability, path lengths, balance)
  -q, --quiet              no progress on stderr

Environment
  GLIBC_TUNABLES=glibc.malloc.hugetlb=1
                           glibc's heap on transparent huge pages: on fabrics of thousands of
                           hosts a routing step fills tens of megabytes of fresh tables, and
                           fewer, larger pages mean fewer first-touch page faults
)";

namespace {

std::uint64_t number(const char *opt, const char *s, std::uint64_t max) {
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s, &end, 0);
    if (!*s || *end || errno || v > max || s[0] == '-')
        throw UsageError(std::string(opt) + ": expected a number 0.." + std::to_string(max) + ", got '" + s +
                         "'");
    return v;
}

// An unknown name in -R is a usage error before any topology is read (OpenSM, too, sets up its
// engine list at start-up, not when it first routes).
void check_chain(const std::string &chain) {
    const std::vector<std::string> known = EngineRegistry::instance().names();
    for (const std::string &name : chain_tokens(chain)) {
        if (name == "no_fallback" || std::find(known.begin(), known.end(), name) != known.end()) continue;
        std::string list;
        for (const auto &k : known) list += (list.empty() ? "" : ", ") + k;
        throw UsageError("-R: unknown routing engine '" + name + "' (known: " + list + ", no_fallback)");
    }
}

}  // namespace

Args parse_args(int argc, char **argv) {
    enum {
        kTopo = 1000,
        kGen,
        kFail,
        kGuid2lid,
        kNoFallback,
        kSeed,
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
        kQosMaxVls,
        kMaxVls,
        kLashStartVl,
        kMeshAnalysis,
        kTorusConfig,
        kNueMaxVls,
        kNueSwitches,
        kNueNoMetis,
        kNueThreads,
        kNoEqualize,
        kReroute
    };
    static const option opts[] = {
        {"topo", required_argument, nullptr, kTopo},
        {"gen", required_argument, nullptr, kGen},
        {"fail", required_argument, nullptr, kFail},
        {"lmc", required_argument, nullptr, 'l'},
        {"guid2lid", required_argument, nullptr, kGuid2lid},
        {"routing_engine", required_argument, nullptr, 'R'},
        {"root_guid_file", required_argument, nullptr, 'a'},
        {"cn_guid_file", required_argument, nullptr, 'u'},
        {"io_guid_file", required_argument, nullptr, 'G'},
        {"ignore_guids", required_argument, nullptr, 'i'},
        {"max_reverse_hops", required_argument, nullptr, 'H'},
        {"no_fallback", no_argument, nullptr, kNoFallback},
        {"lfts_file", required_argument, nullptr, 'U'},
        {"hop_weights_file", required_argument, nullptr, 'w'},
        {"port_search_ordering_file", required_argument, nullptr, 'O'},
        {"dimn_ports_file", required_argument, nullptr, 'O'},
        {"guid_routing_order_file", required_argument, nullptr, 'X'},
        {"ids_guid_file", required_argument, nullptr, 'm'},
        {"seed", required_argument, nullptr, kSeed},
        {"verify", no_argument, nullptr, kVerify},
        {"metrics", no_argument, nullptr, kMetrics},
        {"ebb-runs", required_argument, nullptr, kEbbRuns},
        {"shifts", required_argument, nullptr, kShifts},
        {"dump-lfts", required_argument, nullptr, kDump},
        {"write-json", required_argument, nullptr, kJson},
        {"write-dot", required_argument, nullptr, kDot},
        {"write-ibnetdiscover", required_argument, nullptr, kDisc},
        {"write-net", required_argument, nullptr, kNet},
        {"write-guid2lid", required_argument, nullptr, kG2l},
        {"compare-lfts", required_argument, nullptr, kCompare},
        {"qos", no_argument, nullptr, 'Q'},
        {"qos_max_vls", required_argument, nullptr, kQosMaxVls},
        {"max_vls", required_argument, nullptr, kMaxVls},
        {"lash_start_vl", required_argument, nullptr, kLashStartVl},
        {"do_mesh_analysis", no_argument, nullptr, kMeshAnalysis},
        {"torus_config", required_argument, nullptr, kTorusConfig},
        {"nue_max_num_vls", required_argument, nullptr, kNueMaxVls},
        {"nue_include_switches", no_argument, nullptr, kNueSwitches},
        {"nue_no_metis", no_argument, nullptr, kNueNoMetis},
        {"nue_threads", required_argument, nullptr, kNueThreads},
        {"no_port_equalization", no_argument, nullptr, kNoEqualize},
        {"ucast_cache", no_argument, nullptr, 'A'},
        {"reroute", required_argument, nullptr, kReroute},
        {"quiet", no_argument, nullptr, 'q'},
        {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0},
    };
    Args a;
    optind = 0;  // GNU getopt starts afresh (a process may parse more than one command line)
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":l:R:a:u:G:i:H:U:w:O:X:m:QAqh", opts, nullptr)) != -1) {
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
            case 'l':
                a.lmc = static_cast<unsigned>(number("--lmc", optarg, 7));
                break;
            case kGuid2lid:
                a.guid2lid = optarg;
                break;
            case 'R':
                a.chain = optarg;
                a.chain_given = true;
                break;
            case 'a':
                a.root_file = optarg;
                break;
            case 'u':
                a.cn_file = optarg;
                break;
            case 'G':
                a.io_file = optarg;
                break;
            case 'i':
                a.ignore_file = optarg;
                break;
            case 'H':
                a.max_reverse_hops = static_cast<unsigned>(number("--max_reverse_hops", optarg, 255));
                break;
            case kNoFallback:
                a.no_fallback = true;
                break;
            case 'U':
                a.lfts_file = optarg;
                break;
            case 'w':
                a.hop_weights_file = optarg;
                break;
            case 'O':
                a.port_order_file = optarg;
                break;
            case 'X':
                a.routing_order_file = optarg;
                break;
            case 'm':
                a.ids_file = optarg;
                break;
            case kSeed:
                a.seed = number("--seed", optarg, ~0ull);
                break;
            case 'Q':
                a.engine.qos = true;
                break;
            case kQosMaxVls:
                a.engine.qos_max_vls = static_cast<unsigned>(number("--qos_max_vls", optarg, 15));
                break;
            case kMaxVls:
                a.engine.max_vls = static_cast<unsigned>(number("--max_vls", optarg, 15));
                break;
            case kLashStartVl:
                a.engine.lash_start_vl = static_cast<unsigned>(number("--lash_start_vl", optarg, 15));
                a.engine.lash_start_vl_set = true;
                break;
            case kMeshAnalysis:
                a.engine.do_mesh_analysis = true;
                break;
            case kTorusConfig:
                a.engine.torus_config = optarg;
                break;
            case kNueMaxVls:
                a.engine.nue_max_num_vls = static_cast<unsigned>(number("--nue_max_num_vls", optarg, 15));
                break;
            case kNueSwitches:
                a.engine.nue_include_switches = true;
                break;
            case kNueNoMetis:
                a.engine.nue_metis = false;
                break;
            case kNueThreads:
                a.engine.nue_threads = static_cast<unsigned>(number("--nue_threads", optarg, 64));
                break;
            case kNoEqualize:
                a.engine.port_equalization = false;
                break;
            case 'A':
                a.engine.ucast_cache = true;
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
                a.ebb_runs = static_cast<unsigned>(number("--ebb-runs", optarg, 1'000'000));
                break;
            case kShifts:
                a.shifts = std::strcmp(optarg, "-1") == 0
                               ? -1
                               : static_cast<long>(number("--shifts", optarg, 1'000'000));
                break;
            case kDump:
                a.dump = optarg;
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
            case 'q':
                a.quiet = true;
                break;
            case 'h':
                a.help = true;
                return a;
            case ':':
                throw UsageError(std::string("option ") + argv[optind - 1] + " needs an argument");
            default:
                throw UsageError(std::string("unknown option ") + argv[optind - 1]);
        }
    }
    if (optind < argc) throw UsageError(std::string("unexpected argument '") + argv[optind] + "'");
    if (a.topo.empty() == a.gen.empty()) throw UsageError("give exactly one of --topo FILE or --gen SPEC");
    check_chain(a.chain);
    return a;
}

}  // namespace weft::routing::tools
