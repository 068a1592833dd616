// Discovery over SimFabric: the fabric it builds against the one simulated (every node, GUID,
// description and link, the route to each node), the window kept full, and the sweep carrying on
// past lost requests, a switch that dies half-way, duplicate GUIDs, malformed replies and ports
// that are not physically up, each counted and logged where it happened.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sim_fabric.hpp"
#include "weft/sm/discovery.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using test::SimFabric;

// Two spines, three leaves, two hosts per leaf; the SM on host 0. Leaf l's port 1 and 2 go to
// the spines, ports 3 and 4 to its hosts; spine s's port l+1 to leaf l.
struct Fixture : ::testing::Test {
    SimFabric fabric;
    std::vector<std::size_t> spines, leaves, hosts;
    SmpEngineConfig config{4, 200ms, 3};

    Fixture() {
        const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
        spines = t.spines;
        leaves = t.leaves;
        hosts = t.hosts;
        fabric.time_passes_on_wait = true;
    }

    DiscoveryResult run() {
        SmpEngine engine(fabric, config);
        DiscoveryResult r = discover(engine, [this] { return fabric.now(); });
        max_outstanding = engine.counters().max_outstanding;
        total = engine.counters().total();
        return r;
    }

    std::size_t gets(std::uint16_t attr_id) { return fabric.seen_by_kind[{1, attr_id}]; }
    std::size_t max_outstanding = 0;
    SmpKindCounters total;

    // Links as (guid, port, guid, port), smaller end first.
    using LinkSet = std::set<std::tuple<std::uint64_t, unsigned, std::uint64_t, unsigned>>;
    LinkSet sim_links(const std::set<std::size_t> &left_out = {}) {
        LinkSet out;
        for (std::size_t i = 0; i < 11; ++i) {
            const test::SimNode &n = fabric.node(i);
            for (unsigned p = 1; p < n.links.size(); ++p) {
                if (!n.links[p] || left_out.count(i) || left_out.count(n.links[p]->node)) continue;
                if (n.ports[p].phys_state != PhysState::kLinkUp) continue;
                auto a = std::tuple{n.info.node_guid, p};
                auto b = std::tuple{fabric.node(n.links[p]->node).info.node_guid, unsigned{n.links[p]->port}};
                if (b < a) std::swap(a, b);
                out.insert(std::tuple_cat(a, b));
            }
        }
        return out;
    }
    static LinkSet found_links(const routing::Fabric &f) {
        LinkSet out;
        for (routing::NodeIdx n = 0; n < f.node_count(); ++n)
            for (unsigned p = 1; p <= f.node(n).num_ports; ++p) {
                const routing::Port &x = f.port(n, static_cast<PortNum>(p));
                if (x.peer == routing::kNoNode) continue;
                auto a = std::tuple{f.node(n).guid, p};
                auto b = std::tuple{f.node(x.peer).guid, unsigned{x.peer_port}};
                if (b < a) std::swap(a, b);
                out.insert(std::tuple_cat(a, b));
            }
        return out;
    }

    // Walks `path` from the SM's node in the simulated fabric: the node it arrives at.
    std::size_t walk(const DrPath &path) {
        std::size_t at = fabric.sm_node;
        for (PortNum out : path) at = fabric.node(at).links.at(out)->node;
        return at;
    }

    bool logged(const DiscoveryResult &r, const std::string &needle) {
        return std::any_of(r.problems.begin(), r.problems.end(),
                           [&](const std::string &l) { return l.find(needle) != std::string::npos; });
    }
};

TEST_F(Fixture, FindsEveryNodeLinkAndRoute) {
    fabric.node(leaves[1]).ports[0].lid = 7;  // an earlier SM's LIDs are read
    fabric.node(hosts[3]).ports[1].lid = 12;
    fabric.node(hosts[3]).ports[1].lmc = 1;
    const DiscoveryResult r = run();
    ASSERT_TRUE(r.reached);
    EXPECT_TRUE(r.problems.empty()) << r.problems.front();
    EXPECT_EQ(r.stats.nodes, 11u);
    EXPECT_EQ(r.stats.switches, 5u);
    EXPECT_EQ(r.stats.cas, 6u);
    EXPECT_EQ(r.stats.links, 12u);
    EXPECT_EQ(r.stats.problems(), 0u);
    ASSERT_EQ(r.fabric.node_count(), 11u);
    EXPECT_EQ(r.fabric.switch_count(), 5u);
    EXPECT_EQ(found_links(r.fabric), sim_links());
    ASSERT_NE(r.sm_node, routing::kNoNode);
    EXPECT_EQ(r.fabric.node(r.sm_node).guid, 0x1000u);
    EXPECT_EQ(r.sm_port, 1);
    for (routing::NodeIdx n = 0; n < r.fabric.node_count(); ++n) {
        const DiscoveredNode &d = r.nodes[n];
        const test::SimNode &sim = fabric.node(walk(d.path));
        EXPECT_EQ(sim.info.node_guid, r.fabric.node(n).guid) << "the route " << path_text(d.path);
        EXPECT_EQ(r.fabric.node(n).desc, sim.description);
        EXPECT_EQ(r.fabric.node(n).sys_guid, sim.info.system_image_guid);
        EXPECT_EQ(r.fabric.node(n).num_ports, sim.info.num_ports);
        EXPECT_EQ(d.switch_info.has_value(), d.is_switch());
        if (!d.is_switch()) {
            EXPECT_EQ(r.fabric.port(n, 1).guid, sim.info.port_guid);
            ASSERT_NE(d.route_to_port(1), nullptr);
        } else {
            for (unsigned p = 0; p <= sim.info.num_ports; ++p) EXPECT_TRUE(d.ports[p].has_value()) << p;
        }
    }
    // Links come in the state read (INIT: no SM has armed them), with the active width.
    const auto leaf1 = *r.fabric.find_guid(0x3001);
    EXPECT_EQ(r.fabric.port(leaf1, 1).state, routing::PortState::Init);
    EXPECT_EQ(r.fabric.port(leaf1, 1).width, routing::LinkWidth::X4);
    EXPECT_EQ(r.fabric.port(leaf1, 0).lid, 7u);
    const auto host3 = *r.fabric.find_guid(0x1030);
    EXPECT_EQ(r.fabric.port(host3, 1).lid, 12u);
    EXPECT_EQ(r.fabric.port(host3, 1).lmc, 1u);
    // The window was kept full; every request answered once.
    EXPECT_EQ(max_outstanding, config.max_wire_smps);
    EXPECT_EQ(total.sent, total.received);
    // 11 NodeInfo of new nodes plus one per link seen from its second end, NodeDescription per
    // node, SwitchInfo per switch, PortInfo of each switch port (9 each) and of each host.
    EXPECT_EQ(gets(attr::kNodeDescription), 11u);
    EXPECT_EQ(gets(attr::kSwitchInfo), 5u);
    EXPECT_EQ(gets(attr::kPortInfo), 5u * 9 + 6);
    EXPECT_LE(gets(attr::kNodeInfo), 1u + 2 * 12);
}

TEST_F(Fixture, LostRequestsAreRetried) {
    fabric.lose_next_requests = 3;
    const DiscoveryResult r = run();
    EXPECT_EQ(r.stats.nodes, 11u);
    EXPECT_EQ(found_links(r.fabric), sim_links());
    EXPECT_EQ(r.stats.timeouts, 0u);
    EXPECT_EQ(total.retried, 3u);
}

TEST_F(Fixture, SwitchThatDiesMidSweepIsLeftOutAndTheRestFound) {
    // spine0 answers NodeInfo, then nothing more.
    const std::size_t dead = spines[0];
    fabric.drop_at = [dead](std::size_t node, const Smp &s) {
        return node == dead && s.attr_id != attr::kNodeInfo;
    };
    const DiscoveryResult r = run();
    ASSERT_TRUE(r.reached);
    EXPECT_EQ(r.stats.vanished, 1u);
    EXPECT_EQ(r.stats.nodes, 10u);
    EXPECT_FALSE(r.fabric.find_guid(0x2000).has_value());
    EXPECT_EQ(found_links(r.fabric), sim_links({dead}));
    EXPECT_GT(r.stats.timeouts, 0u);
    EXPECT_TRUE(
        logged(r,
               "SwitchInfo of switch 0x0000000000002000 via path 0,1,1: timed out after 4 attempts; the "
               "node vanished mid-sweep"))
        << r.problems.front();
}

TEST_F(Fixture, DuplicateGuidIsCountedAndLeftOut) {
    // host5 claims host1's GUIDs: host1 is reached first (leaf0, one hop nearer the SM).
    fabric.node(hosts[5]).info.node_guid = 0x1010;
    fabric.node(hosts[5]).info.port_guid = 0x1011;
    fabric.node(hosts[5]).info.system_image_guid = 0x1010;
    const DiscoveryResult r = run();
    EXPECT_EQ(r.stats.duplicate_guids, 1u);
    EXPECT_EQ(r.stats.nodes, 10u);
    EXPECT_EQ(r.stats.links, 11u);
    EXPECT_TRUE(logged(r,
                       "duplicate GUID: port 1 of CA 0x0000000000001010 'host1' links to port 4 of switch "
                       "0x0000000000003000 'leaf0', but path 0,1,1,3,4 finds it linked to port 4 of switch "
                       "0x0000000000003002 'leaf2'"))
        << (r.problems.empty() ? "" : r.problems.front());
}

TEST_F(Fixture, DuplicateGuidOfAnotherKindIsCaught) {
    fabric.node(leaves[2]).info.node_guid = 0x1020;  // a switch claiming host2's GUID
    const DiscoveryResult r = run();
    EXPECT_GE(r.stats.duplicate_guids, 1u);
    EXPECT_TRUE(logged(r, "duplicate GUID 0x0000000000001020"));
}

TEST_F(Fixture, DuplicatePortGuidIsCaught) {
    fabric.node(hosts[4]).info.port_guid = 0x1011;  // host1's port GUID on another CA
    const DiscoveryResult r = run();
    EXPECT_EQ(r.stats.duplicate_guids, 1u);
    EXPECT_EQ(r.stats.nodes, 10u);
    EXPECT_FALSE(r.fabric.find_guid(0x1040).has_value());
    EXPECT_TRUE(r.fabric.find_port_guid(0x1011).has_value());
    EXPECT_TRUE(
        logged(r,
               "duplicate port GUID 0x0000000000001011: path 0,1,1,3,3 reaches node 0x0000000000001040 "
               "whose port 1 has it, but it is CA 0x0000000000001010 'host1''s; left out"))
        << r.problems.front();
}

TEST_F(Fixture, MalformedReplyIsLocatedAndCounted) {
    // host4's NodeInfo says 0 ports.
    const std::size_t bad = hosts[4];
    fabric.alter_reply = [bad](std::size_t node, Smp &r) {
        if (node == bad && r.attr_id == attr::kNodeInfo) r.data[3] = 0;
    };
    SmpEngine engine(fabric, config);
    const DiscoveryResult r = discover(engine, [this] { return fabric.now(); });
    EXPECT_EQ(r.stats.malformed, 1u);
    EXPECT_EQ(r.stats.dark_ports, 1u);
    EXPECT_EQ(r.stats.nodes, 10u);
    EXPECT_EQ(engine.counters().per_kind.at({Method::kGet, attr::kNodeInfo}).malformed, 1u);
    EXPECT_TRUE(
        logged(r,
               "port 3 of switch 0x0000000000003002 'leaf2' is up but nothing behind it answers NodeInfo "
               "via path 0,1,1,3,3: malformed reply: NodeInfo.NumPorts"))
        << r.problems.front();
}

TEST_F(Fixture, NodeInfoEnteredByPortZeroThroughALinkIsRefused) {
    // spine1 claims every SMP entered by its port 0, even through a cable (found by fuzzing: the
    // fabric model cannot cable port 0).
    const std::size_t liar = spines[1];
    fabric.alter_reply = [liar](std::size_t node, Smp &r) {
        if (node == liar && r.attr_id == attr::kNodeInfo) r.data[36] = 0;  // LocalPortNum
    };
    const DiscoveryResult r = run();
    EXPECT_EQ(r.stats.nodes, 10u);
    EXPECT_FALSE(r.fabric.find_guid(0x2001).has_value());
    EXPECT_EQ(r.stats.dark_ports, 3u);  // each leaf's port 2
    EXPECT_TRUE(
        logged(r,
               "NodeInfo of node 0x0000000000002001 via path 0,1,2 says it was entered by port 0, which no "
               "link reaches; port 2 of switch 0x0000000000003000 'leaf0' left unlinked"))
        << r.problems.front();
}

TEST_F(Fixture, FollowsOnlyPhysicallyUpPorts) {
    // leaf2's link to host5 is cabled but not trained.
    fabric.node(leaves[2]).ports[4].phys_state = PhysState::kPolling;
    fabric.node(hosts[5]).ports[1].phys_state = PhysState::kPolling;
    const DiscoveryResult r = run();
    EXPECT_EQ(r.stats.nodes, 10u);
    EXPECT_FALSE(r.fabric.find_guid(0x1050).has_value());
    EXPECT_EQ(found_links(r.fabric), sim_links());
    EXPECT_EQ(r.stats.problems(), 0u);
}

TEST_F(Fixture, NothingAnswers) {
    fabric.refuse_sends = true;
    const DiscoveryResult r = run();
    EXPECT_FALSE(r.reached);
    EXPECT_EQ(r.stats.send_failures, 1u);
    EXPECT_EQ(r.fabric.node_count(), 0u);
    EXPECT_TRUE(logged(r, "the SM's own node does not answer NodeInfo: send failed"));
}

TEST_F(Fixture, SmOnASwitchPortZero) {
    fabric.sm_node = spines[1];
    fabric.sm_port = 0;
    const DiscoveryResult r = run();
    ASSERT_TRUE(r.reached);
    EXPECT_EQ(r.fabric.node(r.sm_node).guid, 0x2001u);
    EXPECT_EQ(r.sm_port, 0);
    EXPECT_EQ(r.stats.nodes, 11u);
    EXPECT_EQ(found_links(r.fabric), sim_links());
}

}  // namespace
}  // namespace weft::sm
