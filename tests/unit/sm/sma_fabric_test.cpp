// The real SM core (discovery, LIDs, routing, verification, programming, light sweeps, traps)
// over a fabric of real SMAs built from the routing library's generators: after a heavy sweep
// every SMA holds the LFT the SM computed, its LIDs and the SM's LID, every cabled port ACTIVE;
// a cable cut sends trap 128 to the SM, which represses it, sweeps and re-programs around it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "programmed_check.hpp"
#include "sma_fabric.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/light_sweep.hpp"
#include "weft/sm/live_migration.hpp"
#include "weft/sm/notice.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using routing::NodeIdx;

// The first switch with a CA on it (a leaf), and that CA.
std::pair<NodeIdx, NodeIdx> leaf_and_host(const routing::Fabric &f) {
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (!f.node(n).is_switch()) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const routing::Port &x = f.port(n, p);
            if (x.peer != routing::kNoNode && !f.node(x.peer).is_switch()) return {n, x.peer};
        }
    }
    return {routing::kNoNode, routing::kNoNode};
}

// A switch-to-switch cable of `leaf`: its port and the spine's.
std::pair<PortNum, NodeIdx> uplink(const routing::Fabric &f, NodeIdx leaf) {
    for (PortNum p = 1; p <= f.node(leaf).num_ports; ++p) {
        const routing::Port &x = f.port(leaf, p);
        if (x.peer != routing::kNoNode && f.node(x.peer).is_switch()) return {p, x.peer};
    }
    return {0, routing::kNoNode};
}

struct SmaSweep : ::testing::Test {
    routing::Fabric topo = routing::generate("kary:k=4,n=2");  // 16 hosts, 8 switches
    std::vector<std::string> log;
    SmpEngineConfig config{8, 200ms, 3};

    SweepReport run(test::SmaFabric &fabric, SmpEngine &engine, const std::string &chain,
                    const TableMemory *held = nullptr) {
        SweepOptions o;
        o.chain = chain;
        o.held = held;
        o.log = [this](std::string_view l) { log.emplace_back(l); };
        return heavy_sweep(
            engine, [&fabric] { return fabric.now(); }, o);
    }

    // Every SMA holds what the sweep programmed.
    void expect_programmed(test::SmaFabric &fabric, const SweepReport &r) {
        test::expect_programmed(
            topo, [&fabric](NodeIdx n) -> const Sma & { return fabric.sma(n); }, r);
    }
};

TEST_F(SmaSweep, SmOnASwitchBringsTheTreeUp) {
    const auto [leaf, host] = leaf_and_host(topo);
    test::SmaFabric fabric(topo, leaf);
    SmpEngine engine(fabric, config);
    const SweepReport r = run(fabric, engine, "minhop");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_TRUE(r.program.problems.empty()) << r.program.problems.front();
    EXPECT_EQ(r.discovery.stats.switches, 8u);
    EXPECT_EQ(r.discovery.stats.cas, 16u);
    EXPECT_EQ(r.discovery.stats.links, 32u);
    EXPECT_EQ(r.discovery.stats.problems(), 0u);
    EXPECT_EQ(r.discovery.sm_port, 0);
    EXPECT_EQ(r.sm_lid, fabric.sma(leaf).lid());
    EXPECT_EQ(r.program.armed, 64u);
    EXPECT_EQ(r.program.activated, 64u);
    expect_programmed(fabric, r);
    // No SMA dropped anything, and every SMP the SM sent came back.
    for (NodeIdx n = 0; n < fabric.size(); ++n)
        EXPECT_EQ(fabric.sma(n).counters().dropped_total(), 0u) << topo.node(n).desc;
    EXPECT_EQ(fabric.lost, 0u);
    EXPECT_EQ(r.smps.total().timed_out, 0u);
    // A second sweep finds everything as programmed: no Set at all.
    const SweepReport again = run(fabric, engine, "minhop", &r.program.programmed);
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.program.port_info_sets + again.program.switch_info_sets + again.program.lft_blocks_set +
                  again.program.armed + again.program.activated,
              0u);
    (void)host;
}

// Seed 002 on SMAs: with every switch forwarding vLIDs, VF LIDs are vLIDs (past 0xFFFF) and land in
// the secondary LFTs (blocks 1024..); with legacy switches, the SM falls back to 16-bit VF LIDs.
// Then a VM moved live by each method: the SMAs hold the SM's tables after it, and only the
// planned blocks were sent.
TEST_F(SmaSweep, VswitchFabricWithVlidsAndLiveMigration) {
    topo = routing::generate("kary:k=2,n=3");
    const auto [leaf, host] = leaf_and_host(topo);
    routing::VmParams vms = routing::parse_vm_spec("vfs=2,load=50,vlids=extended,seed=3");
    for (const routing::ReconfigMethod method :
         {routing::ReconfigMethod::FTreeMinRC, routing::ReconfigMethod::ItRC,
          routing::ReconfigMethod::FullReroute}) {
        test::SmaFabric fabric(topo, leaf, 0, 192 * 1024);
        SmpEngine engine(fabric, config);
        SweepOptions o;
        o.chain = "vswitch-ftree";
        o.vms = vms;
        o.log = [this](std::string_view l) { log.emplace_back(l); };
        const SmClock clock = [&fabric] { return fabric.now(); };
        SweepReport r = heavy_sweep(engine, clock, o);
        ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
        EXPECT_TRUE(r.program.problems.empty()) << r.program.problems.front();
        routing::Fabric &f = r.discovery.fabric;
        EXPECT_TRUE(f.extended_vlids);
        EXPECT_EQ(r.vlids.extended, 12u);
        ASSERT_EQ(f.vms().size(), 8u);
        for (const routing::VirtualMachine &vm : f.vms()) EXPECT_GE(vm.lid, kFirstVlid);
        EXPECT_EQ(r.program.lft_vlid_blocks_set, 12u);  // 16 VF vLIDs: one block on each switch
        expect_programmed(fabric, r);

        const auto sky = routing::FatTreeSkyline::build(f);
        ASSERT_TRUE(sky);
        LiveMigrationOptions lo;
        lo.method = method;
        lo.chain = "vswitch-ftree";
        const std::vector<routing::Migration> steps =
            routing::generate_migrations(f, routing::MigrationPattern::Random, 5);
        ASSERT_FALSE(steps.empty());
        std::size_t blocks = 0;
        for (const routing::Migration &m : steps) {
            const LiveMigrationReport x = migrate_live(engine, clock, r.discovery, r.tables, m, lo, &*sky);
            ASSERT_TRUE(x.plan.ok()) << x.plan.error;
            EXPECT_EQ(x.failures, 0u) << (x.problems.empty() ? "" : x.problems.front());
            EXPECT_EQ(x.lft_blocks_set, x.plan.smps);
            EXPECT_EQ(x.smps.total().sent, x.lft_blocks_set);  // nothing but those Sets
            blocks += x.lft_blocks_set;
        }
        expect_programmed(fabric, r);  // the SMAs hold the tables after the moves
        EXPECT_EQ(routing::trace_paths(f, r.tables).unreachable, 0u);
        if (method != routing::ReconfigMethod::FullReroute) {
            EXPECT_GT(blocks, 0u);
        }
    }

    // Switches without a secondary LFT (ibsim's, another vendor's): the legacy fallback, VF LIDs
    // below 0xC000.
    test::SmaFabric mixed(topo, leaf, 0, 0);
    SmpEngine engine(mixed, config);
    SweepOptions o;
    o.chain = "vswitch-ftree";
    o.vms = vms;
    o.log = [this](std::string_view l) { log.emplace_back(l); };
    const SweepReport r = heavy_sweep(
        engine, [&mixed] { return mixed.now(); }, o);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_FALSE(r.discovery.fabric.extended_vlids);
    EXPECT_EQ(r.vlids.extended, 0u);
    EXPECT_EQ(r.vlids.legacy.size(), 12u);
    for (const routing::VirtualMachine &vm : r.discovery.fabric.vms()) EXPECT_LE(vm.lid, 0xBFFFu);
    EXPECT_EQ(r.program.lft_vlid_blocks_set, 0u);
    expect_programmed(mixed, r);
    bool said = false;
    for (const std::string &l : log) said |= l.find("legacy fallback to 16-bit LIDs") != std::string::npos;
    EXPECT_TRUE(said);
    (void)host;
}

TEST_F(SmaSweep, SmOnAHostWithFtree) {
    const auto [leaf, host] = leaf_and_host(topo);
    test::SmaFabric fabric(topo, host, 1);
    SmpEngine engine(fabric, config);
    const SweepReport r = run(fabric, engine, "ftree");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_EQ(r.chain.engine, "ftree");
    EXPECT_EQ(r.discovery.sm_port, 1);
    EXPECT_TRUE(r.program.problems.empty()) << r.program.problems.front();
    expect_programmed(fabric, r);
    (void)leaf;
}

TEST_F(SmaSweep, CableCutTrapsTheSmWhichReprograms) {
    const auto [leaf, host] = leaf_and_host(topo);
    test::SmaFabric fabric(topo, leaf);
    SmpEngine engine(fabric, config);
    const SmClock clock = [&fabric] { return fabric.now(); };
    const SweepReport first = run(fabric, engine, "minhop");
    ASSERT_EQ(first.outcome, SweepOutcome::kProgrammed) << first.why;
    const LightSweepReport quiet = light_sweep(engine, clock, first.discovery);
    EXPECT_FALSE(quiet.changed) << quiet.why;

    // Cut one uplink of another leaf (not the SM's: its traps must cross the fabric).
    NodeIdx other = routing::kNoNode;
    for (NodeIdx n = 0; n < topo.node_count() && other == routing::kNoNode; ++n)
        if (n != leaf && topo.node(n).is_switch() && uplink(topo, n).first != 0 &&
            leaf_and_host(topo).first != n) {
            for (PortNum p = 1; p <= topo.node(n).num_ports; ++p)
                if (topo.port(n, p).peer != routing::kNoNode && !topo.node(topo.port(n, p).peer).is_switch())
                    other = n;
        }
    ASSERT_NE(other, routing::kNoNode);
    // The very cable its LFT sends the SM's LID by: its own trap is lost on the way.
    const PortNum port = fabric.sma(other).lft(fabric.sma(leaf).lid());
    ASSERT_TRUE(port >= 1 && port <= topo.node(other).num_ports);
    const NodeIdx spine = topo.port(other, port).peer;
    ASSERT_TRUE(topo.node(spine).is_switch());
    fabric.set_cable(other, port, false);
    EXPECT_TRUE(fabric.sma(other).switch_info().port_state_change);
    EXPECT_TRUE(fabric.sma(spine).switch_info().port_state_change);

    // Both ends trap. The spine's trap reaches the SM, which represses it; the leaf's cannot
    // leave by the cut cable and stays outstanding.
    // One pump takes one MAD off the transport: a few rounds of 10 ms take every trap.
    auto answer_traps = [&](std::set<Lid> &from) {
        for (int round = 0; round < 10; ++round) {
            engine.pump(clock, 10ms);
            while (auto u = engine.next_unsolicited()) {
                const auto notice = decode_notice(u->smp);
                ASSERT_TRUE(notice.ok());
                EXPECT_EQ(notice->trap_number, kTrapPortStateChange);
                from.insert(decode_port_state_change(*notice).value().lid);
                EXPECT_TRUE(engine.post({make_trap_repress(u->smp), u->slid, 0}, clock()));
            }
        }
    };
    std::set<Lid> from;
    answer_traps(from);
    EXPECT_TRUE(from.count(fabric.sma(spine).lid()));
    EXPECT_FALSE(fabric.sma(spine).trap_outstanding());
    EXPECT_EQ(fabric.sma(spine).counters().traps_repressed, 1u);
    EXPECT_TRUE(fabric.sma(other).trap_outstanding());
    EXPECT_EQ(fabric.sma(other).counters().drops(SmaDrop::kPortDown), 1u);
    EXPECT_EQ(from.size(), 1u);

    // The light sweep sees it too (the leaf, if its route crossed the cut, by not answering).
    const LightSweepReport flagged = light_sweep(engine, clock, first.discovery);
    EXPECT_TRUE(flagged.changed);
    EXPECT_EQ(flagged.flagged + flagged.unanswered, 2u);
    const SweepReport second = run(fabric, engine, "minhop", &first.program.programmed);
    ASSERT_EQ(second.outcome, SweepOutcome::kProgrammed) << second.why;
    EXPECT_EQ(second.discovery.stats.links, 31u);
    EXPECT_GT(second.program.lft_blocks_set, 0u);
    expect_programmed(fabric, second);
    for (Lid lid = 1; lid <= second.discovery.fabric.max_lid(); ++lid) {
        EXPECT_NE(fabric.sma(other).lft(lid), port) << "LID " << lid;
        EXPECT_NE(fabric.sma(spine).lft(lid), topo.port(other, port).peer_port) << "LID " << lid;
    }
    EXPECT_FALSE(light_sweep(engine, clock, second.discovery).changed);
    // Re-programmed, the leaf's repeated trap finds its way and is repressed.
    fabric.set_now(fabric.now() + 150ms);
    fabric.poll();
    answer_traps(from);
    EXPECT_EQ(from, (std::set<Lid>{fabric.sma(other).lid(), fabric.sma(spine).lid()}));
    EXPECT_FALSE(fabric.sma(other).trap_outstanding());

    // Restored: the same again, back to a fabric with every cable.
    fabric.set_cable(other, port, true);
    std::set<Lid> back;
    answer_traps(back);
    EXPECT_EQ(back, from);
    EXPECT_FALSE(fabric.sma(other).trap_outstanding());
    EXPECT_FALSE(fabric.sma(spine).trap_outstanding());
    const SweepReport third = run(fabric, engine, "minhop", &second.program.programmed);
    ASSERT_EQ(third.outcome, SweepOutcome::kProgrammed) << third.why;
    EXPECT_EQ(third.discovery.stats.links, 32u);
    expect_programmed(fabric, third);
    (void)host;
}

// A trap whose TrapRepress never comes is sent again when SubnetTimeOut has passed.
TEST_F(SmaSweep, UnansweredTrapIsRepeated) {
    const auto [leaf, host] = leaf_and_host(topo);
    test::SmaFabric fabric(topo, leaf);
    SmpEngine engine(fabric, config);
    const SmClock clock = [&fabric] { return fabric.now(); };
    ASSERT_EQ(run(fabric, engine, "minhop").outcome, SweepOutcome::kProgrammed);
    fabric.set_cable(host, 1, false);  // the SM's leaf loses a host: its own trap, to itself
    EXPECT_EQ(fabric.traps_to_sm, 1u);
    fabric.set_now(fabric.now() + 150ms);  // past the 100 ms floor (SubnetTimeOut 0)
    fabric.poll();
    EXPECT_EQ(fabric.traps_to_sm, 2u);
    EXPECT_EQ(fabric.sma(leaf).counters().trap_repeats, 1u);
    std::size_t traps = 0;
    while (engine.pump(clock, 1ms) || traps < 2) {
        while (auto u = engine.next_unsolicited()) {
            ++traps;
            engine.post({make_trap_repress(u->smp), u->slid, 0}, clock());
        }
        if (fabric.now() > 1s) break;
    }
    EXPECT_EQ(traps, 2u);
    EXPECT_FALSE(fabric.sma(leaf).trap_outstanding());
}

}  // namespace
}  // namespace weft::sm
