// libFuzzer target: migration files (weft-route --migrate) read against a small fabric with VMs,
// then carried out: each accepted step FTreeMinRC-planned and applied when the fabric allows it,
// refused with a reason otherwise. The fabric must stay routed after every applied step.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/verification.hpp"

using namespace weft::routing;

namespace {

struct Routed {
    Fabric f;
    RoutingTables t;
    std::optional<FatTreeSkyline> sky;
};

const Routed &routed() {
    static const Routed r = [] {
        Routed x;
        x.f = generate("kary:k=2,n=3/vms:vfs=2,load=50,dist=random");
        assign_lids(x.f, {});
        run_chain("vswitch-ftree", x.f, {}, x.t);
        x.sky = FatTreeSkyline::build(x.f);
        return x;
    }();
    return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const Routed &r = routed();
    std::vector<Migration> steps;
    try {
        steps = read_migrations(text, "fuzz", r.f);
    } catch (const ParseError &) {
        return 0;
    }
    Fabric f = r.f;
    RoutingTables t = r.t;
    std::size_t applied = 0;
    for (const Migration &m : steps) {
        if (applied == 8) break;
        const MigrationPlan p = plan_ftree_min_rc(f, t, *r.sky, m);
        if (!p.ok()) {
            if (migration_refusal(f, m).empty()) __builtin_trap();  // refused without a reason
            continue;
        }
        apply_migration(f, t, p);
        ++applied;
        if (!trace_paths(f, t).ok()) __builtin_trap();
    }
    return 0;
}
