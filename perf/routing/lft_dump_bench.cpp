// The file engine in-process, warm: parsing an opensm-lfts.dump held in memory (with and without
// the expected lines of the fabric it was written for), and the whole `-R file` step on a dump in
// a file (reads, parse, LFTs, hops). Fresh-process timings (bench-vs-opensm) are dominated by the
// VM's first-touch costs and move with where the page cache holds the dump; these do not.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <span>
#include <string>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lft_dump.hpp"
#include "weft/routing/lid_assignment.hpp"

using namespace weft::routing;

namespace {

const char *const kFabrics[] = {"dragonfly:a=4,p=2,h=2", "ft36:hosts=324", "ft36:hosts=648"};

// A fabric and weft's minhop dump of it (OpenSM's format, byte for byte).
struct Dumped {
    Fabric f;
    std::string text;
    explicit Dumped(const char *spec) : f(generate(spec)) {
        assign_lids(f, LidOptions{});
        RoutingTables t;
        run_chain("minhop", f, RoutingOptions{}, t);
        text = write_lft_dump(f, t);
    }
};

// Counts what the parser hands over, so that nothing but parsing is timed.
class CountingSink final : public LftDumpSink {
  public:
    void on_switch(const LftDumpSwitch &) override { ++switches; }
    void on_entries(std::span<const LftDumpEntry> es) override {
        entries += es.size();
        for (const LftDumpEntry &e : es) port_sum += e.port;
    }
    std::size_t switches = 0, entries = 0, port_sum = 0;
};

// args: fabric index, expected lines (0/1).
void BM_LftDumpParse(benchmark::State &state) {
    const Dumped d(kFabrics[state.range(0)]);
    std::size_t entries = 0;
    for (auto _ : state) {
        CountingSink sink;
        LftDumpParser parser("bench.dump", sink);
        if (state.range(1)) parser.expect_lines_of(d.f);
        parser.parse(d.text);
        entries = sink.entries;
        benchmark::DoNotOptimize(sink.port_sum);
    }
    state.SetLabel(kFabrics[state.range(0)]);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * entries));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * d.text.size()));
}
BENCHMARK(BM_LftDumpParse)
    ->ArgNames({"fabric", "expected"})
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// The whole file engine step (arg: fabric index) on a dump in a temporary file.
void BM_FileEngine(benchmark::State &state) {
    const Dumped d(kFabrics[state.range(0)]);
    char path[] = "/tmp/weft-bench-lfts-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
        state.SkipWithError("mkstemp failed");
        return;
    }
    ::close(fd);
    std::ofstream(path, std::ios::binary) << d.text;
    RoutingOptions o;
    o.lfts_file = path;
    for (auto _ : state) {
        RoutingTables t;
        if (!run_chain("file", d.f, o, t).ok) state.SkipWithError("file engine failed");
        benchmark::DoNotOptimize(t.hops.data());
    }
    std::remove(path);
    state.SetLabel(kFabrics[state.range(0)]);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * d.text.size()));
}
BENCHMARK(BM_FileEngine)->ArgName("fabric")->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
