// ARS groups from engine tables: what the candidates are, that naive alternates close credit
// loops where the tests say they do, that the compiler keeps the union acyclic and leaves out no
// more than it must (every member it refused closes a loop when added back).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "weft/routing/ars_groups.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

struct Routed {
    Fabric f;
    RoutingTables t;
    Routed() = default;
    Routed(const std::string &spec, const std::string &engine, RoutingOptions o = {}) : f(generate(spec)) {
        assign_lids(f, {});
        o.no_fallback = true;
        const ChainResult r = run_chain(engine, f, o, t);
        if (!r.ok) throw std::runtime_error(engine + " did not route " + spec);
    }
};

// g with port p appended to the alternates of group (d, s).
ArsGroups with_alternate(const ArsGroups &g, std::size_t d, SwitchIdx s, PortNum p) {
    ArsGroups out = g;
    out.alternate_ports.clear();
    out.alternate_begin.assign(1, 0);
    for (std::size_t i = 0; i + 1 < g.alternate_begin.size(); ++i) {
        out.alternate_ports.insert(out.alternate_ports.end(),
                                   g.alternate_ports.begin() + g.alternate_begin[i],
                                   g.alternate_ports.begin() + g.alternate_begin[i + 1]);
        if (i == d * g.switches + s) out.alternate_ports.push_back(p);
        out.alternate_begin.push_back(static_cast<std::uint32_t>(out.alternate_ports.size()));
    }
    return out;
}

std::uint64_t count_alternates(const ArsGroups &g) {
    return g.alternate_ports.size();
}

bool contains(std::span<const PortNum> s, PortNum p) {
    return std::find(s.begin(), s.end(), p) != s.end();
}

// Every group of `compiled` is a subset of the naive one with the same fixed member.
void expect_subset(const ArsGroups &compiled, const ArsGroups &naive) {
    ASSERT_EQ(compiled.destinations.size(), naive.destinations.size());
    for (std::size_t d = 0; d < compiled.destinations.size(); ++d)
        for (SwitchIdx s = 0; s < compiled.switches; ++s) {
            const ArsGroup c = compiled.group(d, s), n = naive.group(d, s);
            EXPECT_EQ(c.fixed, n.fixed);
            for (PortNum p : c.primary) EXPECT_TRUE(contains(n.primary, p));
            for (PortNum p : c.alternate) EXPECT_TRUE(contains(n.alternate, p));
            if (c.fixed != kNoPort) {
                EXPECT_TRUE(contains(c.primary, c.fixed));
            }
        }
}

// The compiler leaves out nothing it could have kept: each candidate it refused for a credit
// loop, put back alone into the final groups, gives a union with a cycle (the union only grew
// after the refusal, so the loop it would have closed is still there).
void expect_maximal(const Routed &r, const ArsGroups &compiled, const ArsGroups &naive) {
    unsigned tried = 0;
    for (std::size_t d = 0; d < compiled.destinations.size(); ++d)
        for (SwitchIdx s = 0; s < compiled.switches; ++s) {
            const ArsGroup c = compiled.group(d, s), n = naive.group(d, s);
            for (auto list : {n.primary, n.alternate})
                for (PortNum p : list) {
                    if (contains(c.primary, p) || contains(c.alternate, p)) continue;
                    ++tried;
                    EXPECT_TRUE(check_ars_credit_loops(r.f, r.t, with_alternate(compiled, d, s, p)).has_cycle)
                        << "switch " << s << " port " << int{p} << " destination " << d;
                }
        }
    EXPECT_GT(tried, 0u);
}

TEST(ArsGroups, DestinationsAreTheLeavesWithTheirLowestLid) {
    Routed r("kary:k=4,n=3", "ftree");
    const auto dests = ars_destinations(r.f);
    ASSERT_EQ(dests.size(), 16u);  // 16 leaves of 4 hosts
    for (const ArsDestination &d : dests) {
        const NodeIdx n = r.f.switch_node(d.sw);
        Lid lowest = kMaxExtendedLid;
        for (PortNum p = 1; p <= r.f.node(n).num_ports; ++p) {
            const Port &x = r.f.port(n, p);
            if (x.linked() && !r.f.node(x.peer).is_switch())
                lowest = std::min(lowest, r.f.port(x.peer, x.peer_port).lid);
        }
        EXPECT_EQ(d.lid, lowest);
    }
}

TEST(ArsGroups, FatTreePrimariesAreEveryUpPortAndTheUnionStaysAcyclic) {
    Routed r("kary:k=4,n=3", "ftree");
    ArsCompileReport rep;
    const ArsGroups g = compile_ars_groups(r.f, r.t, {}, &rep);
    const auto &dests = g.destinations;
    unsigned leaf_groups = 0;
    for (std::size_t d = 0; d < dests.size(); ++d)
        for (const ArsDestination &src : dests) {
            if (src.sw == dests[d].sw) {
                EXPECT_EQ(g.group(d, src.sw).fixed, kNoPort);  // a leaf delivers its own hosts
                continue;
            }
            const ArsGroup grp = g.group(d, src.sw);
            const NodeIdx n = r.f.switch_node(src.sw);
            std::vector<PortNum> up;
            for (PortNum p = 1; p <= r.f.node(n).num_ports; ++p)
                if (r.f.port(n, p).linked() && r.f.node(r.f.port(n, p).peer).is_switch()) up.push_back(p);
            EXPECT_EQ(std::vector<PortNum>(grp.primary.begin(), grp.primary.end()), up);
            EXPECT_EQ(grp.fixed, r.t.lft[src.sw][dests[d].lid]);
            ++leaf_groups;
        }
    EXPECT_EQ(leaf_groups, 16u * 15u);
    EXPECT_EQ(rep.count(ArsLeftOut::PrimaryCreditLoop).count, 0u);
    EXPECT_EQ(rep.unrouted, 0u);
    EXPECT_EQ(rep.groups, 16u * 47u);  // every other switch routes every leaf
    EXPECT_EQ(rep.primaries, g.primary_ports.size());
    EXPECT_EQ(rep.alternates, count_alternates(g));
    EXPECT_FALSE(rep.engine_cycle.has_cycle);
    EXPECT_FALSE(check_ars_credit_loops(r.f, r.t, g).has_cycle);
    // Naive detours on a fat tree turn down then up again, a loop through a leaf.
    const ArsGroups naive = naive_ars_groups(r.f, r.t);
    EXPECT_TRUE(check_ars_credit_loops(r.f, r.t, naive).has_cycle);
    expect_subset(g, naive);
    EXPECT_EQ(rep.left_out_total(), naive.primary_ports.size() + naive.alternate_ports.size() -
                                        g.primary_ports.size() - g.alternate_ports.size());
}

TEST(ArsGroups, AForwardingLoopThroughAnAlternateIsACycle) {
    Routed r("kary:k=4,n=2", "ftree");
    const ArsGroups g = compile_ars_groups(r.f, r.t);
    ASSERT_FALSE(check_ars_credit_loops(r.f, r.t, g).has_cycle);
    // A spine sends leaf 0's traffic down to leaf 1, whose group for leaf 0 goes up to that spine.
    const SwitchIdx leaf1 = g.destinations[1].sw;
    const NodeIdx l1 = r.f.switch_node(leaf1);
    const PortNum up = g.group(0, leaf1).fixed;
    const Port &cable = r.f.port(l1, up);
    const SwitchIdx spine = r.f.node(cable.peer).sw;
    const CreditLoopReport c = check_ars_credit_loops(r.f, r.t, with_alternate(g, 0, spine, cable.peer_port));
    ASSERT_TRUE(c.has_cycle);
    ASSERT_EQ(c.cycle.size(), 2u);
    for (const Channel &ch : c.cycle)
        EXPECT_TRUE((ch.node == l1 && ch.port == up) || (ch.node == cable.peer && ch.port == cable.peer_port))
            << channel_name(r.f, ch.node, ch.port);
}

TEST(ArsGroups, RingWithoutVlSeparationNaiveAlternatesCloseALoopAndAreLeftOut) {
    Routed r("torus:8,hosts=1", "nue");  // one virtual layer: nothing but the routes keeps it safe
    ASSERT_FALSE(check_credit_loops(r.f, r.t).has_cycle);
    const ArsGroups naive = naive_ars_groups(r.f, r.t);
    const CreditLoopReport nc = check_ars_credit_loops(r.f, r.t, naive);
    ASSERT_TRUE(nc.has_cycle);
    EXPECT_EQ(nc.vls, 1u);
    ArsCompileReport rep;
    const ArsGroups g = compile_ars_groups(r.f, r.t, {}, &rep);
    EXPECT_FALSE(check_ars_credit_loops(r.f, r.t, g).has_cycle);
    EXPECT_GT(rep.count(ArsLeftOut::AlternateCreditLoop).count, 0u);
    // The other way round the ring is kept where it is safe, not nowhere.
    EXPECT_GT(rep.alternates, 0u);
    expect_subset(g, naive);
    expect_maximal(r, g, naive);
    // The example names a member that really was a candidate and was not kept.
    const ArsMember ex = rep.count(ArsLeftOut::AlternateCreditLoop).example;
    EXPECT_TRUE(contains(naive.group(ex.dest, ex.sw).alternate, ex.port));
    EXPECT_FALSE(contains(g.group(ex.dest, ex.sw).alternate, ex.port));
    const std::string why = rep.describe(r.f, g);
    EXPECT_NE(why.find("alternate-credit-loop: " +
                       std::to_string(rep.count(ArsLeftOut::AlternateCreditLoop).count) + " (e.g. "),
              std::string::npos)
        << why;
}

TEST(ArsGroups, DragonflyKeepsMoreAlternatesWithVirtualLayers) {
    Routed one("dragonfly:a=4,p=2,h=2", "nue");
    RoutingOptions q;
    q.qos = true;
    q.nue_max_num_vls = 4;
    Routed four("dragonfly:a=4,p=2,h=2", "nue", q);
    ASSERT_EQ(one.t.vls_used, 1u);
    ASSERT_GT(four.t.vls_used, 1u);
    for (const Routed *r : {&one, &four}) {
        const ArsGroups naive = naive_ars_groups(r->f, r->t);
        EXPECT_TRUE(check_ars_credit_loops(r->f, r->t, naive).has_cycle);
    }
    ArsCompileReport r1, r4;
    const ArsGroups g1 = compile_ars_groups(one.f, one.t, {}, &r1);
    const ArsGroups g4 = compile_ars_groups(four.f, four.t, {}, &r4);
    EXPECT_FALSE(check_ars_credit_loops(one.f, one.t, g1).has_cycle);
    EXPECT_FALSE(check_ars_credit_loops(four.f, four.t, g4).has_cycle);
    EXPECT_GT(r1.count(ArsLeftOut::AlternateCreditLoop).count, 0u);
    EXPECT_GT(r4.alternates, r1.alternates);
    EXPECT_GT(r4.primaries, r1.primaries);
    expect_maximal(one, g1, naive_ars_groups(one.f, one.t));
}

TEST(ArsGroups, EngineRoutesWithACreditLoopGetNothingAdded) {
    Routed r("torus:8,hosts=1", "minhop");  // minimal routes round a ring on one VL
    ASSERT_TRUE(check_credit_loops(r.f, r.t).has_cycle);
    ArsCompileReport rep;
    const ArsGroups g = compile_ars_groups(r.f, r.t, {}, &rep);
    EXPECT_TRUE(rep.engine_cycle.has_cycle);
    EXPECT_EQ(rep.alternates, 0u);
    EXPECT_EQ(rep.primaries, rep.groups);
    const ArsGroups naive = naive_ars_groups(r.f, r.t);
    EXPECT_EQ(rep.count(ArsLeftOut::EngineCreditLoop).count,
              naive.primary_ports.size() - rep.groups + naive.alternate_ports.size());
    for (std::size_t d = 0; d < g.destinations.size(); ++d)
        for (SwitchIdx s = 0; s < g.switches; ++s) {
            const ArsGroup grp = g.group(d, s);
            if (grp.fixed == kNoPort) continue;
            EXPECT_EQ(grp.primary.size(), 1u);
            EXPECT_TRUE(grp.alternate.empty());
        }
}

TEST(ArsGroups, LimitsAreCountedAndDeterministic) {
    Routed r("dragonfly:a=4,p=2,h=2", "nue");
    ArsOptions o;
    o.max_alternates = 1;
    o.max_extra_hops = 1;
    ArsCompileReport a, b;
    const ArsGroups ga = compile_ars_groups(r.f, r.t, o, &a);
    const ArsGroups gb = compile_ars_groups(r.f, r.t, o, &b);
    EXPECT_EQ(ga.fixed, gb.fixed);
    EXPECT_EQ(ga.primary_ports, gb.primary_ports);
    EXPECT_EQ(ga.alternate_ports, gb.alternate_ports);
    EXPECT_EQ(ga.alternate_begin, gb.alternate_begin);
    EXPECT_GT(a.count(ArsLeftOut::AlternateTooLong).count, 0u);
    EXPECT_GT(a.count(ArsLeftOut::GroupFull).count, 0u);
    for (std::size_t d = 0; d < ga.destinations.size(); ++d)
        for (SwitchIdx s = 0; s < ga.switches; ++s) EXPECT_LE(ga.group(d, s).alternate.size(), 1u);
    EXPECT_FALSE(check_ars_credit_loops(r.f, r.t, ga).has_cycle);
}

// The same fabric with its nodes in the opposite order (as another discovery may find them),
// and the engine's tables carried over switch by switch.
Routed reversed(const Routed &r) {
    Routed out;
    const std::size_t N = r.f.node_count();
    auto moved = [N](NodeIdx n) { return static_cast<NodeIdx>(N - 1 - n); };
    for (std::size_t k = 0; k < N; ++k) {
        const Node &x = r.f.node(moved(static_cast<NodeIdx>(k)));
        out.f.add_node(x.type, x.guid, x.num_ports, x.desc, x.sys_guid);
    }
    for (NodeIdx n = 0; n < N; ++n)
        for (PortNum p = 0; p <= r.f.node(n).num_ports; ++p) {
            const Port &x = r.f.port(n, p);
            if (p > 0 && x.peer != kNoNode && (x.peer > n || (x.peer == n && x.peer_port > p)))
                out.f.connect(moved(n), p, moved(x.peer), x.peer_port, x.width, x.speed, x.state);
            if (x.lid) out.f.set_lid(moved(n), p, x.lid, x.lmc);
        }
    out.t = r.t;
    for (SwitchIdx s = 0; s < r.f.switch_count(); ++s) {
        const SwitchIdx to = out.f.node(moved(r.f.switch_node(s))).sw;
        out.t.lft[to] = r.t.lft[s];
        out.t.hops[to] = r.t.hops[s];
        if (!r.t.path_sl.empty()) out.t.path_sl[to] = r.t.path_sl[s];
        if (!r.t.sl2vl.empty()) out.t.sl2vl[to] = r.t.sl2vl[s];
    }
    return out;
}

// What the compiler tries first wins, so it goes by GUIDs, not by the order the nodes came in:
// an SM whose discovery finds the switches in another order programs the same groups.
TEST(ArsGroups, TheGroupsDoNotDependOnTheOrderOfTheNodes) {
    const Routed r("dragonfly:a=4,p=1,h=2", "dfsssp");
    const Routed back = reversed(r);
    ArsCompileReport ra, rb;
    const ArsGroups a = compile_ars_groups(r.f, r.t, {}, &ra);
    const ArsGroups b = compile_ars_groups(back.f, back.t, {}, &rb);
    EXPECT_GT(ra.count(ArsLeftOut::AlternateCreditLoop).count, 0u);  // the order matters here
    EXPECT_EQ(ra.primaries, rb.primaries);
    EXPECT_EQ(ra.alternates, rb.alternates);
    ASSERT_EQ(a.destinations.size(), b.destinations.size());
    for (std::size_t d = 0; d < a.destinations.size(); ++d) {
        const Guid leaf = r.f.node(r.f.switch_node(a.destinations[d].sw)).guid;
        ASSERT_EQ(back.f.node(back.f.switch_node(b.destinations[d].sw)).guid, leaf);
        for (SwitchIdx s = 0; s < a.switches; ++s) {
            const SwitchIdx t = back.f.node(*back.f.find_guid(r.f.node(r.f.switch_node(s)).guid)).sw;
            const ArsGroup x = a.group(d, s), y = b.group(d, t);
            EXPECT_EQ(x.fixed, y.fixed);
            EXPECT_TRUE(std::equal(x.primary.begin(), x.primary.end(), y.primary.begin(), y.primary.end()));
            EXPECT_TRUE(
                std::equal(x.alternate.begin(), x.alternate.end(), y.alternate.begin(), y.alternate.end()))
                << r.f.node(r.f.switch_node(s)).desc << " to " << d;
        }
    }
}

}  // namespace
}  // namespace weft::routing
