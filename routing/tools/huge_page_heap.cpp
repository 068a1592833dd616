#include "huge_page_heap.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace weft::routing::tools {

HugePageHeap use_huge_page_heap(std::size_t reserve) {
    HugePageHeap r;
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    constexpr int kMmapMax = 32 << 20;  // glibc's ceiling for M_MMAP_THRESHOLD on 64-bit
    const int pad = static_cast<int>(std::min<std::size_t>(reserve, INT_MAX));
    // A heap that is never trimmed, serves large blocks too, and is the only one: the other
    // threads' arenas are mappings of their own, outside the range.
    if (!mallopt(M_TRIM_THRESHOLD, INT_MAX) || !mallopt(M_MMAP_THRESHOLD, kMmapMax) ||
        !mallopt(M_ARENA_MAX, 1)) {
        r.why = "mallopt refused a setting (not glibc's allocator?)";
        return r;
    }
    // Grow the heap by the reserve: a block the top of the heap cannot hold (it holds less than
    // 256 KiB this early) makes glibc extend it by the block plus M_TOP_PAD. Nothing in the range
    // may be touched before it is marked, since a 2 MiB range with a small page in it never gets a
    // huge one: malloc writes the new top's header right after the block, so the block is kept
    // small, and that header lands below the first whole 2 MiB range (or costs that range).
    const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
    if (!mallopt(M_TOP_PAD, pad)) {
        r.why = "mallopt refused M_TOP_PAD";
        return r;
    }
    constexpr std::size_t kProbe = std::size_t{256} << 10;
    void *block = std::malloc(kProbe);
    mallopt(M_TOP_PAD, 128 << 10);  // glibc's default again: growth past the range in small steps
    if (!block) {
        r.why = "no memory for the heap's growth";
        return r;
    }
    // Where the top now starts: glibc's chunk for a request of n bytes is n plus one size word,
    // rounded up to 16, and starts two size words before the block.
    const std::uintptr_t top = reinterpret_cast<std::uintptr_t>(block) + kProbe;
    const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
    const std::uintptr_t lo = (before + kHuge - 1) & ~(kHuge - 1), hi = after & ~(kHuge - 1);
    if (hi <= lo) {  // also where the heap did not grow at all (lo >= before >= after >= hi)
        std::free(block);
        r.why = "the heap did not grow by a whole 2 MiB range (sbrk refused?)";
        return r;
    }
    if (madvise(reinterpret_cast<void *>(lo), hi - lo, MADV_HUGEPAGE) != 0) {
        std::free(block);
        r.why = std::string("madvise(MADV_HUGEPAGE): ") + std::strerror(errno);
        return r;
    }
    r.ok = true;
    r.marked = hi - lo;
    // The heap's top now starts below lo, on small pages: the first allocations, all of a small
    // fabric's, would land there at about 13 us a fault on the VM measured (torus 4x4x4 nue:8:
    // 88 faults in a 6 ms step). The probe and a filler block that ends at the first 2 MiB
    // boundary past the top's header are never freed, so the top moves there; malloc writes the
    // top's header at that boundary, which takes the first huge page now, once. Their pages stay
    // untouched but for the headers. (Where the probe reached past lo, the range it reached into
    // holds a small page and is skipped too.)
    constexpr std::uintptr_t kHeader = 2 * sizeof(std::size_t), kMinChunk = 32;
    std::uintptr_t to = (top + kHeader + kHuge - 1) & ~(kHuge - 1);
    if (to - top < kMinChunk) to += kHuge;
    if (to < hi) {
        void *filler = std::malloc(to - top - sizeof(std::size_t));
        if (reinterpret_cast<std::uintptr_t>(filler) == top + kHeader) {
            r.skipped = to - top + kProbe;
            return r;
        }
        std::free(filler);  // served from elsewhere: the top stays where it is
        r.why = "the filler below the first 2 MiB range was not served from the heap's top";
    }
    std::free(block);  // the probe rejoins the top: the first allocations stay on small pages
#else
    (void)reserve;
    r.why = "not built with glibc and MADV_HUGEPAGE";
#endif
    return r;
}

}  // namespace weft::routing::tools
