#include "migrate.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>

#include "weft/routing/reconfig.hpp"
#include "weft/routing/text_file.hpp"

namespace weft::routing::tools {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Totals {
    std::uint64_t switches = 0, smps = 0, marked = 0;
};

void add(Totals &x, const MigrationPlan &p) {
    x.switches += p.updates.size();
    x.smps += p.smps;
    x.marked += p.marked;
}

std::string hyp(const Fabric &f, NodeIdx n) {
    return "'" + f.node(n).desc + "'";
}

}  // namespace

int run_migrations(const Args &a, Fabric &f, RoutingTables &t, const RoutingOptions &o) {
    if (f.vms().empty()) throw UsageError("--migrate/--migrate-pattern: the fabric runs no VM");
    const std::vector<Migration> steps =
        !a.migrate_file.empty() ? read_migrations(read_text_file(a.migrate_file), a.migrate_file, f)
                                : generate_migrations(f, *parse_migration_pattern(a.migrate_pattern), a.seed);
    std::string why_not_tree;
    const auto sky = FatTreeSkyline::build(f, &why_not_tree);
    ReconfigMethod applied = sky ? ReconfigMethod::FTreeMinRC : ReconfigMethod::ItRC;
    if (a.reconfig == "full") applied = ReconfigMethod::FullReroute;
    if (a.reconfig == "itrc") applied = ReconfigMethod::ItRC;
    const bool rebalance = a.reconfig == "ftree-minrc-rebalance";
    if (rebalance && !sky) throw UsageError("--reconfig ftree-minrc-rebalance: " + why_not_tree);
    if (rebalance) applied = ReconfigMethod::FTreeMinRC;
    if (a.reconfig == "ftree-minrc") {
        if (!sky) throw UsageError("--reconfig ftree-minrc: " + why_not_tree);
        applied = ReconfigMethod::FTreeMinRC;
    }
    const VswitchBudget b = vswitch_budget(f);
    std::printf("migrations: %zu (%s), %s LIDs%s, applying %s%s%s%s\n", steps.size(),
                a.migrate_file.empty() ? a.migrate_pattern.c_str() : a.migrate_file.c_str(),
                f.vf_lid_scheme == VfLidScheme::Prepopulated ? "prepopulated" : "dynamic",
                f.extended_vlids ? " (vLIDs)" : "", std::string(method_name(applied)).c_str(),
                rebalance ? " (sub-tree re-balanced)" : "",
                sky ? "" : "; ftree-minrc: ", sky ? "" : why_not_tree.c_str());
    std::printf("budget: %zu switches, %zu physical + %zu VF LIDs, %" PRIu64
                " blocks per switch, full "
                "reconfiguration %" PRIu64 " SMPs, worst migration %" PRIu64 " SMPs, VM boot %" PRIu64
                " SMPs\n",
                b.switches, b.physical_lids, b.vf_lids, b.blocks_per_switch, b.full_reconfig_smps,
                b.worst_migration_smps, b.boot_smps);
    // Check every `every` steps (0: the last only).
    std::size_t every = a.migrate_check;
    if (a.migrate_check_percent && a.migrate_check)
        every = std::max<std::size_t>(1, (steps.size() * a.migrate_check + 99) / 100);
    int rc = 0;
    Totals full, itrc, min, reb;
    std::size_t checked = 0;
    double plan_s[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Migration &m = steps[i];
        if (auto why = migration_refusal(f, m); !why.empty())
            throw UsageError("migration " + std::to_string(i + 1) + ": " + why);
        const VirtualMachine &vm = f.vms()[m.vm];
        const NodeIdx from = vm.hypervisor;
        RoutingTables rerouted;
        auto t0 = std::chrono::steady_clock::now();
        const MigrationPlan pf = plan_full_reroute(f, t, m, a.chain, o, rerouted);
        plan_s[0] += seconds_since(t0);
        if (!pf.ok()) throw UsageError("migration " + std::to_string(i + 1) + ": " + pf.error);
        t0 = std::chrono::steady_clock::now();
        const MigrationPlan pi = plan_itrc(f, t, m);
        plan_s[1] += seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        const MigrationPlan pm = sky ? plan_ftree_min_rc(f, t, *sky, m) : MigrationPlan{};
        plan_s[2] += seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        const MigrationPlan pr = sky ? plan_ftree_min_rc_rebalanced(f, t, *sky, m) : MigrationPlan{};
        plan_s[3] += seconds_since(t0);
        if (sky && !pr.ok()) throw UsageError("migration " + std::to_string(i + 1) + ": " + pr.error);
        add(full, pf);
        add(itrc, pi);
        if (sky) add(min, pm), add(reb, pr);
        std::printf("migrate %zu: %s %s -> %s (LID %u %s LID %u): full: switches %zu smps %" PRIu64
                    " (full reconfiguration %" PRIu64 "); itrc: switches %zu smps %" PRIu64,
                    i + 1, vm.name.c_str(), hyp(f, from).c_str(), hyp(f, m.to).c_str(), pi.vm_lid,
                    pi.swap ? "swaps with" : "copies", pi.route_lid, pf.updates.size(), pf.smps, pf.full_smps,
                    pi.updates.size(), pi.smps);
        if (sky)
            std::printf("; ftree-minrc: marked %zu switches %zu smps %" PRIu64
                        " active %zu; rebalanced: sub-tree %zu switches %zu smps %" PRIu64,
                        pm.marked, pm.updates.size(), pm.smps, pm.active, pr.marked, pr.updates.size(),
                        pr.smps);
        std::printf("\n");
        const MigrationPlan &use = applied == ReconfigMethod::FullReroute ? pf
                                   : applied == ReconfigMethod::ItRC      ? pi
                                   : rebalance                            ? pr
                                                                          : pm;
        RoutingTables reroute_copy;
        const bool check = (every && (i + 1) % every == 0) || i + 1 == steps.size();
        if (check && applied != ReconfigMethod::FullReroute) reroute_copy = rerouted;
        apply_migration(f, t, use, &rerouted);
        if (!check) continue;
        ++checked;
        const RoutingTables &reference = applied == ReconfigMethod::FullReroute ? t : reroute_copy;
        const MigrationCheck c = verify_migration(f, t, reference, a.ebb_runs, a.seed);
        std::printf(
            "  after %s: unreachable %" PRIu64 " loops %" PRIu64 " credit-loops %s; max routes/link %" PRIu64
            " (re-route %" PRIu64 "); ebb %.4f (re-route %.4f)\n",
            std::string(method_name(applied)).c_str(), c.unreachable, c.loops,
            c.credit_loop ? "FOUND" : "none", c.max_routes, c.max_routes_reroute, c.ebb, c.ebb_reroute);
        if (!c.ok()) rc = 1;
    }
    const double n = steps.empty() ? 1.0 : static_cast<double>(steps.size());
    std::printf(
        "per migration: full: switches %.2f smps %.2f (%.6f s to plan); itrc: switches %.2f smps %.2f "
        "(%.6f s)",
        full.switches / n, full.smps / n, plan_s[0] / n, itrc.switches / n, itrc.smps / n, plan_s[1] / n);
    if (sky)
        std::printf(
            "; ftree-minrc: marked %.2f switches %.2f smps %.2f (%.6f s); rebalanced: switches %.2f smps "
            "%.2f (%.6f s)",
            min.marked / n, min.switches / n, min.smps / n, plan_s[2] / n, reb.switches / n, reb.smps / n,
            plan_s[3] / n);
    std::printf("; %zu checked\n", checked);
    return rc;
}

}  // namespace weft::routing::tools
