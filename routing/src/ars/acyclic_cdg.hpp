// Private: a channel dependency graph kept acyclic as edges arrive, by keeping a topological
// order of its (channel, VL) nodes and repairing it locally on each edge against it (Pearce and
// Kelly's dynamic topological sort): an edge that agrees with the order costs a bit test, one
// that does not searches only the nodes between its ends. An edge that would close a cycle is
// refused.
//
// A candidate member brings its edges as an attempt: all or none are kept. Edges are taken back
// only when an attempt fails, so the graph of kept edges only grows: an edge whose cycle runs
// through kept edges alone closes one for good. Such edges are remembered, and an attempt that
// brings one is refused while its edges are still being staged, before any search or repair (the
// same turn comes up for many destinations and candidates).
#pragma once

#include <cstdint>
#include <vector>

#include "verify/dependency_graph.hpp"

namespace weft::routing::ars {

class AcyclicCdg {
  public:
    AcyclicCdg(const Fabric &f, const verify::ChannelMap &m, unsigned vls);

    // Adds from/vl_in -> (port `out` of the switch `from` leads to)/vl_out, to be kept, unless
    // it closes a cycle. True when added or already there.
    bool add(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out);

    // Adds an edge without keeping the order; sort() then orders the whole graph again and is
    // false when it has a cycle (the order is then no use). For a batch known to be kept (the
    // engine's own routes).
    void add_unordered(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out);
    bool sort();

    // An attempt: begin(), stage() each edge, commit(). stage() is false when the edge is known to
    // close a cycle (the attempt is then over); commit() adds the staged edges and keeps them all,
    // or takes them all back and returns false when one closes a cycle.
    void begin() { staged_.clear(); }
    bool stage(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out);
    bool commit();

    const verify::DependencyGraph &graph() const { return fwd_; }

  private:
    struct Edge {
        std::uint32_t from, to;
        std::uint8_t vl_in, vl_out;
        PortNum out, in;
    };
    std::uint32_t node_of(std::uint32_t chan, unsigned vl) const { return chan * vls_ + vl; }
    struct Staged {
        std::uint32_t from;
        std::uint8_t vl_in, vl_out;
        PortNum out;
    };
    bool insert(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out);  // into added_
    bool repair(std::uint32_t x, std::uint32_t y);  // order after adding x -> y; false on a cycle
    // Whether the path repair() found from y to x, through its edge from -> to where the two
    // searches met, uses only kept edges, none of the current attempt's (added_).
    bool only_kept(std::uint32_t from, std::uint32_t to, std::uint32_t x, std::uint32_t y) const;
    static constexpr std::uint8_t kForward = 1, kBackward = 2;  // visited_: found by which search
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

    const Fabric &f_;
    const verify::ChannelMap &m_;
    unsigned vls_;
    verify::DependencyGraph fwd_;     // (from, vl_in) -> (vl_out, out port at the far switch)
    verify::DependencyGraph rev_;     // (to, vl_out) -> (vl_in, in port at the switch `to` leaves)
    verify::DependencyGraph closes_;  // edges known to close a cycle with kept edges alone
    bool kept_path_ = false;          // the last cycle repair() found has only kept edges
    std::vector<std::uint32_t> ord_;  // by node: its place in the order
    std::vector<std::uint8_t> visited_;
    // By node: where the search that found it came from (the forward search: the node before
    // it on the path from y; the backward one: the node after it on the path to x).
    std::vector<std::uint32_t> parent_;
    std::vector<std::uint32_t> forward_, backward_, stack_, back_stack_;
    std::vector<std::uint64_t> back_keys_, fwd_keys_, places_;  // (place, node)
    std::vector<Edge> added_;                                   // by the attempt being committed
    std::vector<Staged> staged_;
};

}  // namespace weft::routing::ars
