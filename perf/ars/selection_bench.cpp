// Cost of ARS selection per packet (bursts of 32), with and without ARN's remote slots on the
// members, and of one quality update per port.
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

// With `remote`, member m reads remote slot m (ARN's news of the path beyond its port).
std::shared_ptr<const Config> make_config(Mode mode, int members, std::uint32_t flows, bool remote = false) {
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
                               MemberRole::kPrimary, true,
                               remote ? static_cast<RemoteSlot>(m) : kNoRemoteSlot});
    b.add_nhg(nhg);
    return b.build().config;
}

// Every port up, bands 4..7 drawn from `rng`: quality choices have ties and a clear best.
void set_up_board(PortBoard &board, Rng &rng) {
    for (PortId p = 0; p < kPorts; ++p) {
        board.set_link_up(p, true);
        board.publish_port_quality(p, static_cast<QualityBand>(4 + rng.below(4)));
    }
}

void count_packets(benchmark::State &state, std::uint64_t per_iteration) {
    state.counters["ns_per_pkt"] =
        benchmark::Counter(static_cast<double>(state.iterations() * per_iteration),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Bursts of kBurstSize over `requests`, one packet per simulated nanosecond, after one pass that
// warms the table so the measurement sees the steady state, not the first fill.
void time_bursts(benchmark::State &state, Worker &worker, const std::vector<SelectRequest> &requests) {
    std::vector<Egress> out(kBurstSize);
    Ticks now = 0;
    for (std::size_t i = 0; i + kBurstSize <= requests.size(); i += kBurstSize, now += kBurstSize)
        worker.select_nhg_burst({requests.data() + i, kBurstSize}, now, out);
    std::size_t i = 0;
    for (auto _ : state) {
        worker.select_nhg_burst({requests.data() + i, kBurstSize}, now, out);
        benchmark::DoNotOptimize(out.data());
        now += kBurstSize;
        i += kBurstSize;
        if (i + kBurstSize > requests.size()) i = 0;
    }
    count_packets(state, kBurstSize);
}

void BM_SelectBurst(benchmark::State &state) {
    const Mode mode = static_cast<Mode>(state.range(0));
    const int members = static_cast<int>(state.range(1));
    const auto flows = static_cast<std::uint32_t>(state.range(2));

    PortBoard board(kPorts, 1);
    Rng rng(1, 0);
    set_up_board(board, rng);
    const auto config = make_config(mode, members, flows);
    Worker worker(board, 0);
    worker.adopt(config);

    // Enough distinct hashes to touch every bucket of the table.
    const std::size_t pool = std::clamp<std::size_t>(std::size_t{flows} * 4, 1u << 16, 1u << 22);
    std::vector<SelectRequest> requests(pool);
    for (SelectRequest &r : requests) r = {static_cast<std::uint32_t>(rng.next()), kGroup, {}};
    time_bursts(state, worker, requests);
}

void SelectArgs(benchmark::internal::Benchmark *b) {
    for (int mode = 0; mode < kModeCount; ++mode)
        for (int members : {1, 16, 64})
            for (int flows : {512, 32 * 1024, 1024 * 1024}) b->Args({mode, members, flows});
    b->ArgNames({"mode", "members", "flows"});
}
BENCHMARK(BM_SelectBurst)->Apply(SelectArgs);

// Bands moving while packets are chosen: one port's band changes every `interval` packets, so
// each group derives its best members again (the cost the O(1) choice moves from every packet to
// every publication). A sampler publishing every 16 us at 30 Mpps is one change per ~500 packets
// at the most (a band only changes when the load crosses a threshold).
//
// With remote = 1 every member also reads a remote slot (ARN), and the changes alternate between
// a port's band and a remote slot's: the derivation reads both, the packets neither.
void BM_SelectBurstBandChurn(benchmark::State &state) {
    const Mode mode = static_cast<Mode>(state.range(0));
    const int members = static_cast<int>(state.range(1));
    const auto interval = static_cast<std::size_t>(state.range(2));
    const bool remote = state.range(3) != 0;
    PortBoard board(kPorts, 1, kPorts);
    Rng rng(1, 0);
    set_up_board(board, rng);
    Worker worker(board, 0);
    worker.adopt(make_config(mode, members, 32 * 1024, remote));
    bool remote_turn = false;
    std::vector<SelectRequest> requests(1u << 16);
    for (SelectRequest &r : requests) r = {static_cast<std::uint32_t>(rng.next()), kGroup, {}};
    std::vector<Egress> out(kBurstSize);
    Ticks now = 0;
    std::size_t i = 0, since_change = 0;
    for (auto _ : state) {
        worker.select_nhg_burst({requests.data() + i, kBurstSize}, now, out);
        benchmark::DoNotOptimize(out.data());
        now += kBurstSize;
        i += kBurstSize;
        if (i + kBurstSize > requests.size()) i = 0;
        since_change += kBurstSize;
        if (since_change >= interval) {
            since_change = 0;
            const auto p = static_cast<PortId>(rng.below(static_cast<std::uint32_t>(members)));
            remote_turn = remote && !remote_turn;
            if (remote_turn) {
                board.publish_remote_quality(p,
                                             static_cast<QualityBand>(board.remote_quality(p) == 7 ? 5 : 7));
            } else {
                board.publish_port_quality(p, static_cast<QualityBand>(board.port_quality(p) == 7 ? 4 : 7));
            }
        }
    }
    count_packets(state, kBurstSize);
}
BENCHMARK(BM_SelectBurstBandChurn)
    ->ArgsProduct({{static_cast<int>(Mode::kFlowletQuality), static_cast<int>(Mode::kPerPacketQuality)},
                   {16, 64},
                   {32, 512},
                   {0, 1}})
    ->ArgNames({"mode", "members", "every", "remote"});

// The headline burst with and without remote slots on the members: the packets never read them,
// so the two must cost the same.
void BM_SelectBurstRemote(benchmark::State &state) {
    const bool remote = state.range(0) != 0;
    PortBoard board(kPorts, 1, kPorts);
    Rng rng(1, 0);
    set_up_board(board, rng);
    for (PortId p = 0; p < kPorts; ++p)
        board.publish_remote_quality(p, static_cast<QualityBand>(5 + rng.below(3)));
    Worker worker(board, 0);
    worker.adopt(make_config(Mode::kFlowletQuality, 16, 32 * 1024, remote));
    std::vector<SelectRequest> requests(1u << 17);
    for (SelectRequest &r : requests) r = {static_cast<std::uint32_t>(rng.next()), kGroup, {}};
    time_bursts(state, worker, requests);
}
BENCHMARK(BM_SelectBurstRemote)->Arg(0)->Arg(1)->ArgNames({"remote"});

// The single-packet API on the headline case, to show what the burst prefetch buys.
void BM_SelectSingle(benchmark::State &state) {
    PortBoard board(kPorts, 1);
    Rng rng(1, 0);
    set_up_board(board, rng);
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
    count_packets(state, 1);
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
