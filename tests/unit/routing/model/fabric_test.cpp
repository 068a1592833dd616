#include <gtest/gtest.h>

#include <stdexcept>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing {
namespace {

// Two switches joined by two parallel cables, one CA on each.
struct Small {
    Fabric f;
    NodeIdx s1, s2, h1, h2;
    Small() {
        s1 = f.add_node(NodeType::Switch, 0x100, 8, "s1");
        s2 = f.add_node(NodeType::Switch, 0x200, 8, "s2");
        h1 = f.add_node(NodeType::Ca, 0x300, 1, "h1");
        h2 = f.add_node(NodeType::Ca, 0x400, 1, "h2");
        f.connect(s1, 1, s2, 1);
        f.connect(s1, 2, s2, 2);
        f.connect(s1, 3, h1, 1);
        f.connect(s2, 3, h2, 1);
        f.set_lid(s1, 0, 1, 0);
        f.set_lid(s2, 0, 2, 0);
        f.set_lid(h1, 1, 4, 1);  // LIDs 4, 5
        f.set_lid(h2, 1, 6, 0);
    }
};

TEST(Fabric, IndicesAndPorts) {
    Small t;
    EXPECT_EQ(t.f.node_count(), 4u);
    EXPECT_EQ(t.f.switch_count(), 2u);
    EXPECT_EQ(t.f.node(t.s2).sw, 1u);
    EXPECT_EQ(t.f.switch_node(1), t.s2);
    EXPECT_EQ(t.f.ports(t.s1).size(), 9u);
    EXPECT_EQ(t.f.port(t.s1, 2).peer, t.s2);
    EXPECT_EQ(t.f.port(t.s1, 2).peer_port, 2);
    EXPECT_TRUE(t.f.port(t.h1, 1).linked());
    EXPECT_FALSE(t.f.port(t.s1, 4).linked());
    EXPECT_EQ(t.f.find_guid(0x300), t.h1);
    EXPECT_FALSE(t.f.find_guid(0x999).has_value());
}

TEST(Fabric, RejectsBadCabling) {
    Small t;
    EXPECT_THROW(t.f.connect(t.s1, 1, t.h2, 1), std::invalid_argument);  // s1:1 already cabled
    EXPECT_THROW(t.f.connect(t.s1, 9, t.s2, 5), std::invalid_argument);  // no port 9
    EXPECT_THROW(t.f.connect(t.s1, 0, t.s2, 5), std::invalid_argument);  // port 0
    EXPECT_THROW(t.f.add_node(NodeType::Ca, 0x300, 1), std::invalid_argument);  // duplicate GUID
}

TEST(Fabric, LidsWithLmc) {
    Small t;
    EXPECT_EQ(t.f.max_lid(), 6u);
    ASSERT_TRUE(t.f.lid_owner(5).has_value());
    EXPECT_EQ(t.f.lid_owner(5)->node, t.h1);
    EXPECT_FALSE(t.f.lid_owner(3).has_value());
    EXPECT_EQ(t.f.attached_switch(4), t.s1);
    EXPECT_EQ(t.f.attached_switch(2), t.s2);
    t.f.disconnect(t.s2, 3);
    EXPECT_EQ(t.f.attached_switch(6), kNoNode);
    EXPECT_FALSE(t.f.port(t.s2, 3).linked());
}

TEST(Tables, EqualCostPortsFollowHops) {
    Small t;
    RoutingTables r;
    r.reset(t.f);
    ASSERT_EQ(r.lft.size(), 2u);
    ASSERT_EQ(r.lft[0].size(), 7u);
    // Hand-filled hop matrix: s1 reaches h2 (LID 6) in 2 hops over either parallel cable.
    r.hops[0][6] = 2;
    r.hops[1][6] = 1;
    EXPECT_EQ(equal_cost_ports(t.f, r, 0, 6), (std::vector<PortNum>{1, 2}));
    EXPECT_EQ(equal_cost_ports(t.f, r, 1, 6), (std::vector<PortNum>{3}));
    r.hops[1][6] = kInfHops;
    EXPECT_TRUE(equal_cost_ports(t.f, r, 0, 6).empty());
}

}  // namespace
}  // namespace weft::routing
