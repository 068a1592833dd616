#include "engines/nue/complete_cdg.hpp"

#include <algorithm>
#include <bit>

#include "engines/sssp_balancing.hpp"

namespace weft::routing::engines::nue {

Channels::Channels(const Fabric &f, const SwitchGraph &g) {
    const std::size_t n = g.size();
    off_.assign(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) {
        off_[s + 1] = off_[s] + static_cast<std::uint32_t>(g.links(s).size());
        max_deg_ = std::max(max_deg_, g.links(s).size());
    }
    const LinkIndex idx(f, g);  // numbers links in CSR order, so it gives the reverse channel
    head_.resize(off_[n]);
    tail_.resize(off_[n]);
    rev_.resize(off_[n]);
    port_.resize(off_[n]);
    for (SwitchIdx s = 0; s < n; ++s)
        for (std::uint32_t i = 0; i < g.links(s).size(); ++i) {
            const SwitchLink &l = g.links(s)[i];
            const ChannelId c = off_[s] + i;
            head_[c] = l.peer;
            tail_[c] = s;
            port_[c] = l.port;
            rev_[c] = static_cast<ChannelId>(idx.at(l.peer, l.peer_port));
        }
}

CompleteCdg::CompleteCdg(const Channels &ch) : ch_(ch) {
    words_ = std::max<std::size_t>(1, (ch.max_degree() + 63) / 64);
    out_.assign(ch.size() * words_, 0);
    in_.assign(ch.size() * words_, 0);
    blocked_.assign(ch.size() * words_, 0);
    sink_used_.assign(ch.size(), 0);
    seen_.assign(ch.size(), 0);
    stack_.resize(ch.size());
    ord_.resize(ch.size());
    at_.resize(ch.size());
    reset(std::vector<std::uint32_t>(ch.switches(), 0));
}

void CompleteCdg::reset(const std::vector<std::uint32_t> &level) {
    std::fill(out_.begin(), out_.end(), 0);
    std::fill(in_.begin(), in_.end(), 0);
    std::fill(blocked_.begin(), blocked_.end(), 0);
    std::fill(sink_used_.begin(), sink_used_.end(), 0);
    // Counting sort by (class, level), channel id within a bucket: up channels (deepest tail
    // first), then channels within one level, then down channels (shallowest tail first).
    std::uint32_t deepest = 0;
    for (std::uint32_t l : level) deepest = std::max(deepest, l);
    const std::size_t buckets = 2 * std::size_t{deepest} + 3;
    auto bucket = [&](ChannelId c) -> std::size_t {
        const std::uint32_t from = level[ch_.tail(c)], to = level[ch_.head(c)];
        if (to < from) return deepest - from;
        if (to == from) return std::size_t{deepest} + 1;
        return std::size_t{deepest} + 2 + from;
    };
    count_.assign(buckets + 1, 0);
    for (ChannelId c = 0; c < ch_.size(); ++c) ++count_[bucket(c) + 1];
    for (std::size_t b = 0; b < buckets; ++b) count_[b + 1] += count_[b];
    for (ChannelId c = 0; c < ch_.size(); ++c) at_[count_[bucket(c)]++] = c;
    for (std::uint32_t i = 0; i < at_.size(); ++i) ord_[at_[i]] = i;
}

void CompleteCdg::set(ChannelId c1, ChannelId c2, bool on) {
    const std::size_t k = c2 - ch_.begin(ch_.head(c1));
    const std::size_t j = ch_.reverse(c1) - ch_.begin(ch_.tail(c2));
    std::uint64_t &o = out_[std::size_t{c1} * words_ + k / 64], &i = in_[std::size_t{c2} * words_ + j / 64];
    if (on) {
        o |= std::uint64_t{1} << (k % 64), i |= std::uint64_t{1} << (j % 64);
    } else {
        o &= ~(std::uint64_t{1} << (k % 64)), i &= ~(std::uint64_t{1} << (j % 64));
    }
}

CompleteCdg::Add CompleteCdg::try_add(ChannelId c1, ChannelId c2) {
    if (used(c1, c2)) return Add::Present;
    const std::uint32_t lo = ord_[c2], hi = ord_[c1];
    if (hi < lo) {
        set(c1, c2, true);
        return Add::Added;
    }
    const std::size_t k = c2 - ch_.begin(ch_.head(c1));
    std::uint64_t &refused = blocked_[std::size_t{c1} * words_ + k / 64];
    const std::uint64_t bit = std::uint64_t{1} << (k % 64);
    if (refused & bit) return Add::Cycle;
    if (stamp_ >= ~std::uint32_t{0} - 2) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 0;
    stamp_ += 2;  // stamp_ marks the forward set, stamp_ - 1 the backward one
    // Forward from c2 through channels ordered before c1: reaching c1 means a cycle.
    // Each channel enters a search's stack at most once, so the stack is a plain array.
    const std::size_t words = words_;
    ChannelId *const stack = stack_.data();
    std::size_t top = 0;
    fwd_.clear();
    stack[top++] = c2;
    seen_[c2] = stamp_;
    // Every channel x into c2's tail that c2 reaches closes a cycle with the turn x -> c2 as c1
    // would: remember those too, the search may ask about them next (Nue tries the channels
    // into one switch in turn).
    const SwitchIdx turn_at = ch_.head(c1);
    while (top) {
        const ChannelId x = stack[--top];
        fwd_.push_back(x);
        const SwitchIdx at = ch_.head(x);
        if (at == turn_at) blocked_[std::size_t{x} * words + k / 64] |= bit;
        const ChannelId first = ch_.begin(at);
        for (std::size_t w = 0; w < words; ++w)
            for (std::uint64_t bits = out_[std::size_t{x} * words + w]; bits; bits &= bits - 1) {
                const ChannelId y = first + static_cast<ChannelId>(w * 64 + std::countr_zero(bits));
                if (y == c1) {
                    refused |= bit;
                    return Add::Cycle;
                }
                if (seen_[y] != stamp_ && ord_[y] < hi) seen_[y] = stamp_, stack[top++] = y;
            }
    }
    // Backward from c1 through channels ordered after c2. It cannot meet the forward set: a
    // channel in both would lie on a path from c2 to c1, which the forward search would have found.
    const std::uint32_t back = stamp_ - 1;
    bwd_.clear();
    stack[top++] = c1;
    seen_[c1] = back;
    while (top) {
        const ChannelId x = stack[--top];
        bwd_.push_back(x);
        const ChannelId first = ch_.begin(ch_.tail(x));
        for (std::size_t w = 0; w < words; ++w)
            for (std::uint64_t bits = in_[std::size_t{x} * words + w]; bits; bits &= bits - 1) {
                const ChannelId y =
                    ch_.reverse(first + static_cast<ChannelId>(w * 64 + std::countr_zero(bits)));
                if (seen_[y] != back && ord_[y] > lo) seen_[y] = back, stack[top++] = y;
            }
    }
    // The backward set moves in front of the forward set, in the positions both held.
    pool_.clear();
    const std::size_t moved = fwd_.size() + bwd_.size();
    if (std::size_t{hi - lo} < moved * std::bit_width(moved)) {
        // The two sets fill much of lo..hi: one pass over those positions lists both in order,
        // and their positions sorted, for less than sorting them.
        fwd_.clear();
        bwd_.clear();
        for (std::uint32_t p = lo; p <= hi; ++p) {
            const ChannelId x = at_[p];
            if (seen_[x] == stamp_)
                fwd_.push_back(x), pool_.push_back(p);
            else if (seen_[x] == back)
                bwd_.push_back(x), pool_.push_back(p);
        }
    } else {
        auto by_ord = [&](ChannelId a, ChannelId b) { return ord_[a] < ord_[b]; };
        std::sort(fwd_.begin(), fwd_.end(), by_ord);
        std::sort(bwd_.begin(), bwd_.end(), by_ord);
        for (ChannelId x : bwd_) pool_.push_back(ord_[x]);
        for (ChannelId x : fwd_) pool_.push_back(ord_[x]);
        std::sort(pool_.begin(), pool_.end());
    }
    std::size_t i = 0;
    for (ChannelId x : bwd_) ord_[x] = pool_[i], at_[pool_[i]] = x, ++i;
    for (ChannelId x : fwd_) ord_[x] = pool_[i], at_[pool_[i]] = x, ++i;
    set(c1, c2, true);
    return Add::Added;
}

}  // namespace weft::routing::engines::nue
