// Nue's path search for one destination, weft's own (osm_cdg_dijkstra.hpp has OpenSM's; Nue
// routes with both and keeps the better tables): Dijkstra grown outward from the destination
// switch, where a switch x may take channel x -> v only if the turn from that channel into v's already
// chosen channel is a used dependency or can be added without closing a cycle in the layer's
// complete CDG. A refused channel is dropped and x waits for its next-best one. When switches stay
// unreached (an impasse) the destination's new dependencies are taken back and it is routed along
// the escape paths, whose dependencies were reserved up front.
#pragma once

#include <cstdint>
#include <vector>

#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/escape_paths.hpp"
#include "engines/nue/route_tree.hpp"
#include "engines/nue/search_queue.hpp"

namespace weft::routing::engines::nue {

class CdgDijkstra : public RouteTree {
  public:
    CdgDijkstra(const Channels &ch, std::vector<std::uint64_t> &in_weight);  // see RouteTree

    // Routes toward switch d. cdg == nullptr: no dependency constraint (routes to switch LIDs
    // that Nue does not treat as endpoints). Returns false if it had to use the escape paths.
    bool route(SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape);

    // Results (next(), hops(), settled()) and add_load(): see RouteTree.

  private:
    // A new search toward d: a fresh stamp, no routes, d settled at distance 0 (order_ = {d}).
    void begin_search(SwitchIdx d);
    // route() without a CDG where its routes are sure to be minimal (see the .cpp); false where
    // they are not (route_on then starts afresh).
    bool route_minimal(SwitchIdx d);
    // route() with the narrow keys when this search's distances fit them, else the wide ones.
    template <class Queue>
    bool route_on(Queue &queue, SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape);
    template <class Queue>
    void push_best_alternative(Queue &queue, SwitchIdx x);
    // After a refusal x looks for its next channel: one whose turn into v's chosen channel
    // already closed a cycle would be refused again when x is taken, so refuse it now instead of
    // queueing x in vain. The turns taken stay the same (a known cycle stays one until a
    // dependency is taken back, and the search takes none back). Not checked on every
    // relaxation: that costs more than it saves where refusals are rare.
    bool refuse_known_cycle(ChannelId c, SwitchIdx v) {
        if (!cdg_ || v == dest_ || !cdg_->blocked(c, next_[v])) return false;
        ++rejected_;
        refused_[c] = stamp_;
        return true;
    }
    std::vector<std::uint64_t> dist_, cand_dist_;
    std::vector<ChannelId> cand_;
    std::vector<std::uint32_t> done_, refused_;  // stamps: settled switch, refused channel
    std::vector<std::uint32_t> layer_;           // route_minimal: hops to d
    // The lightest channel weight when the search was built: weights only grow, so it stays a
    // lower bound.
    std::uint64_t min_weight_ = 0;
    std::uint32_t stamp_ = 0;
    std::vector<std::pair<ChannelId, ChannelId>> added_;  // dependencies new for this destination
    CompleteCdg *cdg_ = nullptr;                          // of the current route()
    SwitchIdx dest_ = 0;
    // Unsettled switches with a candidate (cand_dist_ below kFar), by (cand_dist_, cand_).
    SearchQueue<std::uint64_t> narrow_;
    SearchQueue<WideKey> wide_;
};

}  // namespace weft::routing::engines::nue
