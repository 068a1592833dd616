#include "engines/nue/cdg_dijkstra.hpp"

#include <algorithm>

namespace weft::routing::engines::nue {
namespace {
constexpr std::uint64_t kFar = ~std::uint64_t{0};  // no candidate: not queued
}  // namespace

CdgDijkstra::CdgDijkstra(const Channels &ch, std::vector<std::uint64_t> &in_weight)
    : RouteTree(ch, in_weight), narrow_(ch.switches(), ch.size()), wide_(ch.switches(), ch.size()) {
    const std::size_t n = ch.switches();
    dist_.assign(n, kFar);
    cand_dist_.assign(n, kFar);
    cand_.assign(n, kNoChannel);
    done_.assign(n, 0);
    refused_.assign(ch.size(), 0);
    min_weight_ = in_weight.empty() ? 0 : *std::min_element(in_weight.begin(), in_weight.end());
}

// x's cheapest channel into an already settled switch that has not been refused for x.
template <class Queue>
void CdgDijkstra::push_best_alternative(Queue &queue, SwitchIdx x) {
    cand_dist_[x] = kFar;
    cand_[x] = kNoChannel;
    for (ChannelId c = ch_.begin(x); c < ch_.end(x); ++c) {
        const SwitchIdx v = ch_.head(c);
        if (done_[v] != stamp_ || refused_[c] == stamp_) continue;
        const std::uint64_t nd = dist_[v] + in_weight_[ch_.reverse(c)];
        if (nd < cand_dist_[x] && !refuse_known_cycle(c, v)) cand_dist_[x] = nd, cand_[x] = c;
    }
    if (cand_[x] != kNoChannel) queue.insert(queue.key(cand_dist_[x], cand_[x], x));  // x was just popped
}

// Without a CDG every switch takes its cheapest channel, so the routes are Dijkstra's. While
// every weight w satisfies min <= w <= max with (h + 1) min > h max for every hop count h up to
// d's farthest switch (P^2 dominates the loads, as it is meant to), a path one hop longer costs
// more than any shorter one: the routes are minimal, and x's channel is the cheapest of those into
// the previous layer, the first of equals (the lowest channel, as the queue's keys order them).
// One pass over the switches in BFS order settles them layer by layer, without a queue; the
// BFS order keeps children after their parents, as add_load needs.
void CdgDijkstra::begin_search(SwitchIdx d) {
    if (++stamp_ == 0) {
        std::fill(done_.begin(), done_.end(), 0);
        std::fill(refused_.begin(), refused_.end(), 0);
        stamp_ = 1;
    }
    std::fill(next_.begin(), next_.end(), kNoChannel);
    std::fill(hops_.begin(), hops_.end(), kInfHops);
    order_.assign(1, d);
    done_[d] = stamp_;
    dist_[d] = 0;
    hops_[d] = 0;
}

bool CdgDijkstra::route_minimal(SwitchIdx d) {
    begin_search(d);  // d reached
    if (layer_.empty()) layer_.resize(ch_.switches());
    layer_[d] = 0;
    const SwitchIdx *const head = ch_.heads();
    const ChannelId *const rev = ch_.reverses();
    const std::uint64_t *const in_weight = in_weight_.data();
    for (std::size_t i = 0; i < order_.size(); ++i) {
        const SwitchIdx v = order_[i];  // its dist_ is final: every switch of the layer before came first
        const std::uint32_t outer = layer_[v] + 1;
        const std::uint64_t dv = dist_[v];
        for (ChannelId o = ch_.begin(v), end = ch_.end(v); o < end; ++o) {
            const SwitchIdx x = head[o];
            const std::uint64_t nd = dv + in_weight[o];
            if (done_[x] != stamp_) {
                done_[x] = stamp_;
                layer_[x] = outer;
                order_.push_back(x);
            } else if (layer_[x] != outer || nd > dist_[x] || (nd == dist_[x] && rev[o] > next_[x])) {
                continue;
            }
            dist_[x] = nd;
            next_[x] = rev[o];
        }
    }
    const std::uint64_t spread = max_weight() - min_weight_;  // both over the same weights: min <= max
    const std::uint64_t deepest = layer_[order_.back()];
    // (h + 1) min > h max for all h <= deepest  <=>  min > deepest * (max - min).
    if (spread != 0 && deepest >= min_weight_ / spread + (min_weight_ % spread == 0 ? 0 : 1)) return false;
    for (const SwitchIdx s : order_)
        hops_[s] = static_cast<std::uint8_t>(std::min<std::uint32_t>(layer_[s], kInfHops - 1u));
    return true;
}

bool CdgDijkstra::route(SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape) {
    if (!cdg && route_minimal(d)) return true;
    // A distance runs over at most switches - 1 channels, each at most the heaviest weight. Narrow
    // keys in the sorted layout only (see search_queue.hpp).
    const std::uint64_t most = narrow_.max_dist() / std::max<std::size_t>(ch_.switches(), 1);
    const bool narrow = narrow_.sorted() && max_weight() <= most;
    return narrow ? route_on(narrow_, d, cdg, escape) : route_on(wide_, d, cdg, escape);
}

template <class Queue>
bool CdgDijkstra::route_on(Queue &queue, SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape) {
    cdg_ = cdg;
    dest_ = d;
    queue.prepare();
    begin_search(d);
    std::fill(cand_dist_.begin(), cand_dist_.end(), kFar);
    added_.clear();
    if (cdg) cdg->note_blocked();  // an impasse forgets what this search found, see below
    const std::size_t reachable = reachable_[d];

    // Raw arrays, locals: the stores below could alias the vectors' data pointers. The queue
    // never reallocates during a search.
    const SwitchIdx *const head = ch_.heads();
    const ChannelId *const rev = ch_.reverses();
    const std::uint64_t *const in_weight = in_weight_.data();
    const std::uint32_t *const done = done_.data();
    std::uint64_t *const cand_dist = cand_dist_.data();
    ChannelId *const cand = cand_.data();
    const std::uint32_t stamp = stamp_;
    // Inlined into both callers: it runs once per settled switch and the call cost showed.
    auto relax_into = [&](SwitchIdx v) __attribute__((always_inline)) {
        // Every unsettled neighbour x of v may route through channel x -> v.
        const std::uint64_t dv = dist_[v];
        for (ChannelId o = ch_.begin(v), end = ch_.end(v); o < end; ++o) {
            const SwitchIdx x = head[o];  // = tail of the reverse channel
            if (done[x] == stamp) continue;
            const ChannelId c = rev[o];
            const std::uint64_t nd = dv + in_weight[o];
            if (nd < cand_dist[x] || (nd == cand_dist[x] && c < cand[x])) {
                const typename Queue::Key k = queue.key(nd, c, x);
                if (cand_dist[x] == kFar)
                    queue.insert(k);
                else
                    queue.lower(queue.key(cand_dist[x], cand[x], x), k);
                cand_dist[x] = nd;
                cand[x] = c;
            }
        }
    };
    relax_into(d);
    while (!queue.empty()) {
        const SwitchIdx x = queue.pop();
        const ChannelId c = cand_[x];
        const std::uint64_t dd = cand_dist_[x];
        const SwitchIdx v = ch_.head(c);
        if (cdg && v != d) {
            const auto r = cdg->try_add(c, next_[v]);
            if (r == CompleteCdg::Add::Cycle) {
                ++rejected_;
                refused_[c] = stamp_;
                push_best_alternative(queue, x);
                continue;
            }
            if (r == CompleteCdg::Add::Added) added_.emplace_back(c, next_[v]);
        }
        done_[x] = stamp_;
        dist_[x] = dd;
        next_[x] = c;
        hops_[x] = static_cast<std::uint8_t>(std::min<unsigned>(hops_[v] + 1u, kInfHops - 1u));
        order_.push_back(x);
        relax_into(x);
    }
    if (order_.size() == reachable || !cdg || !escape) return true;

    // Impasse: take this destination's dependencies back and use the escape paths. The turns
    // its search found to close a cycle may fit again; those found before still close theirs.
    for (auto [a, b] : added_) cdg->remove(a, b);
    added_.clear();
    cdg->forget_noted_blocked();
    route_along_escape(d, *escape);
    return false;
}

}  // namespace weft::routing::engines::nue
