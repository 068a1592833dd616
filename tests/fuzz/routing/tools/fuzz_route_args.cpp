// libFuzzer target: weft-route's command line. The input is argv, one argument per line. Parsing
// must accept or throw UsageError/ParseError, never crash; what it accepts is carried out as far
// as it can be without touching files: --gen (numbers as given: the generators bound the fabric
// themselves), --fail on it, then the -R chain with every engine option given, on fabrics small
// enough to route many times a second. With --ars the groups are compiled from what routed and
// the union of every choice must be free of credit loops whenever the engine's routes are.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "argv_input.hpp"
#include "route_args.hpp"
#include "weft/routing/ars_groups.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/verification.hpp"

using namespace weft::routing;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 4096) return 0;
    auto lines = weft::fuzz::argv_lines(data, size, "weft-route");
    if (!lines) return 0;  // a C string ends at a NUL: no command line can hold one
    std::vector<std::string> &args = *lines;
    std::vector<char *> argv = weft::fuzz::argv_of(args);
    tools::Args a;
    try {
        a = tools::parse_args(static_cast<int>(args.size()), argv.data());
    } catch (const tools::UsageError &) {
        return 0;
    } catch (const ParseError &) {
        return 0;
    }
    if (a.help || a.gen.empty()) return 0;
    Fabric f;
    try {
        f = generate(a.gen);
        if (a.failures) f = apply_failures(f, *a.failures);
    } catch (const ParseError &) {
        return 0;
    } catch (const std::invalid_argument &) {  // failures the fabric cannot take
        return 0;
    } catch (const std::runtime_error &) {  // random: no simple connected graph for these numbers
        return 0;
    }
    if (f.node_count() > 200 || f.vms().size() > 512) return 0;
    std::size_t vfs = 0;
    for (NodeIdx n = 0; n < f.node_count(); ++n) vfs += f.node(n).vfs;
    if (vfs > 2048) return 0;
    LidOptions lo;
    lo.lmc = static_cast<std::uint8_t>(a.lmc);
    try {
        assign_lids(f, lo);
    } catch (const std::runtime_error &) {  // LMC 7 on this fabric: no room
        return 0;
    }
    RoutingOptions o = a.engine;
    o.lmc = static_cast<std::uint8_t>(a.lmc);
    o.seed = a.seed;
    o.no_fallback = a.no_fallback;
    o.max_reverse_hops = a.max_reverse_hops;
    o.torus_config.clear();  // files are not read here
    RoutingTables t;
    bool routed = false;
    try {
        routed = run_chain(a.chain, f, o, t).ok;
    } catch (const ParseError &) {
    }
    if (routed && a.ars) {
        ArsOptions ao;
        ao.max_extra_hops = a.ars_max_extra_hops;
        ao.max_alternates = a.ars_max_alternates;
        ArsCompileReport rep;
        const ArsGroups g = compile_ars_groups(f, t, ao, &rep);
        if (!rep.engine_cycle.has_cycle && check_ars_credit_loops(f, t, g).has_cycle) __builtin_trap();
    }
    // Migrations: a few steps of the pattern by ItRC (or FTreeMinRC on a fat tree); the VM's
    // column becomes the one it takes, so what was reachable stays reachable.
    if (routed && !a.migrate_pattern.empty() && !f.vms().empty()) {
        std::vector<Migration> steps;
        try {
            steps = generate_migrations(f, *parse_migration_pattern(a.migrate_pattern), a.seed);
        } catch (const std::invalid_argument &) {
            return 0;
        }
        const bool was_ok = trace_paths(f, t).ok();
        const auto sky = FatTreeSkyline::build(f);
        const bool tree = sky && (t.engine == "ftree" || t.engine == "vswitch-ftree");
        for (std::size_t i = 0; i < steps.size() && i < 6; ++i) {
            const MigrationPlan p = tree && a.reconfig != "itrc" ? plan_ftree_min_rc(f, t, *sky, steps[i])
                                                                 : plan_itrc(f, t, steps[i]);
            if (!p.ok()) __builtin_trap();  // generated steps are always possible
            apply_migration(f, t, p);
        }
        if (was_ok && !trace_paths(f, t).ok()) __builtin_trap();
    }
    return 0;
}
