#include "engines/lash_layers.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace weft::routing::engines {

LayeredCdg::LayeredCdg(const SwitchGraph &g) {
    const std::size_t n = g.size();
    ch_begin_.assign(n + 1, 0);
    for (SwitchIdx s = 0; s < n; ++s) {
        ch_begin_[s + 1] = ch_begin_[s] + static_cast<std::uint32_t>(g.links(s).size());
        max_deg_ = std::max(max_deg_, g.links(s).size());
    }
    words_ = std::max<std::size_t>(1, (max_deg_ + 63) / 64);
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
    stack_.resize(channels), pos_.resize(channels), fwd_.resize(channels), bwd_.resize(channels);
}

void LayeredCdg::open_layer() {
    Layer l;
    l.count.assign(head_.size() * max_deg_, 0);
    l.closes.assign(head_.size() * max_deg_, 0);
    l.out.assign(head_.size() * words_, 0);
    l.in.assign(head_.size() * words_, 0);
    l.ord.resize(head_.size());
    std::iota(l.ord.begin(), l.ord.end(), 0u);
    l.at = l.ord;
    layers_.push_back(std::move(l));
}

void LayeredCdg::set_bits(Layer &l, std::uint32_t c1, std::uint32_t c2, bool on) {
    const std::size_t k1 = c2 - ch_begin_[head_[c1]], k2 = reverse_[c1] - ch_begin_[tail_[c2]];
    std::uint64_t &o = l.out[std::size_t{c1} * words_ + k1 / 64],
                  &i = l.in[std::size_t{c2} * words_ + k2 / 64];
    const std::uint64_t bo = std::uint64_t{1} << (k1 % 64), bi = std::uint64_t{1} << (k2 % 64);
    if (on)
        o |= bo, i |= bi;
    else
        o &= ~bo, i &= ~bi;
}

bool LayeredCdg::add_dependency(Layer &l, std::uint32_t x, std::uint32_t y) {
    if (l.ord[x] < l.ord[y]) return true;
    return words_ == 1 ? reorder<1>(l, x, y) : reorder<0>(l, x, y);
}

// W: mask words per channel when known at compile time (1 up to 64 links per switch), else 0.
template <std::size_t W>
bool LayeredCdg::reorder(Layer &l, std::uint32_t x, std::uint32_t y) {
    const std::size_t words = W ? W : words_;
    auto &ord = l.ord;
    const std::uint32_t lb = ord[y], ub = ord[x];
    // Marks: ef on what y reaches, ef + 1 on what reaches x, ef + 2 on x's direct predecessors.
    epoch_ += 3;
    if (epoch_ < 3) std::fill(seen_.begin(), seen_.end(), 0), epoch_ = 3;
    const std::uint32_t ef = epoch_, eb = epoch_ + 1, ep = epoch_ + 2;
    // Forward from y through channels ordered before x: reaching a predecessor of x closes a
    // cycle, seen when it is found rather than when the depth-first search gets to expand it.
    {
        const std::uint32_t first = ch_begin_[tail_[x]];
        for (std::size_t j = 0; j < words; ++j)
            for (std::uint64_t m = l.in [std::size_t{x} * words + j]; m; m &= m - 1)
                seen_[reverse_[first + 64 * j + std::countr_zero(m)]] = ep;
    }
    if (seen_[y] == ep) return false;
    // Every channel enters a stack and a set at most once per search: fixed-size scratch.
    std::uint32_t *const stack = stack_.data();
    std::uint64_t *const fwd = fwd_.data(), *const bwd = bwd_.data();
    std::size_t top = 0, nf = 0, nb = 0;
    stack[top++] = y, seen_[y] = ef;
    while (top) {
        const std::uint32_t w = stack[--top];
        fwd[nf++] = std::uint64_t{ord[w]} << 32 | w;
        const std::uint32_t first = ch_begin_[head_[w]];
        for (std::size_t j = 0; j < words; ++j)
            for (std::uint64_t m = l.out[std::size_t{w} * words + j]; m; m &= m - 1) {
                const std::uint32_t z = first + static_cast<std::uint32_t>(64 * j + std::countr_zero(m));
                if (ord[z] < ub && seen_[z] != ef) {
                    if (seen_[z] == ep) return false;
                    seen_[z] = ef, stack[top++] = z;
                }
            }
    }
    // Backward from x through channels ordered after y (none of them is reached from y).
    stack[top++] = x, seen_[x] = eb;
    while (top) {
        const std::uint32_t w = stack[--top];
        bwd[nb++] = std::uint64_t{ord[w]} << 32 | w;
        const std::uint32_t first = ch_begin_[tail_[w]];
        for (std::size_t j = 0; j < words; ++j)
            for (std::uint64_t m = l.in [std::size_t{w} * words + j]; m; m &= m - 1) {
                const std::uint32_t z = reverse_[first + 64 * j + std::countr_zero(m)];  // enters w's tail
                if (ord[z] > lb && seen_[z] != eb) seen_[z] = eb, stack[top++] = z;
            }
    }
    // Both sets in position order, and the positions they held: a walk over the positions in
    // between when that is short, else sorting the sets.
    std::uint32_t *const pos = pos_.data();
    std::size_t np = 0;
    if (ub - lb < 8 * (nf + nb)) {
        nf = nb = 0;
        for (std::uint32_t p = lb; p <= ub; ++p) {
            const std::uint32_t c = l.at[p];
            if (seen_[c] == ef)
                fwd[nf++] = std::uint64_t{p} << 32 | c, pos[np++] = p;
            else if (seen_[c] == eb)
                bwd[nb++] = std::uint64_t{p} << 32 | c, pos[np++] = p;
        }
    } else {
        std::sort(fwd, fwd + nf);
        std::sort(bwd, bwd + nb);
        for (std::size_t f = 0, b = 0; f < nf || b < nb;)
            pos[np++] = static_cast<std::uint32_t>(
                (b == nb || (f < nf && fwd[f] < bwd[b]) ? fwd[f++] : bwd[b++]) >> 32);
    }
    // Everything that reaches x now precedes everything y reaches, in the positions they held.
    np = 0;
    for (const std::uint64_t *e : {bwd, fwd})
        for (std::size_t k = 0, m = e == bwd ? nb : nf; k < m; ++k) {
            const auto c = static_cast<std::uint32_t>(e[k]);
            ord[c] = pos[np], l.at[pos[np++]] = c;
        }
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
            set_bits(l, p[i], p[i + 1], true);
            clean = false;
        }
        ++n;
        done = i + 1;
    }
    return true;
}

void LayeredCdg::drop_path(Layer &l, std::span<const std::uint32_t> p, std::size_t upto) {
    for (std::size_t i = 0; i < upto; ++i)
        if (--l.count[slot(p[i], p[i + 1])] == 0) set_bits(l, p[i], p[i + 1], false);
}

bool LayeredCdg::known_cycle(const Layer &l, std::span<const std::uint32_t> p) const {
    for (std::size_t i = 0; i + 1 < p.size(); ++i)
        if (const std::size_t k = slot(p[i], p[i + 1]); l.closes[k] && !l.count[k]) return true;
    return false;
}

bool LayeredCdg::try_add(unsigned layer, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
    Layer &l = layers_[layer];
    // A remembered cycle anywhere on either route refuses before any search.
    if (!l.closed.empty() && (known_cycle(l, a) || known_cycle(l, b))) return false;
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
