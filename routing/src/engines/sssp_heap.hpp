// The priority queue of OpenSM's (df)sssp Dijkstra (complib's cl_heap with branching factor 4).
// Equal-cost paths are decided by which switch leaves the queue first, so reproducing OpenSM's
// tables needs its exact order among equal keys, not just any min-heap: a sift-up moves an item
// only past strictly larger parents, a sift-down picks the last of equal smallest children and
// moves only below strictly smaller ones, and removing the root moves the last item to the top.
//
// Keys are below 2^32 (the Dijkstra's costs stay below OpenSM's "unreached" 0x7FFFFFFF), so
// each entry is one word, key << 32 | item: one load per comparison and one store per move.
#pragma once

#include <cstdint>
#include <vector>

namespace weft::routing::engines {

class SsspHeap {
  public:
    static constexpr std::uint32_t kNone = ~std::uint32_t{0};

    // Fills the heap with `order`, all at one key (what pushing them in turn would give), and
    // sizes the item -> position index for items 0..items-1.
    void assign(const std::vector<std::uint32_t> &order, std::size_t items, std::uint64_t key) {
        where_.resize(items);
        size_ = order.size();
        entry_.assign(size_ + 1 + kWays, kPad);  // room for one push without regrowth
        for (std::uint32_t i = 0; i < order.size(); ++i)
            entry_[i] = (key << 32) | order[i], where_[order[i]] = i;
    }
    // Appends an item; with a key no smaller than its parent's (as OpenSM's all-INF start) it
    // stays at the end.
    void push(std::uint32_t item, std::uint64_t key) {
        if (size_ + kWays >= entry_.size()) entry_.resize(2 * size_ + 1 + kWays, kPad);
        where_[item] = static_cast<std::uint32_t>(size_);
        ++size_;
        up(size_ - 1, (key << 32) | item);
    }
    void set_key(std::uint32_t item, std::uint64_t key) {
        const std::size_t at = where_[item];
        const std::uint64_t old = key_of(entry_[at]), e = (key << 32) | item;
        if (key < old)
            up(at, e);
        else if (key > old)
            down(at, e);
    }
    // set_key for a key known to be lower than the item's current one.
    void lower_key(std::uint32_t item, std::uint64_t key) { up(where_[item], (key << 32) | item); }
    // Removes and returns the root (kNone when empty).
    std::uint32_t pop() {
        if (size_ == 0) return kNone;
        const std::uint32_t root = item_of(entry_[0]);
        const std::uint64_t last = entry_[--size_];
        entry_[size_] = kPad;
        if (size_ != 0) down(0, last);  // the last entry, moved to the top, sifts down
        return root;
    }

  private:
    static constexpr std::size_t kWays = 4;
    // Past the last entry: at least kWays - 1 of these, so that every node with a child has
    // four. A pad is chosen only where the best child's key is 2^32 - 1, and then no entry
    // moves below it, as with the real children alone.
    static constexpr std::uint64_t kPad = ~std::uint64_t{0};
    static std::uint64_t key_of(std::uint64_t e) { return e >> 32; }
    static std::uint32_t item_of(std::uint64_t e) { return static_cast<std::uint32_t>(e); }

    void place(std::size_t at, std::uint64_t e) {
        entry_[at] = e, where_[item_of(e)] = static_cast<std::uint32_t>(at);
    }
    // An entry's key exceeds e's exactly when the entry exceeds e | kLow (no shifts).
    static constexpr std::uint64_t kLow = 0xFFFFFFFF;
    // Sifts e up from `at` (whatever entry_[at] holds is overwritten).
    void up(std::size_t at, const std::uint64_t e) {
        const std::uint64_t top = e | kLow;
        while (at > 0) {
            const std::size_t parent = (at - 1) / kWays;
            const std::uint64_t p = entry_[parent];
            if (p <= top) break;
            place(at, p);
            at = parent;
        }
        place(at, e);
    }
    // Sifts e down from `at` (whatever entry_[at] holds is overwritten).
    void down(std::size_t at, const std::uint64_t e) {
        const std::uint64_t *v = entry_.data();
        const std::size_t n = size_;
        for (std::size_t first = at * kWays + 1; first < n; first = at * kWays + 1) {
            // The best child without branches (which child wins is data, and was often
            // mispredicted): the least of key << 2 | (3 - place), i.e. the least key, then
            // the last place among equal keys. Four children always (pads past the end).
            // (GCC makes branches of std::min here; the masks stay as they are.)
            const std::uint64_t *c = v + first;
            auto word = [](std::uint64_t x, std::uint64_t place) { return key_of(x) << 2 | (3 - place); };
            auto least = [](std::uint64_t a, std::uint64_t b) {
                return a ^ ((a ^ b) & (0 - std::uint64_t{b < a}));
            };
            const std::uint64_t w =
                least(least(word(c[0], 0), word(c[1], 1)), least(word(c[2], 2), word(c[3], 3)));
            if (!(key_of(e) > w >> 2)) break;
            const std::size_t best = first + 3 - (w & 3);
            place(at, v[best]);
            at = best;
        }
        place(at, e);
    }

    std::vector<std::uint64_t> entry_;  // key << 32 | item, in heap order, then kPad
    std::size_t size_ = 0;              // entries in the heap
    std::vector<std::uint32_t> where_;  // item -> its place in entry_
};

}  // namespace weft::routing::engines
