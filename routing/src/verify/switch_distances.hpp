// Private: shortest cabled distances (switch-to-switch hops) from any switch, and the switches
// in order of that distance: the trace tells minimal paths by them, and a destination walk goes
// through the switches nearest its destination first, so that on minimal routes each switch's
// next one is settled before it. A breadth-first search from 64 roots at once, one bit per root
// in a word per switch, so a batch costs about one search. Batches are kept up to a memory
// budget (least recently used out first).
#pragma once

#include <cstdint>
#include <list>
#include <vector>

#include "weft/routing/fabric.hpp"

namespace weft::routing::verify {

class SwitchDistances {
  public:
    static constexpr std::uint16_t kFar = 0xFFFF;  // not connected

    // Fewer than 0xFFFF switches (as DestWalker), so every distance and index fits 16 bits.
    SwitchDistances(const Fabric &f, std::size_t budget_bytes);

    struct Row {
        const std::uint16_t *dist;   // by switch: hops from the root, or kFar
        const std::uint16_t *order;  // every switch, nearest the root first (the unconnected last)
    };
    // Valid until the next call.
    Row from(SwitchIdx root);

  private:
    static constexpr unsigned kRoots = 64;
    struct Batch {
        SwitchIdx first = 0;
        std::vector<std::uint16_t> dist, order;  // [root - first][switch]
    };
    void compute(Batch &b);

    std::size_t S_;
    std::vector<std::uint32_t> adj_begin_;  // CSR of distinct switch neighbours
    std::vector<SwitchIdx> adj_;
    std::size_t max_batches_;
    std::list<Batch> batches_;                    // most recently used first
    std::vector<std::list<Batch>::iterator> at_;  // by batch number, or batches_.end()
    std::vector<std::uint64_t> reach_, fresh_;
    std::vector<SwitchIdx> touched_;
    std::vector<std::pair<SwitchIdx, std::uint64_t>> frontier_, next_frontier_;
    std::vector<std::uint32_t> count_;
};

}  // namespace weft::routing::verify
