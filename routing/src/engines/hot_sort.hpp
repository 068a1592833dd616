// Sorts a routing step uses, in the step's hot text ([[gnu::hot]]): std::sort's and
// std::stable_sort's out-of-line instantiations land elsewhere in the binary, one more text page
// for a fresh process to fault in (~12 us in this VM), which costs more than sorting a small
// fabric's switches.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace weft::routing::engines {

// Sorts v by a strict total order (so the result is std::sort's): insertion sort on runs of 16,
// then bottom-up merges through a buffer (none for up to 16 elements).
template <class T, class Less>
[[gnu::hot]] void sort_total(std::vector<T> &v, Less less) {
    const std::size_t n = v.size();
    constexpr std::size_t kRun = 16;
    for (std::size_t b = 0; b < n; b += kRun) {
        const std::size_t e = std::min(n, b + kRun);
        for (std::size_t i = b + 1; i < e; ++i) {
            const T x = v[i];
            std::size_t j = i;
            for (; j > b && less(x, v[j - 1]); --j) v[j] = v[j - 1];
            v[j] = x;
        }
    }
    if (n <= kRun) return;
    std::vector<T> buf(n);
    T *src = v.data(), *dst = buf.data();
    for (std::size_t w = kRun; w < n; w *= 2) {
        for (std::size_t lo = 0; lo < n; lo += 2 * w) {
            const std::size_t mid = std::min(n, lo + w), hi = std::min(n, lo + 2 * w);
            std::size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = less(src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        std::swap(src, dst);
    }
    if (src != v.data()) std::copy(src, src + n, v.data());
}

// Sorts v stably by key(x), a 64-bit value: a radix sort, one byte per pass, skipping the bytes
// that are the same in every key. Out of line: inlined into a large loop (route_sssp's), it made
// the loop compile worse.
template <class T, class Key>
[[gnu::hot, gnu::noinline]] void sort_by_key(std::vector<T> &v, Key key) {
    if (v.size() < 2) return;
    std::uint64_t differ = 0;
    for (const T &x : v) differ |= key(x) ^ key(v[0]);
    std::vector<T> out(v.size());
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if ((differ >> shift & 0xFF) == 0) continue;
        std::array<std::size_t, 257> at{};  // per byte value, where its run starts in out
        for (const T &x : v) ++at[(key(x) >> shift & 0xFF) + 1];
        for (unsigned b = 0; b < 256; ++b) at[b + 1] += at[b];
        for (const T &x : v) out[at[key(x) >> shift & 0xFF]++] = x;
        v.swap(out);
    }
}

}  // namespace weft::routing::engines
