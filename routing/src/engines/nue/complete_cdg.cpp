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
    after_.resize(off_[n]);
    before_.resize(off_[n]);
    port_.resize(off_[n]);
    for (SwitchIdx s = 0; s < n; ++s)
        for (std::uint32_t i = 0; i < g.links(s).size(); ++i) {
            const SwitchLink &l = g.links(s)[i];
            const ChannelId c = off_[s] + i;
            head_[c] = l.peer;
            tail_[c] = s;
            port_[c] = l.port;
            rev_[c] = static_cast<ChannelId>(idx.at(l.peer, l.peer_port));
            after_[c] = off_[l.peer];
            before_[c] = off_[s];
        }
}

CompleteCdg::CompleteCdg(const Channels &ch)
    : CompleteCdg(ch, std::vector<std::uint32_t>(ch.switches(), 0)) {}

// The rows start out empty, so only the order needs building (a run builds one CDG, then resets
// it per layer).
CompleteCdg::CompleteCdg(const Channels &ch, const std::vector<std::uint32_t> &level) : ch_(ch) {
    row_bits_ = ch.max_degree() <= 8 ? 8 : 64 * ((ch.max_degree() + 63) / 64);
    const std::size_t words = (ch.size() * row_bits_ + 63) / 64;
    out_.assign(words, 0);
    in_.assign(words, 0);
    blocked_.assign(words, 0);
    sink_used_.assign(ch.size(), 0);
    ord_.resize(ch.size());
    at_.resize(ch.size());
    order_by(level);
}

void CompleteCdg::reset(const std::vector<std::uint32_t> &level) {
    std::fill(out_.begin(), out_.end(), 0);
    std::fill(in_.begin(), in_.end(), 0);
    std::fill(blocked_.begin(), blocked_.end(), 0);
    noted_.clear();
    std::fill(sink_used_.begin(), sink_used_.end(), 0);
    order_by(level);
}

void CompleteCdg::order_by(const std::vector<std::uint32_t> &level) {
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
    // ord_ holds each channel's bucket until the positions replace it.
    for (ChannelId c = 0; c < ch_.size(); ++c) {
        ord_[c] = static_cast<std::uint32_t>(bucket(c));
        ++count_[ord_[c] + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b) count_[b + 1] += count_[b];
    for (ChannelId c = 0; c < ch_.size(); ++c) at_[count_[ord_[c]]++] = c;
    for (std::uint32_t i = 0; i < at_.size(); ++i) ord_[at_[i]] = i;
}

template <std::size_t kRowBits>
CompleteCdg::Add CompleteCdg::add_against_order(ChannelId c1, ChannelId c2) {
    const std::size_t row_bits = kRowBits ? kRowBits : row_bits_, words = kRowBits == 8 ? 1 : row_bits / 64;
    // Word w of row x (a byte row is the whole row).
    auto row_word = [&](const std::vector<std::uint64_t> &rows, ChannelId x, std::size_t w) {
        if constexpr (kRowBits == 8) {
            // On little-endian machines row x is byte x (char may read any object).
            if constexpr (std::endian::native == std::endian::little)
                return std::uint64_t{reinterpret_cast<const unsigned char *>(rows.data())[x]};
            return (rows[x / 8] >> (x % 8 * 8)) & 0xFF;
        }
        return rows[std::size_t{x} * (row_bits / 64) + w];
    };
    const std::uint32_t lo = ord_[c2], hi = ord_[c1];
    const std::size_t k = c2 - ch_.after(c1);
    const std::size_t turn_bit = std::size_t{c1} * row_bits + k;
    if ((blocked_[turn_bit / 64] >> (turn_bit % 64)) & 1) return Add::Cycle;
    CdgScratch &sc = scratch_ ? *scratch_ : own_;
    if (sc.seen_.size() < ch_.size()) {
        sc.seen_.assign(ch_.size(), 0);
        sc.stamp_ = 0;
        sc.stack_.resize(ch_.size());
        sc.back_stack_.resize(ch_.size());
        sc.fwd_.resize(ch_.size());
        sc.bwd_.resize(ch_.size());
        sc.pool_.resize(ch_.size());
    }
    if (sc.stamp_ >= ~std::uint32_t{0} - 2) std::fill(sc.seen_.begin(), sc.seen_.end(), 0), sc.stamp_ = 0;
    sc.stamp_ += 2;  // it marks the forward set, one less the backward one
    const std::uint32_t fwd_mark = sc.stamp_, back = sc.stamp_ - 1;
    std::uint32_t *const seen = sc.seen_.data();
    const std::uint32_t *const ord = ord_.data();
    // Forward from c2 through channels ordered before c1, backward from c1 through channels
    // ordered after c2: the turn closes a cycle exactly when the two meet (a path from c2 to c1
    // runs through channels ordered in between, and either search that completes without
    // meeting the other has found them all). Each channel enters a search's stack at most once,
    // so the stacks are plain arrays.
    ChannelId *const fstack = sc.stack_.data(), *const bstack = sc.back_stack_.data();
    ChannelId *const fwd = sc.fwd_.data(), *const bwd = sc.bwd_.data();
    std::size_t ftop = 0, btop = 0, nf = 0, nb = 0;
    // Pushes y and marks it when take says so, without a branch: whether a channel joins is a coin
    // toss to the predictor (the mask keeps the compiler from making one).
    auto join = [&](ChannelId *stack, std::size_t &top, ChannelId y, std::uint32_t mark, bool take) {
        const std::uint32_t all = 0u - static_cast<std::uint32_t>(take);
        seen[y] ^= (seen[y] ^ mark) & all;
        stack[top] = y;
        top += take;
    };
    fstack[ftop++] = c2;
    seen[c2] = fwd_mark;
    bstack[btop++] = c1;
    seen[c1] = back;
    // Every channel x into c2's tail that c2 reaches closes a cycle with the turn x -> c2 as c1
    // would: remember those the forward search passes, the search may ask about them next (Nue
    // tries the channels into one switch in turn). Where the two searches meet early, those not
    // passed yet are left out (see search_forward_first).
    // identifies head(c1): channels out of it start here (kNoChannel: remember none)
    const ChannelId turn_from = tried_only_ ? kNoChannel : ch_.after(c1);
    // One channel of each search; true where it meets the other.
    auto forward = [&] {
        const ChannelId x = fstack[--ftop];
        fwd[nf++] = x;
        const ChannelId first = ch_.after(x);
        if (first == turn_from) note(std::size_t{x} * row_bits + k);
        for (std::size_t w = 0; w < words; ++w)
            for (std::uint64_t bits = row_word(out_, x, w); bits; bits &= bits - 1) {
                const ChannelId y = first + static_cast<ChannelId>(w * 64 + std::countr_zero(bits));
                if (seen[y] == back) return true;
                join(fstack, ftop, y, fwd_mark, (seen[y] != fwd_mark) & (ord[y] < hi));
            }
        return false;
    };
    auto backward = [&] {
        const ChannelId x = bstack[--btop];
        bwd[nb++] = x;
        const ChannelId first = ch_.before(x);
        for (std::size_t w = 0; w < words; ++w)
            for (std::uint64_t bits = row_word(in_, x, w); bits; bits &= bits - 1) {
                const ChannelId y =
                    ch_.reverse(first + static_cast<ChannelId>(w * 64 + std::countr_zero(bits)));
                if (seen[y] == fwd_mark) return true;
                join(bstack, btop, y, back, (seen[y] != back) & (ord[y] > lo));
            }
        return false;
    };
    // The two take turns: a cycle shows where they meet, mostly long before either is done. With
    // search_forward_first() the forward search runs alone first (Pearce and Kelly's order).
    bool met = false;
    if (!forward_first_)
        while (!met && ftop && btop) met = forward() || backward();
    while (!met && ftop) met = forward();
    while (!met && btop) met = backward();
    if (met) {
        note(turn_bit);
        return Add::Cycle;
    }
    // The backward set moves in front of the forward set, in the positions both held.
    std::uint32_t *const pool = sc.pool_.data();
    const std::size_t moved = nf + nb;
    if (std::size_t{hi - lo} < 4 * moved * std::bit_width(moved)) {
        // The two sets fill enough of lo..hi: one pass over those positions lists both in order,
        // and their positions sorted, for less than sorting them. The pass is branch-free and a
        // sort's compares are coin tosses, so it pays up to a few positions per compare.
        nf = nb = 0;
        std::size_t np = 0;
        for (std::uint32_t p = lo; p <= hi; ++p) {  // branch-free: members come at random
            const ChannelId x = at_[p];
            const bool in_fwd = seen[x] == fwd_mark, in_bwd = seen[x] == back;
            fwd[nf] = x;
            bwd[nb] = x;
            pool[np] = p;
            nf += in_fwd;
            nb += in_bwd;
            np += in_fwd | in_bwd;
        }
    } else {
        auto by_ord = [ord](ChannelId a, ChannelId b) { return ord[a] < ord[b]; };
        // The sets are mostly a handful of channels: insertion sort costs less than std::sort's
        // set-up there (positions are distinct, so both give the same order).
        auto sort = [&](ChannelId *first, std::size_t count) {
            if (count > 16) return std::sort(first, first + count, by_ord);
            for (std::size_t i = 1; i < count; ++i) {
                const ChannelId x = first[i];
                const std::uint32_t p = ord[x];
                std::size_t j = i;
                for (; j > 0 && ord[first[j - 1]] > p; --j) first[j] = first[j - 1];
                first[j] = x;
            }
        };
        sort(fwd, nf);
        sort(bwd, nb);
        // Both sorted: their positions merge into one sorted list.
        std::merge(bwd, bwd + nb, fwd, fwd + nf, fstack, by_ord);  // the stacks are spare now
        for (std::size_t i = 0; i < moved; ++i) pool[i] = ord[fstack[i]];
    }
    std::size_t i = 0;
    for (std::size_t b = 0; b < nb; ++b, ++i) ord_[bwd[b]] = pool[i], at_[pool[i]] = bwd[b];
    for (std::size_t f = 0; f < nf; ++f, ++i) ord_[fwd[f]] = pool[i], at_[pool[i]] = fwd[f];
    set(c1, c2, true);
    return Add::Added;
}

template CompleteCdg::Add CompleteCdg::add_against_order<8>(ChannelId, ChannelId);
template CompleteCdg::Add CompleteCdg::add_against_order<64>(ChannelId, ChannelId);
template CompleteCdg::Add CompleteCdg::add_against_order<0>(ChannelId, ChannelId);

}  // namespace weft::routing::engines::nue
