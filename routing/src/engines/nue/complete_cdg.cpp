#include "engines/nue/complete_cdg.hpp"

#include <algorithm>

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
    used_.assign(ch.size() * ch.max_degree(), 0);
    seen_.assign(ch.size(), 0);
    ord_.resize(ch.size());
    at_.resize(ch.size());
    reset(std::vector<std::uint32_t>(ch.switches(), 0));
}

void CompleteCdg::reset(const std::vector<std::uint32_t> &level) {
    std::fill(used_.begin(), used_.end(), 0);
    auto key = [&](ChannelId c) -> std::int64_t {
        const std::int64_t from = level[ch_.tail(c)], to = level[ch_.head(c)];
        if (to < from) return -(std::int64_t{1} << 40) - from;  // up: deepest first
        if (to == from) return 0;
        return (std::int64_t{1} << 40) + from;  // down: shallowest first
    };
    for (ChannelId c = 0; c < ch_.size(); ++c) at_[c] = c;
    std::stable_sort(at_.begin(), at_.end(), [&](ChannelId a, ChannelId b) { return key(a) < key(b); });
    for (std::uint32_t i = 0; i < at_.size(); ++i) ord_[at_[i]] = i;
}

std::uint64_t CompleteCdg::used_count() const {
    std::uint64_t n = 0;
    for (auto u : used_) n += u;
    return n;
}

CompleteCdg::Add CompleteCdg::try_add(ChannelId c1, ChannelId c2) {
    std::uint8_t &u = used_[slot(c1, c2)];
    if (u) return Add::Present;
    const std::uint32_t lo = ord_[c2], hi = ord_[c1];
    if (hi < lo) {
        u = 1;
        return Add::Added;
    }
    if (++stamp_ == 0) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 1;
    // Forward from c2 through channels ordered before c1: reaching c1 means a cycle.
    fwd_.clear();
    stack_.assign(1, c2);
    seen_[c2] = stamp_;
    while (!stack_.empty()) {
        const ChannelId x = stack_.back();
        stack_.pop_back();
        fwd_.push_back(x);
        const SwitchIdx h = ch_.head(x);
        const std::size_t base = std::size_t{x} * ch_.max_degree();
        for (ChannelId y = ch_.begin(h); y < ch_.end(h); ++y) {
            if (!used_[base + (y - ch_.begin(h))]) continue;
            if (y == c1) return Add::Cycle;
            if (seen_[y] != stamp_ && ord_[y] < hi) seen_[y] = stamp_, stack_.push_back(y);
        }
    }
    // Backward from c1 through channels ordered after c2.
    bwd_.clear();
    stack_.assign(1, c1);
    seen_[c1] = stamp_;
    while (!stack_.empty()) {
        const ChannelId x = stack_.back();
        stack_.pop_back();
        bwd_.push_back(x);
        const SwitchIdx t = ch_.tail(x);
        for (ChannelId o = ch_.begin(t); o < ch_.end(t); ++o) {
            const ChannelId y = ch_.reverse(o);  // a channel into t
            if (!used_[slot(y, x)]) continue;
            if (seen_[y] != stamp_ && ord_[y] > lo) seen_[y] = stamp_, stack_.push_back(y);
        }
    }
    // The backward set moves in front of the forward set, in the positions both held.
    auto by_ord = [&](ChannelId a, ChannelId b) { return ord_[a] < ord_[b]; };
    std::sort(fwd_.begin(), fwd_.end(), by_ord);
    std::sort(bwd_.begin(), bwd_.end(), by_ord);
    pool_.clear();
    for (ChannelId x : bwd_) pool_.push_back(ord_[x]);
    for (ChannelId x : fwd_) pool_.push_back(ord_[x]);
    std::sort(pool_.begin(), pool_.end());
    std::size_t i = 0;
    for (ChannelId x : bwd_) ord_[x] = pool_[i], at_[pool_[i]] = x, ++i;
    for (ChannelId x : fwd_) ord_[x] = pool_[i], at_[pool_[i]] = x, ++i;
    u = 1;
    return Add::Added;
}

bool CompleteCdg::acyclic() const {
    for (ChannelId c = 0; c < ch_.size(); ++c) {
        const SwitchIdx h = ch_.head(c);
        for (ChannelId y = ch_.begin(h); y < ch_.end(h); ++y)
            if (used_[std::size_t{c} * ch_.max_degree() + (y - ch_.begin(h))] && ord_[c] >= ord_[y])
                return false;
    }
    return true;
}

}  // namespace weft::routing::engines::nue
