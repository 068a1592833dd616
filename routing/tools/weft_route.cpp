// weft-route: read or generate a fabric, assign LIDs, run an engine chain, verify, measure,
// and write LFTs/topologies in OpenSM's and the diags' formats.
//
// Exit codes: 0 ok, 1 verification failed (unreachable pairs, loops, credit loop, or
// --compare-lfts reachability differs), 2 usage or input error.
#include <getopt.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lft_compare.hpp"
#include "weft/routing/lft_dump.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/routing_metrics.hpp"
#include "weft/routing/text_file.hpp"
#include "weft/routing/topology_io.hpp"
#include "weft/routing/ucast_cache.hpp"
#include "weft/routing/verification.hpp"

using namespace weft::routing;

namespace {

constexpr int kExitOk = 0, kExitVerify = 1, kExitUsage = 2;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char *kUsage = R"(usage: weft-route (--topo FILE | --gen SPEC) [options]

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

struct Args {
    std::string topo, gen, fail, guid2lid, chain = "minhop", dump, json, dot, disc, net, g2l;
    std::string root_file, cn_file, io_file, ignore_file, lfts_file, cmp_a, cmp_b;
    std::string hop_weights_file, port_order_file, routing_order_file, ids_file;
    std::vector<std::string> reroute;
    unsigned lmc = 0, ebb_runs = 100, max_reverse_hops = 0;
    long shifts = 16;
    std::uint64_t seed = 1;
    bool verify = false, metrics = false, no_fallback = false, quiet = false, chain_given = false;
    RoutingOptions engine;  // engine-specific options, passed through as given
};

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
                a.fail = optarg;
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
                std::fputs(kUsage, stdout);
                std::exit(kExitOk);
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

void spill(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text) || !out.flush()) throw std::runtime_error("cannot write " + path);
}

// Throttled progress on stderr: one line per step, updated at most every 200 ms.
class Progress {
  public:
    explicit Progress(bool on) : on_(on && isatty(2)) {}
    std::function<void(std::size_t, std::size_t)> step(std::string what) {
        if (!on_) return {};
        return [this, what](std::size_t done, std::size_t total) {
            const auto now = std::chrono::steady_clock::now();
            if (done != total && now - last_ < std::chrono::milliseconds(200)) return;
            last_ = now;
            std::fprintf(stderr, "\r%s: %zu/%zu%s", what.c_str(), done, total, done == total ? "\n" : "");
        };
    }

  private:
    bool on_;
    std::chrono::steady_clock::time_point last_{};
};

// Page faults of this process so far: on a VM a first touch of a page can cost as much as tens
// of thousands of instructions, so a routing step's time is its instructions and its faults.
long page_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void print_stats(const char *name, const LoadStats &s) {
    std::printf("%s: links=%" PRIu64 " min=%" PRIu64 " max=%" PRIu64 " mean=%.2f stddev=%.2f\n", name,
                s.links, s.min, s.max, s.mean, s.stddev);
}

RoutingTables load_dump(const Fabric &f, const std::string &path) {
    RoutingTables t;
    t.reset(f);
    const LftApplyReport r = load_lft_dump(path, f, t);
    if (r.switches_unknown || r.rejected)
        std::fprintf(stderr, "weft-route: %s: %zu switches not in the fabric, %zu entries rejected\n",
                     path.c_str(), r.switches_unknown, r.rejected);
    t.engine = "file";
    return t;
}

int run(const Args &a) {
    Progress progress(!a.quiet);
    auto t0 = std::chrono::steady_clock::now();
    Fabric f = a.topo.empty() ? generate(a.gen) : read_topology(a.topo);
    if (!a.fail.empty()) {
        FailureParams p;
        std::size_t pos = 0;
        while (pos < a.fail.size()) {
            std::size_t end = a.fail.find(',', pos);
            if (end == std::string::npos) end = a.fail.size();
            const std::string item = a.fail.substr(pos, end - pos);
            const auto eq = item.find('=');
            if (eq == std::string::npos) throw UsageError("--fail: expected key=value, got '" + item + "'");
            const std::string k = item.substr(0, eq), v = item.substr(eq + 1);
            if (k == "fail-links")
                p.links = static_cast<unsigned>(number("fail-links", v.c_str(), 1'000'000));
            else if (k == "fail-switches")
                p.switches = static_cast<unsigned>(number("fail-switches", v.c_str(), 1'000'000));
            else if (k == "seed")
                p.seed = number("seed", v.c_str(), ~0ull);
            else
                throw UsageError("--fail: unknown key '" + k + "' (fail-links, fail-switches, seed)");
            pos = end + 1;
        }
        f = apply_failures(f, p);
    }
    std::size_t hosts = 0, links = 0;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (!f.node(n).is_switch() && x.peer != kNoNode) ++hosts;
            if (x.peer != kNoNode && (x.peer > n || (x.peer == n && x.peer_port > p))) ++links;
        }

    LidOptions lo;
    lo.lmc = static_cast<std::uint8_t>(a.lmc);
    if (!a.guid2lid.empty()) lo.guid2lid = read_guid2lid(read_text_file(a.guid2lid), a.guid2lid);
    const LidReport lr = assign_lids(f, lo);
    for (const auto &c : lr.conflicts) std::fprintf(stderr, "weft-route: LID conflict: %s\n", c.c_str());
    std::printf("fabric: %zu switches, %zu host ports, %zu links, max LID %u, LMC %u (%.3f s)\n",
                f.switch_count(), hosts, links, f.max_lid(), a.lmc, seconds_since(t0));
    if (!a.guid2lid.empty())
        std::printf("lids: %zu from guid2lid, %zu kept, %zu new, %zu conflicts, %zu unknown GUIDs\n",
                    lr.from_file, lr.kept, lr.assigned - lr.from_file - lr.kept, lr.conflicts.size(),
                    lr.unknown_guids);

    if (!a.json.empty()) spill(a.json, write_topology_json(f));
    if (!a.disc.empty()) spill(a.disc, write_ibnetdiscover(f));
    if (!a.net.empty()) spill(a.net, write_ibsim_net(f));
    if (!a.g2l.empty()) spill(a.g2l, write_guid2lid(f));

    if (!a.cmp_a.empty()) {
        const RoutingTables ta = load_dump(f, a.cmp_a), tb = load_dump(f, a.cmp_b);
        const LftComparison c = compare_lfts(f, ta, tb);
        std::fputs(c.describe().c_str(), stdout);
        const LinkLoad la = routes_per_link(f, ta), lb = routes_per_link(f, tb);
        std::printf("max_routes_a=%" PRIu64 "\nmax_routes_b=%" PRIu64 "\n", la.all.max, lb.all.max);
        std::printf("max_switch_routes_a=%" PRIu64 "\nmax_switch_routes_b=%" PRIu64 "\n", la.switch_links.max,
                    lb.switch_links.max);
        return c.only_a || c.only_b ? kExitVerify : kExitOk;
    }

    const bool route =
        a.chain_given || a.verify || a.metrics || !a.dump.empty() || !a.dot.empty() || !a.reroute.empty();
    if (!route) return kExitOk;

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
    RoutingTables t;
    UcastCache cache;
    const long faults_before = page_faults();
    t0 = std::chrono::steady_clock::now();
    const ChainResult cr = cache.route(a.chain, f, ro, t, progress.step("routing")).chain;
    const double route_s = seconds_since(t0);
    const long route_faults = page_faults() - faults_before;
    for (const auto &why : cr.failures) std::fprintf(stderr, "weft-route: fell through: %s\n", why.c_str());
    if (!cr.ok) {
        std::fprintf(stderr, "weft-route: no engine of '%s' could route this fabric\n", a.chain.c_str());
        return kExitVerify;
    }
    std::printf("routing: %s (chain %s) %.6f s, VLs %u, %ld page faults\n", cr.engine.c_str(),
                a.chain.c_str(), route_s, t.vls_used, route_faults);
    for (const auto &w : t.warnings)
        std::fprintf(stderr, "weft-route: warning: %s: %s\n", cr.engine.c_str(), w.c_str());
    if (!a.dump.empty()) spill(a.dump, write_lft_dump(f, t));

    int rc = kExitOk;
    auto verify = [&](const Fabric &vf, const RoutingTables &vt) {
        t0 = std::chrono::steady_clock::now();
        const PathReport pr = trace_paths(vf, vt, progress.step("trace"));
        std::printf("verify: pairs=%" PRIu64 " unreachable=%" PRIu64 " switch_unreachable=%" PRIu64
                    " loops=%" PRIu64 " non_minimal=%" PRIu64 " disconnected=%" PRIu64
                    " max_hops=%u mean_hops=%.3f (%.3f s)\n",
                    pr.pairs, pr.unreachable, pr.switch_unreachable, pr.loops, pr.non_minimal,
                    pr.unreachable_in_fabric, pr.max_hops, pr.mean_hops, seconds_since(t0));
        for (const auto &e : pr.examples) std::printf("  %s\n", e.what.c_str());
        t0 = std::chrono::steady_clock::now();
        const CreditLoopReport cl = check_credit_loops(vf, vt, progress.step("credit loops"));
        std::printf("credit-loops: %s (VLs %u, dependencies %" PRIu64 ", %.3f s)\n",
                    cl.has_cycle ? "FOUND" : "none", cl.vls, cl.dependencies, seconds_since(t0));
        if (cl.has_cycle) std::fputs(cl.describe(vf).c_str(), stdout);
        if (!pr.ok() || cl.has_cycle) rc = kExitVerify;
    };
    if (a.verify) verify(f, t);
    std::optional<LinkLoad> load;
    if (a.metrics || !a.dot.empty()) {
        t0 = std::chrono::steady_clock::now();
        load = routes_per_link(f, t, progress.step("routes per link"));
        if (a.metrics) {
            print_stats("routes-per-link", load->all);
            print_stats("routes-per-switch-link", load->switch_links);
            std::printf("  (%.3f s)\n", seconds_since(t0));
        }
    }
    if (a.metrics) {
        t0 = std::chrono::steady_clock::now();
        const PatternResult e = effective_bisection_bandwidth(f, t, a.ebb_runs, a.seed, progress.step("ebb"));
        std::printf("ebb: %.4f (runs %u, seed %" PRIu64 ", flows %" PRIu64 ", undelivered %" PRIu64
                    ", worst flow %.4f, %.3f s)\n",
                    e.mean_bandwidth, a.ebb_runs, a.seed, e.flows, e.undelivered, e.min_bandwidth,
                    seconds_since(t0));
        const std::size_t n = host_ports(f).size();
        if (a.shifts != 0 && n > 1) {
            std::vector<std::uint32_t> ks;
            if (a.shifts > 0 && static_cast<std::size_t>(a.shifts) < n - 1)
                for (long i = 1; i <= a.shifts; ++i)
                    ks.push_back(static_cast<std::uint32_t>(1 + (static_cast<std::size_t>(i - 1) * (n - 1)) /
                                                                    static_cast<std::size_t>(a.shifts)));
            t0 = std::chrono::steady_clock::now();
            const PatternResult s = shift_pattern(f, t, ks);
            std::printf("shift: mean=%.4f worst=%.4f (%zu shifts, %.3f s)\n", s.mean_bandwidth,
                        s.min_bandwidth, ks.empty() ? n - 1 : ks.size(), seconds_since(t0));
        }
        t0 = std::chrono::steady_clock::now();
        const PatternResult aa = all_to_all(f, t);
        std::printf("all-to-all: mean=%.6f worst=%.6f (%.3f s)\n", aa.mean_bandwidth, aa.min_bandwidth,
                    seconds_since(t0));
    }
    if (!a.dot.empty()) spill(a.dot, write_dot(f, load->routes));

    // The fabric after changes: LIDs kept by GUID (as OpenSM keeps them), routed through the cache.
    LidOptions keep = lo;
    keep.guid2lid = read_guid2lid(write_guid2lid(f), "<LIDs of the first fabric>");
    for (const std::string &file : a.reroute) {
        Fabric g = read_topology(file);
        for (const auto &c : assign_lids(g, keep).conflicts)
            std::fprintf(stderr, "weft-route: %s: LID conflict: %s\n", file.c_str(), c.c_str());
        RoutingTables tg;
        t0 = std::chrono::steady_clock::now();
        const CachedRouting r = cache.route(a.chain, g, ro, tg, progress.step("routing"));
        const double s = seconds_since(t0);
        for (const auto &why : r.chain.failures)
            std::fprintf(stderr, "weft-route: fell through: %s\n", why.c_str());
        std::printf("reroute %s: %zu switches, max LID %u\n", file.c_str(), g.switch_count(), g.max_lid());
        if (!r.chain.ok) {
            std::fprintf(stderr, "weft-route: no engine of '%s' could route %s\n", a.chain.c_str(),
                         file.c_str());
            return kExitVerify;
        }
        if (r.cache.hit)
            std::printf("cache hit: %s (%.6f s, %" PRIu64 " LIDs unrouted, %" PRIu64
                        " stale switch entries)\n",
                        r.cache.reason.c_str(), s, r.cache.unrouted_lids, r.cache.stale_switch_entries);
        else
            std::printf("recomputed: %s (%s, %.6f s, VLs %u)\n", r.cache.reason.c_str(),
                        r.chain.engine.c_str(), s, tg.vls_used);
        if (a.verify) verify(g, tg);
    }
    return rc;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return run(parse_args(argc, argv));
    } catch (const UsageError &e) {
        std::fprintf(stderr, "weft-route: %s\n(see weft-route --help)\n", e.what());
        return kExitUsage;
    } catch (const ParseError &e) {
        std::fprintf(stderr, "weft-route: %s\n", e.what());
        return kExitUsage;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "weft-route: %s\n", e.what());
        return kExitUsage;
    }
}
