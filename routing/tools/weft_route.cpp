// weft-route: read or generate a fabric, assign LIDs, run an engine chain, verify, measure,
// and write LFTs/topologies in OpenSM's and the diags' formats.
//
// Exit codes: 0 ok, 1 verification failed (unreachable pairs, loops, credit loop, or
// --compare-lfts reachability differs), 2 usage or input error.
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

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lft_compare.hpp"
#include "weft/routing/lft_dump.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/mcast_groups.hpp"
#include "weft/routing/routing_metrics.hpp"
#include "weft/routing/text_file.hpp"
#include "weft/routing/topology_io.hpp"
#include "weft/routing/ucast_cache.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"

#include "ars_json.hpp"
#include "migrate.hpp"
#include "route_args.hpp"

using namespace weft::routing;
using namespace weft::routing::tools;

namespace {

constexpr int kExitOk = 0, kExitVerify = 1, kExitUsage = 2;

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

// Page faults of this process so far: a routing step fills fresh tables, and first touches of
// memory are part of its time.
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

// --ars: compile the groups, check the union of every choice, say what was left out and why.
// False when the union has a credit loop.
bool ars_groups(const Args &a, const Fabric &f, const RoutingOptions &ro, const RoutingTables &t,
                Progress &progress) {
    ArsOptions o;
    o.max_extra_hops = a.ars_max_extra_hops;
    o.max_alternates = a.ars_max_alternates;
    o.hop_weights = ro.hop_weights;
    if (a.ars_naive) {
        auto t0 = std::chrono::steady_clock::now();
        const ArsGroups naive = naive_ars_groups(f, t, o);
        const CreditLoopReport nc = check_ars_credit_loops(f, t, naive, progress.step("naive ars union"));
        std::printf("ars-naive: every candidate unchecked: credit-loops %s (VLs %u, dependencies %" PRIu64
                    ", %.3f s)\n",
                    nc.has_cycle ? "FOUND" : "none", nc.vls, nc.dependencies, seconds_since(t0));
        if (nc.has_cycle) std::fputs(nc.describe(f).c_str(), stdout);
    }
    ArsCompileReport r;
    auto t0 = std::chrono::steady_clock::now();
    const ArsGroups g = compile_ars_groups(f, t, o, &r, progress.step("ars groups"));
    const double compile_s = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const CreditLoopReport uc = check_ars_credit_loops(f, t, g, progress.step("ars union"));
    const double check_s = seconds_since(t0);
    std::printf("ars: destinations=%zu groups=%" PRIu64 " primaries=%" PRIu64 " alternates=%" PRIu64
                " left_out=%" PRIu64 " unrouted=%" PRIu64
                " (%.3f s); union credit-loops: %s (VLs %u, dependencies %" PRIu64 ", %.3f s)\n",
                g.destinations.size(), r.groups, r.primaries, r.alternates, r.left_out_total(), r.unrouted,
                compile_s, uc.has_cycle ? "FOUND" : "none", uc.vls, uc.dependencies, check_s);
    std::printf("ars: minimal by %s distance\n", ars_distance_name(r.distance));
    std::istringstream why(r.describe(f, g));
    for (std::string line; std::getline(why, line);) std::printf("  left out: %s\n", line.c_str());
    if (r.engine_cycle.has_cycle) std::fputs(r.engine_cycle.describe(f).c_str(), stdout);
    if (uc.has_cycle) std::fputs(uc.describe(f).c_str(), stdout);
    if (!a.ars_groups.empty()) {
        std::ofstream out(a.ars_groups, std::ios::binary);
        write_ars_groups_json(out, f, t.engine, g, r, uc);
        if (!out.flush()) throw std::runtime_error("cannot write " + a.ars_groups);
    }
    return !uc.has_cycle;
}

int run(const Args &a) {
    Progress progress(!a.quiet);
    auto t0 = std::chrono::steady_clock::now();
    Fabric f = a.topo.empty() ? generate(a.gen) : read_topology(a.topo);
    if (a.failures) f = apply_failures(f, *a.failures);
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
    if (f.has_vswitches()) {
        const VswitchBudget b = vswitch_budget(f);
        std::printf("vswitch: %zu hypervisors, %zu VFs, %zu VMs, %s LIDs (%zu VF LIDs%s), %" PRIu64
                    " LFT blocks per switch\n",
                    b.hypervisors, b.vfs, b.vms,
                    f.vf_lid_scheme == VfLidScheme::Prepopulated ? "prepopulated" : "dynamic", b.vf_lids,
                    f.extended_vlids ? ", vLIDs" : "", b.blocks_per_switch);
    }
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

    const bool route = a.chain_given || a.verify || a.metrics || a.ars || !a.dump.empty() || !a.dot.empty() ||
                       !a.reroute.empty() || !a.mcast_groups.empty() || !a.mft_dump.empty() ||
                       !a.migrate_file.empty() || !a.migrate_pattern.empty();
    if (!route) return kExitOk;

    const RoutingOptions ro = routing_options(a);
    RoutingTables t;
    UcastCache cache;
    const long faults_before = page_faults();
    t0 = std::chrono::steady_clock::now();
    const ChainResult cr = cache.route(a.chain, f, ro, t, progress.step("routing")).chain;
    const double route_s = seconds_since(t0);
    const long route_faults = page_faults() - faults_before;
    if (!cr.auto_choice.empty()) std::printf("auto: %s\n", cr.auto_choice.c_str());
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
        // One pass over the destinations for both checks.
        const RoutingCheck check = check_routing(vf, vt, progress.step("verify"));
        const PathReport &pr = check.paths;
        std::printf("verify: pairs=%" PRIu64 " unreachable=%" PRIu64 " switch_unreachable=%" PRIu64
                    " loops=%" PRIu64 " non_minimal=%" PRIu64 " disconnected=%" PRIu64
                    " max_hops=%u mean_hops=%.3f (%.3f s, with the credit-loop check)\n",
                    pr.pairs, pr.unreachable, pr.switch_unreachable, pr.loops, pr.non_minimal,
                    pr.unreachable_in_fabric, pr.max_hops, pr.mean_hops, seconds_since(t0));
        for (const auto &e : pr.examples) std::printf("  %s\n", e.what.c_str());
        const CreditLoopReport &cl = check.credit_loops;
        std::printf("credit-loops: %s (VLs %u, dependencies %" PRIu64 ")\n", cl.has_cycle ? "FOUND" : "none",
                    cl.vls, cl.dependencies);
        if (cl.has_cycle) std::fputs(cl.describe(vf).c_str(), stdout);
        if (!pr.ok() || cl.has_cycle) rc = kExitVerify;
    };
    if (a.verify) verify(f, t);
    if (!a.mcast_groups.empty()) {
        t0 = std::chrono::steady_clock::now();
        const ResolvedMcastGroups groups =
            resolve_mcast_groups(read_mcast_groups(read_text_file(a.mcast_groups), a.mcast_groups), f);
        for (const auto &w : groups.warnings) std::fprintf(stderr, "weft-route: multicast: %s\n", w.c_str());
        const McastRouting m = route_mcast_groups(cr, f, ro, t, groups.groups);
        std::size_t entries = 0;
        for (const McastTree &tree : m.trees)
            for (const auto &ports : tree.ports) entries += !ports.empty();
        std::printf("multicast: %zu groups, %zu trees (%zu switch entries), %zu left out (%.3f s)\n",
                    groups.groups.size(), m.trees.size(), entries, m.failures.size(), seconds_since(t0));
        for (const auto &why : m.failures) std::printf("  %s\n", why.c_str());
        if (!m.failures.empty() && a.verify) rc = kExitVerify;
        if (!a.mft_dump.empty()) spill(a.mft_dump, write_mft_listing(f, m.trees));
    } else if (!a.mft_dump.empty()) {
        throw UsageError("--dump-mfts needs --mcast-groups FILE");
    }
    if (a.ars && !ars_groups(a, f, ro, t, progress)) rc = kExitVerify;
    std::optional<LinkLoad> load;
    if (a.metrics || !a.dot.empty()) {
        t0 = std::chrono::steady_clock::now();
        // With VMs the traffic is theirs: VM to VM, each VM a source and a destination.
        load = f.vms().empty()
                   ? routes_per_link(f, t, progress.step("routes per link"))
                   : routes_per_link(f, t, traffic_endpoints(f), progress.step("routes per link"));
        if (a.metrics) {
            print_stats(f.vms().empty() ? "routes-per-link" : "routes-per-link (VMs)", load->all);
            print_stats(f.vms().empty() ? "routes-per-switch-link" : "routes-per-switch-link (VMs)",
                        load->switch_links);
            std::printf("  (%.3f s)\n", seconds_since(t0));
        }
    }
    if (a.metrics) {
        t0 = std::chrono::steady_clock::now();
        const PatternResult e =
            f.vms().empty() ? effective_bisection_bandwidth(f, t, a.ebb_runs, a.seed, progress.step("ebb"))
                            : effective_bisection_bandwidth(f, t, traffic_endpoints(f), a.ebb_runs, a.seed,
                                                            progress.step("ebb"));
        std::printf("ebb%s: %.4f (runs %u, seed %" PRIu64 ", flows %" PRIu64 ", undelivered %" PRIu64
                    ", worst flow %.4f, %.3f s)\n",
                    f.vms().empty() ? "" : " (VMs)", e.mean_bandwidth, a.ebb_runs, a.seed, e.flows,
                    e.undelivered, e.min_bandwidth, seconds_since(t0));
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

    if (!a.migrate_file.empty() || !a.migrate_pattern.empty()) {
        if (run_migrations(a, f, t, ro)) rc = kExitVerify;
        if (!a.rerouted_dump.empty() && a.reroute.empty()) spill(a.rerouted_dump, write_lft_dump(f, t));
    }

    // The fabric after changes: LIDs kept by GUID (as OpenSM keeps them), routed through the cache.
    LidOptions keep = lo;
    keep.guid2lid = read_guid2lid(write_guid2lid(f), "<LIDs of the first fabric>");
    std::shared_ptr<const ExistingLfts> held = existing_lfts_of(f, t);
    for (const std::string &file : a.reroute) {
        Fabric g = read_topology(file);
        for (const auto &c : assign_lids(g, keep).conflicts)
            std::fprintf(stderr, "weft-route: %s: LID conflict: %s\n", file.c_str(), c.c_str());
        RoutingTables tg;
        // As a resident OpenSM: what the switches hold from the last routing stays where it fits.
        RoutingOptions again = ro;
        if (!a.ignore_existing_lfts) again.existing.lfts = held;
        t0 = std::chrono::steady_clock::now();
        const CachedRouting r = cache.route(a.chain, g, again, tg, progress.step("routing"));
        const double s = seconds_since(t0);
        for (const auto &why : r.chain.failures)
            std::fprintf(stderr, "weft-route: fell through: %s\n", why.c_str());
        std::printf("reroute %s: %zu switches, max LID %u\n", file.c_str(), g.switch_count(), g.max_lid());
        if (!r.chain.ok) {
            std::fprintf(stderr, "weft-route: no engine of '%s' could route %s\n", a.chain.c_str(),
                         file.c_str());
            return kExitVerify;
        }
        if (!r.cache.hit && !r.chain.auto_choice.empty())
            std::printf("auto: %s\n", r.chain.auto_choice.c_str());
        if (r.cache.hit)
            std::printf("cache hit: %s (%.6f s, %" PRIu64 " LIDs unrouted, %" PRIu64
                        " stale switch entries)\n",
                        r.cache.reason.c_str(), s, r.cache.unrouted_lids, r.cache.stale_switch_entries);
        else
            std::printf("recomputed: %s (%s, %.6f s, VLs %u)\n", r.cache.reason.c_str(),
                        r.chain.engine.c_str(), s, tg.vls_used);
        if (a.verify) verify(g, tg);
        held = existing_lfts_of(g, tg);
        if (!a.rerouted_dump.empty() && &file == &a.reroute.back())
            spill(a.rerouted_dump, write_lft_dump(g, tg));
    }
    return rc;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        const Args a = parse_args(argc, argv);
        if (a.help) {
            std::fputs(usage().c_str(), stdout);
            return kExitOk;
        }
        return run(a);
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
