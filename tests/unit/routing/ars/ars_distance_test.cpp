// What "minimal" means to the ARS group compiler when a hop is not the measure: on a dragonfly a
// route through an intermediate group is a detour even where it has no more hops than the route
// through the destination group's own global link, and with -w hop weights the primaries are
// the ports on the cheapest routes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
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
    Routed(const std::string &spec, const std::string &engine, RoutingOptions o = {}) : f(generate(spec)) {
        assign_lids(f, {});
        o.no_fallback = true;
        const ChainResult r = run_chain(engine, f, o, t);
        if (!r.ok) throw std::runtime_error(engine + " did not route " + spec);
    }
    NodeIdx node(SwitchIdx s) const { return f.switch_node(s); }
    SwitchIdx peer(SwitchIdx s, PortNum p) const { return f.node(f.port(node(s), p).peer).sw; }
    bool to_switch(SwitchIdx s, PortNum p) const {
        const Port &x = f.port(node(s), p);
        return x.linked() && f.node(x.peer).is_switch();
    }
};

// The generator names a dragonfly's routers "g<group>-r<router>".
unsigned group_of(const Routed &r, SwitchIdx s) {
    const std::string &d = r.f.node(r.node(s)).desc;
    return static_cast<unsigned>(std::stoul(d.substr(1, d.find('-') - 1)));
}

std::set<PortNum> as_set(std::span<const PortNum> s) {
    return {s.begin(), s.end()};
}

// s's port to switch `to`, kNoPort when they are not cabled.
PortNum port_to(const Routed &r, SwitchIdx s, SwitchIdx to) {
    for (PortNum p = 1; p <= r.f.node(r.node(s)).num_ports; ++p)
        if (r.to_switch(s, p) && r.peer(s, p) == to) return p;
    return kNoPort;
}

// The one port of s on a route with a single global link into group `dst` (one global cable per
// group pair): that cable when s owns it, else the local link to the router that does.
PortNum minimal_port(const Routed &r, SwitchIdx s, unsigned dst) {
    const unsigned home = group_of(r, s);
    for (SwitchIdx owner = 0; owner < r.f.switch_count(); ++owner) {
        if (group_of(r, owner) != home) continue;
        for (PortNum p = 1; p <= r.f.node(r.node(owner)).num_ports; ++p)
            if (r.to_switch(owner, p) && group_of(r, r.peer(owner, p)) == dst)
                return owner == s ? p : port_to(r, s, owner);
    }
    return kNoPort;
}

TEST(ArsDistance, DragonflyPrimariesCrossOneGlobalLinkAndIntermediateGroupsAreAlternates) {
    Routed r("dragonfly:a=4,p=1,h=2", "dfsssp");  // 9 groups of 4
    ArsOptions o;
    o.max_extra_hops = 4;  // every detour a candidate
    const ArsGroups naive = naive_ars_groups(r.f, r.t, o);
    unsigned intermediate = 0, fixed_detours = 0;
    for (std::size_t d = 0; d < naive.destinations.size(); ++d) {
        const unsigned dst = group_of(r, naive.destinations[d].sw);
        for (SwitchIdx s = 0; s < naive.switches; ++s) {
            if (group_of(r, s) == dst) continue;
            const ArsGroup g = naive.group(d, s);
            ASSERT_NE(g.fixed, kNoPort);
            std::set<PortNum> want{minimal_port(r, s, dst), g.fixed};
            fixed_detours += want.size() > 1;
            EXPECT_EQ(as_set(g.primary), want) << r.f.node(r.node(s)).desc << " to group " << dst;
            // Every global link into a third group is a detour on offer.
            for (PortNum p = 1; p <= r.f.node(r.node(s)).num_ports; ++p) {
                if (!r.to_switch(s, p) || p == g.fixed) continue;
                const unsigned via = group_of(r, r.peer(s, p));
                if (via == group_of(r, s) || via == dst) continue;
                ++intermediate;
                EXPECT_TRUE(as_set(g.alternate).count(p)) << r.f.node(r.node(s)).desc << " port " << int{p};
            }
        }
    }
    EXPECT_GT(intermediate, 0u);
    // dfsssp balances: some of its own routes go through a third group, and stay in the group.
    EXPECT_GT(fixed_detours, 0u);

    ArsCompileReport rep;
    const ArsGroups g = compile_ars_groups(r.f, r.t, o, &rep);
    EXPECT_EQ(rep.distance, ArsDistance::Dragonfly);
    EXPECT_FALSE(check_ars_credit_loops(r.f, r.t, g).has_cycle);
    unsigned kept = 0;
    for (std::size_t d = 0; d < g.destinations.size(); ++d)
        for (SwitchIdx s = 0; s < g.switches; ++s) {
            const ArsGroup c = g.group(d, s), n = naive.group(d, s);
            for (PortNum p : c.primary) EXPECT_TRUE(as_set(n.primary).count(p));
            for (PortNum p : c.alternate) {
                EXPECT_TRUE(as_set(n.alternate).count(p));
                const unsigned via = group_of(r, r.peer(s, p));
                kept += via != group_of(r, s) && via != group_of(r, g.destinations[d].sw);
            }
        }
    EXPECT_GT(kept, 0u);  // the union leaves room for some of the detours ARN steers flowlets to
}

// A route through a third group can have no more hops than the one over the destination group's
// own cable (g0-r0's cable to group 2 lands on g2-r3, whose cable to group 1 lands on g1-r0: two
// hops, like g0-r0 over its cable to group 1, to g1-r3, then to g1-r0). Counting hops, as the
// compiler used to, makes it a primary; it is a detour.
TEST(ArsDistance, AnIntermediateGroupWithNoMoreHopsIsStillADetour) {
    Routed r("dragonfly:a=4,p=1,h=2", "dfsssp");
    ArsOptions hops;
    hops.distance = ArsDistance::Engine;
    const ArsGroups by_groups = naive_ars_groups(r.f, r.t), by_hops = naive_ars_groups(r.f, r.t, hops);
    unsigned seen = 0;
    for (std::size_t d = 0; d < by_groups.destinations.size(); ++d) {
        const ArsDestination &dest = by_groups.destinations[d];
        for (SwitchIdx s = 0; s < by_groups.switches; ++s) {
            const ArsGroup g = by_groups.group(d, s);
            if (g.fixed == kNoPort) continue;
            for (PortNum p = 1; p <= r.f.node(r.node(s)).num_ports; ++p) {
                if (!r.to_switch(s, p) || p == g.fixed) continue;
                const SwitchIdx far = r.peer(s, p);
                const unsigned via = group_of(r, far);
                if (via == group_of(r, s) || via == group_of(r, dest.sw)) continue;
                if (r.t.hops[far][dest.lid] + 1 != r.t.hops[s][dest.lid]) continue;
                ++seen;
                EXPECT_TRUE(as_set(by_hops.group(d, s).primary).count(p));
                EXPECT_FALSE(as_set(g.primary).count(p)) << r.f.node(r.node(s)).desc << " port " << int{p};
                EXPECT_TRUE(as_set(g.alternate).count(p)) << r.f.node(r.node(s)).desc << " port " << int{p};
            }
        }
    }
    EXPECT_GT(seen, 0u);
}

TEST(ArsDistance, HopWeightsMakeTheCheapestRoutesThePrimaries) {
    // Every port weighs 2 and spine 0's weigh 4: minhop routes around spine 0, and its up ports
    // are detours of no more hops.
    Fabric probe = generate("kary:k=4,n=2");
    RoutingOptions ro;
    SwitchIdx spine0 = kNoSwitch;
    for (SwitchIdx s = 0; s < probe.switch_count(); ++s) {
        const NodeIdx n = probe.switch_node(s);
        bool hosts = false;
        for (PortNum p = 1; p <= probe.node(n).num_ports; ++p)
            hosts |= probe.port(n, p).linked() && !probe.node(probe.port(n, p).peer).is_switch();
        if (!hosts && spine0 == kNoSwitch) spine0 = s;
        for (PortNum p = 1; p <= probe.node(n).num_ports; ++p)
            ro.hop_weights.push_back({probe.node(n).guid, p, s == spine0 ? 4u : 2u});
    }
    ASSERT_NE(spine0, kNoSwitch);
    Routed r("kary:k=4,n=2", "minhop", ro);
    ArsOptions o;
    o.hop_weights = ro.hop_weights;
    ArsCompileReport rep;
    const ArsGroups g = compile_ars_groups(r.f, r.t, o, &rep);
    EXPECT_EQ(rep.distance, ArsDistance::Weighted);
    EXPECT_FALSE(check_ars_credit_loops(r.f, r.t, g).has_cycle);
    unsigned groups = 0;
    for (std::size_t d = 0; d < g.destinations.size(); ++d)
        for (const ArsDestination &src : g.destinations) {
            if (src.sw == g.destinations[d].sw) continue;
            const ArsGroup grp = g.group(d, src.sw);
            std::set<PortNum> up, around;
            for (PortNum p = 1; p <= r.f.node(r.node(src.sw)).num_ports; ++p)
                if (r.to_switch(src.sw, p)) (r.peer(src.sw, p) == spine0 ? around : up).insert(p);
            EXPECT_EQ(as_set(grp.primary), up);
            EXPECT_EQ(as_set(grp.alternate), around);
            ++groups;
        }
    EXPECT_GT(groups, 0u);
    // On the engine's hop counts (here its weighted costs, read as hops) no port but the fixed one
    // looks minimal.
    ArsOptions hops = o;
    hops.distance = ArsDistance::Engine;
    const ArsGroups wrong = naive_ars_groups(r.f, r.t, hops);
    EXPECT_EQ(wrong.group(0, g.destinations[1].sw).primary.size(), 1u);
}

}  // namespace
}  // namespace weft::routing
