// Nue in-process, where repetition averages out the VM's drift that fresh-process timings
// (bench-vs-opensm) suffer: the complete CDG's cycle test in its three search modes, and whole
// route_nue runs with the race on one thread.
//
// The cycle test: a fixed sequence of random turns on a random regular fabric tried against a
// fresh CDG (starting order from random levels) per iteration, as the unit test's reference
// checks them; used turns are taken back now and then, and the memory of blocked turns with them.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engines/nue/complete_cdg.hpp"
#include "engines/switch_graph.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/nue.hpp"

using namespace weft::routing;
using namespace weft::routing::engines;
using namespace weft::routing::engines::nue;

namespace {

enum class Mode { Default, TriedOnly, ForwardFirst };

// args: switches, degree, mode.
void BM_CdgTryAdd(benchmark::State &state) {
    const Fabric f = generate("random:switches=" + std::to_string(state.range(0)) +
                              ",degree=" + std::to_string(state.range(1)) + ",hosts=1,seed=11");
    const SwitchGraph g(f);
    const Channels ch(f, g);
    std::mt19937_64 rng(3);
    std::vector<std::uint32_t> level(ch.switches());
    for (auto &l : level) l = static_cast<std::uint32_t>(rng() % 4);
    std::vector<std::pair<ChannelId, ChannelId>> turns;
    while (turns.size() < 20 * ch.size()) {
        const auto c1 = static_cast<ChannelId>(rng() % ch.size());
        const SwitchIdx at = ch.head(c1);
        const auto c2 = static_cast<ChannelId>(ch.begin(at) + rng() % (ch.end(at) - ch.begin(at)));
        if (c2 != ch.reverse(c1)) turns.emplace_back(c1, c2);
    }
    CompleteCdg cdg(ch, level);
    const auto mode = static_cast<Mode>(state.range(2));
    if (mode == Mode::TriedOnly) cdg.block_tried_only();
    if (mode == Mode::ForwardFirst) cdg.search_forward_first();
    std::size_t cycles = 0;
    for (auto _ : state) {
        state.PauseTiming();
        cdg.reset(level);
        state.ResumeTiming();
        for (std::size_t i = 0; i < turns.size(); ++i) {
            const auto [c1, c2] = turns[i];
            cycles += cdg.try_add(c1, c2) == CompleteCdg::Add::Cycle;
            if (i % 7 == 0 && cdg.used(c1, c2)) cdg.remove(c1, c2), cdg.forget_blocked();
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * turns.size()));
    state.counters["cycles/iter"] = static_cast<double>(cycles) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_CdgTryAdd)
    ->ArgNames({"switches", "degree", "mode"})
    ->ArgsProduct({{256}, {6, 12}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

// route_nue on one thread (args: fabric index, VLs); warm, so no first-touch costs.
const char *const kFabrics[] = {"dragonfly:a=4,p=2,h=2", "torus:4x4x4,hosts=2",
                                "random:switches=64,degree=8,hosts=4,seed=7", "dragonfly:a=8,p=4,h=4"};

void BM_RouteNue(benchmark::State &state) {
    Fabric f = generate(kFabrics[state.range(0)]);
    assign_lids(f, LidOptions{});
    RoutingOptions o;
    o.qos = true;
    o.nue_max_num_vls = static_cast<unsigned>(state.range(1));
    o.nue_threads = 1;
    state.SetLabel(kFabrics[state.range(0)]);
    for (auto _ : state) {
        RoutingTables t;
        if (!route_nue(f, o, t).ok) state.SkipWithError("route_nue failed");
        benchmark::DoNotOptimize(t.lft.data());
    }
}
BENCHMARK(BM_RouteNue)
    ->ArgNames({"fabric", "vls"})
    ->ArgsProduct({{0, 1, 2, 3}, {1, 8}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
