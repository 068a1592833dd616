// The outermost layer's choice in sssp's replay for narrow layers (see route_sssp's
// decide_outer): for each switch, the least word dk[from] + (w[link] << 32) over its candidate
// links, the lowest link among equal words. (Wide layers, as on fat trees, are decided by
// OpenSM's own relaxation with an early finish instead.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::routing::engines {

// A link into a switch from a switch one hop closer to the destination: the link's index
// (weights are per link) and the closer switch.
struct SsspCand {
    std::uint32_t link;
    std::uint32_t from;
};

// Sets used[bfs[k]] for k in [first, m) to the link of the least word over the candidates
// cand[cand_off[k]] .. cand[cand_off[k + 1]] (at least one each). Words stay below 2^63.
inline void outer_choice_scalar(const std::uint32_t *bfs, const std::uint32_t *cand_off, const SsspCand *cand,
                                std::uint32_t first, std::uint32_t m, const std::uint64_t *dk,
                                const std::uint64_t *w, std::uint32_t *used) {
    for (std::uint32_t k = first; k < m; ++k) {
        const SsspCand *c = cand + cand_off[k], *ce = cand + cand_off[k + 1];
        std::uint64_t best = dk[c->from] + (w[c->link] << 32);
        std::uint32_t via = c->link;
        for (++c; c < ce; ++c) {
            const std::uint64_t key = dk[c->from] + (w[c->link] << 32);
            if (key <= best && (key < best || c->link < via)) best = key, via = c->link;
        }
        used[bfs[k]] = via;
    }
}

}  // namespace weft::routing::engines
