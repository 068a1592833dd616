// Nue's path search for one destination as OpenSM's nue does it (the other of weft's two searches,
// see cdg_dijkstra.hpp): Dijkstra grown outward from the destination switch. When switch v is settled, each
// neighbour x may take the channel x -> v only if the turn from that channel into v's chosen channel is a
// used dependency or can be added without closing a cycle in the layer's complete CDG. The turn is tested and
// added when the relaxation improves x (not when x is settled); a later, shorter candidate for x
// takes its predecessor's new dependency back. Turns that closed a cycle stay refused for the
// layer. When switches stay unreached (an impasse) the destination's new dependencies are taken
// back and it is routed along the escape paths, whose dependencies were reserved up front.
#pragma once

#include <cstdint>
#include <vector>

#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/escape_paths.hpp"
#include "engines/nue/route_tree.hpp"

namespace weft::routing::engines::nue {

class OsmCdgDijkstra : public RouteTree {
  public:
    OsmCdgDijkstra(const Channels &ch, std::vector<std::uint64_t> &weight);

    // Routes toward switch d. cdg == nullptr: no dependency constraint (routes to switch LIDs
    // that Nue does not treat as endpoints). Returns false if it had to use the escape paths.
    bool route(SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape);

    // Results (next(), hops(), settled()) and add_load(): see RouteTree.

  private:
    // Offers x the channel c into the settled switch v (c's turn into out = v's chosen channel,
    // kNoChannel at the destination); `used` says the turn is a used dependency already.
    void relax(SwitchIdx x, ChannelId c, ChannelId out, std::uint64_t nd, bool used);
    void relax_from(SwitchIdx v);
    // 4-ary min-heap of the switches with a candidate, keyed by distance alone. Equal keys leave
    // the heap in the order OpenSM's complib heap (cl_heap) leaves them: a sift-up passes only
    // larger keys, a sift-down takes the last of equal smallest children and passes only
    // smaller keys, and a removal moves the last entry into the gap.
    struct Entry {
        std::uint64_t key;
        SwitchIdx sw;
    };
    void heap_put(std::uint32_t i, const Entry &e) {
        heap_[i] = e;
        heap_pos_[e.sw] = i;
    }
    void heap_up(std::uint32_t i);
    void heap_down(std::uint32_t i);
    void heap_insert(SwitchIdx x, std::uint64_t key);
    void heap_erase(std::uint32_t i);  // removes the entry at position i

    std::vector<std::uint64_t> dist_;
    std::vector<ChannelId> cand_;
    std::vector<std::uint8_t> fresh_;  // cand_'s turn was added for this candidate
    std::vector<ChannelId> later_;     // relax_from's second-pass channels
    std::vector<std::uint32_t> done_;  // stamp: settled in this route
    std::uint32_t stamp_ = 0;
    CompleteCdg *cdg_ = nullptr;  // of the current route()
    SwitchIdx dest_ = 0;
    std::vector<Entry> heap_;
    std::vector<std::uint32_t> heap_pos_;
};

}  // namespace weft::routing::engines::nue
