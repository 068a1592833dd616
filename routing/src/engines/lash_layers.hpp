// LASH's virtual layers: one channel dependency graph per layer (channels = directed
// switch-to-switch links, a dependency = two consecutive channels of one route), each kept
// acyclic while routes are added and removed. Every dependency counts the routes that induce
// it; every layer keeps a topological order of the channels, updated incrementally as edges
// arrive (Pearce and Kelly's dynamic topological sort), so admitting a route costs only the part
// of the order it disturbs instead of a search of the whole graph. Removing edges never breaks
// an order, so removal and roll-back are plain count decrements. The searches walk bit masks of
// each channel's present dependencies (out and in) rather than every possible slot.
// While layers only grow (no remove() yet), a dependency that closed a cycle against a layer's
// admitted routes alone closes one for good: it is remembered, and a pair whose routes hold one
// is refused before any search (on fat trees most refusals repeat a few such turns).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engines/switch_graph.hpp"

namespace weft::routing::engines {

class LayeredCdg {
  public:
    explicit LayeredCdg(const SwitchGraph &g);

    // Channel of the k-th link of switch s (in SwitchGraph order), and the switch it enters.
    std::uint32_t channel(SwitchIdx s, unsigned k) const { return ch_begin_[s] + k; }
    SwitchIdx head(std::uint32_t c) const { return head_[c]; }

    unsigned layers() const { return static_cast<unsigned>(layers_.size()); }
    void open_layer();

    // Adds the dependencies of both routes (channel sequences) to `layer`, unless that would
    // close a cycle there: then the layer is left as it was and the answer is false.
    bool try_add(unsigned layer, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b);
    // Takes back what a successful try_add of the same routes added. Forgets the remembered
    // cycles of that layer (they may no longer close).
    void remove(unsigned layer, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b);

  private:
    struct Layer {
        std::vector<std::uint32_t> count;  // routes per dependency slot
        std::vector<std::uint32_t> ord;    // topological position of each channel
        std::vector<std::uint32_t> at;     // channel at each position (inverse of ord)
        std::vector<std::uint8_t> closes;  // dependency slot known to close a cycle
        std::vector<std::size_t> closed;   // the slots set in `closes`
        // Present dependencies as bits, words_ words per channel. out: bit k of c1 = the
        // dependency on the k-th channel out of c1's head. in: bit k of c2 = the dependency from
        // the channel entering c2's tail along the k-th link of that switch (reverse_).
        std::vector<std::uint64_t> out, in;
    };
    std::size_t slot(std::uint32_t c1, std::uint32_t c2) const {
        return std::size_t{c1} * max_deg_ + (c2 - ch_begin_[head_[c1]]);
    }
    void set_bits(Layer &l, std::uint32_t c1, std::uint32_t c2, bool on);
    bool add_dependency(Layer &l, std::uint32_t x, std::uint32_t y);
    template <std::size_t W>
    bool reorder(Layer &l, std::uint32_t x, std::uint32_t y);
    bool known_cycle(const Layer &l, std::span<const std::uint32_t> p) const;
    bool add_path(Layer &l, std::span<const std::uint32_t> p, std::size_t &done, bool &clean);
    void drop_path(Layer &l, std::span<const std::uint32_t> p, std::size_t upto);

    std::vector<std::uint32_t> ch_begin_;  // channels out of switch s: ch_begin_[s]..
    std::vector<SwitchIdx> head_, tail_;
    std::vector<std::uint32_t> reverse_;  // the channel back along the same cable
    std::size_t max_deg_ = 0;
    std::size_t words_ = 1;  // 64-bit mask words per channel
    std::vector<Layer> layers_;
    // Search scratch for the order updates; fwd_/bwd_ hold (position << 32 | channel).
    std::vector<std::uint32_t> seen_;
    std::uint32_t epoch_ = 0;
    std::vector<std::uint32_t> stack_, pos_;
    std::vector<std::uint64_t> fwd_, bwd_;
};

}  // namespace weft::routing::engines
