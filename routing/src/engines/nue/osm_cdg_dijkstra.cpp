#include "engines/nue/osm_cdg_dijkstra.hpp"

#include <algorithm>

namespace weft::routing::engines::nue {
namespace {
constexpr std::uint64_t kFar = ~std::uint64_t{0};
}  // namespace

OsmCdgDijkstra::OsmCdgDijkstra(const Channels &ch, std::vector<std::uint64_t> &in_weight,
                               const std::vector<SwitchIdx> &node_order)
    : RouteTree(ch, in_weight), node_order_(node_order), heap_(ch.switches()) {
    const std::size_t n = ch.switches();
    dist_.assign(n, kFar);
    fresh_.assign(n, 0);
    done_.assign(n, 0);
    later_.resize(ch.max_degree());
    offered_.resize(ch.max_degree());
    alt_.assign(ch.size(), kNoChannel);
    alt_count_.assign(n, 0);
    chan_dist_.assign(ch.size(), 0);
    candidate_.assign(ch.size(), 0);
    found_after_.assign(n, -1);
}

CompleteCdg::Add OsmCdgDijkstra::add_turn(ChannelId c1, ChannelId c2) {
    const CompleteCdg::Add r = cdg_->try_add(c1, c2);
    if (noting_ && r == CompleteCdg::Add::Added) added_.emplace_back(c1, c2);
    return r;
}

bool OsmCdgDijkstra::wet(ChannelId c1, ChannelId c2) const {
    if (!cdg_->used(c1, c2)) return false;
    return std::find(added_.begin(), added_.end(), std::pair{c1, c2}) != added_.end();
}

// Until the first backtracking the turns this route added and still holds are those of the
// switches' fresh candidates: the heap is empty then, so every reached switch is settled.
void OsmCdgDijkstra::start_noting() {
    noting_ = true;
    added_.clear();
    for (std::size_t i = 1; i < order_.size(); ++i) {
        const SwitchIdx x = order_[i];
        if (fresh_[x]) added_.emplace_back(next_[x], next_[ch_.head(next_[x])]);
    }
}

// Before the first backtracking, the alternatives OpenSM would have kept, in its order: each
// settled switch v offered every channel x -> v once, in port order, when it was settled, and
// kept the ones that did not improve x (never a candidate) with the turn into v's channel used.
// That turn has not changed since: only x's candidacy through it adds or takes it back.
// Without branches: whether a channel is kept is a coin toss to the predictor. Each channel is written to the
// next free slot of its switch's list, which counts it only if kept: the list has a slot for each of the
// switch's channels and each is offered once, so the slot written lies in the list. The distance of a channel
// not kept is never read (backtracking reads only alternatives').
void OsmCdgDijkstra::recall_alternatives() {
    std::fill(alt_count_.begin(), alt_count_.end(), 0);
    const SwitchIdx *const head = ch_.heads();
    const ChannelId *const rev = ch_.reverses();
    const std::uint32_t *const candidate = candidate_.data();
    ChannelId *const alt = alt_.data();
    std::uint32_t *const count = alt_count_.data();
    std::uint64_t *const chan_dist = chan_dist_.data();
    for (const SwitchIdx v : order_) {
        const ChannelId first = ch_.begin(v), end = ch_.end(v);
        const std::uint64_t dv = dist_[v];
        const bool sink = v == dest_;
        const std::size_t k = sink ? 0 : next_[v] - first;  // every channel into v turns into it
        for (ChannelId o = first; o < end; ++o) {
            const ChannelId c = rev[o];
            const SwitchIdx x = head[o];
            const bool used = sink ? cdg_->sink_used(c) : cdg_->used_kth(c, k);
            chan_dist[c] = dv + in_weight_[o];
            alt[ch_.begin(x) + count[x]] = c;
            count[x] += (candidate[c] != stamp_) & used;
        }
    }
}

// Inlined into relax_from: the call cost as much as the usual early return.
[[gnu::always_inline]] inline void OsmCdgDijkstra::relax(SwitchIdx x, ChannelId c, ChannelId out,
                                                         std::uint64_t nd, bool used) {
    bool added = false;
    if (!used) {
        const auto r = add_turn(c, out);
        if (r == CompleteCdg::Add::Cycle) {
            ++rejected_;
            return;
        }
        added = r == CompleteCdg::Add::Added;
    }
    if (step_ && next_[x] != kNoChannel && found_after_[x] != step_) {
        // Reached before this backtracking step: settled, and routes may run through it.
        if (!shortcut(x, c)) return;
        dist_[x] = nd;
        next_[x] = c;
        return;
    }
    if (next_[x] != kNoChannel) {
        // A shorter candidate replaces the queued one, and takes back the turn it had added.
        heap_.erase(heap_.position(x));
        const ChannelId old = next_[x];
        const SwitchIdx p = ch_.head(old);
        if (p != dest_ && (noting_ ? wet(old, next_[p]) : fresh_[x] != 0)) cdg_->remove(old, next_[p]);
    } else {
        found_after_[x] = step_;
    }
    next_[x] = c;
    fresh_[x] = added;
    candidate_[c] = stamp_;
    dist_[x] = nd;
    heap_.insert(x, nd);
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
            const std::uint64_t nd = dv + in_weight_[o];
            if (nd < dist_[x]) {
                if (next_[x] != kNoChannel) heap_.erase(heap_.position(x));
                next_[x] = c;
                dist_[x] = nd;
                heap_.insert(x, nd);
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
                const ChannelId c = ch_.reverse(o);
                const bool used = cdg_->sink_used(c);
                if (used != (pass == 0)) continue;
                const std::uint64_t nd = dv + in_weight_[o];
                if (nd >= dist_[x]) continue;  // an alternative: recall_alternatives() finds it
                sink_offered_.push_back(c);
                relax(x, c, kNoChannel, nd, true);
            }
        return;
    }
    // The distance test comes first: it is the cheapest. The first pass notes the channels the
    // second may take: distances only drop in between, and no turn into out becomes used other
    // than the one a relaxation adds for its own channel. A channel that does not improve x but
    // whose turn is used is an alternative of x: before the first backtracking
    // recall_alternatives() finds those afterwards; from then on (OpenSM keeps no more for
    // switches already reached) they are kept as they come.
    const ChannelId out = next_[v];
    const std::size_t k = out - first;  // every channel into v turns into v's k-th channel
    ChannelId *const later = later_.data();
    std::size_t n_later = 0;
    // Raw arrays: relax() stores, so through the vectors every step would reload them. dist_ is
    // read through dist while relax() writes it through dist_: the same array.
    const SwitchIdx *const head = ch_.heads();
    const ChannelId *const rev = ch_.reverses();
    const std::uint64_t *const in_weight = in_weight_.data();
    const std::uint64_t *const dist = dist_.data();
    // The channels that improve their switch, picked without branches (whether one does is a coin
    // toss to the predictor): only those do more than the distance test below. After a
    // backtracking every channel, for the alternatives.
    ChannelId *const offered = offered_.data();
    std::size_t n_offered = 0;
    const bool backtracked = step_ != 0;
    for (ChannelId o = first; o < end; ++o) {
        offered[n_offered] = o;
        n_offered += backtracked || dv + in_weight[o] < dist[head[o]];
    }
    for (std::size_t i = 0; i < n_offered; ++i) {
        const ChannelId o = offered[i];
        const SwitchIdx x = head[o];
        const ChannelId c = rev[o];
        const std::uint64_t nd = dv + in_weight[o];
        if (nd >= dist[x]) {
            if (backtracked && next_[x] == kNoChannel && cdg_->used_kth(c, k)) keep_alternative(x, c, nd);
            continue;
        }
        if (cdg_->used_kth(c, k))
            relax(x, c, out, nd, true);
        else
            later[n_later++] = o;
    }
    for (std::size_t i = 0; i < n_later; ++i) {
        const ChannelId o = later[i];
        const SwitchIdx x = head[o];
        const ChannelId c = rev[o];
        const std::uint64_t nd = dv + in_weight[o];
        if (nd >= dist[x] || cdg_->blocked(c, out)) continue;
        relax(x, c, out, nd, false);
    }
}

bool OsmCdgDijkstra::shortcut(SwitchIdx x, ChannelId c) {
    const ChannelId old = next_[x];
    const SwitchIdx p = ch_.head(old);
    // The switches routed through x would turn into c instead.
    dependents_.clear();
    for (ChannelId o = ch_.begin(x); o < ch_.end(x); ++o) {
        const ChannelId nz = next_[ch_.head(o)];
        if (nz != kNoChannel && ch_.head(nz) == x) dependents_.push_back(nz);
    }
    dependent_added_.assign(dependents_.size(), 0);
    std::size_t i = 0;
    for (; i < dependents_.size(); ++i) {
        const ChannelId nz = dependents_[i];
        if (nz == ch_.reverse(c) || cdg_->blocked(nz, c)) break;
        const auto r = add_turn(nz, c);
        if (r == CompleteCdg::Add::Cycle) break;
        dependent_added_[i] = r == CompleteCdg::Add::Added;
    }
    if (i < dependents_.size()) {
        for (std::size_t j = 0; j < i; ++j)
            if (dependent_added_[j]) cdg_->remove(dependents_[j], c);
        return false;
    }
    // Valid: the turns of the old way through x are taken back where this route added them.
    if (p != dest_ && wet(old, next_[p])) cdg_->remove(old, next_[p]);
    for (const ChannelId nz : dependents_)
        if (wet(nz, old)) cdg_->remove(nz, old);
    return true;
}

SwitchIdx OsmCdgDijkstra::backtrack() {
    for (const SwitchIdx u : node_order_) {
        if (dist_[u] != kFar) continue;
        // Candidates: a reached neighbour a and one of a's alternatives k that every switch
        // routed through a can turn into.
        candidates_.clear();
        for (ChannelId e = ch_.begin(u); e < ch_.end(u); ++e) {
            const SwitchIdx a = ch_.head(e);
            if (dist_[a] == kFar) continue;
            dependents_.clear();
            for (ChannelId o = ch_.begin(a); o < ch_.end(a); ++o) {
                const ChannelId nz = next_[ch_.head(o)];
                if (nz != kNoChannel && ch_.head(nz) == a) dependents_.push_back(nz);
            }
            for (std::uint32_t i = 0; i < alt_count_[a]; ++i) {
                const ChannelId k = alt_[ch_.begin(a) + i];
                const SwitchIdx y = ch_.head(k);
                bool fits = true;
                for (const ChannelId g : dependents_)
                    if (ch_.tail(g) == y || !cdg_->used(g, k)) {
                        fits = false;
                        break;
                    }
                if (fits) candidates_.emplace_back(e, k);
            }
        }
        if (candidates_.empty()) continue;
        std::stable_sort(candidates_.begin(), candidates_.end(), [&](const auto &l, const auto &r) {
            return chan_dist_[l.second] < chan_dist_[r.second];
        });
        SwitchIdx found = kNoSwitch;
        for (const auto &[e, k] : candidates_) {
            const SwitchIdx a = ch_.head(e), y = ch_.head(k);
            // OpenSM would move the destination switch itself here, cutting it off its own LIDs.
            if (a == dest_ || y == dest_ || cdg_->blocked(e, k)) continue;
            const ChannelId ny = next_[y];
            if (ch_.head(ny) == a || cdg_->blocked(k, ny)) continue;
            const auto r1 = add_turn(k, ny);
            if (r1 == CompleteCdg::Add::Cycle) continue;
            if (add_turn(e, k) == CompleteCdg::Add::Cycle) {
                if (r1 == CompleteCdg::Add::Added) cdg_->remove(k, ny);
                continue;
            }
            const std::uint64_t nd = chan_dist_[k] + in_weight_[ch_.reverse(e)];
            if (found == kNoSwitch) {
                chan_dist_[e] = nd;
                dist_[u] = nd;
                next_[u] = e;
                found_after_[u] = -1;  // as OpenSM: later shorter ways into u are shortcuts
                dist_[a] = chan_dist_[k];
                next_[a] = k;
                found = u;
            } else {
                const ChannelId *const first = alt_.data() + ch_.begin(u);
                if (std::find(first, first + alt_count_[u], e) == first + alt_count_[u])
                    keep_alternative(u, e, nd);
                else
                    chan_dist_[e] = nd;
            }
        }
        if (found != kNoSwitch) return found;
    }
    return kNoSwitch;
}

void OsmCdgDijkstra::rebuild_order() {
    const std::size_t n = ch_.switches();
    constexpr std::uint32_t kUnknown = ~std::uint32_t{0};
    depth_.assign(n, kUnknown);
    depth_[dest_] = 0;
    std::uint32_t deepest = 0;
    for (const SwitchIdx s : order_) {
        SwitchIdx x = s;
        path_.clear();
        while (depth_[x] == kUnknown) path_.push_back(x), x = ch_.head(next_[x]);
        for (auto it = path_.rbegin(); it != path_.rend(); ++it) depth_[*it] = depth_[x] + 1, x = *it;
        deepest = std::max(deepest, depth_[s]);
    }
    // Children after their parents, as add_load needs: a stable counting sort by depth.
    std::vector<std::uint32_t> start(std::size_t{deepest} + 2, 0);
    for (const SwitchIdx s : order_) ++start[depth_[s] + 1];
    for (std::size_t k = 0; k + 1 < start.size(); ++k) start[k + 1] += start[k];
    path_.assign(order_.size(), 0);
    for (const SwitchIdx s : order_) {
        path_[start[depth_[s]]++] = s;
        hops_[s] = static_cast<std::uint8_t>(std::min<unsigned>(depth_[s], kInfHops - 1u));
    }
    order_.swap(path_);
}

bool OsmCdgDijkstra::route(SwitchIdx d, CompleteCdg *cdg, const EscapeTree *escape) {
    cdg_ = cdg;
    dest_ = d;
    if (++stamp_ == 0) {
        std::fill(done_.begin(), done_.end(), 0);
        std::fill(candidate_.begin(), candidate_.end(), 0);
        stamp_ = 1;
    }
    std::fill(next_.begin(), next_.end(), kNoChannel);
    std::fill(hops_.begin(), hops_.end(), kInfHops);
    std::fill(dist_.begin(), dist_.end(), kFar);
    heap_.clear();
    sink_offered_.clear();
    step_ = 0;
    noting_ = false;
    order_.assign(1, d);
    done_[d] = stamp_;
    dist_[d] = 0;
    hops_[d] = 0;
    const std::size_t reachable = reachable_[d];

    relax_from(d);
    for (;;) {
        SwitchIdx x;
        if (!heap_.empty()) {
            x = heap_.pop();
            hops_[x] =
                static_cast<std::uint8_t>(std::min<unsigned>(hops_[ch_.head(next_[x])] + 1u, kInfHops - 1u));
        } else {
            if (order_.size() == reachable || !cdg || !escape) break;
            if (!noting_) start_noting(), recall_alternatives();
            x = backtrack();
            if (x == kNoSwitch) {
                // Impasse: take this destination's dependencies back and use the escape paths.
                for (const auto &[c1, c2] : added_) cdg->remove(c1, c2);
                route_along_escape(d, *escape);
                // The channels into d that OpenSM's search coloured stay used where the escape
                // routes take them.
                for (const ChannelId c : sink_offered_)
                    if (next_[ch_.tail(c)] == c) cdg->mark_sink_used(c);
                return false;
            }
            ++step_;
        }
        done_[x] = stamp_;
        order_.push_back(x);
        relax_from(x);
    }
    if (noting_) {
        // Turns added on the way that the final routes do not take are taken back.
        for (const auto &[c1, c2] : added_) {
            const SwitchIdx x = ch_.tail(c1);
            if (next_[x] != c1 || next_[ch_.head(c1)] != c2) cdg->remove(c1, c2);
        }
        rebuild_order();
    }
    if (cdg)
        for (std::size_t i = 1; i < order_.size(); ++i)
            if (ch_.head(next_[order_[i]]) == d) cdg->mark_sink_used(next_[order_[i]]);
    return true;
}

}  // namespace weft::routing::engines::nue
