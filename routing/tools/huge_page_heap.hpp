// Puts the process's heap on transparent huge pages, much as glibc's glibc.malloc.hugetlb=1
// tunable would, but from inside the process (a tunable is read from the environment before
// main runs).
//
// Why: a routing step fills megabytes of tables and scratch it touches for the first time, and
// a first touch is paid per page. On the VM measured a fresh 4 KiB page cost about 10 us and a
// 2 MiB huge page 130-180 us, so torus-2QoS on an 8x8x8 torus spent two thirds of its 17 ms step
// faulting in about a thousand small pages (perf/RESULTS.md).
//
// How: glibc is told to keep its heap (no trimming), to serve blocks up to 32 MiB from it rather
// than from mappings of their own, and to use that one heap from every thread. The heap then
// grows once by `reserve` bytes of address space, nothing of it touched, and the whole 2 MiB
// ranges of that growth are marked MADV_HUGEPAGE. The part of the growth below the first whole
// range is skipped (a block that is never freed), so that every later block is served from the
// marked range. Memory is still taken only where it is touched, 2 MiB at a time inside the range;
// past the range the heap grows on small pages as before. Where the kernel has no transparent
// huge pages the range stays on small pages.
#pragma once

#include <cstddef>
#include <string>

namespace weft::routing::tools {

struct HugePageHeap {
    bool ok = false;
    std::size_t marked = 0;   // bytes of heap marked MADV_HUGEPAGE
    std::size_t skipped = 0;  // address space below the first marked range left unused
    std::string why;          // when !ok: what was refused (the heap then grows as before);
                              // when ok, why nothing was skipped, if something should have been
};

// Call early in main, before other threads start.
HugePageHeap use_huge_page_heap(std::size_t reserve);

}  // namespace weft::routing::tools
