// Prefix labels, unicast, LCP, multicast, flood tables and re-labelling on seed 003's figures,
// and the shapes its theorems promise on seeded random irregular graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "prefix_figures.hpp"
#include "weft/arn/prefix_routing.hpp"

namespace weft::arn {
namespace {

using namespace figures;

Label L(const char *digits) {
    Label l;
    for (const char *p = digits; *p; ++p) l.push_back(static_cast<std::uint16_t>(*p - '0'));
    return l;
}

std::vector<std::string> path_labels(const PrefixLabels &l, NodeIndex s, NodeIndex d) {
    std::vector<std::string> out{label_text(l.label(s))};
    for (const RouteHop &h : prefix_route(l, s, d)) out.push_back(label_text(l.label(h.next)));
    return out;
}

std::vector<ChannelKind> kinds(const std::vector<RouteHop> &hops) {
    std::vector<ChannelKind> out;
    for (const RouteHop &h : hops) out.push_back(h.kind);
    return out;
}

const PrefixChannel &channel_to(const PrefixLabels &l, NodeIndex from, NodeIndex to) {
    for (const PrefixChannel &c : l.channels(from))
        if (c.to == to) return c;
    throw std::logic_error("no channel");
}

TEST(PrefixLabels, Table1OfFigure4) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    const char *expected[] = {"1", "11", "12", "111", "112", "121"};
    for (NodeIndex n = a; n <= f; ++n) EXPECT_EQ(label_text(l.label(n)), expected[n]) << n;
    EXPECT_EQ(l.parent(e), b);
    EXPECT_EQ(l.depth(f), 2u);
    EXPECT_EQ(l.node_of(L("112")), e);
    EXPECT_FALSE(l.node_of(L("113")));
}

TEST(PrefixLabels, ChannelLabelsAndKinds) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    // Down channels carry the child's label, up channels the empty one, others the far node's.
    EXPECT_EQ(channel_to(l, a, b).kind, ChannelKind::kDown);
    EXPECT_EQ(channel_to(l, a, b).label, L("11"));
    EXPECT_EQ(channel_to(l, b, a).kind, ChannelKind::kUp);
    EXPECT_TRUE(channel_to(l, b, a).label.empty());
    EXPECT_EQ(channel_to(l, b, c).kind, ChannelKind::kCross);
    EXPECT_EQ(channel_to(l, b, c).label, L("12"));
    EXPECT_EQ(channel_to(l, c, b).label, L("11"));
    EXPECT_EQ(channel_to(l, d, e).kind, ChannelKind::kCross);
    EXPECT_TRUE(l.tree_link(b, channel_to(l, b, e).port));
    EXPECT_FALSE(l.tree_link(b, channel_to(l, b, c).port));

    const PrefixLabels line = PrefixLabels::from_tree(figure5(), a, figure5_line());
    const char *expected[] = {"1", "11", "111", "1111", "11111", "111111"};
    for (NodeIndex n = a; n <= f; ++n) EXPECT_EQ(label_text(line.label(n)), expected[n]);
    EXPECT_EQ(channel_to(line, b, d).kind, ChannelKind::kDownShortcut);
    EXPECT_EQ(channel_to(line, e, b).kind, ChannelKind::kUpShortcut);
    EXPECT_EQ(channel_to(line, e, b).label, L("11"));
}

TEST(PrefixRouting, ThePathsOfFigure4) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    EXPECT_EQ(path_labels(l, b, f), (std::vector<std::string>{"11", "12", "121"}));
    EXPECT_EQ(path_labels(l, e, f), (std::vector<std::string>{"112", "12", "121"}));
    EXPECT_EQ(kinds(prefix_route(l, e, f)), (std::vector{ChannelKind::kCross, ChannelKind::kDown}));
    // No cross channel toward an ancestor of the destination: up, then one cross, then down.
    EXPECT_EQ(kinds(prefix_route(l, d, f)),
              (std::vector{ChannelKind::kUp, ChannelKind::kCross, ChannelKind::kDown}));
    EXPECT_EQ(kinds(prefix_route(l, f, d)),
              (std::vector{ChannelKind::kUp, ChannelKind::kCross, ChannelKind::kDown}));
    EXPECT_EQ(path_labels(l, a, e), (std::vector<std::string>{"1", "11", "112"}));
    EXPECT_EQ(path_labels(l, d, a), (std::vector<std::string>{"111", "11", "1"}));
    EXPECT_TRUE(prefix_route(l, c, c).empty());
}

TEST(PrefixRouting, ThePathsOfFigure5TakeTheLongestPrefix) {
    const PrefixLabels l = PrefixLabels::from_tree(figure5(), a, figure5_line());
    // At 11, nodes 111, 1111 and 11111 are eligible: 11111 has the longest prefix of 111111.
    EXPECT_EQ(path_labels(l, a, f), (std::vector<std::string>{"1", "11", "11111", "111111"}));
    EXPECT_EQ(kinds(prefix_route(l, a, f)),
              (std::vector{ChannelKind::kDown, ChannelKind::kDownShortcut, ChannelKind::kDown}));
    EXPECT_EQ(path_labels(l, e, c), (std::vector<std::string>{"11111", "11", "111"}));
    EXPECT_EQ(kinds(prefix_route(l, e, c)), (std::vector{ChannelKind::kUpShortcut, ChannelKind::kDown}));
}

TEST(PrefixRouting, LongestCommonPrefix) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    const NodeIndex ef[] = {e, f}, de[] = {d, e}, one[] = {f};
    EXPECT_EQ(longest_common_prefix(l, ef), L("1"));
    EXPECT_EQ(longest_common_prefix(l, de), L("11"));
    EXPECT_EQ(longest_common_prefix(l, one), L("121"));
    EXPECT_TRUE(longest_common_prefix(l, {}).empty());
}

TEST(PrefixMulticast, Figure2GoesUpToTheLcpBeforeSplitting) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    const NodeIndex ef[] = {e, f};
    // Multicast 2 of figure 2: from d to e and f. The naive split at b (toward c and e) is what
    // deadlocks; prefix multicast climbs to LCP(112, 121) = 1, node a, first.
    const PrefixMulticast m = prefix_multicast(l, d, ef);
    EXPECT_EQ(m.lcp, a);
    ASSERT_EQ(m.steps.size(), 7u);
    EXPECT_EQ(m.steps[0].node, d);
    EXPECT_TRUE(m.steps[0].up_phase);
    EXPECT_EQ(m.steps[0].in_port, kLocalPort);
    EXPECT_EQ(m.steps[1].node, b);
    EXPECT_TRUE(m.steps[1].up_phase);
    ASSERT_EQ(m.steps[1].out.size(), 1u);  // no split at b
    EXPECT_EQ(m.steps[1].out[0].next, a);
    EXPECT_EQ(m.steps[2].node, a);
    EXPECT_FALSE(m.steps[2].up_phase);
    ASSERT_EQ(m.steps[2].out.size(), 2u);  // the split, at the LCP
    EXPECT_EQ(m.steps[2].out[0].next, b);
    EXPECT_EQ(m.steps[2].out[1].next, c);
    // b passes e's head down; c passes f's. Each destination delivered once.
    EXPECT_EQ(m.steps[3].node, b);
    ASSERT_EQ(m.steps[3].out.size(), 1u);
    EXPECT_EQ(m.steps[3].out[0].next, e);
    EXPECT_EQ(m.steps[4].node, c);
    EXPECT_EQ(m.steps[4].out[0].next, f);
    // The leaves: nothing out, delivered.
    for (std::size_t i : {5u, 6u}) {
        EXPECT_TRUE(m.steps[i].out.empty());
        EXPECT_TRUE(m.steps[i].deliver);
    }
    for (std::size_t i = 0; i < 5; ++i) EXPECT_FALSE(m.steps[i].deliver);
    const PrefixMulticast from_a = prefix_multicast(l, a, ef);
    EXPECT_EQ(from_a.lcp, a);
    EXPECT_FALSE(from_a.steps[0].up_phase);
    std::map<NodeIndex, int> delivered;
    for (const MulticastStep &s : from_a.steps)
        if (s.deliver) ++delivered[s.node];
    EXPECT_EQ(delivered, (std::map<NodeIndex, int>{{e, 1}, {f, 1}}));
}

TEST(PrefixMulticast, TheSourceAndAnAncestorOnTheWayUpAreDeliveredOnce) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    const NodeIndex dests[] = {d, b, f, d};  // d twice, the source itself, b on its way up
    const PrefixMulticast m = prefix_multicast(l, d, dests);
    std::map<NodeIndex, int> delivered;
    for (const MulticastStep &s : m.steps)
        if (s.deliver) ++delivered[s.node];
    EXPECT_EQ(delivered, (std::map<NodeIndex, int>{{b, 1}, {d, 1}, {f, 1}}));
    EXPECT_EQ(m.lcp, a);
}

// Where an origin's flood is taken, following the tables: each delivery with its hop count.
std::vector<std::pair<NodeIndex, std::size_t>> deliveries(
    const PrefixLabels &l, const std::vector<std::vector<PrefixMcastEntry>> &tables, NodeIndex origin) {
    std::vector<std::pair<NodeIndex, std::size_t>> out;
    std::vector<std::tuple<NodeIndex, PortNumber, std::size_t>> frontier{{origin, kLocalPort, 0}};
    while (!frontier.empty()) {
        auto [n, in, hops] = frontier.back();
        frontier.pop_back();
        const PrefixMcastEntry *e = find_entry(tables[n], origin, in);
        EXPECT_NE(e, nullptr) << origin << " at " << n;
        if (e == nullptr) continue;
        if (e->deliver) out.emplace_back(n, hops);
        for (PortNumber p : e->out_ports) {
            const auto adj = l.graph().link(n, p);
            frontier.emplace_back(adj->peer, adj->peer_port, hops + 1);
        }
    }
    return out;
}

TEST(PrefixMulticast, FloodTablesOfFigure4) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    const auto tables = flood_tables(l);
    // e's news: up to a (e -> b -> a), then down to everyone else; b is passed twice, on two ports.
    const PortNumber b_from_e = channel_to(l, e, b).to_port, b_from_a = channel_to(l, a, b).to_port;
    const PrefixMcastEntry *up = find_entry(tables[b], e, b_from_e);
    ASSERT_NE(up, nullptr);
    EXPECT_EQ(up->out_ports, std::vector<PortNumber>{channel_to(l, b, a).port});
    EXPECT_FALSE(up->deliver);
    const PrefixMcastEntry *down = find_entry(tables[b], e, b_from_a);
    ASSERT_NE(down, nullptr);
    EXPECT_EQ(down->out_ports, std::vector<PortNumber>{channel_to(l, b, d).port});  // not back to e
    EXPECT_TRUE(down->deliver);
    EXPECT_NE(find_entry(tables[e], e, kLocalPort), nullptr);
    EXPECT_EQ(find_entry(tables[e], e, b_from_a), nullptr);
    // Every origin reaches every other node exactly once when the tables are followed.
    for (NodeIndex origin = a; origin <= f; ++origin) {
        std::map<NodeIndex, int> got;
        for (auto [n, hops] : deliveries(l, tables, origin)) ++got[n];
        EXPECT_EQ(got.size(), 5u) << origin;
        for (auto [n, count] : got) {
            EXPECT_EQ(count, 1) << n;
            EXPECT_NE(n, origin);
        }
    }
}

TEST(PrefixMulticast, ADragonflyGroupIsAStarAndFloodsInTwoHops) {
    // Eight switches, each linked to every other (a dragonfly group's local links).
    PrefixGraph g(8);
    std::vector<PortNumber> next(8, 1);
    for (NodeIndex x = 0; x < 8; ++x)
        for (NodeIndex y = x + 1; y < 8; ++y) g.connect(x, next[x]++, y, next[y]++);
    const PrefixLabels l = PrefixLabels::minimum(g, 3);
    for (NodeIndex n = 0; n < 8; ++n) EXPECT_EQ(l.depth(n), n == 3 ? 0u : 1u);
    const auto tables = flood_tables(l);
    for (NodeIndex origin = 0; origin < 8; ++origin) {
        const auto reached = deliveries(l, tables, origin);
        EXPECT_EQ(reached.size(), 7u) << origin;
        for (auto [n, hops] : reached)
            EXPECT_EQ(hops, origin == 3 || n == 3 ? 1u : 2u) << origin << " to " << n;
    }
}

TEST(PrefixRelabel, AFailedLinkOffTheTreeLosesOnlyItsChannels) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    const PrefixLabels after = relabel_after_failure(l, d, channel_to(l, d, e).port);
    for (NodeIndex n = a; n <= f; ++n) EXPECT_EQ(after.label(n), l.label(n));
    EXPECT_EQ(after.channels(d).size(), l.channels(d).size() - 1);
    EXPECT_EQ(after.channels(e).size(), l.channels(e).size() - 1);
    EXPECT_EQ(after.channels(a).size(), l.channels(a).size());
    // The non-minimum tree of figure 5 keeps its shape too.
    const PrefixLabels line = PrefixLabels::from_tree(figure5(), a, figure5_line());
    const PrefixLabels line_after = relabel_after_failure(line, b, channel_to(line, b, e).port);
    EXPECT_EQ(label_text(line_after.label(f)), "111111");
    EXPECT_EQ(path_labels(line_after, a, f),
              (std::vector<std::string>{"1", "11", "1111", "11111", "111111"}));
}

TEST(PrefixRelabel, AFailedTreeLinkRootsANewTreeAtTheNodeThatSawIt) {
    const PrefixLabels l = PrefixLabels::minimum(figure4(), a);
    // Figure 6: (b, e) fails, b builds a new spanning tree rooted at itself.
    const PrefixLabels after = relabel_after_failure(l, b, channel_to(l, b, e).port);
    EXPECT_EQ(after.root(), b);
    EXPECT_EQ(label_text(after.label(b)), "1");
    EXPECT_FALSE(after.graph().link(b, channel_to(l, b, e).port));
    // Breadth-first from b without the link: a, d and c one hop away, e and f two.
    for (NodeIndex n : {a, d, c}) EXPECT_EQ(after.depth(n), 1u) << n;
    for (NodeIndex n : {e, f}) EXPECT_EQ(after.depth(n), 2u) << n;
    EXPECT_EQ(after.parent(e), d);  // d reaches e before c does (b's ports: a, d, c)
    for (NodeIndex s = a; s <= f; ++s)
        for (NodeIndex t = a; t <= f; ++t) EXPECT_EQ(prefix_route(after, s, t).empty(), s == t);
    EXPECT_THROW(relabel_after_failure(l, b, 99), std::invalid_argument);
}

TEST(PrefixLabels, RefusesUpPortsThatAreNotATree) {
    const PrefixGraph g = figure5();
    EXPECT_THROW(PrefixLabels::from_tree(g, b, figure5_line()), std::invalid_argument);  // b has a parent
    EXPECT_THROW(PrefixLabels::from_tree(g, a, {0, 1, 1}), std::invalid_argument);       // sizes
    // c's parent d, d's parent c: a cycle.
    EXPECT_THROW(PrefixLabels::from_tree(g, a, {kLocalPort, 1, 2, 1, 1, 1}), std::invalid_argument);
    EXPECT_THROW(PrefixLabels::from_tree(g, a, {kLocalPort, 1, 1, 1, 1, 9}), std::invalid_argument);
    PrefixGraph bad(2);
    EXPECT_THROW(bad.connect(0, 0, 1, 1), std::invalid_argument);
    EXPECT_THROW(bad.connect(0, 1, 0, 2), std::invalid_argument);
    bad.connect(0, 1, 1, 1);
    EXPECT_THROW(bad.connect(0, 1, 1, 2), std::invalid_argument);
    EXPECT_FALSE(bad.disconnect(0, 2));
    EXPECT_TRUE(bad.disconnect(1, 1));
    EXPECT_TRUE(bad.links(0).empty());
}

TEST(PrefixLabels, APiecewiseGraphGetsATreePerPiece) {
    PrefixGraph g(5);
    g.connect(3, 1, 4, 1);
    g.connect(0, 1, 1, 1);
    const PrefixLabels l = PrefixLabels::minimum(g, 3);
    EXPECT_EQ(l.roots(), (std::vector<NodeIndex>{3, 0, 2}));
    EXPECT_EQ(label_text(l.label(4)), "11");
    EXPECT_EQ(label_text(l.label(1)), "21");
    EXPECT_EQ(label_text(l.label(2)), "3");
    EXPECT_THROW(prefix_route(l, 4, 1), std::invalid_argument);
    EXPECT_FALSE(next_channel(l, 4, l.label(1)));
    const auto tables = flood_tables(l);
    EXPECT_TRUE(tables[2].empty());
    EXPECT_EQ(tables[4].size(), 2u);  // 3's news, its own
}

// A connected random graph: a random spanning tree, then extra links; node degrees bounded by
// the port count.
PrefixGraph random_graph(std::uint32_t seed, std::size_t nodes, std::size_t extra) {
    std::mt19937 rng(seed);
    PrefixGraph g(nodes);
    std::vector<PortNumber> next(nodes, 1);
    auto join = [&](NodeIndex x, NodeIndex y) { g.connect(x, next[x]++, y, next[y]++); };
    for (NodeIndex n = 1; n < nodes; ++n) join(n, static_cast<NodeIndex>(rng() % n));
    for (std::size_t i = 0; i < extra; ++i) {
        const auto x = static_cast<NodeIndex>(rng() % nodes), y = static_cast<NodeIndex>(rng() % nodes);
        if (x != y) join(x, y);
    }
    return g;
}

TEST(PrefixTheorems, RandomIrregularGraphsRouteUpCrossDown) {
    for (std::uint32_t seed = 1; seed <= 40; ++seed) {
        const PrefixGraph g = random_graph(seed, 6 + seed % 20, seed % 30);
        const PrefixLabels l = PrefixLabels::minimum(g, seed % g.size());
        for (NodeIndex s = 0; s < g.size(); ++s)
            for (NodeIndex d = 0; d < g.size(); ++d) {
                const auto hops = prefix_route(l, s, d);
                // up*, at most one cross, down*. A minimum tree has shortcuts only where a link
                // doubles a tree link (the random graphs have some): the paper's non-minimum
                // shape, up* (cross | up_shortcut)? (down | down_shortcut)*, covers them.
                std::size_t i = 0;
                while (i < hops.size() && hops[i].kind == ChannelKind::kUp) ++i;
                if (i < hops.size() &&
                    (hops[i].kind == ChannelKind::kCross || hops[i].kind == ChannelKind::kUpShortcut))
                    ++i;
                while (i < hops.size() &&
                       (hops[i].kind == ChannelKind::kDown || hops[i].kind == ChannelKind::kDownShortcut))
                    ++i;
                ASSERT_EQ(i, hops.size()) << "seed " << seed << " " << s << " -> " << d;
                // No longer than up to the root and down again.
                EXPECT_LE(hops.size(), l.depth(s) + l.depth(d)) << seed;
            }
    }
}

TEST(PrefixTheorems, RandomMulticastsDeliverOnceAndSplitOnlyFromTheLcp) {
    std::mt19937 rng(99);
    for (std::uint32_t seed = 1; seed <= 30; ++seed) {
        const PrefixGraph g = random_graph(seed, 8 + seed % 16, seed % 25);
        const PrefixLabels l = PrefixLabels::minimum(g, 0);
        for (int trial = 0; trial < 20; ++trial) {
            const auto source = static_cast<NodeIndex>(rng() % g.size());
            std::vector<NodeIndex> dests;
            for (NodeIndex n = 0; n < g.size(); ++n)
                if (rng() % 3 == 0) dests.push_back(n);
            if (dests.empty()) continue;
            const PrefixMulticast m = prefix_multicast(l, source, dests);
            std::map<NodeIndex, int> delivered;
            bool split = false;
            for (const MulticastStep &s : m.steps) {
                if (s.deliver) ++delivered[s.node];
                if (s.up_phase) {
                    EXPECT_FALSE(split);
                    EXPECT_EQ(s.out.size(), 1u);  // a single head until the LCP
                }
                split = split || !s.up_phase;
                if (!s.up_phase) {
                    for (const RouteHop &h : s.out)
                        EXPECT_TRUE(h.kind == ChannelKind::kDown || h.kind == ChannelKind::kDownShortcut);
                }
            }
            const std::set<NodeIndex> want(dests.begin(), dests.end());
            EXPECT_EQ(delivered.size(), want.size());
            for (auto [n, count] : delivered) {
                EXPECT_EQ(count, 1);
                EXPECT_TRUE(want.contains(n));
            }
            std::vector<NodeIndex> others;
            for (NodeIndex n : want)
                if (n != source) others.push_back(n);
            if (!others.empty()) {
                EXPECT_EQ(l.label(m.lcp), longest_common_prefix(l, others));
            }
        }
        EXPECT_NO_THROW(flood_tables(l)) << seed;
    }
}

}  // namespace
}  // namespace weft::arn
