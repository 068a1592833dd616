// The 4-ary min-heap OpenSM's nue searches with (complib's cl_heap), switches keyed by distance
// alone. Equal keys leave it in the order cl_heap leaves them, which decides OpenSM's ties: a
// sift-up passes only larger keys, a sift-down takes the last of equal smallest children and
// passes only smaller keys, and a removal moves the last entry into the gap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engines/switch_graph.hpp"

namespace weft::routing::engines::nue {

class OsmHeap {
  public:
    explicit OsmHeap(std::size_t switches) : pos_(switches, 0) { heap_.reserve(switches); }
    bool empty() const { return heap_.empty(); }
    void clear() { heap_.clear(); }
    SwitchIdx top() const { return heap_[0].sw; }
    std::uint32_t position(SwitchIdx x) const { return pos_[x]; }
    void insert(SwitchIdx x, std::uint64_t key) {
        heap_.push_back(Entry{key, x});
        up(static_cast<std::uint32_t>(heap_.size() - 1));
    }
    // cl_heap_modify_key: moves x up or down as its key fell or rose.
    void change(SwitchIdx x, std::uint64_t key) {
        const std::uint32_t i = pos_[x];
        const std::uint64_t old = heap_[i].key;
        heap_[i].key = key;
        if (key < old)
            up(i);
        else if (key > old)
            down(i);
    }
    // Removes the entry at position i.
    void erase(std::uint32_t i) {
        const Entry last = heap_.back();
        heap_.pop_back();
        if (i == heap_.size()) return;  // it was the last entry
        put(i, last);
        if (i == 0) {
            down(0);
            return;
        }
        const std::uint64_t parent = heap_[(i - 1) / 4].key;
        if (parent < last.key)
            down(i);
        else if (parent > last.key)
            up(i);
    }
    SwitchIdx pop() {
        const SwitchIdx x = heap_[0].sw;
        erase(0);
        return x;
    }

  private:
    struct Entry {
        std::uint64_t key;
        SwitchIdx sw;
    };
    void put(std::uint32_t i, const Entry &e) {
        heap_[i] = e;
        pos_[e.sw] = i;
    }
    void up(std::uint32_t i) {
        const Entry e = heap_[i];
        while (i > 0) {
            const std::uint32_t parent = (i - 1) / 4;
            if (!(e.key < heap_[parent].key)) break;
            put(i, heap_[parent]);
            i = parent;
        }
        put(i, e);
    }
    void down(std::uint32_t i) {
        const Entry e = heap_[i];
        const Entry *const h = heap_.data();
        const auto n = static_cast<std::uint32_t>(heap_.size());
        for (;;) {
            const std::uint32_t first = 4 * i + 1;
            if (first >= n) break;
            // The smallest child, the last of equals, chosen without branches: which child is
            // smallest is a coin toss to the predictor.
            std::uint32_t best = first;
            std::uint64_t best_key = h[first].key;
            const std::uint32_t last = std::min(first + 4, n);
            for (std::uint32_t k = first + 1; k < last; ++k) {
                const bool take = h[k].key <= best_key;
                best = take ? k : best;
                best_key = take ? h[k].key : best_key;
            }
            if (!(best_key < e.key)) break;
            put(i, h[best]);
            i = best;
        }
        put(i, e);
    }

    std::vector<Entry> heap_;
    std::vector<std::uint32_t> pos_;
};

}  // namespace weft::routing::engines::nue
