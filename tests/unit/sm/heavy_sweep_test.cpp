// A heavy sweep over SimFabric: the simulated switches end up holding the LFTs the routing
// computed, every port its LID and the SM's LID, every link ACTIVE; a second sweep sends no Set;
// existing LIDs and guid2lid are kept; a routing with a credit loop is not programmed; VLs an
// engine assigns reach the switches' SL2VL tables; a refused Set is located and counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "sim_fabric.hpp"
#include "weft/routing/topology_io.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/light_sweep.hpp"
#include "weft/sm/subnet_lst.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using test::SimFabric;

struct Sweep : ::testing::Test {
    SimFabric fabric;
    SmpEngineConfig config{8, 200ms, 3};
    std::vector<std::string> log;

    Sweep() { fabric.time_passes_on_wait = true; }

    SweepReport run(const std::string &chain = "minhop", SweepOptions o = {}) {
        SmpEngine engine(fabric, config);
        o.chain = chain;
        o.log = [this](std::string_view l) { log.emplace_back(l); };
        return heavy_sweep(
            engine, [this] { return fabric.now(); }, o);
    }

    std::size_t sets(std::uint16_t attr_id) { return fabric.seen_by_kind[{2, attr_id}]; }
    std::size_t gets(std::uint16_t attr_id) { return fabric.seen_by_kind[{1, attr_id}]; }

    // The simulated fabric holds what the sweep programmed.
    void expect_programmed(const SweepReport &r) {
        const routing::Fabric &f = r.discovery.fabric;
        for (std::size_t i = 0; i < f.node_count(); ++i) {
            const routing::Node &n = f.node(static_cast<routing::NodeIdx>(i));
            std::size_t sim = 0;
            while (fabric.node(sim).info.node_guid != n.guid) ++sim;
            const test::SimNode &s = fabric.node(sim);
            if (n.is_switch()) {
                EXPECT_EQ(s.switch_info.linear_fdb_top, f.max_lid()) << n.desc;
                EXPECT_EQ(s.ports[0].lid, f.port(static_cast<routing::NodeIdx>(i), 0).lid) << n.desc;
                EXPECT_EQ(s.ports[0].master_sm_lid, r.sm_lid) << n.desc;
                for (routing::Lid lid = 1; lid <= f.max_lid(); ++lid)
                    ASSERT_EQ(s.lft[lid], r.tables.lft[n.sw][lid]) << n.desc << " LID " << lid;
            } else {
                EXPECT_EQ(s.ports[1].lid, f.port(static_cast<routing::NodeIdx>(i), 1).lid) << n.desc;
                EXPECT_EQ(s.ports[1].lmc, f.port(static_cast<routing::NodeIdx>(i), 1).lmc) << n.desc;
                EXPECT_EQ(s.ports[1].master_sm_lid, r.sm_lid) << n.desc;
            }
            for (unsigned p = 1; p < s.links.size(); ++p) {
                if (s.links[p]) {
                    EXPECT_EQ(s.ports[p].port_state, PortState::kActive) << n.desc << " port " << p;
                }
            }
        }
    }
};

TEST_F(Sweep, BringsATreeUp) {
    test::build_tree(fabric, 2, 3, 2);
    const SweepReport r = run();
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_TRUE(r.program.problems.empty()) << r.program.problems.front();
    EXPECT_EQ(r.chain.engine, "minhop");
    EXPECT_EQ(r.lids.assigned, 11u);
    expect_programmed(r);
    // One LFT block per switch (11 LIDs), written without reading (nothing was there).
    EXPECT_EQ(r.program.lft_blocks_set, 5u);
    EXPECT_EQ(r.program.lft_blocks_read, 0u);
    EXPECT_EQ(sets(attr::kLinearForwardingTable), 5u);
    EXPECT_EQ(sets(attr::kSwitchInfo), 5u);
    // 11 end ports get LIDs; 12 links, both ends armed, then activated.
    EXPECT_EQ(r.program.port_info_sets, 11u);
    EXPECT_EQ(r.program.armed, 24u);
    EXPECT_EQ(r.program.activated, 24u);
    EXPECT_EQ(sets(attr::kPortInfo), 11u + 48u);
    ASSERT_EQ(r.phases.size(), 5u);
    EXPECT_EQ(r.phases[0].name, "discovery");
    EXPECT_EQ(r.phases[4].name, "programming");
    EXPECT_EQ(r.phases[4].smps.total().sent, 11u + 5u + 5u + 48u);
    EXPECT_EQ(r.phases[2].smps.total().sent, 0u);  // routing sends nothing
    std::uint64_t by_phase = 0;
    for (const auto &p : r.phases) by_phase += p.smps.total().sent;
    EXPECT_EQ(r.smps.total().sent, by_phase);
    EXPECT_EQ(r.smps.total().sent, fabric.requests_seen);
}

TEST_F(Sweep, SubnetListAsOpenSmWritesIt) {
    const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
    fabric.node(t.hosts[0]).ports[1].capability_mask = 0x2;  // the SM's port has IsSM
    const SweepReport r = run();
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    const std::string lst = write_subnet_lst(r.discovery, &r.program);
    // 12 cables, each from both ends; nodes in the order of the GUIDs' wire bytes read
    // little-endian (0x1000's low byte 0x00 first, ...), ports in order.
    EXPECT_EQ(std::count(lst.begin(), lst.end(), '\n'), 24);
    const auto &f = r.discovery.fabric;
    const auto lid = [&](std::uint64_t guid, PortNum p) { return f.port(*f.find_guid(guid), p).lid; };
    char first[600];
    std::snprintf(
        first, sizeof first,
        "{ CA-SM Ports:01 SystemGUID:0000000000001000 NodeGUID:0000000000001000 PortGUID:0000000000001001 "
        "VenID:000000 DevID:0000 Rev:00000000 {host0} LID:%04X PN:01 } { SW Ports:08 "
        "SystemGUID:0000000000003000 NodeGUID:0000000000003000 PortGUID:0000000000003000 VenID:00000000 "
        "DevID:0000 Rev:00000000 {leaf0} LID:%04X PN:03 } PHY=4x LOG=ACT SPD=10\n",
        static_cast<unsigned>(lid(0x1000, 1)), static_cast<unsigned>(lid(0x3000, 0)));
    EXPECT_EQ(lst.substr(0, lst.find('\n') + 1), first);
    // The routing library reads it back as the same fabric.
    const routing::Fabric back = routing::read_subnet_lst(lst, "opensm-subnet.lst");
    EXPECT_EQ(back.node_count(), 11u);
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        const auto m = back.find_guid(f.node(n).guid);
        ASSERT_TRUE(m.has_value());
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const auto &a = f.port(n, p);
            const auto &b = back.port(*m, p);
            ASSERT_EQ(a.peer == routing::kNoNode, b.peer == routing::kNoNode);
            if (a.peer != routing::kNoNode) {
                EXPECT_EQ(f.node(a.peer).guid, back.node(b.peer).guid);
            }
        }
    }
}

TEST_F(Sweep, SecondSweepChangesNothing) {
    test::build_tree(fabric, 2, 3, 2);
    const SweepReport first = run();
    ASSERT_EQ(first.outcome, SweepOutcome::kProgrammed) << first.why;
    const std::size_t port_sets = sets(attr::kPortInfo), lft_sets = sets(attr::kLinearForwardingTable);
    const SweepReport again = run();
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.lids.kept, 11u);
    EXPECT_EQ(again.program.port_info_sets + again.program.switch_info_sets + again.program.lft_blocks_set +
                  again.program.armed + again.program.activated,
              0u);
    EXPECT_EQ(again.program.lft_blocks_read, 5u);
    EXPECT_EQ(again.program.lft_blocks_unchanged, 5u);
    EXPECT_EQ(sets(attr::kPortInfo), port_sets);
    EXPECT_EQ(sets(attr::kLinearForwardingTable), lft_sets);
    expect_programmed(again);
}

TEST_F(Sweep, ResidentSmRemembersWhatItProgrammed) {
    const test::SimTree t = test::build_tree(fabric, 2, 4, 20, 24);
    const SweepReport first = run();
    ASSERT_EQ(first.outcome, SweepOutcome::kProgrammed) << first.why;
    ASSERT_EQ(first.program.programmed.size(), 6u);
    SweepOptions o;
    o.held = &first.program.programmed;
    const std::size_t lft_gets = gets(attr::kLinearForwardingTable);
    const SweepReport again = run("minhop", o);
    EXPECT_EQ(again.program.lft_blocks_read, 0u);
    EXPECT_EQ(again.program.lft_blocks_remembered, 12u);
    EXPECT_EQ(again.program.lft_blocks_unchanged, 12u);
    EXPECT_EQ(again.program.lft_blocks_set, 0u);
    EXPECT_EQ(gets(attr::kLinearForwardingTable), lft_gets);
    // A switch that was reset (LinearFDBTop 0, table gone) is written whole; one whose top another
    // SM changed is read again.
    fabric.node(t.leaves[1]).switch_info.linear_fdb_top = 0;
    std::fill(fabric.node(t.leaves[1]).lft.begin(), fabric.node(t.leaves[1]).lft.end(), kNoPort);
    fabric.node(t.leaves[2]).switch_info.linear_fdb_top = 100;
    o.held = &again.program.programmed;
    const SweepReport third = run("minhop", o);
    EXPECT_EQ(third.program.lft_blocks_read, 2u);
    EXPECT_EQ(third.program.lft_blocks_remembered, 8u);
    EXPECT_EQ(third.program.lft_blocks_set, 2u);
    EXPECT_EQ(third.program.switch_info_sets, 2u);
    expect_programmed(third);
}

TEST_F(Sweep, UnicastCacheReusesTheRoutingWhenAHostGoes) {
    const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
    routing::UcastCache cache;
    SweepOptions o;
    o.routing.ucast_cache = true;
    o.cache = &cache;
    const SweepReport first = run("updn", o);
    ASSERT_EQ(first.outcome, SweepOutcome::kProgrammed) << first.why;
    EXPECT_FALSE(first.cache.hit);
    // host5 goes (its cable pulled): a cache hit, its LID unrouted everywhere.
    fabric.node(t.leaves[2]).links[4].reset();
    fabric.node(t.hosts[5]).links[1].reset();
    fabric.node(t.leaves[2]).ports[4].phys_state = PhysState::kPolling;
    o.held = &first.program.programmed;
    const SweepReport second = run("updn", o);
    ASSERT_EQ(second.outcome, SweepOutcome::kProgrammed) << second.why;
    EXPECT_TRUE(second.cache.hit) << second.cache.reason;
    EXPECT_EQ(second.cache.end_ports_down, 1u);
    const routing::Lid gone = first.discovery.fabric.port(*first.discovery.fabric.find_guid(0x1050), 1).lid;
    EXPECT_EQ(fabric.node(t.leaves[0]).lft[gone], kNoPort);
    EXPECT_EQ(second.program.lft_blocks_set, 5u);  // that entry, in every switch's one block
    // A switch-to-switch link down is not the cache's to absorb: recomputed, and said why.
    fabric.node(t.leaves[1]).links[1].reset();
    fabric.node(t.spines[0]).links[2].reset();
    fabric.node(t.leaves[1]).ports[1].phys_state = PhysState::kPolling;
    fabric.node(t.spines[0]).ports[2].phys_state = PhysState::kPolling;
    const SweepReport third = run("updn", o);
    ASSERT_EQ(third.outcome, SweepOutcome::kProgrammed) << third.why;
    EXPECT_FALSE(third.cache.hit);
    EXPECT_NE(third.cache.reason.find("switch-to-switch link down"), std::string::npos) << third.cache.reason;
    EXPECT_TRUE(std::any_of(log.begin(), log.end(), [](const std::string &l) {
        return l.find("unicast cache hit: 1 end port down") != std::string::npos;
    }));
}

TEST_F(Sweep, LightSweepAsksEachSwitchOnceAndSeesAPortStateChange) {
    const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
    for (std::size_t sw : t.leaves) fabric.node(sw).switch_info.port_state_change = true;  // links came up
    const SweepReport heavy = run();
    ASSERT_EQ(heavy.outcome, SweepOutcome::kProgrammed) << heavy.why;
    EXPECT_EQ(heavy.program.switch_info_sets, 5u);
    for (std::size_t sw : t.leaves) EXPECT_FALSE(fabric.node(sw).switch_info.port_state_change);  // cleared
    SmpEngine engine(fabric, config);
    const SmClock clock = [this] { return fabric.now(); };
    LightSweepReport quiet = light_sweep(engine, clock, heavy.discovery);
    EXPECT_FALSE(quiet.changed) << quiet.why;
    EXPECT_EQ(quiet.switches, 5u);
    EXPECT_EQ(quiet.smps.total().sent, 5u);
    EXPECT_EQ(quiet.smps.per_kind.at({Method::kGet, attr::kSwitchInfo}).sent, 5u);
    // A port of leaf1 changes state.
    fabric.node(t.leaves[1]).switch_info.port_state_change = true;
    LightSweepReport flagged = light_sweep(engine, clock, heavy.discovery);
    EXPECT_TRUE(flagged.changed);
    EXPECT_EQ(flagged.flagged, 1u);
    EXPECT_EQ(flagged.why, "PortStateChange on switch 0x0000000000003001 'leaf1' via path 0,1,1,2");
    // A switch that stops answering is a change too.
    fabric.node(t.leaves[1]).switch_info.port_state_change = false;
    const std::size_t dead = t.spines[1];
    fabric.drop_at = [dead](std::size_t node, const Smp &) { return node == dead; };
    LightSweepReport gone = light_sweep(engine, clock, heavy.discovery);
    EXPECT_TRUE(gone.changed);
    EXPECT_EQ(gone.unanswered, 1u);
    EXPECT_EQ(gone.why.rfind("no SwitchInfo (timed out after 4 attempts) on switch 0x0000000000002001", 0),
              0u)
        << gone.why;
}

TEST_F(Sweep, ChangedBlocksOnlyAreWritten) {
    // Enough hosts for two LFT blocks; then one entry of one switch is spoiled.
    const test::SimTree t = test::build_tree(fabric, 2, 4, 20, 24);
    const SweepReport first = run();
    ASSERT_EQ(first.outcome, SweepOutcome::kProgrammed) << first.why;
    ASSERT_GE(first.discovery.fabric.max_lid(), 64u);
    PortNum &entry = fabric.node(t.leaves[0]).lft[70];
    entry = entry == 1 ? 2 : 1;
    const SweepReport again = run();
    EXPECT_EQ(again.program.lft_blocks_read, 6u * 2);
    EXPECT_EQ(again.program.lft_blocks_set, 1u);
    expect_programmed(again);
}

TEST_F(Sweep, KeepsExistingLidsAndGuid2lid) {
    const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
    fabric.node(t.hosts[3]).ports[1].lid = 40;
    fabric.node(t.leaves[2]).ports[0].lid = 33;
    SweepOptions o;
    o.guid2lid = {{0x1051, 50, 50, 1}, {0x3002, 60, 60, 2}};  // host5's port; leaf2 (wins over the port's 33)
    const SweepReport r = run("minhop", o);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_EQ(r.lids.from_file, 2u);
    EXPECT_EQ(r.lids.kept, 1u);
    EXPECT_EQ(fabric.node(t.hosts[3]).ports[1].lid, 40);
    EXPECT_EQ(fabric.node(t.hosts[5]).ports[1].lid, 50);
    EXPECT_EQ(fabric.node(t.leaves[2]).ports[0].lid, 60);
    expect_programmed(r);
}

TEST_F(Sweep, LmcGivesEachHostABlock) {
    test::build_tree(fabric, 2, 3, 2);
    SweepOptions o;
    o.routing.lmc = 2;
    const SweepReport r = run("minhop", o);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    expect_programmed(r);
    const routing::Fabric &f = r.discovery.fabric;
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch()) {
            EXPECT_EQ(f.port(n, 1).lmc, 2u);
            EXPECT_EQ(f.port(n, 1).lid % 4, 0u);
        }
}

// Five switches in a ring, a host on each: min-hop routes chase each other round the ring.
void ring(SimFabric &fabric) {
    std::vector<std::size_t> sw, host;
    for (unsigned i = 0; i < 5; ++i)
        host.push_back(fabric.add_ca(0x1000 + 0x10 * i, 1, "host" + std::to_string(i)));
    for (unsigned i = 0; i < 5; ++i)
        sw.push_back(fabric.add_switch(0x2000 + i, 4, "ring" + std::to_string(i)));
    for (unsigned i = 0; i < 5; ++i) {
        fabric.link(sw[i], 1, sw[(i + 1) % 5], 2);
        fabric.link(sw[i], 3, host[i], 1);
    }
    fabric.sm_node = host[0];
}

TEST_F(Sweep, RoutingWithACreditLoopIsNotProgrammed) {
    ring(fabric);
    SweepOptions o;
    o.routing.no_fallback = true;
    const SweepReport r = run("minhop", o);
    ASSERT_EQ(r.outcome, SweepOutcome::kVerificationFailed);
    EXPECT_NE(r.why.find("failed verification and is not programmed: credit loop"), std::string::npos)
        << r.why;
    EXPECT_EQ(r.phases.back().name, "verification");
    EXPECT_EQ(sets(attr::kPortInfo) + sets(attr::kLinearForwardingTable) + sets(attr::kSwitchInfo), 0u);
    for (std::size_t i = 5; i < 10; ++i) EXPECT_EQ(fabric.node(i).lft[1], kNoPort);
}

TEST_F(Sweep, VlsOfTheEngineReachTheSwitches) {
    ring(fabric);
    const SweepReport r = run("dfsssp");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    ASSERT_GT(r.tables.vls_used, 1u);
    EXPECT_GT(r.program.sl2vl_sets, 0u);
    EXPECT_EQ(sets(attr::kSlToVlTable), r.program.sl2vl_sets);
    expect_programmed(r);
    // Each switch's table for (in, out) is the engine's.
    for (const auto &[mod, table] : fabric.node(5).sl2vl) {
        const unsigned in = mod >> 8, out = mod & 0xFF;
        routing::Sl2Vl want{};
        if (r.tables.sl2vl_all) {
            want = *r.tables.sl2vl_all;
        } else if (r.tables.has_sl2vl()) {
            const routing::Fabric &f = r.discovery.fabric;
            want = r.tables.sl2vl[f.node(*f.find_guid(0x2000)).sw][in * 5 + out];
        } else {  // SL n on VL n, as verified
            for (unsigned sl = 0; sl < 16; ++sl)
                want[sl] = static_cast<std::uint8_t>(std::min(sl, r.tables.vls_used - 1));
        }
        EXPECT_EQ(table.vl, want) << in << " " << out;
    }
    EXPECT_GT(fabric.node(5).ports[1].operational_vls, 1u);
}

TEST_F(Sweep, ResidentSmSetsOnlyTheSl2VlThatChangedAndReadsEachDescriptionOnce) {
    ring(fabric);
    const SweepReport first = run("dfsssp");
    ASSERT_EQ(first.outcome, SweepOutcome::kProgrammed) << first.why;
    ASSERT_GT(first.program.sl2vl_sets, 0u);
    EXPECT_EQ(gets(attr::kNodeDescription), 10u);
    const std::size_t sl2vl_sets = sets(attr::kSlToVlTable);
    SweepOptions o;
    o.held = &first.program.programmed;
    const NodeDescriptions known = descriptions_of(first.discovery);
    o.descriptions = &known;
    const SweepReport again = run("dfsssp", o);
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.program.sl2vl_sets, 0u);
    EXPECT_EQ(again.program.sl2vl_unchanged, first.program.sl2vl_sets);
    EXPECT_EQ(sets(attr::kSlToVlTable), sl2vl_sets);
    EXPECT_EQ(gets(attr::kNodeDescription), 10u);  // not asked again, and still known
    for (const DiscoveredNode &n : again.discovery.nodes) EXPECT_FALSE(n.description.empty());
    EXPECT_EQ(again.discovery.fabric.node(*again.discovery.fabric.find_guid(0x2003)).desc, "ring3");
    // The link ring0 port 1 - ring1 port 2 went down and came back (both ends INIT): the tables
    // of the pairs through those ports are set again (5 on each switch: in 1 to 2 and 3, and
    // 0, 2, 3 to 1), the rest stays as remembered.
    fabric.node(5).ports[1].port_state = PortState::kInit;
    fabric.node(6).ports[2].port_state = PortState::kInit;
    fabric.node(6).sl2vl.clear();
    o.held = &again.program.programmed;
    const SweepReport third = run("dfsssp", o);
    ASSERT_EQ(third.outcome, SweepOutcome::kProgrammed) << third.why;
    EXPECT_EQ(third.program.sl2vl_sets, 10u);
    EXPECT_EQ(third.program.sl2vl_unchanged, first.program.sl2vl_sets - 10u);
    EXPECT_EQ(fabric.node(6).sl2vl.size(), 5u);
    EXPECT_EQ(fabric.node(6).sl2vl.at(sl_to_vl_attr_mod(2, 1)),
              fabric.node(7).sl2vl.at(sl_to_vl_attr_mod(2, 1)));
    // A reset switch (LinearFDBTop 0) is not trusted to hold anything: all its pairs again.
    fabric.node(7).switch_info.linear_fdb_top = 0;
    o.held = &third.program.programmed;
    const SweepReport fourth = run("dfsssp", o);
    EXPECT_EQ(fourth.program.sl2vl_sets, 9u);
}

// The ports a simulated switch's MFT replicates mlid to.
std::vector<PortNum> mft_ports(const test::SimNode &s, Lid mlid) {
    std::vector<PortNum> out;
    const unsigned block = (mlid - kFirstMulticastLid) / kMftBlockSize,
                   i = (mlid - kFirstMulticastLid) % kMftBlockSize;
    for (const auto &[mod, b] : s.mft)
        if (b.block == block)
            for (unsigned bit = 0; bit < 16; ++bit)
                if (b.port_masks[i] >> bit & 1) out.push_back(static_cast<PortNum>(b.position * 16 + bit));
    std::sort(out.begin(), out.end());
    return out;
}

TEST_F(Sweep, MulticastGroupsReachTheSwitchesMfts) {
    const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
    SweepOptions o;
    o.mcast_groups = routing::read_mcast_groups("0xC000 all\n0xC021 0x1001 0x1051 0xdead\n", "groups");
    const SweepReport r = run("updn", o);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    ASSERT_EQ(r.mcast.trees.size(), 2u);
    EXPECT_TRUE(r.mcast.failures.empty());
    EXPECT_TRUE(std::any_of(log.begin(), log.end(), [](const std::string &l) {
        return l ==
               "multicast: group 0xc021 (line 2): port GUID 0x000000000000dead is not in the fabric; left "
               "out";
    }));
    // Two blocks (0xC000 and 0xC021 are 33 apart), one position each (switches of 4 ports).
    EXPECT_EQ(r.program.mft_blocks_set, 5u * 2);
    const routing::Fabric &f = r.discovery.fabric;
    for (std::size_t sim = 0; sim < fabric.node_count(); ++sim) {
        const test::SimNode &s = fabric.node(sim);
        if (!s.info.is_switch()) continue;
        const auto sw = f.node(*f.find_guid(s.info.node_guid)).sw;
        for (const routing::McastTree &tree : r.mcast.trees)
            EXPECT_EQ(mft_ports(s, tree.mlid), tree.ports[sw]) << s.description << " MLID " << tree.mlid;
    }
    // Every host is on the tree of 0xC000: each leaf replicates to its two hosts.
    for (std::size_t leaf : t.leaves) {
        const auto ports = mft_ports(fabric.node(leaf), 0xC000);
        EXPECT_GE(ports.size(), 3u) << fabric.node(leaf).description;
    }
    // A resident SM writes nothing again; with the second group gone, its entries are emptied.
    o.held = &r.program.programmed;
    const SweepReport again = run("updn", o);
    EXPECT_EQ(again.program.mft_blocks_set, 0u);
    EXPECT_EQ(again.program.mft_blocks_unchanged, 10u);
    o.held = &again.program.programmed;
    o.mcast_groups.pop_back();
    const SweepReport third = run("updn", o);
    // Only the switches that were on its tree (host0's leaf, a spine, host5's leaf) had entries.
    std::size_t on_tree = 0;
    for (const auto &ports : r.mcast.trees[1].ports) on_tree += !ports.empty();
    EXPECT_EQ(on_tree, 3u);
    EXPECT_EQ(third.program.mft_blocks_set, on_tree);
    EXPECT_EQ(third.program.mft_blocks_unchanged, 10u - on_tree);
    for (std::size_t sim = 0; sim < fabric.node_count(); ++sim)
        if (fabric.node(sim).info.is_switch()) {
            EXPECT_TRUE(mft_ports(fabric.node(sim), 0xC021).empty());
        }
}

TEST_F(Sweep, RefusedSetIsLocatedAndTheRestProgrammed) {
    const test::SimTree t = test::build_tree(fabric, 2, 3, 2);
    const std::size_t stubborn = t.leaves[1];
    fabric.drop_at = [stubborn](std::size_t node, const Smp &s) {
        return node == stubborn && s.method == Method::kSet && s.attr_id == attr::kLinearForwardingTable;
    };
    const SweepReport r = run();
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed);
    EXPECT_EQ(r.program.failures, 1u);
    ASSERT_EQ(r.program.problems.size(), 1u);
    EXPECT_EQ(r.program.problems[0],
              "programming: Set LinearForwardingTable block 0 of switch 0x0000000000003001 'leaf1' via path "
              "0,1,1,2: "
              "timed out after 4 attempts");
    EXPECT_EQ(fabric.node(t.leaves[0]).lft[1],
              r.tables.lft[r.discovery.fabric.node(*r.discovery.fabric.find_guid(0x3000)).sw][1]);
}

TEST_F(Sweep, SmPortWithoutALink) {
    fabric.sm_node = fabric.add_ca(0x1000, 1, "alone");  // no cable: the port keeps polling
    const SweepReport r = run();
    EXPECT_EQ(r.outcome, SweepOutcome::kUnreachable);
    EXPECT_EQ(r.why, "the SM's port 1 has no link (physical state 2, 5 is LinkUp)");
    EXPECT_EQ(r.phases.size(), 1u);
}

TEST_F(Sweep, NoFabric) {
    test::build_tree(fabric, 1, 1, 1);
    fabric.refuse_sends = true;
    const SweepReport r = run();
    EXPECT_EQ(r.outcome, SweepOutcome::kUnreachable);
    EXPECT_NE(r.why.find("the SM's own node does not answer NodeInfo: send failed"), std::string::npos)
        << r.why;
}

}  // namespace
}  // namespace weft::sm
