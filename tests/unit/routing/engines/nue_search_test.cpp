// Nue's search internals against plain references: SearchQueue pops what a sorted set would (in
// both of its layouts), OsmHeap leaves ties as complib's cl_heap does, CompleteCdg::try_add accepts a turn
// exactly when no path of used dependencies leads back, whatever order the turns come in, and CdgDijkstra
// without a CDG routes as a plain Dijkstra does.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "engines/nue/cdg_dijkstra.hpp"
#include "engines/nue/complete_cdg.hpp"
#include "engines/nue/osm_heap.hpp"
#include "engines/nue/search_queue.hpp"
#include "engines/switch_graph.hpp"
#include "weft/routing/generators.hpp"

namespace weft::routing::engines::nue {
namespace {

// cl_heap's rules written plainly (complib cl_heap.c: 4-ary, a sift-up passes only larger keys,
// a sift-down takes the last of equal smallest children and passes only smaller keys, a removal
// moves the last entry into the gap and sifts it whichever way its parent says).
class PlainClHeap {
  public:
    void insert(SwitchIdx x, std::uint64_t key) {
        h_.push_back({key, x});
        up(h_.size() - 1);
    }
    void change(SwitchIdx x, std::uint64_t key) {
        const std::size_t i = find(x);
        const std::uint64_t old = h_[i].first;
        h_[i].first = key;
        if (key < old) up(i);
        if (key > old) down(i);
    }
    void erase(SwitchIdx x) {
        const std::size_t i = find(x);
        h_[i] = h_.back();
        h_.pop_back();
        if (i == h_.size()) return;
        if (i > 0 && h_[(i - 1) / 4].first > h_[i].first)
            up(i);
        else if (i == 0 || h_[(i - 1) / 4].first < h_[i].first)
            down(i);
    }
    SwitchIdx pop() {
        const SwitchIdx x = h_[0].second;
        erase(x);
        return x;
    }
    bool empty() const { return h_.empty(); }

  private:
    std::size_t find(SwitchIdx x) const {
        for (std::size_t i = 0; i < h_.size(); ++i)
            if (h_[i].second == x) return i;
        return h_.size();
    }
    void up(std::size_t i) {
        while (i > 0 && h_[i].first < h_[(i - 1) / 4].first)
            std::swap(h_[i], h_[(i - 1) / 4]), i = (i - 1) / 4;
    }
    void down(std::size_t i) {
        for (;;) {
            std::size_t best = i;
            for (std::size_t k = 4 * i + 1; k < std::min(4 * i + 5, h_.size()); ++k)
                if (best == i ? h_[k].first < h_[i].first : h_[k].first <= h_[best].first) best = k;
            if (best == i) return;
            std::swap(h_[i], h_[best]);
            i = best;
        }
    }
    std::vector<std::pair<std::uint64_t, SwitchIdx>> h_;
};

// OpenSM's ties decide its routes, so OsmHeap must pop equal keys in cl_heap's order: random
// inserts, key changes both ways, removals and pops over few distinct keys.
TEST(NueSearch, OsmHeapBreaksTiesAsClHeap) {
    constexpr std::size_t kSwitches = 300;
    std::mt19937_64 rng(17);
    OsmHeap heap(kSwitches);
    PlainClHeap ref;
    std::vector<char> queued(kSwitches, 0);
    std::size_t pops = 0;
    for (int step = 0; step < 200000; ++step) {
        const auto x = static_cast<SwitchIdx>(rng() % kSwitches);
        const std::uint64_t key = rng() % 6;  // few keys: mostly ties
        switch (rng() % 4) {
            case 0:
                if (!queued[x]) heap.insert(x, key), ref.insert(x, key), queued[x] = 1;
                break;
            case 1:
                if (queued[x]) heap.change(x, key), ref.change(x, key);
                break;
            case 2:
                if (queued[x]) heap.erase(heap.position(x)), ref.erase(x), queued[x] = 0;
                break;
            default:
                if (!ref.empty()) {
                    const SwitchIdx top = ref.pop();
                    ASSERT_EQ(heap.pop(), top) << "step " << step;
                    queued[top] = 0;
                    ++pops;
                }
        }
    }
    EXPECT_GT(pops, 10000u);
}

// Random inserts, key decreases and pops, mirrored in a std::set of keys.
template <class Key>
void exercise_queue(std::size_t switches, std::uint64_t seed) {
    using Queue = SearchQueue<Key>;
    const std::size_t channels = 4 * switches;
    Queue q(switches, channels);
    q.prepare();
    ASSERT_GE(q.max_dist(), 50u);
    std::mt19937_64 rng(seed);
    std::set<Key> ref;
    std::vector<Key> current(switches, 0);  // 0: not queued
    for (int round = 0; round < 20; ++round) {
        std::size_t inserts = 0;
        for (int step = 0; step < 4000; ++step) {
            const auto x = static_cast<SwitchIdx>(rng() % switches);
            const std::uint64_t dist = 1 + rng() % 50;  // few distances: many ties broken by channel
            const auto c = static_cast<ChannelId>(rng() % channels);
            const Key k = q.key(dist, c, x);
            if (current[x] == 0 && inserts < channels) {
                q.insert(k);
                ref.insert(k);
                current[x] = k;
                ++inserts;
            } else if (current[x] != 0 && k < current[x]) {
                q.lower(current[x], k);
                ref.erase(current[x]);
                ref.insert(k);
                current[x] = k;
            } else if (!ref.empty() && rng() % 3 == 0) {
                const Key top = *ref.begin();
                ref.erase(ref.begin());
                ASSERT_EQ(q.pop(), q.switch_of(top));
                current[q.switch_of(top)] = 0;
            }
        }
        while (!ref.empty()) {  // drain: the next round starts empty, as a route does
            const Key top = *ref.begin();
            ref.erase(ref.begin());
            ASSERT_FALSE(q.empty());
            ASSERT_EQ(q.pop(), q.switch_of(top));
            current[q.switch_of(top)] = 0;
        }
        ASSERT_TRUE(q.empty());
    }
}

TEST(NueSearch, SortedQueuePopsInKeyOrder) {
    exercise_queue<WideKey>(40, 1);
    exercise_queue<std::uint64_t>(40, 3);
}

TEST(NueSearch, HeapQueuePopsInKeyOrder) {
    exercise_queue<WideKey>(700, 2);
    exercise_queue<std::uint64_t>(700, 4);
}

TEST(NueSearch, NarrowKeysKeepTheWideOrder) {
    // Narrow keys pack the channel and switch in just enough bits: the same keys compare alike.
    const SearchQueue<std::uint64_t> narrow(100, 700);
    const SearchQueue<WideKey> wide(100, 700);
    EXPECT_EQ(narrow.max_dist(), ~std::uint64_t{0} >> 17);  // 7 bits of switch, 10 of channel
    std::mt19937_64 rng(5);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t d1 = rng() % 1000, d2 = rng() % 1000;
        const auto c1 = static_cast<ChannelId>(rng() % 700), c2 = static_cast<ChannelId>(rng() % 700);
        const auto s1 = static_cast<SwitchIdx>(rng() % 100), s2 = static_cast<SwitchIdx>(rng() % 100);
        EXPECT_EQ(narrow.key(d1, c1, s1) < narrow.key(d2, c2, s2),
                  wide.key(d1, c1, s1) < wide.key(d2, c2, s2));
    }
}

// Whether `to` is reachable from `from` over the used dependencies (checked pair by pair).
bool reaches(const Channels &ch, const CompleteCdg &cdg, ChannelId from, ChannelId to) {
    std::vector<char> seen(ch.size(), 0);
    std::vector<ChannelId> stack{from};
    seen[from] = 1;
    while (!stack.empty()) {
        const ChannelId x = stack.back();
        stack.pop_back();
        if (x == to) return true;
        const SwitchIdx at = ch.head(x);
        for (ChannelId y = ch.begin(at); y < ch.end(at); ++y)
            if (!seen[y] && cdg.used(x, y)) seen[y] = 1, stack.push_back(y);
    }
    return false;
}

// A random regular fabric, one host per switch.
Fabric random_switches(unsigned switches, unsigned degree, std::uint64_t seed) {
    RandomParams p;
    p.switches = switches;
    p.degree = degree;
    p.hosts = 1;
    p.seed = seed;
    return make_random_regular(p);
}

// Every way of searching: forward and backward in turns, remembering the turns found on the way
// (weft's search) or not (block_tried_only, OpenSM's run), and forward first
// (search_forward_first, Pearce and Kelly's order).
enum class Mode { Default, TriedOnly, ForwardFirst };
class TryAdd : public ::testing::TestWithParam<Mode> {};

// A random fabric's channels and a complete CDG on them searching in the given mode.
struct ModeCdg {
    ModeCdg(std::uint64_t seed, Mode mode) : f(random_switches(24, 5, seed)), g(f), ch(f, g), cdg(ch) {
        if (mode == Mode::TriedOnly) cdg.block_tried_only();
        if (mode == Mode::ForwardFirst) cdg.search_forward_first();
    }
    const Fabric f;
    const SwitchGraph g;
    const Channels ch;
    CompleteCdg cdg;
};

TEST_P(TryAdd, RefusesExactlyTheTurnsThatCloseACycle) {
    ModeCdg m(11, GetParam());
    const Channels &ch = m.ch;
    CompleteCdg &cdg = m.cdg;
    std::mt19937_64 rng(3);
    std::vector<std::uint32_t> level(ch.switches());
    for (auto &l : level) l = static_cast<std::uint32_t>(rng() % 4);
    cdg.reset(level);
    std::size_t added = 0, refused = 0;
    for (int step = 0; step < 20000; ++step) {
        const auto c1 = static_cast<ChannelId>(rng() % ch.size());
        const SwitchIdx at = ch.head(c1);
        const auto c2 = static_cast<ChannelId>(ch.begin(at) + rng() % (ch.end(at) - ch.begin(at)));
        if (c2 == ch.reverse(c1)) continue;  // no turn straight back
        const bool was_used = cdg.used(c1, c2);
        const bool closes = !was_used && reaches(ch, cdg, c2, c1);
        const CompleteCdg::Add r = cdg.try_add(c1, c2);
        if (was_used) {
            EXPECT_EQ(r, CompleteCdg::Add::Present);
        } else if (closes) {
            EXPECT_EQ(r, CompleteCdg::Add::Cycle);
            EXPECT_FALSE(cdg.used(c1, c2));
            EXPECT_TRUE(cdg.blocked(c1, c2));
            ++refused;
        } else {
            EXPECT_EQ(r, CompleteCdg::Add::Added);
            EXPECT_TRUE(cdg.used(c1, c2));
            ++added;
        }
        // Now and then any used turn goes away again, and with it everything remembered blocked.
        if (step % 7 == 0 && cdg.used(c1, c2)) cdg.remove(c1, c2), cdg.forget_blocked();
    }
    EXPECT_GT(added, 100u);
    EXPECT_GT(refused, 100u);
}

// As weft's search at an impasse: the turns added since note_blocked() are taken back, and
// forget_noted_blocked() must drop every blocked turn that may fit again (a blocked turn always
// closes a cycle) and keep those found before (still closing theirs).
TEST_P(TryAdd, ForgetsOnlyTheTurnsNotedSinceTheNote) {
    ModeCdg m(13, GetParam());
    const Channels &ch = m.ch;
    CompleteCdg &cdg = m.cdg;
    std::mt19937_64 rng(9);
    auto random_turn = [&] {
        const auto c1 = static_cast<ChannelId>(rng() % ch.size());
        const SwitchIdx at = ch.head(c1);
        auto c2 = static_cast<ChannelId>(ch.begin(at) + rng() % (ch.end(at) - ch.begin(at)));
        if (c2 == ch.reverse(c1)) c2 = c2 + 1 < ch.end(at) ? c2 + 1 : ch.begin(at);
        return std::pair{c1, c2};
    };
    auto blocked_turns = [&] {
        std::vector<std::pair<ChannelId, ChannelId>> out;
        for (ChannelId c1 = 0; c1 < ch.size(); ++c1)
            for (ChannelId c2 = ch.begin(ch.head(c1)); c2 < ch.end(ch.head(c1)); ++c2)
                if (c2 != ch.reverse(c1) && cdg.blocked(c1, c2)) out.emplace_back(c1, c2);
        return out;
    };
    for (int i = 0; i < 150; ++i) {
        const auto [c1, c2] = random_turn();
        cdg.try_add(c1, c2);
    }
    std::size_t taken_back = 0, forgotten = 0;
    for (int round = 0; round < 60; ++round) {
        const auto before = blocked_turns();
        cdg.note_blocked();
        std::vector<std::pair<ChannelId, ChannelId>> added;
        for (int i = 0; i < 12; ++i) {
            const auto [c1, c2] = random_turn();
            if (cdg.try_add(c1, c2) == CompleteCdg::Add::Added) added.emplace_back(c1, c2);
        }
        if (round % 2 == 0) continue;  // the destination found its way: its dependencies stay
        const std::size_t blocked_with = blocked_turns().size();
        for (const auto &[c1, c2] : added) cdg.remove(c1, c2);
        cdg.forget_noted_blocked();
        taken_back += added.size();
        const auto after = blocked_turns();
        forgotten += blocked_with - after.size();
        for (const auto &[c1, c2] : before) EXPECT_TRUE(cdg.blocked(c1, c2)) << "round " << round;
        for (const auto &[c1, c2] : after) EXPECT_TRUE(reaches(ch, cdg, c2, c1)) << "round " << round;
    }
    EXPECT_GT(taken_back, 20u);
    EXPECT_GT(forgotten, 0u);
}

INSTANTIATE_TEST_SUITE_P(NueSearch, TryAdd,
                         ::testing::Values(Mode::Default, Mode::TriedOnly, Mode::ForwardFirst),
                         [](const auto &param_info) {
                             return param_info.param == Mode::Default     ? "Default"
                                    : param_info.param == Mode::TriedOnly ? "TriedOnly"
                                                                          : "ForwardFirst";
                         });

// CdgDijkstra without a CDG (the switch LIDs' routes) against a quadratic Dijkstra: each switch
// takes the lowest channel among those on a cheapest path. Weights of P^2 plus small loads take
// the layered pass (minimal routes), widely spread ones the queue; both must match, and so must
// the loads add_load leaves.
TEST(NueSearch, UnconstrainedRoutesAreDijkstras) {
    const Fabric f = random_switches(40, 5, 5);
    const SwitchGraph g(f);
    const Channels ch(f, g);
    const std::size_t n = ch.switches();
    std::mt19937_64 rng(9);
    const std::vector<std::uint64_t> sources(n, 1);
    for (const std::uint64_t base : {std::uint64_t{6400}, std::uint64_t{1}}) {
        // in_weight[o]: the weight of channel reverse(o); loads up to 40 (base 6400: minimal
        // for sure), or up to 1000 on 1 (routes take detours).
        std::vector<std::uint64_t> in_weight(ch.size());
        for (auto &w : in_weight) w = base + rng() % (base > 1 ? 41 : 1000);
        std::vector<std::uint64_t> ref_weight = in_weight;
        CdgDijkstra search(ch, in_weight);
        for (SwitchIdx d = 0; d < n; ++d) {
            // Reference: distances to d, then each switch's lowest channel on a cheapest path.
            constexpr std::uint64_t kFar = ~std::uint64_t{0};
            std::vector<std::uint64_t> dist(n, kFar);
            std::vector<char> done(n, 0);
            dist[d] = 0;
            for (;;) {
                SwitchIdx v = kNoSwitch;
                for (SwitchIdx s = 0; s < n; ++s)
                    if (!done[s] && dist[s] != kFar && (v == kNoSwitch || dist[s] < dist[v])) v = s;
                if (v == kNoSwitch) break;
                done[v] = 1;
                for (ChannelId o = ch.begin(v); o < ch.end(v); ++o)
                    dist[ch.head(o)] = std::min(dist[ch.head(o)], dist[v] + ref_weight[o]);
            }
            std::vector<ChannelId> next(n, kNoChannel);
            for (SwitchIdx x = 0; x < n; ++x)
                for (ChannelId c = ch.begin(x); x != d && c < ch.end(x); ++c)
                    if (next[x] == kNoChannel && dist[ch.head(c)] + ref_weight[ch.reverse(c)] == dist[x])
                        next[x] = c;
            ASSERT_TRUE(search.route(d, nullptr, nullptr));
            ASSERT_EQ(search.next(), next) << "base " << base << " d " << d;
            for (SwitchIdx x = 0; x < n; ++x) {
                unsigned hops = 0;
                for (SwitchIdx y = x; y != d; y = ch.head(next[y])) ++hops;
                ASSERT_EQ(search.hops()[x], hops) << "base " << base << " d " << d << " x " << x;
            }
            search.add_load(sources);
            // The reference loads: every switch's route adds 1 to each channel it takes.
            for (SwitchIdx x = 0; x < n; ++x)
                for (SwitchIdx y = x; y != d; y = ch.head(next[y])) ++ref_weight[ch.reverse(next[y])];
            ASSERT_EQ(in_weight, ref_weight) << "base " << base << " d " << d;
        }
    }
}

}  // namespace
}  // namespace weft::routing::engines::nue
