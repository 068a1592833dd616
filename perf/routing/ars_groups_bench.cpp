// compile_ars_groups on whole fabrics, routed once beforehand: the incremental union check is
// the cost (most candidates on a dragonfly are refused for closing a credit loop). The counters
// give what was kept and left out, so runs of different builds can be checked for the same
// result as well as timed.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"

using namespace weft::routing;

namespace {

struct Case {
    const char *fabric, *engine;
    bool qos;
};
const Case kCases[] = {
    {"ft36:hosts=5832", "ftree", false},      {"torus:8x8x8", "nue", false},
    {"dragonfly:a=8,p=4,h=4", "nue", false},  {"dragonfly:a=8,p=4,h=4", "dfsssp", true},
    {"dragonfly:a=12,p=6,h=6", "nue", false},
};

struct Routed {
    Fabric f;
    RoutingTables t;
};

// Routing a=12 takes seconds: each case is routed once per process. Null when the engine fails.
const Routed *routed(std::size_t i) {
    static std::unique_ptr<Routed> cache[std::size(kCases)];
    if (!cache[i]) {
        auto r = std::make_unique<Routed>();
        r->f = generate(kCases[i].fabric);
        assign_lids(r->f, {});
        RoutingOptions o;
        o.qos = kCases[i].qos;
        o.no_fallback = true;
        if (run_chain(kCases[i].engine, r->f, o, r->t).ok) cache[i] = std::move(r);
    }
    return cache[i].get();
}

// arg: the case.
void BM_CompileArsGroups(benchmark::State &state) {
    const auto i = static_cast<std::size_t>(state.range(0));
    const Case &c = kCases[i];
    state.SetLabel(std::string(c.fabric) + " " + c.engine + (c.qos ? " -Q" : ""));
    const Routed *r = routed(i);
    if (!r) {
        state.SkipWithError("the engine did not route the fabric");
        return;
    }
    ArsCompileReport rep;
    for (auto _ : state) {
        const ArsGroups g = compile_ars_groups(r->f, r->t, {}, &rep);
        benchmark::DoNotOptimize(g.alternate_ports.data());
    }
    state.counters["primaries"] = static_cast<double>(rep.primaries);
    state.counters["alternates"] = static_cast<double>(rep.alternates);
    state.counters["left_out"] = static_cast<double>(rep.left_out_total());
}
BENCHMARK(BM_CompileArsGroups)->DenseRange(0, std::size(kCases) - 1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
