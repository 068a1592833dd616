// sssp's queue against a plain model of OpenSM's cl_heap (branching factor 4, keys and items in
// separate arrays, compared as numbers): the same items leave in the same order over random
// sequences of pushes, lowered and raised keys and pops, with few distinct keys (many ties,
// where only the queue's own order decides), OpenSM's "unreached" 0x7FFFFFFF and keys up to
// 2^32 - 1.
#include "engines/sssp_heap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

namespace weft::routing::engines {
namespace {

// complib's cl_heap as OpenSM's (df)sssp uses it: a sift-up passes strictly larger parents, a
// sift-down takes the last of the equal smallest children and passes only strictly smaller
// ones, and taking the root moves the last item to the top.
class ClHeapModel {
  public:
    void assign(const std::vector<std::uint32_t> &order, std::size_t items, std::uint64_t key) {
        where_.assign(items, kAbsent);
        keys_.clear(), items_.clear();
        for (std::uint32_t it : order) push(it, key);
    }
    void push(std::uint32_t item, std::uint64_t key) {
        keys_.push_back(key), items_.push_back(item), where_[item] = items_.size() - 1;
        up(items_.size() - 1);
    }
    void set_key(std::uint32_t item, std::uint64_t key) {
        const std::size_t at = where_[item];
        const std::uint64_t old = keys_[at];
        keys_[at] = key;
        if (key < old)
            up(at);
        else if (key > old)
            down(at);
    }
    std::uint32_t pop() {
        if (items_.empty()) return SsspHeap::kNone;
        const std::uint32_t root = items_[0];
        swap(0, items_.size() - 1);
        keys_.pop_back(), items_.pop_back(), where_[root] = kAbsent;
        if (!items_.empty()) down(0);
        return root;
    }
    bool has(std::uint32_t item) const { return where_[item] != kAbsent; }
    std::uint64_t key(std::uint32_t item) const { return keys_[where_[item]]; }

  private:
    static constexpr std::size_t kAbsent = ~std::size_t{0};
    void swap(std::size_t a, std::size_t b) {
        std::swap(keys_[a], keys_[b]), std::swap(items_[a], items_[b]);
        where_[items_[a]] = a, where_[items_[b]] = b;
    }
    void up(std::size_t at) {
        while (at > 0 && keys_[(at - 1) / 4] > keys_[at]) swap(at, (at - 1) / 4), at = (at - 1) / 4;
    }
    void down(std::size_t at) {
        for (;;) {
            std::size_t best = at;
            for (std::size_t c = 4 * at + 1; c <= 4 * at + 4 && c < items_.size(); ++c)
                if (best == at || keys_[c] <= keys_[best]) best = c;
            if (best == at || !(keys_[at] > keys_[best])) return;
            swap(at, best), at = best;
        }
    }
    std::vector<std::uint64_t> keys_;
    std::vector<std::uint32_t> items_;
    std::vector<std::size_t> where_;
};

TEST(SsspHeap, LeavesInClHeapOrder) {
    std::mt19937_64 rng(20261126);
    const std::uint64_t few[] = {0, 1, 2, 3, 5, 8, 0x7FFFFFFE, 0x7FFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF};
    for (int round = 0; round < 400; ++round) {
        const std::uint32_t items = 1 + static_cast<std::uint32_t>(rng() % 90);
        std::vector<std::uint32_t> order;  // a prefix of a shuffle starts in the queue
        for (std::uint32_t i = 0; i < items; ++i) order.push_back(i);
        std::shuffle(order.begin(), order.end(), rng);
        order.resize(rng() % (items + 1));
        const std::uint64_t start = few[rng() % std::size(few)];
        SsspHeap heap;
        ClHeapModel model;
        heap.assign(order, items, start), model.assign(order, items, start);
        const bool small_keys = round % 2 == 0;  // half the rounds: keys 0..3 only
        auto draw = [&] { return small_keys ? rng() % 4 : few[rng() % std::size(few)]; };
        for (int step = 0; step < 300; ++step) {
            const std::uint32_t item = static_cast<std::uint32_t>(rng() % items);
            const int op = static_cast<int>(rng() % 8);
            if (!model.has(item)) {
                if (op < 3) {
                    const std::uint64_t key = draw();
                    heap.push(item, key), model.push(item, key);
                }
            } else if (op < 3) {
                const std::uint64_t key = draw();
                heap.set_key(item, key), model.set_key(item, key);
            } else if (op < 5 && model.key(item) > 0) {
                const std::uint64_t key = rng() % model.key(item);
                heap.lower_key(item, key), model.set_key(item, key);
            } else {
                ASSERT_EQ(heap.pop(), model.pop()) << "round " << round << " step " << step;
            }
        }
        for (std::uint32_t left = model.pop();; left = model.pop()) {
            ASSERT_EQ(heap.pop(), left) << "round " << round << " draining";
            if (left == SsspHeap::kNone) break;
        }
    }
}

}  // namespace
}  // namespace weft::routing::engines
