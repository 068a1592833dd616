// The DPDK-backed tables a snapshot shares with its successors while they do not change.
// Private to the library: the snapshot exposes lookups, never these objects.
#pragma once

#include <rte_fib.h>
#include <rte_fib6.h>

#include <cstdint>
#include <vector>

#include "weft/dataplane/limits.hpp"

namespace weft::dataplane {

// Owns one rte_fib (DIR-24-8, 2-byte next hops = NHG indices). Freed when the last snapshot
// holding it is reclaimed.
class Fib4Table {
  public:
    explicit Fib4Table(rte_fib *fib) : fib_(fib) {}
    ~Fib4Table() { rte_fib_free(fib_); }
    Fib4Table(const Fib4Table &) = delete;
    Fib4Table &operator=(const Fib4Table &) = delete;
    rte_fib *get() const noexcept { return fib_; }

  private:
    rte_fib *fib_;
};

class Fib6Table {
  public:
    explicit Fib6Table(rte_fib6 *fib) : fib_(fib) {}
    ~Fib6Table() { rte_fib6_free(fib_); }
    Fib6Table(const Fib6Table &) = delete;
    Fib6Table &operator=(const Fib6Table &) = delete;
    rte_fib6 *get() const noexcept { return fib_; }

  private:
    rte_fib6 *fib_;
};

// Flat LFT and MFT. LFT words: kind in bits 30-31 (LftTarget::Kind), value in bits 0-29.
struct LidTables {
    std::vector<std::uint32_t> lft = std::vector<std::uint32_t>(kMaxUnicastLid + 1u, 0);
    std::vector<std::uint64_t> mft =
        std::vector<std::uint64_t>(kLastMulticastLid - kFirstMulticastLid + 1u, 0);

    static std::uint32_t encode(LftTarget t) noexcept {
        return (static_cast<std::uint32_t>(t.kind) << 30) | (t.value & 0x3FFFFFFFu);
    }
};

}  // namespace weft::dataplane
