// The outermost layer's choice in sssp's replay (see route_sssp's decide_outer): for each switch,
// the least word dk[from] + (w[link] << 32) over its candidate links, the lowest link among equal
// words. On a 2-level fat tree that is every (leaf, spine) pair of every replayed LID, so wide
// layers run eight candidates a step with AVX2 gathers where the CPU has them (checked once per
// process); the scalar loop is the x86-64 baseline, every other target and narrow layers. Both
// give the same links (tests/unit/routing/engines/sssp_outer_choice_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WEFT_SSSP_AVX2 1
#endif

namespace weft::routing::engines {

// A link into a switch from a switch one hop closer to the destination: the link's index
// (weights are per link) and the closer switch.
struct SsspCand {
    std::uint32_t link;
    std::uint32_t from;
};

// Each sets used[bfs[k]] for k in [first, m) to the link of the least word over the candidates
// cand[cand_off[k]] .. cand[cand_off[k + 1]] (at least one each). Words stay below 2^63.
inline void outer_choice_scalar(const std::uint32_t *bfs, const std::uint32_t *cand_off, const SsspCand *cand,
                                std::uint32_t first, std::uint32_t m, const std::uint64_t *dk,
                                const std::uint64_t *w, std::uint32_t *used) {
    for (std::uint32_t k = first; k < m; ++k) {
        const SsspCand *c = cand + cand_off[k], *ce = cand + cand_off[k + 1];
        std::uint64_t best = dk[c->from] + (w[c->link] << 32);
        std::uint32_t via = c->link;
        for (++c; c < ce; ++c) {
            const std::uint64_t key = dk[c->from] + (w[c->link] << 32);
            if (key <= best && (key < best || c->link < via)) best = key, via = c->link;
        }
        used[bfs[k]] = via;
    }
}

#ifdef WEFT_SSSP_AVX2
namespace avx2 {                                            // the steps of outer_choice_packed_avx2
inline constexpr int kSplit[8] = {0, 2, 4, 6, 1, 3, 5, 7};  // a load's links low, froms high
// The packed words of four candidates at p (all four lanes).
__attribute__((target("avx2"))) inline __m256i words(const SsspCand *p, const long long *dp,
                                                     const long long *w) {
    const __m256i raw =
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)),
                                    _mm256_loadu_si256(reinterpret_cast<const __m256i *>(kSplit)));
    const __m128i link = _mm256_castsi256_si128(raw);
    const __m256i dv = _mm256_i32gather_epi64(dp, _mm256_extracti128_si256(raw, 1), 8);
    const __m256i wv = _mm256_i32gather_epi64(w, link, 8);
    return _mm256_add_epi64(_mm256_add_epi64(dv, _mm256_slli_epi64(wv, 32)), _mm256_cvtepu32_epi64(link));
}
// The same for the first `left` (1..4) candidates at p; the other lanes read nothing and hold
// the largest word.
__attribute__((target("avx2"))) inline __m256i words(const SsspCand *p, int left, const long long *dp,
                                                     const long long *w) {
    const __m256i m32 =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
    const __m256i m64 =
        _mm256_cvtepi32_epi64(_mm_cmpgt_epi32(_mm_set1_epi32(left), _mm_setr_epi32(0, 1, 2, 3)));
    const __m256i raw =
        _mm256_permutevar8x32_epi32(_mm256_maskload_epi32(reinterpret_cast<const int *>(p), m32),
                                    _mm256_loadu_si256(reinterpret_cast<const __m256i *>(kSplit)));
    const __m128i link = _mm256_castsi256_si128(raw);
    const __m256i dv = _mm256_mask_i32gather_epi64(_mm256_set1_epi64x(INT64_MAX), dp,
                                                   _mm256_extracti128_si256(raw, 1), m64, 8);
    const __m256i wv = _mm256_mask_i32gather_epi64(_mm256_setzero_si256(), w, link, m64, 8);
    return _mm256_add_epi64(_mm256_add_epi64(dv, _mm256_slli_epi64(wv, 32)), _mm256_cvtepu32_epi64(link));
}
__attribute__((target("avx2"))) inline __m256i least(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}
}  // namespace avx2

// The same choice from one packed word per candidate, dp[from] + (w[link] << 32) + link, with
// dp[y] = (cost << 32 | rank << 8) - off[y]: cost << 32 | rank << 8 | (link - off[y]), where
// off[y] is switch y's first link, so the low byte is the link's place among y's links (below
// 255: one per port). Words are then distinct and the least one alone decides: the rank gives
// y (by_rank), the low byte the link. Needs ranks below 2^24 (has_packed_ranks). Eight
// candidates a step in two sets of four lanes; a range's last unused lanes gather nothing and
// hold the largest word, which no candidate reaches. Signed compares: words stay below 2^63.
__attribute__((target("avx2"))) inline void outer_choice_packed_avx2(
    const std::uint32_t *bfs, const std::uint32_t *cand_off, const SsspCand *cand, std::uint32_t first,
    std::uint32_t m, const std::uint64_t *dp, const std::uint64_t *w, const std::uint32_t *by_rank,
    const std::uint32_t *off, std::uint32_t *used) {
    const auto *dpl = reinterpret_cast<const long long *>(dp);
    const auto *wl = reinterpret_cast<const long long *>(w);
    const __m256i none = _mm256_set1_epi64x(INT64_MAX);
    using avx2::least, avx2::words;
    for (std::uint32_t k = first; k < m; ++k) {
        const SsspCand *c = cand + cand_off[k], *ce = cand + cand_off[k + 1];
        __m256i best = none, best2 = none;
        for (; ce - c >= 8; c += 8)
            best = least(best, words(c, dpl, wl)), best2 = least(best2, words(c + 4, dpl, wl));
        if (ce - c > 4) best = least(best, words(c, dpl, wl)), c += 4;
        if (ce > c) best2 = least(best2, words(c, static_cast<int>(ce - c), dpl, wl));  // 1-4 left
        best = least(best, best2);
        best = least(best, _mm256_permute4x64_epi64(best, 0x4E));  // lanes 2, 3 onto 0, 1
        best = least(best, _mm256_shuffle_epi32(best, 0x4E));      // lane 1 onto 0
        const auto word = static_cast<std::uint64_t>(_mm256_extract_epi64(best, 0));
        const std::uint32_t y = by_rank[(word >> 8) & 0xFFFFFF];
        used[bfs[k]] = off[y] + static_cast<std::uint32_t>(word & 0xFF);
    }
}
#endif

// Whether ranks (switch counts) fit outer_choice_packed_avx2's 24 bits.
inline bool has_packed_ranks(std::size_t switches) {
    return switches < (std::size_t{1} << 24);
}

// Whether this CPU runs outer_choice_packed_avx2.
inline bool has_outer_choice_avx2() {
#ifdef WEFT_SSSP_AVX2
    __builtin_cpu_init();  // may run in a static initializer, before libgcc's own
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

}  // namespace weft::routing::engines
