// The outermost layer's choice in sssp's replay (see route_sssp's decide_outer): for each switch,
// the least word dk[from] + (w[link] << 32) over its candidate links, the lowest link among equal
// words. On a 2-level fat tree that is every (leaf, spine) pair of every replayed LID, so the
// loop runs four candidates at a time with AVX2 gathers where the CPU has them (chosen once per
// run); the scalar loop is the x86-64 baseline and every other target. Both give the same links.
#pragma once

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

// Sets used[bfs[k]] for k in [first, m) to the link of the least word over the candidates
// cand[cand_off[k]] .. cand[cand_off[k + 1]] (at least one each). Words stay below 2^63.
using OuterChoice = void (*)(const std::uint32_t *bfs, const std::uint32_t *cand_off, const SsspCand *cand,
                             std::uint32_t first, std::uint32_t m, const std::uint64_t *dk,
                             const std::uint64_t *w, std::uint32_t *used);

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
// Four lanes, each keeping its least (word, link); a range's last unused lanes gather nothing
// and hold the largest word, which no candidate reaches. The four lanes are merged at the end.
__attribute__((target("avx2"))) inline void outer_choice_avx2(const std::uint32_t *bfs,
                                                              const std::uint32_t *cand_off,
                                                              const SsspCand *cand, std::uint32_t first,
                                                              std::uint32_t m, const std::uint64_t *dk,
                                                              const std::uint64_t *w, std::uint32_t *used) {
    const __m256i kMax = _mm256_set1_epi64x(INT64_MAX);
    const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);  // links low, froms high
    const __m256i lane = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);   // candidate of each word
    const __m128i lane4 = _mm_setr_epi32(0, 1, 2, 3);
    const auto *dkl = reinterpret_cast<const long long *>(dk);
    const auto *wl = reinterpret_cast<const long long *>(w);
    for (std::uint32_t k = first; k < m; ++k) {
        const std::uint32_t b = cand_off[k], e = cand_off[k + 1];
        __m256i best = kMax, via = kMax;
        for (std::uint32_t j = b; j < e; j += 4) {
            const auto *p = reinterpret_cast<const int *>(cand + j);
            __m256i raw, dkv, wv;
            if (e - j >= 4) {
                raw = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)),
                                                  split);
                dkv = _mm256_i32gather_epi64(dkl, _mm256_extracti128_si256(raw, 1), 8);
                wv = _mm256_i32gather_epi64(wl, _mm256_castsi256_si128(raw), 8);
            } else {
                const int left = static_cast<int>(e - j);
                const __m256i m32 = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
                const __m256i m64 = _mm256_cvtepi32_epi64(_mm_cmpgt_epi32(_mm_set1_epi32(left), lane4));
                raw = _mm256_permutevar8x32_epi32(_mm256_maskload_epi32(p, m32), split);
                dkv = _mm256_mask_i32gather_epi64(kMax, dkl, _mm256_extracti128_si256(raw, 1), m64, 8);
                wv = _mm256_mask_i32gather_epi64(_mm256_setzero_si256(), wl, _mm256_castsi256_si128(raw), m64,
                                                 8);
            }
            const __m256i key = _mm256_add_epi64(dkv, _mm256_slli_epi64(wv, 32));
            const __m256i link = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(raw));
            const __m256i lt = _mm256_or_si256(
                _mm256_cmpgt_epi64(best, key),
                _mm256_and_si256(_mm256_cmpeq_epi64(best, key), _mm256_cmpgt_epi64(via, link)));
            best = _mm256_blendv_epi8(best, key, lt);
            via = _mm256_blendv_epi8(via, link, lt);
        }
        alignas(32) std::uint64_t bk[4], bv[4];
        _mm256_store_si256(reinterpret_cast<__m256i *>(bk), best);
        _mm256_store_si256(reinterpret_cast<__m256i *>(bv), via);
        std::uint64_t key = bk[0], link = bv[0];
        for (int i = 1; i < 4; ++i)
            if (bk[i] < key || (bk[i] == key && bv[i] < link)) key = bk[i], link = bv[i];
        used[bfs[k]] = static_cast<std::uint32_t>(link);
    }
}
#endif

// The fastest of the above this CPU runs.
inline OuterChoice pick_outer_choice() {
#ifdef WEFT_SSSP_AVX2
    if (__builtin_cpu_supports("avx2")) return outer_choice_avx2;
#endif
    return outer_choice_scalar;
}

}  // namespace weft::routing::engines
