// The `prefix` engine, and deadlock freedom of prefix routing and multicast shown by the routing
// library's credit-loop check over the channel dependencies of every route and multicast: on
// seed 003's figures, on seeded random irregular fabrics, after re-labelling, and against
// shortest-path routes on the same fabrics, where the same check does find credit loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>

#include "prefix_figures.hpp"
#include "test_fabrics.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/prefix.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

namespace fig = arn::figures;

// A fabric of switches as the prefix graph has them (switch i = node i, same ports), each with
// `hosts` CAs on the ports after its links.
Fabric fabric_of(const arn::PrefixGraph &g, unsigned hosts = 1) {
    test::Builder b;
    std::vector<PortNum> used(g.size(), 0);
    for (arn::NodeIndex n = 0; n < g.size(); ++n)
        for (const auto &a : g.links(n)) used[n] = std::max(used[n], static_cast<PortNum>(a.port));
    for (arn::NodeIndex n = 0; n < g.size(); ++n) b.sw(static_cast<PortNum>(used[n] + hosts));
    for (arn::NodeIndex n = 0; n < g.size(); ++n) {
        for (const auto &a : g.links(n))
            if (n < a.peer)
                b.f.connect(b.sws[n], static_cast<PortNum>(a.port), b.sws[a.peer],
                            static_cast<PortNum>(a.peer_port));
        for (unsigned h = 1; h <= hosts; ++h) b.host(b.sws[n], static_cast<PortNum>(used[n] + h));
    }
    test::assign_lids(b.f);
    return std::move(b.f);
}

void add_unicasts(const Fabric &f, const arn::PrefixLabels &l, std::vector<ChannelTurn> &turns) {
    for (arn::NodeIndex s = 0; s < l.size(); ++s)
        for (arn::NodeIndex d = 0; d < l.size(); ++d)
            if (l.same_tree(s, d)) append_turns(f, arn::prefix_route(l, s, d), turns);
}

// Every subset of destinations from every source (small graphs only).
void add_every_multicast(const Fabric &f, const arn::PrefixLabels &l, std::vector<ChannelTurn> &turns) {
    const std::size_t n = l.size();
    for (arn::NodeIndex s = 0; s < n; ++s)
        for (std::uint32_t set = 1; set < (1u << n); ++set) {
            std::vector<arn::NodeIndex> dests;
            for (arn::NodeIndex d = 0; d < n; ++d)
                if (set >> d & 1) dests.push_back(d);
            append_turns(f, arn::prefix_multicast(l, s, dests), turns);
        }
}

// From every source to all others (ARN's floods), and `count` random subsets.
void add_some_multicasts(const Fabric &f, const arn::PrefixLabels &l, std::mt19937 &rng, int count,
                         std::vector<ChannelTurn> &turns) {
    for (arn::NodeIndex s = 0; s < l.size(); ++s) {
        std::vector<arn::NodeIndex> all;
        for (arn::NodeIndex d = 0; d < l.size(); ++d)
            if (d != s && l.same_tree(s, d)) all.push_back(d);
        append_turns(f, arn::prefix_multicast(l, s, all), turns);
    }
    for (int i = 0; i < count; ++i) {
        const auto s = static_cast<arn::NodeIndex>(rng() % l.size());
        std::vector<arn::NodeIndex> dests;
        for (arn::NodeIndex d = 0; d < l.size(); ++d)
            if (l.same_tree(s, d) && rng() % 4 == 0) dests.push_back(d);
        append_turns(f, arn::prefix_multicast(l, s, dests), turns);
    }
}

TEST(PrefixEngine, TheSwitchGraphIsTheFabricsSwitches) {
    const arn::PrefixGraph g = fig::figure4();
    const Fabric f = fabric_of(g, 2);
    const arn::PrefixGraph back = prefix_switch_graph(f);
    ASSERT_EQ(back.size(), g.size());
    for (arn::NodeIndex n = 0; n < g.size(); ++n)
        EXPECT_TRUE(std::ranges::equal(back.links(n), g.links(n))) << n;
}

// Every route and every multicast under `labels`: no credit loop, and some dependencies to check.
void expect_no_loops_in_everything(const Fabric &f, const arn::PrefixLabels &l) {
    std::vector<ChannelTurn> turns;
    add_unicasts(f, l, turns);
    add_every_multicast(f, l, turns);
    const CreditLoopReport r = check_turn_credit_loops(f, turns);
    EXPECT_FALSE(r.has_cycle) << r.describe(f);
    EXPECT_GT(r.dependencies, l.size());
}

TEST(PrefixDeadlock, Figure4EveryRouteAndEveryMulticast) {
    const arn::PrefixGraph g = fig::figure4();
    expect_no_loops_in_everything(fabric_of(g), arn::PrefixLabels::minimum(g, fig::a));
}

TEST(PrefixDeadlock, Figure5NonMinimumTreeWithShortcuts) {
    const arn::PrefixGraph g = fig::figure5();
    expect_no_loops_in_everything(fabric_of(g), arn::PrefixLabels::from_tree(g, fig::a, fig::figure5_line()));
}

TEST(PrefixDeadlock, Figure6AfterEitherFailure) {
    const arn::PrefixGraph g = fig::figure4();
    const Fabric f = fabric_of(g);
    const arn::PrefixLabels l = arn::PrefixLabels::minimum(g, fig::a);
    for (auto [n, to] : {std::pair{fig::d, fig::e}, std::pair{fig::b, fig::e}}) {
        PortNum port = 0;
        for (const auto &a : g.links(n))
            if (a.peer == to) port = static_cast<PortNum>(a.port);
        const arn::PrefixLabels after = arn::relabel_after_failure(l, n, port);
        std::vector<ChannelTurn> turns;
        add_unicasts(f, after, turns);
        add_every_multicast(f, after, turns);
        for (const ChannelTurn &t : turns)  // nothing crosses the failed link
            EXPECT_FALSE(t.node == f.switch_node(n) && (t.out_port == port || t.in_port == port));
        const CreditLoopReport r = check_turn_credit_loops(f, turns);
        EXPECT_FALSE(r.has_cycle) << r.describe(f);
    }
}

// Destination-based shortest paths (the lowest port one hop closer), for the negative control.
void add_shortest_paths(const Fabric &f, const arn::PrefixGraph &g, std::vector<ChannelTurn> &turns) {
    for (arn::NodeIndex d = 0; d < g.size(); ++d) {
        std::vector<unsigned> dist(g.size(), ~0u);
        std::deque<arn::NodeIndex> q{d};
        dist[d] = 0;
        while (!q.empty()) {
            const arn::NodeIndex v = q.front();
            q.pop_front();
            for (const auto &a : g.links(v))
                if (dist[a.peer] == ~0u) dist[a.peer] = dist[v] + 1, q.push_back(a.peer);
        }
        for (arn::NodeIndex s = 0; s < g.size(); ++s) {
            std::vector<arn::RouteHop> hops;
            for (arn::NodeIndex v = s; v != d && dist[v] != ~0u;) {
                for (const auto &a : g.links(v))
                    if (dist[a.peer] + 1 == dist[v]) {
                        hops.push_back({v, a.port, a.peer, a.peer_port, arn::ChannelKind::kCross});
                        break;
                    }
                v = hops.back().next;
            }
            append_turns(f, hops, turns);
        }
    }
}

TEST(PrefixDeadlock, RandomIrregularFabrics) {
    std::mt19937 rng(2024);
    int shortest_with_loops = 0;
    const int seeds = 16;
    for (int seed = 1; seed <= seeds; ++seed) {
        const int switches = 12 + 3 * seed;
        Fabric f = test::generated("random:switches=" + std::to_string(switches) + ",degree=" +
                                   std::to_string(3 + seed % 4) + ",hosts=1,seed=" + std::to_string(seed));
        const arn::PrefixLabels l = prefix_labels(f, {});
        std::vector<ChannelTurn> turns;
        add_unicasts(f, l, turns);
        add_some_multicasts(f, l, rng, 200, turns);
        const CreditLoopReport r = check_turn_credit_loops(f, turns);
        EXPECT_FALSE(r.has_cycle) << "seed " << seed << "\n" << r.describe(f);

        // After a tree link fails (a new tree at the detecting end) and after a cross link fails.
        for (bool tree : {true, false}) {
            const auto node = static_cast<arn::NodeIndex>(rng() % l.size());
            for (const arn::PrefixChannel &c : l.channels(node)) {
                if (l.tree_link(node, c.port) != tree) continue;
                const arn::PrefixLabels after = arn::relabel_after_failure(l, node, c.port);
                if (tree) {
                    EXPECT_EQ(after.root(), node);
                }
                std::vector<ChannelTurn> again;
                add_unicasts(f, after, again);
                add_some_multicasts(f, after, rng, 50, again);
                const CreditLoopReport ra = check_turn_credit_loops(f, again);
                EXPECT_FALSE(ra.has_cycle) << "seed " << seed << " after a failure\n" << ra.describe(f);
                break;
            }
        }

        // The check is not vacuous: shortest paths on the same fabric.
        std::vector<ChannelTurn> shortest;
        add_shortest_paths(f, prefix_switch_graph(f), shortest);
        shortest_with_loops += check_turn_credit_loops(f, shortest).has_cycle ? 1 : 0;
    }
    EXPECT_GT(shortest_with_loops, seeds / 2);
}

TEST(PrefixDeadlock, TheCheckFindsARingsLoop) {
    arn::PrefixGraph ring(5);
    for (arn::NodeIndex n = 0; n < 5; ++n) ring.connect(n, 1, (n + 1) % 5, 2);
    const Fabric f = fabric_of(ring);
    std::vector<ChannelTurn> shortest;
    add_shortest_paths(f, ring, shortest);
    const CreditLoopReport r = check_turn_credit_loops(f, shortest);
    EXPECT_TRUE(r.has_cycle);
    EXPECT_EQ(r.cycle.size(), 5u) << r.describe(f);
    // Prefix routing on the same ring: a cross link where the ring closes, no loop.
    std::vector<ChannelTurn> turns;
    const arn::PrefixLabels l = arn::PrefixLabels::minimum(ring, 0);
    add_unicasts(f, l, turns);
    add_every_multicast(f, l, turns);
    EXPECT_FALSE(check_turn_credit_loops(f, turns).has_cycle);
    EXPECT_THROW(check_turn_credit_loops(f, std::vector<ChannelTurn>{{f.switch_node(0), 1, 9, 0, 0}}),
                 std::invalid_argument);
}

TEST(PrefixEngine, RoutesTheLidsOfFigure4ByThePrefixTree) {
    Fabric f = fabric_of(fig::figure4());
    RoutingOptions o;
    o.root_guids = {f.node(f.switch_node(fig::a)).guid};
    const RoutingTables t = test::route_alone("prefix", f, o);
    EXPECT_EQ(t.vls_used, 1u);
    // The host on f (switch 5) from switch b: b -> c -> f, the paper's 11 -> 12 -> 121.
    const Lid host_f = test::ca_lids(f)[fig::f];
    const auto path = test::walk(f, t, fig::b, host_f);
    ASSERT_TRUE(path);
    ASSERT_EQ(path->size(), 2u);  // the switch-to-switch channels: b to c, c to f
    EXPECT_EQ(f.port(f.switch_node(fig::b), path->at(0).second).peer, f.switch_node(fig::c));
    EXPECT_EQ(f.port(f.switch_node(fig::c), path->at(1).second).peer, f.switch_node(fig::f));
    EXPECT_EQ(test::check_all_routes(f, t), "");
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
}

TEST(PrefixEngine, TheRootIsTheShallowestSwitchUnlessGiven) {
    const Fabric f = fabric_of(fig::figure5());      // a line with two shortcuts from b
    EXPECT_EQ(prefix_labels(f, {}).root(), fig::b);  // b reaches every switch in 2 hops
    RoutingOptions o;
    o.root_guids = {0xDEAD, f.node(f.switch_node(fig::e)).guid};
    EXPECT_EQ(prefix_labels(f, o).root(), fig::e);
}

TEST(PrefixEngine, AMulticastTreeIsThePrefixTreeBelowTheMembersLcp) {
    Fabric f = fabric_of(fig::figure4());
    RoutingOptions o;
    o.root_guids = {f.node(f.switch_node(fig::a)).guid};
    RoutingTables t;
    const ChainResult r = run_chain("prefix", f, o, t);
    ASSERT_TRUE(r.ok);
    McastGroup g;
    g.mlid = 0xC001;
    for (arn::NodeIndex n : {fig::e, fig::f}) {
        const auto host =
            f.port(f.switch_node(n), static_cast<PortNum>(f.node(f.switch_node(n)).num_ports)).peer;
        g.members.push_back({host, 1});
    }
    McastTree tree;
    ASSERT_TRUE(build_mcast_tree(r, f, o, t, g, tree).ok);
    EXPECT_TRUE(verify_mcast_tree(f, g, tree).ok());
    // e (112) and f (121): their LCP is a; the tree is a-b-e and a-c-f, nothing at d.
    for (arn::NodeIndex n : {fig::a, fig::b, fig::c, fig::e, fig::f})
        EXPECT_FALSE(tree.ports[n].empty()) << n;
    EXPECT_TRUE(tree.ports[fig::d].empty());
    EXPECT_EQ(tree.ports[fig::a].size(), 2u);
    // Members on one switch only: the tree is that switch.
    McastGroup one;
    one.mlid = 0xC002;
    const NodeIdx sw_e = f.switch_node(fig::e);
    one.members = {{f.port(sw_e, f.node(sw_e).num_ports).peer, 1}, {sw_e, 0}};
    McastTree small;
    ASSERT_TRUE(build_mcast_tree(r, f, o, t, one, small).ok);
    EXPECT_TRUE(verify_mcast_tree(f, one, small).ok());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) EXPECT_EQ(small.ports[s].empty(), s != fig::e) << s;
}

}  // namespace
}  // namespace weft::routing
