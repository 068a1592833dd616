// The queue of CdgDijkstra: the unsettled switches, each once, keyed by (distance, channel).
// Keys are unique (a channel leaves one switch), so every exact min-queue pops them in the same
// order and the choice of structure cannot change a route. A key is one number (distance, channel,
// switch), compared without branches: 128 bits with 64 for the distance (always fits), or 64 bits
// with the channel and switch in just enough low bits, when the search's distances fit above them
// (every small fabric: a distance is at most switches x heaviest weight). The narrow keys halve
// the moves and compares; both order alike. CdgDijkstra uses them in the sorted layout only: in
// the heap the narrower compares do not repay packing and unpacking the keys.
//
// Up to kSortedUpTo switches the entries stay sorted in a flat array, smallest at `head_`: a pop
// is one read, and a new or lowered key moves past the few larger ones behind it (new keys are
// mostly among the largest: they lie one channel beyond the switch just settled). That beats a
// heap's sifting while the queue holds a few dozen entries. Larger fabrics use a 4-ary heap.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "engines/nue/complete_cdg.hpp"

namespace weft::routing::engines::nue {

__extension__ typedef unsigned __int128 WideKey;

template <class K>
class SearchQueue {
  public:
    using Key = K;
    static constexpr bool kWide = sizeof(Key) > 8;

    // channels: how many keys one search may insert at most besides one per switch (a switch
    // is queued again only after one of its channels was refused); channel ids are below it.
    SearchQueue(std::size_t switches, std::size_t channels)
        : sorted_(switches <= kSortedUpTo),
          slots_(sorted_ ? switches + channels + 1 : switches),
          switch_bits_(kWide ? 32u : static_cast<unsigned>(std::bit_width(switches))),
          dist_shift_(kWide ? 64u : switch_bits_ + static_cast<unsigned>(std::bit_width(channels))) {}
    // Allocates the queue before a search's first use: a search mostly uses only one of its two
    // queues, and untouched pages are not faulted in.
    void prepare() {
        if (!entries_.empty()) return;
        entries_.resize(slots_);
        if (!sorted_) pos_.assign(slots_, kNone);
    }

    Key key(std::uint64_t dist, ChannelId c, SwitchIdx sw) const {
        if constexpr (kWide) return Key{dist} << 64 | Key{c} << 32 | Key{sw};
        return Key{dist} << dist_shift_ | Key{c} << switch_bits_ | Key{sw};
    }
    // The switch a key queues.
    SwitchIdx switch_of(Key k) const {
        if constexpr (kWide) return static_cast<SwitchIdx>(k);
        return static_cast<SwitchIdx>(k & ((Key{1} << switch_bits_) - 1));
    }
    // The largest distance a key holds (0: the channel and switch leave no room).
    std::uint64_t max_dist() const {
        if (dist_shift_ >= 64) return kWide ? ~std::uint64_t{0} : 0;
        return ~std::uint64_t{0} >> dist_shift_;
    }

    bool sorted() const { return sorted_; }
    bool empty() const { return head_ == tail_; }
    // Queues a switch that is not queued.
    void insert(Key k) {
        if (sorted_) {
            place(tail_++, k);
        } else {
            up(tail_++, k);
        }
    }
    // Lowers a queued switch's key from old to k.
    void lower(Key old, Key k) {
        if (sorted_) {
            std::uint32_t i = tail_ - 1;
            while (entries_[i] != old) --i;
            place(i, k);
        } else {
            up(pos_[switch_of(old)], k);
        }
    }
    SwitchIdx pop() {
        if (sorted_) {
            const SwitchIdx top = switch_of(entries_[head_++]);
            if (head_ == tail_) head_ = tail_ = 0;
            return top;
        }
        return heap_pop();
    }

  private:
    static constexpr std::size_t kSortedUpTo = 128;
    static constexpr std::uint32_t kNone = ~std::uint32_t{0};
    // Sorted: puts k at slot i or, moving the larger keys in front of i up by one, lower.
    void place(std::uint32_t i, Key k) {
        Key *const e = entries_.data();
        while (i > head_ && k < e[i - 1]) e[i] = e[i - 1], --i;
        e[i] = k;
    }
    // Heap: k into the hole at i, moved up while smaller than its parent.
    void up(std::uint32_t i, Key k) {
        Key *const e = entries_.data();
        while (i > 0) {
            const std::uint32_t parent = (i - 1) / 4;
            if (!(k < e[parent])) break;
            e[i] = e[parent];
            pos_[switch_of(e[i])] = i;
            i = parent;
        }
        e[i] = k;
        pos_[switch_of(k)] = i;
    }
    // Heap: the root's hole moves down along the smallest children to a leaf, then the last entry
    // fills it from there.
    SwitchIdx heap_pop() {
        Key *const e = entries_.data();
        const SwitchIdx top = switch_of(e[0]);
        pos_[top] = kNone;
        const std::uint32_t n = --tail_;
        if (n == 0) return top;
        std::uint32_t i = 0;
        for (;;) {
            const std::uint32_t first = 4 * i + 1;
            if (first >= n) break;
            std::uint32_t best = first;
            if (first + 4 <= n) {
                const std::uint32_t a = e[first + 1] < e[first] ? first + 1 : first;
                const std::uint32_t b = e[first + 3] < e[first + 2] ? first + 3 : first + 2;
                best = e[b] < e[a] ? b : a;
            } else {
                for (std::uint32_t k = first + 1; k < n; ++k)
                    if (e[k] < e[best]) best = k;
            }
            e[i] = e[best];
            pos_[switch_of(e[i])] = i;
            i = best;
        }
        up(i, e[n]);
        return top;
    }

    bool sorted_;
    std::size_t slots_;
    std::vector<Key> entries_;        // sorted: head_..tail_ ascending; heap: 0..tail_
    std::vector<std::uint32_t> pos_;  // heap: each queued switch's slot
    std::uint32_t head_ = 0, tail_ = 0;
    unsigned switch_bits_, dist_shift_;
};

}  // namespace weft::routing::engines::nue
