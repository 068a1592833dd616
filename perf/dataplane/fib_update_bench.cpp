// The route update path: FibBuilder adds, replacements and deletions applied to the live tables,
// per second, at 10K, 100K and 1M routes (IPv4 and IPv6), one batch or batches of 1000 as a
// routing daemon's feed would come; beside DPDK's rte_fib/rte_fib6 adding and deleting the same
// routes (what weft used before), and both tables' bulk lookups. Memory of 1M IPv4 + 100K IPv6
// routes is reported by BM_Memory. EAL runs without hugepages.
//
// Routes: IPv4 shaped like today's Internet table (61 % /24, 23 % /22-/23, the rest mostly
// /16-/21, 0.4 % shorter than /16, 0.07 % longer than /24); IPv6 /32s of providers in a few RIR blocks with
// /48s, /44s and /40s under some of them. Order "random" shuffles them; "sorted" is address order.
#include <benchmark/benchmark.h>
#include <rte_eal.h>
#include <rte_fib.h>
#include <rte_fib6.h>
#include <rte_malloc.h>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_publisher.hpp"

namespace dp = weft::dataplane;

namespace {

std::vector<dp::IpPrefix> v4_routes(std::size_t n, std::uint32_t seed) {
    // Prefix lengths per 100000 routes, as in today's Internet table (most /24, /22 and /23; a
    // few hundred shorter than /16; a handful longer than /24).
    static const std::pair<unsigned, unsigned> shares[] = {
        {8, 2},      {9, 3},    {10, 5},    {11, 10},   {12, 30},   {13, 60},   {14, 120},   {15, 200},
        {16, 1400},  {17, 800}, {18, 1400}, {19, 2600}, {20, 4100}, {21, 5200}, {22, 12000}, {23, 11000},
        {24, 61000}, {25, 10},  {26, 10},   {27, 10},   {28, 10},   {29, 10},   {30, 10},    {32, 10}};
    std::mt19937 rng(seed);
    std::unordered_set<dp::IpPrefix, dp::IpPrefixHash> seen;
    std::vector<dp::IpPrefix> out;
    while (out.size() < n) {
        unsigned x = rng() % 100000, len = 24;
        for (const auto &[l, share] : shares) {
            if (x < share) {
                len = l;
                break;
            }
            x -= share;
        }
        const std::uint32_t a = 0x01000000u + rng() % 0xDE000000u;
        const dp::IpPrefix p = *dp::IpPrefix::make(dp::IpAddr::v4(a), len);
        if (seen.insert(p).second) out.push_back(p);
    }
    return out;
}

std::vector<dp::IpPrefix> v6_routes(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    // Provider /32s in a few RIR blocks (2001::/16, 2400::/12, 2600::/12, 2a00::/12, ...).
    static const std::uint16_t blocks[] = {0x2001, 0x2400, 0x2600, 0x2800, 0x2a00, 0x2c00};
    std::vector<std::array<std::uint8_t, 4>> providers(std::max<std::size_t>(n / 5, 1));
    for (auto &p : providers) {
        const std::uint16_t b = blocks[rng() % std::size(blocks)];
        const std::uint32_t top =
            b == 0x2001 ? 0x20010000u | (rng() & 0xFFFF) : (std::uint32_t{b} << 16) | (rng() & 0xFFFFF);
        p = {static_cast<std::uint8_t>(top >> 24), static_cast<std::uint8_t>(top >> 16),
             static_cast<std::uint8_t>(top >> 8), static_cast<std::uint8_t>(top)};
    }
    std::unordered_set<dp::IpPrefix, dp::IpPrefixHash> seen;
    std::vector<dp::IpPrefix> out;
    while (out.size() < n) {
        dp::IpAddr a;
        a.v6 = true;
        const auto &prov = providers[rng() % providers.size()];
        std::copy(prov.begin(), prov.end(), a.bytes.begin());
        const unsigned x = rng() % 100;
        // Sites: /48s allocated close together inside a provider's /32 (a few /40s each).
        a.bytes[4] = static_cast<std::uint8_t>(rng() % 16);
        a.bytes[5] = static_cast<std::uint8_t>(rng());
        const unsigned len = x < 20 ? 32 : x < 25 ? 29 + rng() % 3 : x < 40 ? 36 + 4 * (rng() % 3) : 48;
        const dp::IpPrefix p = *dp::IpPrefix::make(a, len);
        if (seen.insert(p).second) out.push_back(p);
    }
    return out;
}

// The table shape once per (family, size), in both orders.
const std::vector<dp::IpPrefix> &routes(bool v6, std::size_t n, bool sorted) {
    static std::map<std::tuple<bool, std::size_t, bool>, std::vector<dp::IpPrefix>> cache;
    auto &r = cache[{v6, n, sorted}];
    if (r.empty()) {
        r = v6 ? v6_routes(n, 7) : v4_routes(n, 7);
        if (sorted) std::sort(r.begin(), r.end());
    }
    return r;
}

// Groups the routes need: sized so that no table refuses (weft counts them the same way).
std::uint32_t groups_for(const std::vector<dp::IpPrefix> &rs) {
    std::unordered_set<dp::IpPrefix, dp::IpPrefixHash> nodes;
    for (const dp::IpPrefix &p : rs) {
        if (!p.addr.v6) {
            if (p.len > 24) nodes.insert(*dp::IpPrefix::make(p.addr, 24));
            continue;
        }
        for (unsigned base = 16; base < p.len; base += 8) nodes.insert(*dp::IpPrefix::make(p.addr, base));
    }
    return static_cast<std::uint32_t>(nodes.size() + 16);
}

dp::FibConfig config_for(bool v6, std::size_t n, const std::vector<dp::IpPrefix> &rs) {
    dp::FibConfig c;
    c.num_ports = 4;
    const auto groups = groups_for(rs);
    if (v6) {
        c.max_routes6 = static_cast<int>(n);
        c.tbl8_groups6 = groups;
    } else {
        c.max_routes4 = static_cast<int>(n);
        c.tbl8_groups4 = std::min(groups, dp::kMaxTbl8Groups);
    }
    return c;
}

void groups(dp::FibBuilder &b) {
    for (std::uint32_t id = 1; id <= 2; ++id)
        if (!b.set_nhg(id, {{static_cast<std::uint16_t>(id), {}}}).ok()) std::abort();
}

void load(dp::FibBuilder &b, const std::vector<dp::IpPrefix> &rs, std::uint32_t nhg) {
    for (const dp::IpPrefix &p : rs)
        if (!b.add_route(p, nhg).ok()) std::abort();
    b.build();
}

enum class Op { Add, Replace, Delete };

// This thread's CPU time: the machine is shared, so a rate per CPU second is reported beside the
// rate per wall second.
double thread_cpu_s() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// args: routes, batch (0: all in one), sorted (0/1)
template <bool V6, Op What>
void BM_Update(benchmark::State &state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto batch = static_cast<std::size_t>(state.range(1));
    const auto &rs = routes(V6, n, state.range(2) != 0);
    double cpu = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto b = std::make_unique<dp::FibBuilder>(config_for(V6, n, rs));
        groups(*b);
        if (What != Op::Add) load(*b, rs, 1);
        dp::FibPublisher pub(1);  // no readers: grace periods end at once
        pub.publish(b->build());
        state.ResumeTiming();
        std::size_t staged = 0;
        const double cpu0 = thread_cpu_s();
        for (const dp::IpPrefix &p : rs) {
            const dp::Status s =
                What == Op::Delete ? b->del_route(p) : b->add_route(p, What == Op::Add ? 1 : 2);
            if (!s.ok()) state.SkipWithError(s.message().c_str());
            if (batch != 0 && ++staged == batch) {
                b->commit(pub);
                staged = 0;
            }
        }
        b->commit(pub);
        cpu += thread_cpu_s() - cpu0;
        state.PauseTiming();
        b.reset();  // the tables' memory goes outside the timing
        state.ResumeTiming();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.counters["per_cpu_s"] = static_cast<double>(state.iterations() * n) / cpu;
}

// DPDK's rte_fib (DIR-24-8) / rte_fib6 (trie) with the same routes: add, then delete.
template <bool V6, bool Delete>
void BM_RteFib(benchmark::State &state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto &rs = routes(V6, n, state.range(1) != 0);
    const std::uint32_t groups = groups_for(rs);
    double cpu = 0;
    for (auto _ : state) {
        state.PauseTiming();
        rte_fib *f4 = nullptr;
        rte_fib6 *f6 = nullptr;
        if (V6) {
            rte_fib6_conf c{};
            c.type = RTE_FIB6_TRIE;
            c.default_nh = dp::kNoRoute;
            c.max_routes = static_cast<int>(n);
            c.trie.nh_sz = RTE_FIB6_TRIE_4B;
            c.trie.num_tbl8 = groups;
            f6 = rte_fib6_create("bench6", SOCKET_ID_ANY, &c);
        } else {
            rte_fib_conf c{};
            c.type = RTE_FIB_DIR24_8;
            c.default_nh = dp::kNoRoute;
            c.max_routes = static_cast<int>(n);
            c.dir24_8.nh_sz = RTE_FIB_DIR24_8_2B;
            c.dir24_8.num_tbl8 = std::min(groups, dp::kMaxTbl8Groups);
            f4 = rte_fib_create("bench4", SOCKET_ID_ANY, &c);
        }
        if (f4 == nullptr && f6 == nullptr) {
            state.SkipWithError("rte_fib_create failed");
            break;
        }
        auto add = [&](const dp::IpPrefix &p) {
            return V6 ? rte_fib6_add(f6, p.addr.bytes.data(), p.len, 1)
                      : rte_fib_add(f4, p.addr.v4_host_order(), p.len, 1);
        };
        if (Delete)
            for (const dp::IpPrefix &p : rs) add(p);
        state.ResumeTiming();
        int failed = 0;
        const double cpu0 = thread_cpu_s();
        for (const dp::IpPrefix &p : rs) {
            const int rc = Delete ? (V6 ? rte_fib6_delete(f6, p.addr.bytes.data(), p.len)
                                        : rte_fib_delete(f4, p.addr.v4_host_order(), p.len))
                                  : add(p);
            failed += rc != 0;
        }
        cpu += thread_cpu_s() - cpu0;
        state.PauseTiming();
        state.counters["failed"] = failed;  // DPDK 22.11's trie can refuse routes its groups would hold
        rte_fib_free(f4);
        rte_fib6_free(f6);
        state.ResumeTiming();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
    state.counters["per_cpu_s"] = static_cast<double>(state.iterations() * n) / cpu;
}

// Bulk lookups of 32 addresses inside the routes, the forwarder's burst.
template <bool Weft>
void BM_Lookup4(benchmark::State &state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto &rs = routes(false, n, false);
    std::mt19937 rng(3);
    std::vector<std::uint32_t> addrs(1 << 16);
    for (auto &a : addrs) {
        const dp::IpPrefix &p = rs[rng() % rs.size()];
        a = p.addr.v4_host_order() | (p.len == 32 ? 0 : rng() & (0xFFFFFFFFu >> p.len));
    }
    std::unique_ptr<dp::FibBuilder> b;
    std::unique_ptr<dp::FibSnapshot> s;
    rte_fib *f = nullptr;
    if (Weft) {
        b = std::make_unique<dp::FibBuilder>(config_for(false, n, rs));
        groups(*b);
        load(*b, rs, 1);
        s = b->build();
    } else {
        rte_fib_conf c{};
        c.type = RTE_FIB_DIR24_8;
        c.default_nh = dp::kNoRoute;
        c.max_routes = static_cast<int>(n);
        c.dir24_8.nh_sz = RTE_FIB_DIR24_8_2B;
        c.dir24_8.num_tbl8 = std::min(groups_for(rs), dp::kMaxTbl8Groups);
        f = rte_fib_create("lookup4", SOCKET_ID_ANY, &c);
        for (const dp::IpPrefix &p : rs) rte_fib_add(f, p.addr.v4_host_order(), p.len, 1);
    }
    std::size_t at = 0;
    std::uint64_t nh[32];
    std::uint64_t sum = 0;
    for (auto _ : state) {
        std::uint32_t *burst = &addrs[at];
        if (Weft)
            s->lookup4(burst, nh, 32);
        else
            rte_fib_lookup_bulk(f, burst, nh, 32);
        sum += nh[0] + nh[31];
        at = (at + 32) & (addrs.size() - 1);
    }
    benchmark::DoNotOptimize(sum);
    rte_fib_free(f);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 32));
}

std::size_t rss_bytes() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

std::size_t dpdk_heap_bytes() {
    rte_malloc_socket_stats st{};
    std::size_t used = 0;
    for (int socket = 0; socket < RTE_MAX_NUMA_NODES; ++socket)
        if (rte_malloc_get_socket_stats(socket, &st) == 0) used += st.heap_allocsz_bytes;
    return used;
}

// 1M IPv4 + 100K IPv6 routes held: what the builder accounts for (tables, owners, groups, its
// hash maps), DPDK's heap and the process's resident memory, each as the difference from before.
void BM_Memory(benchmark::State &state) {
    const auto &r4 = routes(false, 1000000, false);
    const auto &r6 = routes(true, 100000, false);
    for (auto _ : state) {
        const std::size_t rss0 = rss_bytes(), heap0 = dpdk_heap_bytes();
        dp::FibConfig c = config_for(false, r4.size(), r4);
        c.max_routes6 = static_cast<int>(r6.size());
        c.tbl8_groups6 = groups_for(r6);
        {
            dp::FibBuilder b(c);
            groups(b);
            load(b, r4, 1);
            load(b, r6, 2);
            state.counters["builder_MB"] = static_cast<double>(b.memory_bytes()) / 1e6;
            state.counters["dpdk_heap_MB"] = static_cast<double>(dpdk_heap_bytes() - heap0) / 1e6;
            state.counters["rss_MB"] = static_cast<double>(rss_bytes() - rss0) / 1e6;
            state.counters["groups6"] = static_cast<double>(b.capacity().ipv6.tbl8_groups);
            state.counters["groups4"] = static_cast<double>(b.capacity().ipv4.tbl8_groups);
        }
    }
}

void sizes(benchmark::internal::Benchmark *b, bool batches) {
    for (std::int64_t n : {10000, 100000, 1000000})
        for (std::int64_t sorted : {0, 1}) {
            b->Args({n, 0, sorted});
            if (batches) b->Args({n, 1000, sorted});
        }
    b->ArgNames({"routes", "batch", "sorted"})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
}

}  // namespace

BENCHMARK(BM_Update<false, Op::Add>)->Name("add4")->Apply([](auto *b) { sizes(b, true); });
BENCHMARK(BM_Update<false, Op::Replace>)->Name("replace4")->Apply([](auto *b) { sizes(b, true); });
BENCHMARK(BM_Update<false, Op::Delete>)->Name("delete4")->Apply([](auto *b) { sizes(b, true); });
BENCHMARK(BM_Update<true, Op::Add>)->Name("add6")->Apply([](auto *b) { sizes(b, true); });
BENCHMARK(BM_Update<true, Op::Replace>)->Name("replace6")->Apply([](auto *b) { sizes(b, true); });
BENCHMARK(BM_Update<true, Op::Delete>)->Name("delete6")->Apply([](auto *b) { sizes(b, true); });
BENCHMARK(BM_RteFib<false, false>)->Name("rte_fib_add4")->Apply([](auto *b) {
    for (std::int64_t n : {10000, 100000, 1000000})
        for (std::int64_t sorted : {0, 1}) b->Args({n, sorted});
    b->ArgNames({"routes", "sorted"})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
});
BENCHMARK(BM_RteFib<false, true>)->Name("rte_fib_delete4")->Apply([](auto *b) {
    for (std::int64_t n : {10000, 100000, 1000000})
        for (std::int64_t sorted : {0, 1}) b->Args({n, sorted});
    b->ArgNames({"routes", "sorted"})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
});
BENCHMARK(BM_RteFib<true, false>)->Name("rte_fib6_add")->Apply([](auto *b) {
    for (std::int64_t n : {10000, 100000}) b->Args({n, 0});
    b->ArgNames({"routes", "sorted"})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
});
BENCHMARK(BM_Lookup4<true>)->Name("lookup4_weft")->Arg(1000000)->ArgName("routes");
BENCHMARK(BM_Lookup4<false>)->Name("lookup4_rte_fib")->Arg(1000000)->ArgName("routes");
BENCHMARK(BM_Memory)->Name("memory_1M_v4_100K_v6")->Iterations(1)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv) {
    const char *eal[] = {"bench_fib_update",
                         "--no-huge",
                         "--no-pci",
                         "-m",
                         "4096",
                         "--no-telemetry",
                         "--log-level=lib.eal:error",
                         "--file-prefix=bench_fib_update"};
    if (rte_eal_init(static_cast<int>(std::size(eal)), const_cast<char **>(eal)) < 0) return 1;
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    rte_eal_cleanup();
    return 0;
}
