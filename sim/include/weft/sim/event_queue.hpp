// The pending events of a run, earliest first.
//
// An event is 16 bytes: its time and one 32-bit word naming what happens (a kind in the top four
// bits, the port, flow or host it concerns below). Events at the same time come out in order of
// that word, so the kind is also the priority among simultaneous events and a run never depends
// on the order in which simultaneous events were scheduled: ties are broken by what the events
// are, deterministically, not by how the heap happened to hold them.
//
// A 4-ary heap in one vector: the simulator keeps at most one pending event per port for arrivals
// and one for transmissions (packets in flight wait in their link's FIFO, not in the heap), so
// the heap stays small enough to live in cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "weft/sim/time.hpp"

namespace weft::sim {

struct Event {
    Time time = 0;
    std::uint32_t what = 0;

    static constexpr int kKindShift = 28;
    static constexpr std::uint32_t kIdMask = (std::uint32_t{1} << kKindShift) - 1;
    static constexpr std::uint32_t make(unsigned kind, std::uint32_t id) {
        return (static_cast<std::uint32_t>(kind) << kKindShift) | id;
    }
    constexpr unsigned kind() const { return what >> kKindShift; }
    constexpr std::uint32_t id() const { return what & kIdMask; }
};

// Without branches: the heap compares events whose order a branch predictor cannot guess.
constexpr bool comes_before(const Event &a, const Event &b) {
    return (a.time < b.time) | ((a.time == b.time) & (a.what < b.what));
}

class EventQueue {
  public:
    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    const Event &top() const { return heap_.front(); }
    void reserve(std::size_t n) { heap_.reserve(n); }

    void push(Time time, std::uint32_t what) {
        const Event e{time, what};
        std::size_t i = heap_.size();
        heap_.push_back(e);
        while (i > 0) {
            const std::size_t parent = (i - 1) / kArity;
            if (!comes_before(e, heap_[parent])) break;
            heap_[i] = heap_[parent];
            i = parent;
        }
        heap_[i] = e;
    }

    Event pop() {
        const Event out = heap_.front();
        const Event last = heap_.back();
        heap_.pop_back();
        const std::size_t n = heap_.size();
        if (n == 0) return out;
        std::size_t i = 0;
        for (;;) {
            const std::size_t first = i * kArity + 1;
            if (first >= n) break;
            std::size_t best = first;
            if (first + kArity <= n) {
                // All four children: pick the earliest without branches.
                const std::size_t a = comes_before(heap_[first + 1], heap_[first]) ? first + 1 : first;
                const std::size_t b =
                    comes_before(heap_[first + 3], heap_[first + 2]) ? first + 3 : first + 2;
                best = comes_before(heap_[b], heap_[a]) ? b : a;
            } else {
                for (std::size_t c = first + 1; c < n; ++c)
                    if (comes_before(heap_[c], heap_[best])) best = c;
            }
            if (!comes_before(heap_[best], last)) break;
            heap_[i] = heap_[best];
            i = best;
        }
        heap_[i] = last;
        return out;
    }

  private:
    static constexpr std::size_t kArity = 4;
    std::vector<Event> heap_;
};

}  // namespace weft::sim
