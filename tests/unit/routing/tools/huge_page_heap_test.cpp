// use_huge_page_heap: the heap's growth is marked MADV_HUGEPAGE, large blocks come from it, and
// touching one takes huge pages (where the kernel grants them), not a fault per 4 KiB page.
#include "huge_page_heap.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace {

using weft::routing::tools::use_huge_page_heap;

// AddressSanitizer replaces malloc: glibc's heap and its settings are then not what serves blocks.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitizedAllocator = true;
#else
constexpr bool kSanitizedAllocator = false;
#endif
#else
constexpr bool kSanitizedAllocator = false;
#endif

std::string read_file(const char *path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The VMA of /proc/self/smaps that holds address a: its VmFlags line and AnonHugePages (kB).
struct Vma {
    bool found = false;
    std::string flags;
    long anon_huge_kb = 0;
};
Vma vma_of(const void *p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    std::istringstream in(read_file("/proc/self/smaps"));
    Vma v;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        std::uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
            inside = a >= lo && a < hi;
            if (inside) v.found = true;
            continue;
        }
        if (!inside) continue;
        if (line.rfind("VmFlags:", 0) == 0) v.flags = line.substr(8);
        if (line.rfind("AnonHugePages:", 0) == 0) v.anon_huge_kb = std::stol(line.substr(14));
    }
    return v;
}

long minor_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

long vmstat(const char *key) {
    std::istringstream in(read_file("/proc/vmstat"));
    for (std::string k; in >> k;) {
        long v = 0;
        in >> v;
        if (k == key) return v;
    }
    return -1;
}

TEST(HugePageHeap, LargeBlocksComeFromAMarkedHeapAndTakeHugePages) {
    if (kSanitizedAllocator) GTEST_SKIP() << "the sanitizer's allocator is not glibc's";
    const std::string thp = read_file("/sys/kernel/mm/transparent_hugepage/enabled");
    if (thp.empty() || thp.find("[never]") != std::string::npos)
        GTEST_SKIP() << "no transparent huge pages on this kernel";

    const auto h = use_huge_page_heap(std::size_t{256} << 20);
    ASSERT_TRUE(h.ok) << h.why;
    EXPECT_GE(h.marked, std::size_t{252} << 20);  // the reserve less the partial 2 MiB ranges
    EXPECT_EQ(h.marked % (std::size_t{2} << 20), 0u);
    // The growth below the first whole 2 MiB range is skipped: the next block starts in the
    // marked range, not on the small pages below it (where a small fabric's routing step would
    // take all its blocks). 1 MiB: larger than any block freed before, so it comes from the top.
    EXPECT_GT(h.skipped, 0u) << h.why;
    std::unique_ptr<char[]> first(new char[std::size_t{1} << 20]);
    const Vma f = vma_of(first.get());
    ASSERT_TRUE(f.found);
    EXPECT_NE(f.flags.find(" hg"), std::string::npos) << "VmFlags:" << f.flags;

    // 8 MiB: past glibc's default mmap threshold, so without the policy a mapping of its own.
    constexpr std::size_t kBlock = std::size_t{8} << 20;
    std::unique_ptr<char[]> block(new char[kBlock]);
    const char *const middle = block.get() + kBlock / 2;
    const Vma v = vma_of(middle);
    ASSERT_TRUE(v.found);
    EXPECT_NE(v.flags.find(" hg"), std::string::npos) << "VmFlags:" << v.flags;

    const long fallback = vmstat("thp_fault_fallback");
    const long before = minor_faults();
    std::memset(block.get(), 1, kBlock);
    const long faults = minor_faults() - before;
    if (vmstat("thp_fault_fallback") != fallback) GTEST_SKIP() << "the kernel had no huge page to give";
    // Small pages would take 2048 faults; huge ones one per 2 MiB (and the test's own few).
    EXPECT_LT(faults, 64) << "faults touching 8 MiB";
    EXPECT_GE(vma_of(middle).anon_huge_kb, 4096);
}

TEST(HugePageHeap, ARefusedHeapIsReported) {
    // No reserve: the heap grows by less than 2 MiB (or not at all, where the top holds the
    // probe), so there is nothing to mark, and the reason is given.
    const auto h = use_huge_page_heap(0);
    EXPECT_FALSE(h.ok);
    EXPECT_FALSE(h.why.empty());
    EXPECT_EQ(h.marked, 0u);
}

}  // namespace
