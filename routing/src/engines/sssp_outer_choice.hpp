// The outermost layer's choice in sssp's replay (see route_sssp's decide_outer): for each switch,
// the least word dk[from] + (w[link] << 32) over its candidate links, the lowest link among equal
// words. On a 2-level fat tree that is every (leaf, spine) pair of every replayed LID, so wide
// layers run eight candidates a step with AVX2 gathers where the CPU has them (checked once per
// process); the scalar loop is the x86-64 baseline, every other target and narrow layers. Both
// give the same links (tests/unit/routing/engines/sssp_outer_choice_test.cpp).
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
namespace avx2 {
// Least (word, link) per lane: lt marks the lanes where (key, link) is below (best, via).
// Signed compares: words stay below 2^63, links below 2^32.
__attribute__((target("avx2"))) inline void keep_least(__m256i &best, __m256i &via, __m256i key,
                                                       __m256i link) {
    const __m256i lt =
        _mm256_or_si256(_mm256_cmpgt_epi64(best, key),
                        _mm256_and_si256(_mm256_cmpeq_epi64(best, key), _mm256_cmpgt_epi64(via, link)));
    best = _mm256_blendv_epi8(best, key, lt);
    via = _mm256_blendv_epi8(via, link, lt);
}
// Four candidates from p: their words and links. `left` < 4: only that many, the other lanes
// gather nothing and hold the largest word, which no candidate reaches.
__attribute__((target("avx2"))) inline void load4(const SsspCand *p, int left, const long long *dk,
                                                  const long long *w, __m256i &key, __m256i &link) {
    const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);  // links low, froms high
    __m256i raw, dkv, wv;
    if (left >= 4) {
        raw = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)), split);
        dkv = _mm256_i32gather_epi64(dk, _mm256_extracti128_si256(raw, 1), 8);
        wv = _mm256_i32gather_epi64(w, _mm256_castsi256_si128(raw), 8);
    } else {
        const __m256i m32 =
            _mm256_cmpgt_epi32(_mm256_set1_epi32(left), _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
        const __m256i m64 =
            _mm256_cvtepi32_epi64(_mm_cmpgt_epi32(_mm_set1_epi32(left), _mm_setr_epi32(0, 1, 2, 3)));
        raw =
            _mm256_permutevar8x32_epi32(_mm256_maskload_epi32(reinterpret_cast<const int *>(p), m32), split);
        dkv = _mm256_mask_i32gather_epi64(_mm256_set1_epi64x(INT64_MAX), dk, _mm256_extracti128_si256(raw, 1),
                                          m64, 8);
        wv = _mm256_mask_i32gather_epi64(_mm256_setzero_si256(), w, _mm256_castsi256_si128(raw), m64, 8);
    }
    key = _mm256_add_epi64(dkv, _mm256_slli_epi64(wv, 32));
    link = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(raw));
}
}  // namespace avx2

// Two sets of four lanes, eight candidates a step; the lanes are merged at the end.
__attribute__((target("avx2"))) inline void outer_choice_avx2(const std::uint32_t *bfs,
                                                              const std::uint32_t *cand_off,
                                                              const SsspCand *cand, std::uint32_t first,
                                                              std::uint32_t m, const std::uint64_t *dk,
                                                              const std::uint64_t *w, std::uint32_t *used) {
    const auto *dkl = reinterpret_cast<const long long *>(dk);
    const auto *wl = reinterpret_cast<const long long *>(w);
    for (std::uint32_t k = first; k < m; ++k) {
        const SsspCand *c = cand + cand_off[k], *ce = cand + cand_off[k + 1];
        __m256i best = _mm256_set1_epi64x(INT64_MAX), via = best, best2 = best, via2 = best, key, link;
        for (; ce - c >= 8; c += 8) {
            avx2::load4(c, 4, dkl, wl, key, link);
            avx2::keep_least(best, via, key, link);
            avx2::load4(c + 4, 4, dkl, wl, key, link);
            avx2::keep_least(best2, via2, key, link);
        }
        if (ce - c > 4) {
            avx2::load4(c, 4, dkl, wl, key, link);
            avx2::keep_least(best, via, key, link);
            c += 4;
        }
        if (ce > c) {
            avx2::load4(c, static_cast<int>(ce - c), dkl, wl, key, link);
            avx2::keep_least(best2, via2, key, link);
        }
        avx2::keep_least(best, via, best2, via2);
        // Lanes 2, 3 onto 0, 1, then lane 1 onto 0.
        avx2::keep_least(best, via, _mm256_permute4x64_epi64(best, 0x4E),
                         _mm256_permute4x64_epi64(via, 0x4E));
        avx2::keep_least(best, via, _mm256_shuffle_epi32(best, 0x4E), _mm256_shuffle_epi32(via, 0x4E));
        used[bfs[k]] = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(via));
    }
}
#endif

// Whether this CPU runs outer_choice_avx2.
inline bool has_outer_choice_avx2() {
#ifdef WEFT_SSSP_AVX2
    __builtin_cpu_init();  // may run in a static initializer, before libgcc's own
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

// outer_choice_avx2 where `avx2` (has_outer_choice_avx2()), else the scalar loop.
inline void outer_choice_wide(bool avx2, const std::uint32_t *bfs, const std::uint32_t *cand_off,
                              const SsspCand *cand, std::uint32_t first, std::uint32_t m,
                              const std::uint64_t *dk, const std::uint64_t *w, std::uint32_t *used) {
#ifdef WEFT_SSSP_AVX2
    if (avx2) return outer_choice_avx2(bfs, cand_off, cand, first, m, dk, w, used);
#endif
    (void)avx2;
    outer_choice_scalar(bfs, cand_off, cand, first, m, dk, w, used);
}

}  // namespace weft::routing::engines
