#include "lpm_table.hpp"

#include <rte_malloc.h>

#include <stdexcept>
#include <string>

namespace weft::dataplane {

namespace {

template <typename Entry>
Entry *alloc_entries(std::size_t n, int socket_id, const char *what) {
    // Readers' memory comes from DPDK (hugepages when EAL has them: fewer TLB misses per lookup).
    auto *p =
        static_cast<Entry *>(rte_malloc_socket(what, n * sizeof(Entry), RTE_CACHE_LINE_SIZE, socket_id));
    if (p == nullptr)
        throw std::runtime_error(std::string("cannot allocate the ") + what + " (" +
                                 std::to_string(n * sizeof(Entry) >> 20) + " MB)");
    return p;
}

}  // namespace

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
LpmTable<Entry, FirstBits, AddrBits>::LpmTable(std::uint32_t groups, int socket_id, rte_rcu_qsbr *rcu)
    : rcu_(rcu), group_count_(static_cast<std::uint32_t>(std::min<std::uint64_t>(groups, kMaxGroups))) {
    constexpr std::size_t first_n = std::size_t{1} << FirstBits;
    first_ = alloc_entries<Entry>(first_n, socket_id, AddrBits == 32 ? "IPv4 FIB" : "IPv6 FIB");
    try {
        groups_ = alloc_entries<Entry>(std::max<std::size_t>(1, std::size_t{group_count_} * kGroupEntries),
                                       socket_id, AddrBits == 32 ? "IPv4 FIB groups" : "IPv6 FIB groups");
        first_owner_.assign(first_n, 0);
        group_owner_.assign(std::size_t{group_count_} * kGroupEntries, 0);
        deep_.assign(group_count_, 0);
        free_.reserve(group_count_);
        unlinked_.reserve(group_count_);
    } catch (...) {
        rte_free(groups_);
        rte_free(first_);
        throw;
    }
    const auto none = static_cast<Entry>(Entry{kNoRoute} << 1);
    for (std::size_t i = 0; i < first_n; ++i) first_[i] = none;
    // Taken from the back: group 0 first.
    for (std::uint32_t g = group_count_; g-- > 0;) free_.push_back(g);
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
LpmTable<Entry, FirstBits, AddrBits>::~LpmTable() {
    rte_free(groups_);
    rte_free(first_);
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
std::size_t LpmTable<Entry, FirstBits, AddrBits>::memory_bytes() const noexcept {
    const std::size_t entries = (std::size_t{1} << FirstBits) + std::size_t{group_count_} * kGroupEntries;
    return entries * (sizeof(Entry) + 1) + deep_.size() * sizeof(std::uint16_t) +
           free_.capacity() * sizeof(std::uint32_t) * 2;
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::paint(const std::uint8_t *prefix, unsigned len,
                                                 std::uint32_t value, unsigned depth) {
    paint_level(first_level(), prefix, len, value, depth);
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::paint_level(const Level &l, const std::uint8_t *prefix,
                                                       unsigned len, std::uint32_t value, unsigned depth) {
    const unsigned bits = stride(l);
    const unsigned below = l.base + bits;
    const std::uint32_t index = l.group < 0 ? first_index(prefix) : prefix[l.base / 8];
    if (len <= below) {
        // The prefix spans a run of this level's entries (its host bits are zero: the run starts
        // at `index`): a short route's run is long (a /8 is 65536 IPv4 entries), so the direct
        // entries are painted inline and only links go through paint_entry.
        const std::uint32_t count = std::uint32_t{1} << (below - len);
        const auto direct = static_cast<Entry>(Entry(value) << 1);
        const auto owner = static_cast<std::uint8_t>(depth);
        int deep = 0;  // the change to this group's deep count
        for (std::uint32_t i = index; i < index + count; ++i) {
            const Entry e = l.entries[i];
            if ((e & 1) != 0) {
                paint_entry(l, i, len, value, depth);
                continue;
            }
            const std::uint8_t was = l.owners[i];
            if (was > len || (was == owner && e == direct)) continue;
            deep += (owner > l.base) - (was > l.base);
            l.owners[i] = owner;
            __atomic_store_n(&l.entries[i], direct, __ATOMIC_RELEASE);
        }
        if (l.group >= 0)
            deep_[static_cast<std::size_t>(l.group)] =
                static_cast<std::uint16_t>(deep_[static_cast<std::size_t>(l.group)] + deep);
        return;
    }
    // Longer than this level: inside one entry, which leads to a group (made now if need be).
    Entry e = load(&l.entries[index]);
    if ((e & 1) == 0) {
        const std::uint32_t g = take_group(e, l.owners[index]);
        set_entry(l, index, static_cast<Entry>((Entry(g) << 1) | 1), 0);
        e = static_cast<Entry>((Entry(g) << 1) | 1);
    }
    const auto g = static_cast<std::uint32_t>(e >> 1);
    paint_level(group_level(g, below), prefix, len, value, depth);
    unlink_if_uniform(l, index, g);
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::paint_entry(const Level &l, std::uint32_t i, unsigned len,
                                                       std::uint32_t value, unsigned depth) {
    const Entry e = load(&l.entries[i]);
    if ((e & 1) == 0) {
        if (l.owners[i] <= len) set_entry(l, i, static_cast<Entry>(Entry(value) << 1), depth);
        return;
    }
    // A group below: the prefix covers all of it.
    const auto g = static_cast<std::uint32_t>(e >> 1);
    const Level child = group_level(g, l.base + stride(l));
    for (std::uint32_t k = 0; k < kGroupEntries; ++k) paint_entry(child, k, len, value, depth);
    unlink_if_uniform(l, i, g);
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::set_entry(const Level &l, std::uint32_t i, Entry e,
                                                     unsigned owner) noexcept {
    if (l.group >= 0) {
        // Deep: a link, or an owner longer than the bits before this group.
        const Entry old = l.entries[i];
        const bool was = (old & 1) != 0 || l.owners[i] > l.base;
        const bool now = (e & 1) != 0 || owner > l.base;
        deep_[static_cast<std::size_t>(l.group)] =
            static_cast<std::uint16_t>(deep_[static_cast<std::size_t>(l.group)] + now - was);
    }
    l.owners[i] = static_cast<std::uint8_t>(owner);
    // Release: a group is filled before the entry linking it is seen.
    __atomic_store_n(&l.entries[i], e, __ATOMIC_RELEASE);
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::unlink_if_uniform(const Level &l, std::uint32_t i,
                                                             std::uint32_t g) {
    if (deep_[g] != 0) return;
    // Every entry is owned by a route no longer than the bits before the group, which covers all
    // of it: the group holds one value, and its parent entry takes it.
    const Level child = group_level(g, l.base + stride(l));
    set_entry(l, i, child.entries[0], child.owners[0]);
    unlinked_.push_back(g);
    --linked_;
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
std::uint32_t LpmTable<Entry, FirstBits, AddrBits>::take_group(Entry fill, std::uint8_t owner) {
    if (free_.empty()) reclaim(false);
    if (free_.empty()) {
        end_update();
        reclaim(true);
    }
    if (free_.empty())
        throw std::logic_error("FIB group pool exhausted (the builder's count of groups is wrong)");
    const std::uint32_t g = free_.back();
    free_.pop_back();
    Entry *e = groups_ + std::size_t{g} * kGroupEntries;
    std::uint8_t *o = group_owner_.data() + std::size_t{g} * kGroupEntries;
    for (unsigned k = 0; k < kGroupEntries; ++k) {
        e[k] = fill;
        o[k] = owner;
    }
    deep_[g] = 0;  // a direct entry's owner is never longer than the bits it covers
    ++linked_;
    return g;
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::end_update() {
    if (unlinked_.empty()) return;
    if (rcu_ == nullptr) {
        free_.insert(free_.end(), unlinked_.begin(), unlinked_.end());
    } else {
        // The token is taken after the unlinking stores: a reader that reports past it holds none
        // of these groups.
        retired_.push_back({rte_rcu_qsbr_start(rcu_), unlinked_});
    }
    unlinked_.clear();
}

template <typename Entry, unsigned FirstBits, unsigned AddrBits>
void LpmTable<Entry, FirstBits, AddrBits>::reclaim(bool wait) {
    while (!retired_.empty() && rte_rcu_qsbr_check(rcu_, retired_.front().token, wait) == 1) {
        free_.insert(free_.end(), retired_.front().groups.begin(), retired_.front().groups.end());
        retired_.pop_front();
        if (!free_.empty()) wait = false;  // one grace period is enough for the group wanted
    }
}

template class LpmTable<std::uint16_t, 24, 32>;
template class LpmTable<std::uint32_t, 16, 128>;

}  // namespace weft::dataplane
