// Private: the credit-loop check's share of a pass over the destinations (routing_check.hpp).
// A CreditWalker per thread collects the channel dependencies of its destinations; add_to
// gathers them into one graph, which is the same whichever thread found what.
#pragma once

#include <array>
#include <bit>
#include <optional>
#include <vector>

#include "dependency_graph.hpp"
#include "dest_walk.hpp"

namespace weft::routing::verify {

// (SL, VL) pairs as bits sl * 16 + vl.
struct SlVlSet {
    std::array<std::uint64_t, 4> w{};
    bool any() const { return w[0] | w[1] | w[2] | w[3]; }
    void set(unsigned sl, unsigned vl) {
        w[(sl * 16 + vl) / 64] |= std::uint64_t{1} << ((sl * 16 + vl) % 64);
    }
    template <class Fn>
    void for_each(Fn &&fn) const {
        for (unsigned k = 0; k < 4; ++k)
            for (std::uint64_t x = w[k]; x; x &= x - 1) {
                const unsigned b = k * 64 + static_cast<unsigned>(std::countr_zero(x));
                fn(b / 16, b % 16);
            }
    }
    // Keeps what is not in `seen` and adds it there.
    void keep_new(SlVlSet &seen) {
        for (unsigned k = 0; k < 4; ++k) {
            w[k] &= ~seen.w[k];
            seen.w[k] |= w[k];
        }
    }
};

class CreditWalker {
  public:
    CreditWalker(const Fabric &f, const RoutingTables &t, unsigned vls, const ChannelMap &m);
    // After w.walk(d) for a CA's LID with an owner switch.
    void visit(const DestWalker &w, Lid d);
    // After the visits of the LIDs of the block from b (DestWalker::block_first).
    void end_block(DestWalker &w, Lid b);
    // Adds what this walker found to g (made by the first walker asked).
    void add_to(std::optional<DependencyGraph> &g) const;

  private:
    void mark(const DestWalker &w, unsigned i);
    void push_sl_vl(const DestWalker &w, Lid d);

    const Fabric &f_;
    const RoutingTables &t_;
    unsigned vls_;
    const ChannelMap &m_;
    bool marked_ = false;  // some LID of the current block
    // One VL: per (switch, port), the ports of the next switch it hands packets to (bit port - 1).
    std::vector<std::uint32_t> turn_base_;
    unsigned words_ = 1;
    std::vector<std::uint64_t> turns_;
    std::vector<std::uint64_t> active_;  // per switch: LIDs of the current block passing it
    // Several VLs.
    std::optional<DependencyGraph> g_;
    std::vector<SlVlSet> sets_;
    std::vector<std::uint32_t> stamp_;
    std::uint32_t now_ = 0;
};

}  // namespace weft::routing::verify
