// sssp's outermost-layer choice: the AVX2 loop picks the same link as the scalar one for every
// switch, over ranges of 1..40 candidates with many equal words (equal costs from one closer
// switch, i.e. parallel links, where the lowest link must win).
#include "engines/sssp_outer_choice.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace weft::routing::engines {
namespace {

TEST(SsspOuterChoice, VectorLoopMatchesScalar) {
#ifndef WEFT_SSSP_AVX2
    GTEST_SKIP() << "no AVX2 loop on this target";
#else
    if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "CPU without AVX2";
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        const auto closer = static_cast<std::uint32_t>(1 + rng() % 20),
                   switches = static_cast<std::uint32_t>(1 + rng() % 30);
        constexpr std::uint32_t links = 64;
        std::vector<std::uint64_t> dk(closer), w(links);
        for (std::uint32_t y = 0; y < closer; ++y) dk[y] = std::uint64_t{rng() % 4} << 32 | (rng() % closer);
        for (auto &x : w) x = rng() % 3 + (round % 2 ? 0 : (std::uint64_t{1} << 30));
        std::vector<std::uint32_t> bfs(switches), off{0};
        std::vector<SsspCand> cand;
        for (std::uint32_t k = 0; k < switches; ++k) {
            bfs[k] = switches - 1 - k;
            const auto count = static_cast<std::uint32_t>(1 + rng() % 40);
            for (std::uint32_t c = 0; c < count; ++c)
                cand.push_back(
                    {static_cast<std::uint32_t>(rng() % links), static_cast<std::uint32_t>(rng() % closer)});
            off.push_back(static_cast<std::uint32_t>(cand.size()));
        }
        const auto first = static_cast<std::uint32_t>(rng() % switches);
        std::vector<std::uint32_t> want(switches, 0), got(switches, 0);
        outer_choice_scalar(bfs.data(), off.data(), cand.data(), first, switches, dk.data(), w.data(),
                            want.data());
        outer_choice_avx2(bfs.data(), off.data(), cand.data(), first, switches, dk.data(), w.data(),
                          got.data());
        ASSERT_EQ(want, got) << "round " << round;
    }
#endif
}

}  // namespace
}  // namespace weft::routing::engines
