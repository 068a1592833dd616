#include "engines/nue/osm_cdg_dijkstra.hpp"

#include <algorithm>

namespace weft::routing::engines::nue {
namespace {
constexpr std::uint64_t kFar = ~std::uint64_t{0};
}  // namespace

OsmCdgDijkstra::OsmCdgDijkstra(const Channels &ch, std::vector<std::uint64_t> &weight)
    : RouteTree(ch, weight) {
    const std::size_t n = ch.switches();
    dist_.assign(n, kFar);
    cand_.assign(n, kNoChannel);
    fresh_.assign(n, 0);
    done_.assign(n, 0);
    heap_pos_.assign(n, 0);
    heap_.reserve(n);
    later_.resize(ch.max_degree());
}

void OsmCdgDijkstra::heap_up(std::uint32_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
        const std::uint32_t up = (i - 1) / 4;
        if (!(e.key < heap_[up].key)) break;
        heap_put(i, heap_[up]);
        i = up;
    }
    heap_put(i, e);
}

void OsmCdgDijkstra::heap_down(std::uint32_t i) {
    const Entry e = heap_[i];
    const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
    for (;;) {
        const std::uint32_t first = 4 * i + 1;
        if (first >= n) break;
        std::uint32_t best = first;
        const std::uint32_t last = std::min(first + 4, n);
        for (std::uint32_t k = first + 1; k < last; ++k)
            if (heap_[k].key <= heap_[best].key) best = k;
        if (!(heap_[best].key < e.key)) break;
        heap_put(i, heap_[best]);
        i = best;
    }
    heap_put(i, e);
}

void OsmCdgDijkstra::heap_insert(SwitchIdx x, std::uint64_t key) {
    heap_.push_back(Entry{key, x});
    heap_up(static_cast<std::uint32_t>(heap_.size() - 1));
}

void OsmCdgDijkstra::heap_erase(std::uint32_t i) {
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;  // it was the last entry
    heap_put(i, last);
    if (i == 0) {
        heap_down(0);
        return;
    }
    const std::uint64_t parent = heap_[(i - 1) / 4].key;
    if (parent < last.key)
        heap_down(i);
    else if (parent > last.key)
        heap_up(i);
}

// Inlined into relax_from: the call cost as much as the usual early return.
[[gnu::always_inline]] inline void OsmCdgDijkstra::relax(SwitchIdx x, ChannelId c, ChannelId out,
                                                         std::uint64_t nd, bool used) {
    if (nd >= dist_[x]) return;
    bool added = false;
    if (!used) {
        const auto r = cdg_->try_add(c, out);
        if (r == CompleteCdg::Add::Cycle) {
            ++rejected_;
            return;
        }
        added = r == CompleteCdg::Add::Added;
    }
    if (cand_[x] != kNoChannel) {
        // A shorter candidate replaces the queued one, and takes back the turn it had added.
        heap_erase(heap_pos_[x]);
        if (fresh_[x]) cdg_->remove(cand_[x], next_[ch_.head(cand_[x])]);
    }
    cand_[x] = c;
    fresh_[x] = added;
    dist_[x] = nd;
    heap_insert(x, nd);
}

// OpenSM tries the channels into v whose turn is used already first, then the unused ones (turns
// known to close a cycle never), each in port order; the first of equal distances wins.
void OsmCdgDijkstra::relax_from(SwitchIdx v) {
    const std::uint64_t dv = dist_[v];
    const ChannelId first = ch_.begin(v), end = ch_.end(v);
    if (!cdg_) {
        for (ChannelId o = first; o < end; ++o) {
            const SwitchIdx x = ch_.head(o);  // = tail of the reverse channel
            if (done_[x] == stamp_) continue;
            const ChannelId c = ch_.reverse(o);
            const std::uint64_t nd = dv + weight_[c];
            if (nd < dist_[x]) {
                if (cand_[x] != kNoChannel) heap_erase(heap_pos_[x]);
                cand_[x] = c;
                dist_[x] = nd;
                heap_insert(x, nd);
            }
        }
        return;
    }
    if (v == dest_) {
        // The destination's own turns: the channels routes toward this switch used before in
        // this layer count as used.
        for (int pass = 0; pass < 2; ++pass)
            for (ChannelId o = first; o < end; ++o) {
                const SwitchIdx x = ch_.head(o);
                if (done_[x] == stamp_) continue;
                const ChannelId c = ch_.reverse(o);
                if (cdg_->sink_used(c) != (pass == 0)) continue;
                relax(x, c, kNoChannel, dv + weight_[c], true);
            }
        return;
    }
    // The distance test comes first: it is the cheapest, and it also skips settled switches
    // (their distance is at most dv, and every weight is at least 1). The first pass notes the
    // channels the second may take: distances only drop in between, and no turn into out
    // becomes used other than the one a relaxation adds for its own channel.
    const ChannelId out = next_[v];
    ChannelId *const later = later_.data();
    std::size_t n_later = 0;
    for (ChannelId o = first; o < end; ++o) {
        const SwitchIdx x = ch_.head(o);
        const ChannelId c = ch_.reverse(o);
        const std::uint64_t nd = dv + weight_[c];
        if (nd >= dist_[x]) continue;
        if (cdg_->used(c, out))
            relax(x, c, out, nd, true);
        else
            later[n_later++] = o;
    }
    for (std::size_t i = 0; i < n_later; ++i) {
        const ChannelId o = later[i];
        const SwitchIdx x = ch_.head(o);
        const ChannelId c = ch_.reverse(o);
        const std::uint64_t nd = dv + weight_[c];
        if (nd >= dist_[x] || cdg_->blocked(c, out)) continue;
        relax(x, c, out, nd, false);
    }
}

bool OsmCdgDijkstra::route(SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape) {
    cdg_ = cdg;
    dest_ = d;
    if (++stamp_ == 0) {
        std::fill(done_.begin(), done_.end(), 0);
        stamp_ = 1;
    }
    std::fill(next_.begin(), next_.end(), kNoChannel);
    std::fill(hops_.begin(), hops_.end(), kInfHops);
    std::fill(dist_.begin(), dist_.end(), kFar);
    std::fill(cand_.begin(), cand_.end(), kNoChannel);
    heap_.clear();
    order_.assign(1, d);
    done_[d] = stamp_;
    dist_[d] = 0;
    hops_[d] = 0;
    const std::size_t reachable = reachable_[d];

    relax_from(d);
    while (!heap_.empty()) {
        const SwitchIdx x = heap_[0].sw;
        heap_erase(0);
        const ChannelId c = cand_[x];
        done_[x] = stamp_;
        next_[x] = c;
        hops_[x] = static_cast<std::uint8_t>(std::min<unsigned>(hops_[ch_.head(c)] + 1u, kInfHops - 1u));
        order_.push_back(x);
        relax_from(x);
    }
    if (order_.size() == reachable || !cdg || !escape) {
        if (cdg)
            for (std::size_t i = 1; i < order_.size(); ++i)
                if (ch_.head(next_[order_[i]]) == d) cdg->mark_sink_used(next_[order_[i]]);
        return true;
    }

    // Impasse: take this destination's dependencies back and use the escape paths.
    for (std::size_t i = 1; i < order_.size(); ++i) {
        const SwitchIdx x = order_[i];
        if (fresh_[x]) cdg->remove(next_[x], next_[ch_.head(next_[x])]);
    }
    route_along_escape(d, *escape);
    return false;
}

}  // namespace weft::routing::engines::nue
