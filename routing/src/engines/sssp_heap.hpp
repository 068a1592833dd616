// The priority queue of OpenSM's (df)sssp Dijkstra (complib's cl_heap with branching factor 4).
// Equal-cost paths are decided by which switch leaves the queue first, so reproducing OpenSM's
// tables needs its exact order among equal keys, not just any min-heap: a sift-up moves an item
// only past strictly larger parents, a sift-down picks the last of equal smallest children and
// moves only below strictly smaller ones, and removing the root moves the last item to the top.
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
        item_.assign(order.begin(), order.end());
        key_.assign(order.size(), key);
        for (std::uint32_t i = 0; i < order.size(); ++i) where_[order[i]] = i;
    }
    // Appends an item; with a key no smaller than its parent's (as OpenSM's all-INF start) it
    // stays at the end.
    void push(std::uint32_t item, std::uint64_t key) {
        where_[item] = static_cast<std::uint32_t>(item_.size());
        item_.push_back(item);
        key_.push_back(key);
        up(item_.size() - 1);
    }
    void set_key(std::uint32_t item, std::uint64_t key) {
        const std::size_t at = where_[item];
        const std::uint64_t old = key_[at];
        key_[at] = key;
        if (key < old)
            up(at);
        else if (key > old)
            down(at);
    }
    // Removes and returns the root (kNone when empty).
    std::uint32_t pop() {
        if (item_.empty()) return kNone;
        const std::uint32_t root = item_[0];
        const std::size_t last = item_.size() - 1;
        if (last != 0) {
            item_[0] = item_[last], key_[0] = key_[last];
            where_[item_[0]] = 0;
        }
        item_.pop_back(), key_.pop_back();
        if (!item_.empty()) down(0);
        return root;
    }

  private:
    static constexpr std::size_t kWays = 4;

    void place(std::size_t at, std::uint32_t item, std::uint64_t key) {
        item_[at] = item, key_[at] = key, where_[item] = static_cast<std::uint32_t>(at);
    }
    void up(std::size_t at) {
        const std::uint32_t item = item_[at];
        const std::uint64_t key = key_[at];
        while (at > 0) {
            const std::size_t parent = (at - 1) / kWays;
            if (!(key < key_[parent])) break;
            place(at, item_[parent], key_[parent]);
            at = parent;
        }
        place(at, item, key);
    }
    void down(std::size_t at) {
        const std::uint32_t item = item_[at];
        const std::uint64_t key = key_[at];
        const std::uint64_t *k = key_.data();
        const std::size_t n = item_.size();
        for (std::size_t first = at * kWays + 1; first < n; first = at * kWays + 1) {
            std::size_t best = first;
            if (first + kWays <= n) {  // all four children: the common case, unrolled
                if (k[first + 1] <= k[best]) best = first + 1;
                if (k[first + 2] <= k[best]) best = first + 2;
                if (k[first + 3] <= k[best]) best = first + 3;
            } else {
                for (std::size_t c = first + 1; c < n; ++c)
                    if (k[c] <= k[best]) best = c;
            }
            if (!(key > k[best])) break;
            place(at, item_[best], k[best]);
            at = best;
        }
        place(at, item, key);
    }

    std::vector<std::uint64_t> key_;
    std::vector<std::uint32_t> item_;
    std::vector<std::uint32_t> where_;
};

}  // namespace weft::routing::engines
