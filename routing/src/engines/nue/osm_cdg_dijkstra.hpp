// Nue's path search for one destination as OpenSM's nue does it (the other of weft's two searches,
// see cdg_dijkstra.hpp): Dijkstra grown outward from the destination switch. When switch v is settled, each
// neighbour x may take the channel x -> v only if the turn from that channel into v's chosen channel is a
// used dependency or can be added without closing a cycle in the layer's complete CDG. The turn is tested and
// added when the relaxation improves x (not when x is settled); a later, shorter candidate for x
// takes its predecessor's new dependency back. Turns that closed a cycle stay refused for the
// layer. A channel into x whose turn is used but that does not improve x is kept on x's stack of
// alternatives. When switches stay unreached (an impasse) OpenSM first backtracks locally: an
// unreached switch u may enter a reached neighbour a that switches to one of its alternatives,
// if every switch routed through a already uses the turn into that alternative; the search then
// goes on from u, and a shorter path it finds to a switch reached before takes over only if the
// switches routed through that one can follow (a shortcut). Only when backtracking finds nothing
// are the destination's new dependencies taken back and the escape paths used, whose
// dependencies were reserved up front.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/escape_paths.hpp"
#include "engines/nue/osm_heap.hpp"
#include "engines/nue/route_tree.hpp"

namespace weft::routing::engines::nue {

class OsmCdgDijkstra : public RouteTree {
  public:
    // node_order: every switch in the order OpenSM keeps its nodes (by LID in network byte order);
    // backtracking looks for unreached switches in it.
    OsmCdgDijkstra(const Channels &ch, std::vector<std::uint64_t> &in_weight,  // see RouteTree
                   const std::vector<SwitchIdx> &node_order);

    // Routes toward switch d. cdg == nullptr: no dependency constraint (routes to switch LIDs
    // that Nue does not treat as endpoints). Returns false if it had to use the escape paths.
    bool route(SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape);

    // Results (next(), hops(), settled()) and add_load(): see RouteTree.

  private:
    // Offers x the channel c into the settled switch v (c's turn into out = v's chosen channel,
    // kNoChannel at the destination); `used` says the turn is a used dependency already.
    void relax(SwitchIdx x, ChannelId c, ChannelId out, std::uint64_t nd, bool used);
    void relax_from(SwitchIdx v);
    // Keeps c (into x, its turn used) as one of x's alternatives, reached at distance nd. The
    // search offers each channel once, so only backtracking can offer one again (and skips it).
    void keep_alternative(SwitchIdx x, ChannelId c, std::uint64_t nd) {
        chan_dist_[c] = nd;
        alt_[ch_.begin(x) + alt_count_[x]++] = c;
    }
    // OpenSM's local backtracking: the unreached switch it attaches, or kNoSwitch.
    SwitchIdx backtrack();
    // Whether x, reached before the last backtracking, may move to the shorter channel c.
    bool shortcut(SwitchIdx x, ChannelId c);
    // try_add that notes what it adds once this route has backtracked.
    CompleteCdg::Add add_turn(ChannelId c1, ChannelId c2);
    // Whether c1 -> c2 was added in this route and is still used (OpenSM's wet paint).
    bool wet(ChannelId c1, ChannelId c2) const;
    // From the first backtracking on, every turn this route adds is noted.
    void start_noting();
    // Fills the alternatives at the first backtracking (see relax_from).
    void recall_alternatives();
    // Hops and settling order from the final next channels (backtracking and shortcuts move
    // switches that routes were already laid through).
    void rebuild_order();

    const std::vector<SwitchIdx> &node_order_;
    // next_ (RouteTree) is each switch's current channel, candidate or settled (OpenSM's used_link).
    std::vector<std::uint64_t> dist_;
    std::vector<std::uint8_t> fresh_;  // next_'s turn was added for this candidate
    std::vector<ChannelId> later_;     // relax_from's second-pass channels
    std::vector<ChannelId> offered_;   // relax_from's improving channels
    std::vector<std::uint32_t> done_;  // stamp: settled in this route
    std::uint32_t stamp_ = 0;
    CompleteCdg *cdg_ = nullptr;  // of the current route()
    SwitchIdx dest_ = 0;
    OsmHeap heap_;  // switches with a candidate
    // Alternatives: the channels out of x kept, at ch_.begin(x) on, alt_count_[x] of them, and
    // the distance each channel was offered at.
    std::vector<ChannelId> alt_;
    std::vector<std::uint32_t> alt_count_;
    std::vector<std::uint64_t> chan_dist_;
    std::vector<std::uint32_t> candidate_;  // stamp: was a switch's candidate in this route
    // Backtracking steps so far in this route, and the step each switch was first reached after.
    std::int32_t step_ = 0;
    std::vector<std::int32_t> found_after_;
    bool noting_ = false;
    std::vector<std::pair<ChannelId, ChannelId>> added_;  // turns added since start_noting()
    std::vector<ChannelId> sink_offered_;  // channels into the destination that improved a switch
    std::vector<std::pair<ChannelId, ChannelId>> candidates_;  // backtracking scratch
    std::vector<ChannelId> dependents_;
    std::vector<std::uint8_t> dependent_added_;
    std::vector<std::uint32_t> depth_;  // rebuild_order scratch
    std::vector<SwitchIdx> path_;
};

}  // namespace weft::routing::engines::nue
