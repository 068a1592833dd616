// hops_from_lfts against a plain walk of the LFTs, on tables corrupted on purpose: loops, dead
// ends, port 0, ports to CAs and ports past the switch's last, LIDs nobody owns, and routes
// longer than a hop count can hold.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"

namespace weft::routing {
namespace {

// The hops from switch s to lid by following the LFTs one switch at a time.
std::uint8_t walked_hops(const Fabric &f, const RoutingTables &t, SwitchIdx s, Lid lid) {
    const auto owner = f.lid_owner(lid);
    if (!owner) return kInfHops;
    SwitchIdx target = kNoSwitch;
    unsigned base = 0;  // hops from the target switch: 0 to itself, 1 to a CA cabled to it
    const Node &on = f.node(owner->node);
    if (on.is_switch()) {
        target = on.sw;
    } else {
        const Port &p = f.port(owner->node, owner->port);
        if (!p.linked() || !f.node(p.peer).is_switch()) return kInfHops;
        target = f.node(p.peer).sw;
        if (t.lft[target][lid] != p.peer_port) return kInfHops;
        base = 1;
    }
    SwitchIdx x = s;
    for (std::size_t d = 0; d <= f.switch_count(); ++d) {
        if (x == target) return base + d >= 0xFD ? kInfHops : static_cast<std::uint8_t>(base + d);
        const NodeIdx node = f.switch_node(x);
        const PortNum port = t.lft[x][lid];
        if (port == 0 || port > f.node(node).num_ports) return kInfHops;
        const Port &p = f.port(node, port);
        if (!p.linked() || !f.node(p.peer).is_switch()) return kInfHops;
        x = f.node(p.peer).sw;
    }
    return kInfHops;  // a loop
}

void expect_walked(const Fabric &f, const RoutingTables &t, const std::string &what) {
    unsigned reached = 0, unreached = 0;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (Lid l = 1; l <= f.max_lid(); ++l) {
            const std::uint8_t want = walked_hops(f, t, s, l);
            ASSERT_EQ(t.hops[s][l], want) << what << ": switch " << s << " LID " << l;
            (want == kInfHops ? unreached : reached) += 1;
        }
    EXPECT_GT(reached, 0u) << what;
    EXPECT_GT(unreached, 0u) << what;
}

TEST(LftHops, AgreeWithAWalkOnCorruptedTables) {
    std::mt19937 rng(11);
    for (const std::string spec :
         {"random:switches=60,degree=5,hosts=2,seed=3", "torus:5x4x3,hosts=1", "ft36:hosts=324"}) {
        const Fabric f = test::generated(spec);
        RoutingTables t = test::route_alone("minhop", f);
        for (int round = 0; round < 3; ++round) {
            for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
                const unsigned ports = f.node(f.switch_node(s)).num_ports;
                for (Lid l = 1; l <= f.max_lid(); ++l)
                    if (rng() % 6 == 0) t.lft[s][l] = static_cast<PortNum>(rng() % (ports + 3));
            }
            hops_from_lfts(f, t);
            expect_walked(f, t, spec + " round " + std::to_string(round));
        }
    }
}

// A line of 300 switches routed along the line by hand (no engine routes past 252 hops): routes
// from one end to the other are longer than a hop count can hold.
TEST(LftHops, RoutesTooLongForAHopCountAreUnreachable) {
    const Fabric f = test::line(300, 1);
    RoutingTables t;
    t.reset(f);
    for (Lid l = 1; l <= f.max_lid(); ++l) {
        const auto owner = f.lid_owner(l);
        ASSERT_TRUE(owner);
        const Node &on = f.node(owner->node);
        const Port &p = f.port(owner->node, owner->port);
        const SwitchIdx target = on.is_switch() ? on.sw : f.node(p.peer).sw;
        for (SwitchIdx s = 0; s < f.switch_count(); ++s)
            t.lft[s][l] = s < target ? 1 : s > target ? 2 : on.is_switch() ? 0 : p.peer_port;
    }
    hops_from_lfts(f, t);
    expect_walked(f, t, "line of 300");
    EXPECT_EQ(t.hops[0][test::switch_lid(f, 252)], 252);
    EXPECT_EQ(t.hops[0][test::switch_lid(f, 253)], kInfHops);
}

}  // namespace
}  // namespace weft::routing
