// Verification at scale: path tracing (every source to every LID), the credit-loop check, and
// both in one pass, on a routed 3-level fat tree of 64-port switches with 4 VMs per host on
// vLIDs (issue 32's test 5 at a few pods), on one thread and on two. Counter: (switch,
// destination LID) steps per second.
#include <benchmark/benchmark.h>

#include <memory>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/verification.hpp"

using namespace weft::routing;

namespace {

constexpr const char *kSpec = "pgft:h=3;m=32,32,4;w=1,32,32;radix=64/vms:vfs=4,load=100,vlids=extended";

struct Routed {
    Fabric f;
    RoutingTables t;
    std::uint64_t lids = 0;
};

const Routed &routed() {
    static std::unique_ptr<Routed> r;
    if (!r) {
        r = std::make_unique<Routed>();
        r->f = generate(kSpec);
        assign_lids(r->f, {});
        RoutingOptions o;
        o.no_fallback = true;
        if (!run_chain("ftree", r->f, o, r->t).ok) throw std::runtime_error("ftree failed");
        for (Lid d = 1; d <= r->f.max_lid(); ++d) r->lids += r->f.lid_owner(d).has_value();
    }
    return *r;
}

void label(benchmark::State &state, const Routed &r) {
    state.SetLabel(std::to_string(r.f.switch_count()) + " switches, " + std::to_string(r.lids) + " LIDs");
    state.counters["steps/s"] = benchmark::Counter(static_cast<double>(r.f.switch_count() * r.lids),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}

// arg: threads.
void BM_TracePaths(benchmark::State &state) {
    const Routed &r = routed();
    for (auto _ : state) {
        const PathReport p = trace_paths(r.f, r.t, {}, static_cast<unsigned>(state.range(0)));
        if (!p.ok()) state.SkipWithError("trace failed");
        benchmark::DoNotOptimize(p.pairs);
    }
    label(state, r);
}
BENCHMARK(BM_TracePaths)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CreditLoops(benchmark::State &state) {
    const Routed &r = routed();
    for (auto _ : state) {
        const CreditLoopReport c = check_credit_loops(r.f, r.t, {}, static_cast<unsigned>(state.range(0)));
        if (c.has_cycle) state.SkipWithError("credit loop");
        benchmark::DoNotOptimize(c.dependencies);
    }
    label(state, r);
}
BENCHMARK(BM_CreditLoops)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Both in one pass (what weft-route --verify runs).
void BM_CheckRouting(benchmark::State &state) {
    const Routed &r = routed();
    for (auto _ : state) {
        const RoutingCheck c = check_routing(r.f, r.t, {}, static_cast<unsigned>(state.range(0)));
        if (!c.paths.ok() || c.credit_loops.has_cycle) state.SkipWithError("check failed");
        benchmark::DoNotOptimize(c.paths.pairs);
    }
    label(state, r);
}
BENCHMARK(BM_CheckRouting)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
