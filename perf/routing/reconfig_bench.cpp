// Live migration on large fat trees (seed 002, Table 3): FTreeMinRC's switch marking in its worst
// case, a VM moved between the two edges of the tree (every level of both sides marked, up to the
// roots), on the paper's three trees; the sub-tree analysis it needs once per topology; and the
// whole plans (ItRC, FTreeMinRC) on a routed 11664-node tree beside the re-route they replace.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/reconfig.hpp"

using namespace weft::routing;

namespace {

// Table 3's trees: 972 switches / 5832 nodes, 1620 / 11664, 6912 / 20736 (a 4-level 12-ary tree
// of 24-port switches).
const char *const kTrees[] = {"ft36:hosts=5832", "ftree:k=36,n=3", "kary:k=12,n=4"};

struct Tree {
    Fabric f;
    std::optional<FatTreeSkyline> sky;
    SwitchIdx first = kNoSwitch, last = kNoSwitch;  // the leaves of the first and the last host
};

const Tree &tree(std::size_t i) {
    static std::unique_ptr<Tree> cache[std::size(kTrees)];
    if (!cache[i]) {
        auto t = std::make_unique<Tree>();
        t->f = generate(kTrees[i]);
        t->sky = FatTreeSkyline::build(t->f);
        for (NodeIdx n = 0; n < t->f.node_count(); ++n) {
            if (t->f.node(n).is_switch()) continue;
            const SwitchIdx leaf = t->f.node(t->f.port(n, 1).peer).sw;
            if (t->first == kNoSwitch) t->first = leaf;
            t->last = leaf;
        }
        cache[i] = std::move(t);
    }
    return *cache[i];
}

std::string label(const Fabric &f, const char *spec) {
    return std::string(spec) + " (" + std::to_string(f.switch_count()) + " switches)";
}

// arg: the tree. Counter: switches marked.
void BM_FTreeMinRCMarkWorstCase(benchmark::State &state) {
    const auto i = static_cast<std::size_t>(state.range(0));
    const Tree &t = tree(i);
    state.SetLabel(label(t.f, kTrees[i]));
    std::vector<SwitchIdx> marked;
    marked.reserve(t.f.switch_count());
    for (auto _ : state) {
        marked.clear();
        benchmark::DoNotOptimize(t.sky->mark(t.first, t.last, marked));
        benchmark::ClobberMemory();
    }
    state.counters["marked"] = static_cast<double>(marked.size());
}
BENCHMARK(BM_FTreeMinRCMarkWorstCase)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

// The sub-trees of a topology, found once (when the SM routes it).
void BM_SkylineBuild(benchmark::State &state) {
    const auto i = static_cast<std::size_t>(state.range(0));
    const Tree &t = tree(i);
    state.SetLabel(label(t.f, kTrees[i]));
    for (auto _ : state) benchmark::DoNotOptimize(FatTreeSkyline::build(t.f));
    state.counters["subtrees"] = static_cast<double>(t.sky->subtrees());
}
BENCHMARK(BM_SkylineBuild)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// The 11664-node tree with two VFs per hypervisor (one VM each, prepopulated LIDs), routed by
// vswitch-ftree once; a VM moved between the edges.
struct Routed {
    Fabric f;
    RoutingTables t;
    std::optional<FatTreeSkyline> sky;
    Migration m;
};

const Routed &routed() {
    static const std::unique_ptr<Routed> r = [] {
        auto x = std::make_unique<Routed>();
        x->f = generate("ftree:k=36,n=3/vms:vfs=2,load=50");
        assign_lids(x->f, {});
        run_chain("vswitch-ftree", x->f, {}, x->t);
        x->sky = FatTreeSkyline::build(x->f);
        const auto hyps = hypervisors(x->f);
        x->m = {x->f.vf(hyps.front(), 0).vm, hyps.back()};
        return x;
    }();
    return *r;
}

void BM_PlanItrc(benchmark::State &state) {
    const Routed &r = routed();
    MigrationPlan p;
    for (auto _ : state) benchmark::DoNotOptimize(p = plan_itrc(r.f, r.t, r.m));
    state.counters["switches"] = static_cast<double>(p.updates.size());
    state.counters["smps"] = static_cast<double>(p.smps);
}
BENCHMARK(BM_PlanItrc)->Unit(benchmark::kMicrosecond);

void BM_PlanFTreeMinRC(benchmark::State &state) {
    const Routed &r = routed();
    MigrationPlan p;
    for (auto _ : state) benchmark::DoNotOptimize(p = plan_ftree_min_rc(r.f, r.t, *r.sky, r.m));
    state.counters["switches"] = static_cast<double>(p.updates.size());
    state.counters["smps"] = static_cast<double>(p.smps);
}
BENCHMARK(BM_PlanFTreeMinRC)->Unit(benchmark::kMicrosecond);

// What the two replace: routing the moved fabric again and finding what changed.
void BM_PlanFullReroute(benchmark::State &state) {
    const Routed &r = routed();
    MigrationPlan p;
    RoutingTables again;
    for (auto _ : state)
        benchmark::DoNotOptimize(p = plan_full_reroute(r.f, r.t, r.m, "vswitch-ftree", {}, again));
    state.counters["switches"] = static_cast<double>(p.updates.size());
    state.counters["smps"] = static_cast<double>(p.smps);
}
BENCHMARK(BM_PlanFullReroute)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
