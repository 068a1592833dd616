// Private: shortest cabled distances (switch-to-switch hops) from any switch, as the trace needs
// them to tell minimal paths: a breadth-first search from 64 roots at once, one bit per root in
// a word per switch, so a batch costs about one search. Batches are kept up to a memory budget
// (least recently used out first).
#pragma once

#include <cstdint>
#include <list>
#include <vector>

#include "weft/routing/fabric.hpp"

namespace weft::routing::verify {

class SwitchDistances {
  public:
    static constexpr std::uint16_t kFar = 0xFFFF;  // not connected

    // Fewer than 0xFFFF switches (as DestWalker), so every distance fits 16 bits.
    SwitchDistances(const Fabric &f, std::size_t budget_bytes);
    // Hops from root to every switch (by SwitchIdx). Valid until the next call.
    const std::uint16_t *from(SwitchIdx root);

  private:
    static constexpr unsigned kRoots = 64;
    struct Batch {
        SwitchIdx first = 0;
        std::vector<std::uint16_t> dist;  // [root - first][switch]
    };
    void compute(Batch &b) const;

    std::size_t S_;
    std::vector<std::uint32_t> adj_begin_;  // CSR of distinct switch neighbours
    std::vector<SwitchIdx> adj_;
    std::size_t max_batches_;
    std::list<Batch> batches_;  // most recently used first
    mutable std::vector<std::uint64_t> reach_, fresh_;
    mutable std::vector<SwitchIdx> touched_;
    mutable std::vector<std::pair<SwitchIdx, std::uint64_t>> frontier_, next_frontier_;
};

}  // namespace weft::routing::verify
