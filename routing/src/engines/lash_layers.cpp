#include "engines/lash_layers.hpp"

#include <algorithm>
#include <numeric>

namespace weft::routing::engines {

LayeredCdg::LayeredCdg(const SwitchGraph &g) {
    const std::size_t n = g.size();
    ch_begin_.assign(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) {
        ch_begin_[s + 1] = ch_begin_[s] + static_cast<std::uint32_t>(g.links(s).size());
        max_deg_ = std::max(max_deg_, g.links(s).size());
    }
    const std::size_t channels = ch_begin_[n];
    head_.resize(channels), tail_.resize(channels), reverse_.resize(channels);
    for (SwitchIdx s = 0; s < n; ++s) {
        const auto links = g.links(s);
        for (std::size_t k = 0; k < links.size(); ++k) {
            const std::uint32_t c = ch_begin_[s] + static_cast<std::uint32_t>(k);
            head_[c] = links[k].peer, tail_[c] = s;
            const auto back = g.links(links[k].peer);
            for (std::size_t j = 0; j < back.size(); ++j)
                if (back[j].port == links[k].peer_port)
                    reverse_[c] = ch_begin_[links[k].peer] + static_cast<std::uint32_t>(j);
        }
    }
    seen_.assign(channels, 0);
}

void LayeredCdg::open_layer() {
    Layer l;
    l.count.assign(head_.size() * max_deg_, 0);
    l.closes.assign(head_.size() * max_deg_, 0);
    l.ord.resize(head_.size());
    std::iota(l.ord.begin(), l.ord.end(), 0u);
    layers_.push_back(std::move(l));
}

bool LayeredCdg::add_dependency(Layer &l, std::uint32_t x, std::uint32_t y) {
    auto &ord = l.ord;
    if (ord[x] < ord[y]) return true;
    const std::uint32_t lb = ord[y], ub = ord[x];
    if (++epoch_ == 0) std::fill(seen_.begin(), seen_.end(), 0), epoch_ = 1;
    // Forward from y through channels ordered before x: reaching x closes a cycle.
    fwd_.clear(), stack_.assign(1, y), seen_[y] = epoch_;
    while (!stack_.empty()) {
        const std::uint32_t w = stack_.back();
        stack_.pop_back();
        fwd_.push_back(w);
        const SwitchIdx h = head_[w];
        const std::size_t base = std::size_t{w} * max_deg_;
        for (std::uint32_t z = ch_begin_[h], k = 0; z < ch_begin_[h + 1]; ++z, ++k) {
            if (!l.count[base + k]) continue;
            if (z == x) return false;
            if (ord[z] < ub && seen_[z] != epoch_) seen_[z] = epoch_, stack_.push_back(z);
        }
    }
    // Backward from x through channels ordered after y.
    bwd_.clear(), stack_.assign(1, x), seen_[x] = epoch_;
    while (!stack_.empty()) {
        const std::uint32_t w = stack_.back();
        stack_.pop_back();
        bwd_.push_back(w);
        const SwitchIdx t = tail_[w];
        for (std::uint32_t out = ch_begin_[t]; out < ch_begin_[t + 1]; ++out) {
            const std::uint32_t z = reverse_[out];  // a channel entering t
            if (!l.count[slot(z, w)]) continue;
            if (ord[z] > lb && seen_[z] != epoch_) seen_[z] = epoch_, stack_.push_back(z);
        }
    }
    // Everything that reaches x now precedes everything y reaches, in the positions they held.
    auto by_ord = [&](std::uint32_t a, std::uint32_t b) { return ord[a] < ord[b]; };
    std::sort(fwd_.begin(), fwd_.end(), by_ord);
    std::sort(bwd_.begin(), bwd_.end(), by_ord);
    pos_.clear();
    for (std::uint32_t c : bwd_) pos_.push_back(ord[c]);
    for (std::uint32_t c : fwd_) pos_.push_back(ord[c]);
    std::sort(pos_.begin(), pos_.end());
    std::size_t i = 0;
    for (std::uint32_t c : bwd_) ord[c] = pos_[i++];
    for (std::uint32_t c : fwd_) ord[c] = pos_[i++];
    return true;
}

// `clean`: no dependency of this try_add is in the layer yet, so a cycle found now runs through
// admitted routes only and is remembered.
bool LayeredCdg::add_path(Layer &l, std::span<const std::uint32_t> p, std::size_t &done, bool &clean) {
    done = 0;
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
        const std::size_t k = slot(p[i], p[i + 1]);
        std::uint32_t &n = l.count[k];
        if (n == 0) {
            if (l.closes[k]) return false;
            if (!add_dependency(l, p[i], p[i + 1])) {
                if (clean) l.closes[k] = 1, l.closed.push_back(k);
                return false;
            }
            clean = false;
        }
        ++n;
        done = i + 1;
    }
    return true;
}

void LayeredCdg::drop_path(Layer &l, std::span<const std::uint32_t> p, std::size_t upto) {
    for (std::size_t i = 0; i < upto; ++i) --l.count[slot(p[i], p[i + 1])];
}

bool LayeredCdg::try_add(unsigned layer, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
    Layer &l = layers_[layer];
    std::size_t da = 0, db = 0;
    bool clean = true;
    if (!add_path(l, a, da, clean)) {
        drop_path(l, a, da);
        return false;
    }
    if (!add_path(l, b, db, clean)) {
        drop_path(l, b, db);
        drop_path(l, a, da);
        return false;
    }
    return true;
}

void LayeredCdg::remove(unsigned layer, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
    Layer &l = layers_[layer];
    for (std::size_t k : l.closed) l.closes[k] = 0;
    l.closed.clear();
    drop_path(l, a, a.empty() ? 0 : a.size() - 1);
    drop_path(l, b, b.empty() ? 0 : b.size() - 1);
}

}  // namespace weft::routing::engines
