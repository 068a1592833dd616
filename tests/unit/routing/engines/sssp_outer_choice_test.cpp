// sssp's outermost-layer choice: the AVX2 loop over packed words picks the same link as the
// scalar loop for every switch, over ranges of 1..40 candidates with many equal costs (equal
// words from one closer switch, i.e. parallel links, where the lowest link must win), closer
// switches with up to 254 links, and costs small and near 2^31.
#include "engines/sssp_outer_choice.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace weft::routing::engines {
namespace {

TEST(SsspOuterChoice, PackedVectorLoopMatchesScalar) {
#ifndef WEFT_SSSP_AVX2
    GTEST_SKIP() << "no AVX2 loop on this target";
#else
    if (!has_outer_choice_avx2()) GTEST_SKIP() << "CPU without AVX2";
    std::mt19937 rng(7);
    auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    for (int round = 0; round < 300; ++round) {
        // Closer switches y with their links off[y] .. off[y + 1] (CSR, first one not at 0).
        const std::uint32_t closer = 1 + below(20), switches = 1 + below(30);
        std::vector<std::uint32_t> off{5 + below(100)};
        for (std::uint32_t y = 0; y < closer; ++y) off.push_back(off.back() + 1 + below(round % 3 ? 6 : 254));
        std::vector<std::uint32_t> rank(closer), by_rank(closer);
        std::iota(rank.begin(), rank.end(), 0u);
        std::shuffle(rank.begin(), rank.end(), rng);
        const std::uint64_t base = round % 2 ? 1 : (std::uint64_t{1} << 30);
        std::vector<std::uint64_t> dk(closer), dp(closer), w(off.back());
        for (std::uint32_t y = 0; y < closer; ++y) {
            const std::uint64_t cost = base + below(3);
            dk[y] = cost << 32 | rank[y];
            dp[y] = (cost << 32 | std::uint64_t{rank[y]} << 8) - off[y];
            by_rank[rank[y]] = y;
        }
        for (auto &x : w) x = below(3);
        std::vector<std::uint32_t> bfs(switches), cand_off{0};
        std::vector<SsspCand> cand;
        for (std::uint32_t k = 0; k < switches; ++k) {
            bfs[k] = switches - 1 - k;
            const std::uint32_t count = 1 + below(40);
            for (std::uint32_t c = 0; c < count; ++c) {
                const std::uint32_t y = below(closer);
                cand.push_back({off[y] + below(off[y + 1] - off[y]), y});
            }
            cand_off.push_back(static_cast<std::uint32_t>(cand.size()));
        }
        const std::uint32_t first = below(switches);
        std::vector<std::uint32_t> want(switches, 0), got(switches, 0);
        outer_choice_scalar(bfs.data(), cand_off.data(), cand.data(), first, switches, dk.data(), w.data(),
                            want.data());
        outer_choice_packed_avx2(bfs.data(), cand_off.data(), cand.data(), first, switches, dp.data(),
                                 w.data(), by_rank.data(), off.data(), got.data());
        ASSERT_EQ(want, got) << "round " << round;
    }
#endif
}

}  // namespace
}  // namespace weft::routing::engines
