// A longest-prefix-match table that the control thread changes in place while workers read it.
//
// Layout (DIR-24-8 for IPv4, a byte-stride trie for IPv6): a first level indexed by the
// address's first FirstBits bits, then groups of 256 entries, one address byte each. An entry is
// (value << 1) with bit 0 clear, or (group << 1) | 1 pointing to the group for the next byte.
// A reader does one load per level and never writes.
//
// The writer keeps, beside each entry, the length of the route that set it (its owner), so a
// change touches only the entries it owns: paint(prefix, len, value, depth) sets every entry of
// the prefix whose owner is at most `len` bits long, which is the route itself (replace, or
// delete with the covering route's value and length) or a shorter one (add). Every store is one
// aligned word, so a reader sees each entry before or after a change, never a mixture. A group is
// linked only once it is filled (a release store), and one that becomes uniform is unlinked and
// reused only after an RCU grace period of the QSBR variable given (no variable: no readers run
// concurrently, as in tests).
#pragma once

#include <rte_prefetch.h>
#include <rte_rcu_qsbr.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "weft/dataplane/limits.hpp"

namespace weft::dataplane {

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
class LpmTable {
    static_assert(FirstBits % 8 == 0 && FirstBits <= 24 && AddrBits % 8 == 0 && AddrBits > FirstBits);

  public:
    static constexpr unsigned kGroupEntries = 256;
    // Group indices and values share an entry's upper bits.
    static constexpr std::uint64_t kMaxGroups = (std::uint64_t{1} << (8 * sizeof(Entry) - 1)) - 1;

    // `groups`: the pool of 256-entry groups (at most kMaxGroups). Throws std::runtime_error when
    // the memory cannot be had. Every address starts as kNoRoute, owned by no route (length 0).
    LpmTable(std::uint32_t groups, int socket_id, rte_rcu_qsbr *rcu);
    ~LpmTable();
    LpmTable(const LpmTable &) = delete;
    LpmTable &operator=(const LpmTable &) = delete;

    // ---- readers (any thread, lock-free) ----
    // `addr`: AddrBits / 8 bytes in network order.
    std::uint32_t lookup(const std::uint8_t *addr) const noexcept {
        Entry e = load(&first_[first_index(addr)]);
        for (unsigned byte = FirstBits / 8; (e & 1) != 0; ++byte)
            e = load(&groups_[(static_cast<std::size_t>(e >> 1) << 8) | addr[byte]]);
        return static_cast<std::uint32_t>(e >> 1);
    }
    // IPv4 in host order (AddrBits 32, FirstBits 24): the burst's first-level entries prefetched
    // ahead of the lookups.
    void lookup_bulk(const std::uint32_t *ips, std::uint64_t *out, unsigned n) const noexcept
        requires(AddrBits == 32 && FirstBits == 24) {
        constexpr unsigned kAhead = 8;
        for (unsigned i = 0; i < n && i < kAhead; ++i) rte_prefetch0(&first_[ips[i] >> 8]);
        for (unsigned i = 0; i < n; ++i) {
            if (i + kAhead < n) rte_prefetch0(&first_[ips[i + kAhead] >> 8]);
            Entry e = load(&first_[ips[i] >> 8]);
            if ((e & 1) != 0) [[unlikely]]
                e = load(&groups_[(static_cast<std::size_t>(e >> 1) << 8) | (ips[i] & 0xFF)]);
            out[i] = e >> 1;
        }
    }
    void lookup_bulk(const std::uint8_t (*addrs)[AddrBits / 8], std::uint64_t *out,
                     unsigned n) const noexcept {
        for (unsigned i = 0; i < n; ++i) rte_prefetch0(&first_[first_index(addrs[i])]);
        for (unsigned i = 0; i < n; ++i) out[i] = lookup(addrs[i]);
    }

    // ---- the writer (one thread) ----
    // Entries of prefix (`prefix` in network order, host bits zero) owned by a route of at most
    // `len` bits take `value`, owned by `depth`. Needs as many free groups as levels the prefix
    // reaches that have none yet (the caller counts them); waits for a grace period when only
    // groups unlinked since the last one are left.
    void paint(const std::uint8_t *prefix, unsigned len, std::uint32_t value, unsigned depth);
    // Stamps the groups unlinked since the last call with a grace-period token; call after each
    // batch of paints.
    void end_update();

    // One entry as a reader loads it (tests split a lookup with these).
    Entry first_entry(std::uint32_t i) const noexcept { return load(&first_[i]); }
    Entry group_entry(std::uint32_t g, unsigned k) const noexcept {
        return load(&groups_[std::size_t{g} * kGroupEntries + k]);
    }

    std::size_t groups_linked() const noexcept { return linked_; }
    std::size_t groups_max() const noexcept { return group_count_; }
    // Bytes this table holds (the readers' arrays and the writer's owner lengths).
    std::size_t memory_bytes() const noexcept;

  private:
    struct Retired {
        std::uint64_t token;
        std::vector<std::uint32_t> groups;
    };

    static Entry load(const Entry *p) noexcept { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static std::uint32_t first_index(const std::uint8_t *a) noexcept {
        std::uint32_t i = 0;
        for (unsigned b = 0; b < FirstBits / 8; ++b) i = (i << 8) | a[b];
        return i;
    }

    // A level: its entries, their owners' lengths, the bits before it, and its group (none for the
    // first level).
    struct Level {
        Entry *entries;
        std::uint8_t *owners;
        unsigned base;
        std::int64_t group;  // -1: the first level
    };
    Level first_level() noexcept { return {first_, first_owner_.data(), 0, -1}; }
    Level group_level(std::uint32_t g, unsigned base) noexcept {
        return {groups_ + std::size_t{g} * kGroupEntries,
                group_owner_.data() + std::size_t{g} * kGroupEntries, base, g};
    }
    unsigned stride(const Level &l) const noexcept { return l.group < 0 ? FirstBits : 8; }

    void paint_level(const Level &l, const std::uint8_t *prefix, unsigned len, std::uint32_t value,
                     unsigned depth);
    void paint_entry(const Level &l, std::uint32_t i, unsigned len, std::uint32_t value, unsigned depth);
    void set_entry(const Level &l, std::uint32_t i, Entry e, unsigned owner) noexcept;
    void unlink_if_uniform(const Level &l, std::uint32_t i, std::uint32_t g);
    std::uint32_t take_group(Entry fill, std::uint8_t owner);
    void reclaim(bool wait);

    rte_rcu_qsbr *rcu_;
    Entry *first_ = nullptr;   // 2^FirstBits entries
    Entry *groups_ = nullptr;  // group_count_ * 256 entries
    std::uint32_t group_count_;
    std::vector<std::uint8_t> first_owner_;
    std::vector<std::uint8_t> group_owner_;
    // Per group: entries that keep it from being folded into its parent entry (links, or owners
    // longer than the bits before the group).
    std::vector<std::uint16_t> deep_;
    std::vector<std::uint32_t> free_;
    std::vector<std::uint32_t> unlinked_;  // since the last end_update()
    std::deque<Retired> retired_;
    std::size_t linked_ = 0;
};

// IPv4: DIR-24-8 with 2-byte entries (NHG indices and groups below 2^15).
using Lpm4 = LpmTable<std::uint16_t, 24, 32>;
// IPv6: a 16-bit first level, then a group per byte, 4-byte entries (many groups).
using Lpm6 = LpmTable<std::uint32_t, 16, 128>;

extern template class LpmTable<std::uint16_t, 24, 32>;
extern template class LpmTable<std::uint32_t, 16, 128>;

}  // namespace weft::dataplane
