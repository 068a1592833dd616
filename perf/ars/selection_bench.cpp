// Cost of ARS selection per packet (bursts of 32) and of one quality update per port.
//
// Traffic: uniformly random flow hashes, one packet per simulated nanosecond, so a bucket of an
// N-flow table is revisited about every N ns: 512 and 32K flows stay inside the 256 us idle time
// (mostly sticky hits), 1M flows exceed it (nearly every packet starts a new flowlet and runs the
// full choice). Port bands are fixed and mixed so quality choices have ties and a clear best.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "weft/ars/config.hpp"
#include "weft/ars/port_board.hpp"
#include "weft/ars/quality_sampler.hpp"
#include "weft/ars/rng.hpp"
#include "weft/ars/worker.hpp"

using namespace weft::ars;

namespace {

constexpr Ticks kTicksPerUs = 1000;
constexpr PortId kPorts = 64;
constexpr NhgId kGroup = 1;

std::shared_ptr<const Config> make_config(Mode mode, int members, std::uint32_t flows) {
    ConfigBuilder b(Profile{}, kTicksPerUs);
    for (PortId p = 0; p < kPorts; ++p) b.add_port(PortConfig{p, true, 100, 100, 100});
    ArsObjectConfig ars;
    ars.id = 0;
    ars.mode = mode;
    ars.max_flows = flows;
    ars.max_primary_members = 64;
    b.add_ars_object(ars);
    NhgConfig nhg;
    nhg.id = kGroup;
    nhg.ars_object = 0;
    for (int m = 0; m < members; ++m)
        nhg.members.push_back({static_cast<std::uint32_t>(m), EgressTarget::port(static_cast<PortId>(m)),
                               MemberRole::kPrimary, true});
    b.add_nhg(nhg);
    return b.build().config;
}

void BM_SelectBurst(benchmark::State &state) {
    const Mode mode = static_cast<Mode>(state.range(0));
    const int members = static_cast<int>(state.range(1));
    const auto flows = static_cast<std::uint32_t>(state.range(2));

    PortBoard board(kPorts, 1);
    Rng rng(1, 0);
    for (PortId p = 0; p < kPorts; ++p) {
        board.set_link_up(p, true);
        board.publish_port_quality(p, static_cast<QualityBand>(4 + rng.below(4)));  // bands 4..7
    }
    const auto config = make_config(mode, members, flows);
    Worker worker(board, 0);
    worker.adopt(config);

    // Enough distinct hashes to touch every bucket of the table.
    const std::size_t pool = std::clamp<std::size_t>(std::size_t{flows} * 4, 1u << 16, 1u << 22);
    std::vector<SelectRequest> requests(pool);
    for (SelectRequest &r : requests) r = {static_cast<std::uint32_t>(rng.next()), kGroup, {}};
    std::vector<Egress> out(kBurstSize);

    // Warm the table so the measurement sees the steady state, not the first fill.
    Ticks now = 0;
    for (std::size_t i = 0; i + kBurstSize <= pool; i += kBurstSize, now += kBurstSize)
        worker.select_nhg_burst({requests.data() + i, kBurstSize}, now, out);

    std::size_t i = 0;
    for (auto _ : state) {
        worker.select_nhg_burst({requests.data() + i, kBurstSize}, now, out);
        benchmark::DoNotOptimize(out.data());
        now += kBurstSize;  // 1 ns per packet
        i += kBurstSize;
        if (i + kBurstSize > pool) i = 0;
    }
    state.counters["ns_per_pkt"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * kBurstSize,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void SelectArgs(benchmark::internal::Benchmark *b) {
    for (int mode = 0; mode < kModeCount; ++mode)
        for (int members : {1, 16, 64})
            for (int flows : {512, 32 * 1024, 1024 * 1024}) b->Args({mode, members, flows});
    b->ArgNames({"mode", "members", "flows"});
}
BENCHMARK(BM_SelectBurst)->Apply(SelectArgs);

// The single-packet API on the headline case, to show what the burst prefetch buys.
void BM_SelectSingle(benchmark::State &state) {
    PortBoard board(kPorts, 1);
    Rng rng(1, 0);
    for (PortId p = 0; p < kPorts; ++p) {
        board.set_link_up(p, true);
        board.publish_port_quality(p, static_cast<QualityBand>(4 + rng.below(4)));
    }
    Worker worker(board, 0);
    worker.adopt(make_config(Mode::kFlowletQuality, 16, 32 * 1024));
    std::vector<std::uint32_t> hashes(1u << 17);
    for (std::uint32_t &h : hashes) h = static_cast<std::uint32_t>(rng.next());
    Ticks now = 0;
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(worker.select_nhg(kGroup, hashes[i], now++));
        if (++i == hashes.size()) i = 0;
    }
    state.counters["ns_per_pkt"] = benchmark::Counter(
        static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SelectSingle);

// One sampling interval over N ports (EWMA x2, weighting, scaling, quantization, publish).
void BM_QualityUpdate(benchmark::State &state) {
    const auto ports = static_cast<PortId>(state.range(0));
    ConfigBuilder b(Profile{}, kTicksPerUs);
    for (PortId p = 0; p < ports; ++p) b.add_port(PortConfig{p, true, 100, 100, 100});
    const auto config = b.build().config;
    PortBoard board(ports, 1);
    QualitySampler sampler(ports);
    std::vector<PortSample> samples(ports);
    Rng rng(3, 0);
    for (PortSample &s : samples) s = {rng.below(200000), rng.below(100000)};
    for (auto _ : state) {
        sampler.update(*config, samples, board);
        benchmark::ClobberMemory();
    }
    state.counters["ns_per_port"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * ports,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_QualityUpdate)->Arg(64)->Arg(512);

}  // namespace

BENCHMARK_MAIN();
