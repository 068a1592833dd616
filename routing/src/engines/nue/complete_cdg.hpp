// The complete channel dependency graph of one virtual layer. Channels are the directed
// switch-to-switch links (SwitchGraph CSR positions); every turn c1 -> c2 (c2 leaves the switch c1
// enters, other than straight back) is a possible dependency. Nue marks the dependencies its
// routes use; the used ones must stay acyclic.
//
// OpenSM avoids most cycle searches by colouring weakly connected subgraphs. Here the used
// dependencies keep a topological order instead (Pearce and Kelly's dynamic ordering): a new
// dependency that agrees with the order costs O(1), one that does not is searched only among the
// channels between its two ends in the order, and the order is repaired locally.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engines/switch_graph.hpp"

namespace weft::routing::engines::nue {

using ChannelId = std::uint32_t;
inline constexpr ChannelId kNoChannel = 0xFFFFFFFFu;

// Static channel structure of the switch graph.
class Channels {
  public:
    explicit Channels(const Fabric &f, const SwitchGraph &g);
    std::size_t size() const { return head_.size(); }
    std::size_t switches() const { return off_.size() - 1; }
    std::uint32_t begin(SwitchIdx s) const { return off_[s]; }  // channels out of s: begin..end
    std::uint32_t end(SwitchIdx s) const { return off_[s + 1]; }
    SwitchIdx head(ChannelId c) const { return head_[c]; }
    SwitchIdx tail(ChannelId c) const { return tail_[c]; }
    ChannelId reverse(ChannelId c) const { return rev_[c]; }  // same cable, other direction
    PortNum port(ChannelId c) const { return port_[c]; }      // port of tail(c)
    std::size_t max_degree() const { return max_deg_; }
    // begin(head(c)) and begin(tail(c)) in one load: the turns out of c and into c are numbered
    // from these.
    ChannelId after(ChannelId c) const { return after_[c]; }
    ChannelId before(ChannelId c) const { return before_[c]; }
    // The arrays behind head() and reverse(), for hot loops: read through the vectors, a loop
    // that also stores reloads their data pointers every step.
    const SwitchIdx *heads() const { return head_.data(); }
    const ChannelId *reverses() const { return rev_.data(); }

  private:
    std::vector<std::uint32_t> off_;
    std::vector<SwitchIdx> head_, tail_;
    std::vector<ChannelId> rev_, after_, before_;
    std::vector<PortNum> port_;
    std::size_t max_deg_ = 0;
};

// The search scratch of CompleteCdg::try_add, one slot per channel. A CDG searches only inside
// try_add, so the CDGs one thread works on can share one (24 bytes per channel, more than the 12
// of the rest of a CDG with one-byte rows).
class CdgScratch {
    friend class CompleteCdg;
    std::vector<std::uint32_t> seen_;  // search stamps
    std::uint32_t stamp_ = 0;
    // Each set holds a channel at most once.
    std::vector<ChannelId> fwd_, bwd_, stack_, back_stack_;
    std::vector<std::uint32_t> pool_;
};

class CompleteCdg {
  public:
    // No dependency used; the starting order as reset(level) gives it (all levels 0 without one).
    explicit CompleteCdg(const Channels &ch);
    CompleteCdg(const Channels &ch, const std::vector<std::uint32_t> &level);

    enum class Add : std::uint8_t { Present, Added, Cycle };

    // Clears every used dependency (a new layer). The starting order follows up*/down* by the
    // given BFS levels (channels toward the root first, deepest first; then those at one level;
    // then channels away from the root, shallowest first), so routes that climb and then descend,
    // the escape paths among them, add their dependencies without reordering.
    void reset(const std::vector<std::uint32_t> &level);
    bool used(ChannelId c1, ChannelId c2) const { return used_kth(c1, c2 - ch_.after(c1)); }
    // used() for the turn from c1 into the k-th channel out of head(c1): a loop over the channels
    // into one switch, all turning into one channel out of it, knows k without reading after(c1).
    bool used_kth(ChannelId c1, std::size_t k) const {
        const std::size_t b = std::size_t{c1} * row_bits_ + k;
        return (out_[b / 64] >> (b % 64)) & 1;
    }
    // Whether c1 -> c2 was found to close a cycle (and not forgotten since). Refusing a turn is
    // always safe, and a search may skip it without asking try_add.
    bool blocked(ChannelId c1, ChannelId c2) const {
        const std::size_t b = bit_of(c1, c2);
        return (blocked_[b / 64] >> (b % 64)) & 1;
    }
    // Marks c1 -> c2 used unless that closes a cycle of used dependencies. Most calls find the
    // turn used already or agreeing with the order: those stay inline, the rest search.
    Add try_add(ChannelId c1, ChannelId c2) {
        const std::size_t b = bit_of(c1, c2);
        std::uint64_t &row = out_[b / 64];
        const std::uint64_t bit = std::uint64_t{1} << (b % 64);
        if (row & bit) return Add::Present;
        if (ord_[c1] < ord_[c2]) {
            row |= bit;
            set_in(c1, c2, true);
            return Add::Added;
        }
        return row_bits_ == 8    ? add_against_order<8>(c1, c2)
               : row_bits_ == 64 ? add_against_order<64>(c1, c2)
                                 : add_against_order<0>(c1, c2);
    }
    // Unmarks c1 -> c2 (the order stays valid: removing edges never breaks it). Turns known to
    // close a cycle stay blocked (OpenSM's way); forget_noted_blocked() drops what a search found.
    void remove(ChannelId c1, ChannelId c2) { set(c1, c2, false); }
    // From now on notes the turns newly found to close a cycle, so that forget_noted_blocked()
    // can drop exactly those once the dependencies added since are taken back. A turn found
    // before closes a cycle of dependencies that were all used then and still are, as long as
    // nothing older is taken back (weft's search takes back only its own, at an impasse).
    void note_blocked() {
        noting_ = true;
        noted_.clear();
    }
    // Forgets every blocked turn (after taking back older dependencies).
    void forget_blocked() {
        std::fill(blocked_.begin(), blocked_.end(), 0);
        noted_.clear();
    }
    void forget_noted_blocked() {
        for (const std::size_t b : noted_) blocked_[b / 64] &= ~(std::uint64_t{1} << (b % 64));
        noted_.clear();
    }
    // OpenSM blocks only the turns it tries: a turn found on the way to close a cycle too may fit
    // again once a dependency is taken back. Off by default (weft's searches skip those early).
    void block_tried_only() { tried_only_ = true; }
    // How far a refused turn's search gets decides which turns it finds on the way. Where no
    // dependency is taken back but at an impasse (which forgets what it noted), every turn remembered
    // is one that closes a cycle, and remembering fewer only moves a refusal later: the routes are
    // the same, and the search may stop as soon as its two halves meet. A search that takes
    // dependencies back (OpenSM's, with weft's memory) can find a remembered turn fitting again,
    // so where the halves meet decides what it remembers and with it its routes; the engine lets
    // it search both ways as well (the same steps every time, so the same routes). Forward first,
    // Pearce and Kelly's own order, remembers every turn the forward search passes; the engine
    // does not use it, the tests and the benchmark that compare the ways of searching do.
    void search_forward_first() { forward_first_ = true; }
    // Channels into a destination's own switch that a route toward a LID on that switch took
    // in this layer (OpenSM's used edges out of the destination's fake channel): tried first.
    bool sink_used(ChannelId c) const { return sink_used_[c] != 0; }
    void mark_sink_used(ChannelId c) { sink_used_[c] = 1; }
    // Searches in scratch, which must outlive the next try_add calls, instead of the CDG's own
    // (allocated when first needed).
    void use_scratch(CdgScratch &scratch) { scratch_ = &scratch; }

  private:
    // reset()'s starting order alone.
    void order_by(const std::vector<std::uint32_t> &level);
    // c1 -> c2's bit in out_ and blocked_.
    std::size_t bit_of(ChannelId c1, ChannelId c2) const {
        return std::size_t{c1} * row_bits_ + (c2 - ch_.after(c1));
    }
    // Blocks the turn at bit b of blocked_, noting it if it is new and noting is on.
    void note(std::size_t b) {
        std::uint64_t &w = blocked_[b / 64];
        const std::uint64_t bit = std::uint64_t{1} << (b % 64);
        if (noting_ && !(w & bit)) noted_.push_back(b);
        w |= bit;
    }
    void set(ChannelId c1, ChannelId c2, bool on) {
        const std::size_t b = bit_of(c1, c2);
        std::uint64_t &o = out_[b / 64];
        const std::uint64_t bit = std::uint64_t{1} << (b % 64);
        o = on ? o | bit : o & ~bit;
        set_in(c1, c2, on);
    }
    // The in_ half of set(): c1's reverse is the j-th channel out of head(c1) = tail(c2).
    void set_in(ChannelId c1, ChannelId c2, bool on) {
        const std::size_t b = std::size_t{c2} * row_bits_ + (ch_.reverse(c1) - ch_.after(c1));
        std::uint64_t &i = in_[b / 64];
        const std::uint64_t bit = std::uint64_t{1} << (b % 64);
        i = on ? i | bit : i & ~bit;
    }
    // try_add for a turn against the order: Pearce and Kelly's bounded search and local
    // reordering. kRowBits: row_bits_ if it is 8 or 64, else 0.
    template <std::size_t kRowBits>
    Add add_against_order(ChannelId c1, ChannelId c2);
    // Used dependencies as bit rows, so searches visit only the used ones: out_ row of c, bit k
    // = c -> the k-th channel out of head(c); in_ row of c, bit j = reverse(j-th channel out of
    // tail(c)) -> c. Row c starts at bit c * row_bits_: 8 where no switch has more than 8
    // channels (an eighth of the memory to clear per layer), else whole words.
    const Channels &ch_;
    std::size_t row_bits_ = 8;
    std::vector<std::uint64_t> out_, in_;
    // Turns found to close a cycle (same layout as out_), and while noting, the bits set since.
    std::vector<std::uint64_t> blocked_;
    std::vector<std::size_t> noted_;
    bool noting_ = false;
    std::vector<std::uint8_t> sink_used_;
    std::vector<std::uint32_t> ord_;  // position of each channel in the topological order
    std::vector<ChannelId> at_;       // channel at each position
    CdgScratch own_;
    CdgScratch *scratch_ = nullptr;     // nullptr: own_
    std::vector<std::uint32_t> count_;  // reset's bucket offsets
    bool tried_only_ = false;
    bool forward_first_ = false;
};

}  // namespace weft::routing::engines::nue
