// The resident SM (SmRunner) over a fabric of real SMAs: a heavy sweep first, then light sweeps
// at the interval that find nothing; a cable cut traps the SM, which represses the trap and
// re-programs at its next step; a change only a light sweep sees calls a heavy sweep too; the
// memory it carries makes a repeated heavy sweep write nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "programmed_check.hpp"
#include "sma_fabric.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"
#include "weft/sm/sm_runner.hpp"
#include "weft/sm/trap_sweep.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using routing::NodeIdx;

struct Runner : ::testing::Test {
    routing::Fabric topo = routing::generate("kary:k=4,n=2");  // 16 hosts, 8 switches
    NodeIdx sm_node = first_leaf();
    test::SmaFabric fabric{topo, sm_node};
    SmpEngine engine{fabric, SmpEngineConfig{8, 200ms, 3}};
    std::vector<std::string> notes, problems;
    SmRunner runner{engine, [this] { return fabric.now(); }, options()};

    NodeIdx first_leaf() const {
        for (NodeIdx n = 0; n < topo.node_count(); ++n)
            if (topo.node(n).is_switch())
                for (PortNum p = 1; p <= topo.node(n).num_ports; ++p)
                    if (topo.port(n, p).peer != routing::kNoNode &&
                        !topo.node(topo.port(n, p).peer).is_switch())
                        return n;
        return routing::kNoNode;
    }
    SmRunnerOptions options() {
        SmRunnerOptions o;
        o.chain = "ftree,minhop";
        o.sweep_interval = 1s;
        o.log = [this](SmLogLevel level, std::string_view line) {
            (level == SmLogLevel::kNote ? notes : problems).emplace_back(line);
        };
        return o;
    }
    // The switch-to-switch cable of the SM's leaf that is not the one its LFT uses for LID 1.
    PortNum uplink_of(NodeIdx leaf) const {
        for (PortNum p = 1; p <= topo.node(leaf).num_ports; ++p) {
            const routing::Port &x = topo.port(leaf, p);
            if (x.peer != routing::kNoNode && topo.node(x.peer).is_switch()) return p;
        }
        return 0;
    }
    void expect_programmed() {
        ASSERT_TRUE(runner.last_heavy());
        test::expect_programmed(
            topo, [this](NodeIdx n) -> const Sma & { return fabric.sma(n); }, *runner.last_heavy());
    }
    // Lets time pass as the caller's loop would, answering traps.
    void idle(std::chrono::milliseconds d) {
        const SmTime end = fabric.now() + d;
        while (fabric.now() < end) {
            engine.pump([this] { return fabric.now(); }, 10ms);
            runner.take_unsolicited();
            fabric.set_now(fabric.now() + 1ms);
        }
    }
};

TEST_F(Runner, HeavyThenLightSweepsThatFindNothing) {
    EXPECT_TRUE(runner.heavy_due());
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed) << runner.last_heavy()->why;
    EXPECT_EQ(runner.last_heavy()->chain.engine, "ftree");
    EXPECT_TRUE(problems.empty()) << problems.front();
    expect_programmed();
    EXPECT_EQ(runner.step(), SmStep::kNothing);  // nothing due before the interval
    EXPECT_GT(runner.next_due(), fabric.now());
    idle(1000ms);
    ASSERT_EQ(runner.step(), SmStep::kLight);
    EXPECT_FALSE(runner.last_light()->changed) << runner.last_light()->why;
    EXPECT_EQ(runner.last_light()->switches, 8u);
    EXPECT_FALSE(runner.heavy_due());
    // The memory: a heavy sweep asked for again writes nothing.
    runner.request_heavy();
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    const ProgramReport &p = runner.last_heavy()->program;
    EXPECT_EQ(p.port_info_sets + p.switch_info_sets + p.lft_blocks_set + p.armed + p.activated, 0u);
    EXPECT_GT(p.lft_blocks_remembered, 0u);
    EXPECT_EQ(runner.stats().heavy_sweeps, 2u);
    EXPECT_EQ(runner.stats().light_sweeps, 1u);
    EXPECT_EQ(runner.stats().programmed, 2u);
    EXPECT_NE(std::find_if(notes.begin(), notes.end(),
                           [](const std::string &l) { return l.rfind("sweep programmed: ", 0) == 0; }),
              notes.end());
}

TEST_F(Runner, CableCutTrapsAndIsReprogrammed) {
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed);
    const PortNum port = uplink_of(sm_node);
    ASSERT_NE(port, 0);
    fabric.set_cable(sm_node, port, false);
    idle(5ms);
    EXPECT_TRUE(runner.heavy_due());
    EXPECT_GE(runner.stats().traps, 1u);
    EXPECT_TRUE(runner.stats().trap_at);
    EXPECT_FALSE(fabric.sma(sm_node).trap_outstanding());  // repressed
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed);
    EXPECT_EQ(runner.last_heavy()->discovery.stats.links, 31u);
    EXPECT_GT(runner.last_heavy()->program.lft_blocks_set, 0u);
    ASSERT_TRUE(runner.stats().trap_to_programmed);
    EXPECT_GE(*runner.stats().trap_to_programmed, 0.0);
    expect_programmed();
    for (Lid lid = 1; lid <= runner.last_heavy()->discovery.fabric.max_lid(); ++lid)
        EXPECT_NE(fabric.sma(sm_node).lft(lid), port) << "LID " << lid;
    // Only the trapping switch was read again: no discovery, no LID Sets, only what changed.
    EXPECT_EQ(runner.stats().trap_sweeps, 1u);
    const SmpCounters &c = runner.last_heavy()->smps;
    EXPECT_EQ(c.per_kind.count({Method::kGet, attr::kNodeInfo}), 0u);
    EXPECT_EQ(runner.last_heavy()->program.port_info_sets, 0u);
    EXPECT_LE(c.total().sent, 1u + 8u + 2u + 8u);  // SwitchInfo, 8 PortInfo; SwitchInfo at both ends, LFTs
    EXPECT_EQ(runner.last_heavy()->phases.front().name, "update");

    // The cable back: the link comes up between two ports the SM knows, found through the port.
    fabric.set_cable(sm_node, port, true);
    idle(5ms);
    ASSERT_TRUE(runner.heavy_due());
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed) << runner.last_heavy()->why;
    EXPECT_EQ(runner.stats().trap_sweeps, 2u);
    EXPECT_EQ(runner.last_heavy()->discovery.stats.links, 32u);
    EXPECT_LE(runner.last_heavy()->smps.per_kind.at({Method::kGet, attr::kNodeInfo}).sent, 2u);  // each end
    expect_programmed();
    fabric.set_now(fabric.now() + 1s);
    EXPECT_EQ(runner.step(), SmStep::kLight);
    EXPECT_FALSE(runner.heavy_due()) << runner.last_light()->why;
}

TEST_F(Runner, ACutOnTheWayToTheTrappingSwitchIsReadAround) {
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed);
    // A leaf two hops away and the last cable of the SM's directed route to it, cut. The leaf's
    // trap is what the sweep answers (here it is handed over directly: in this fabric the leaf's
    // LFT sends its traps over that very cable).
    const DiscoveryResult known = runner.last_heavy()->discovery;
    NodeIdx far = routing::kNoNode;
    for (NodeIdx n = 0; n < known.nodes.size() && far == routing::kNoNode; ++n)
        if (known.nodes[n].is_switch() && known.nodes[n].path.size() == 2) far = n;
    ASSERT_NE(far, routing::kNoNode);
    const DrPath way = known.nodes[far].path;
    const NodeIdx spine = topo.port(sm_node, way[0]).peer;  // the generated fabric's indices
    ASSERT_EQ(topo.node(topo.port(spine, way[1]).peer).guid, known.nodes[far].info.node_guid);
    fabric.set_cable(spine, way[1], false);
    fabric.poll();
    SweepOptions so;
    so.chain = "ftree,minhop";
    const SmClock clock = [this] { return fabric.now(); };
    const SmTime before = fabric.now();
    const TrapSweepResult t =
        trap_sweep(engine, clock, so, known, {static_cast<Lid>(known.fabric.port(far, 0).lid)});
    ASSERT_TRUE(t.report) << t.why_not;
    const SweepReport &r = *t.report;
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    // The reads along the dead cable were withdrawn and sent the other way: no time-out, no
    // rediscovery.
    EXPECT_GT(r.smps.cancelled, 0u);
    EXPECT_EQ(r.smps.total().timed_out, 0u);
    EXPECT_LT(fabric.now() - before, 200ms) << "no request waited for its time-out";
    EXPECT_EQ(r.discovery.stats.links, 31u);
    EXPECT_NE(r.discovery.nodes[far].path, way);
    test::expect_programmed(
        topo, [this](NodeIdx n) -> const Sma & { return fabric.sma(n); }, r);
}

TEST_F(Runner, ARequestedSweepDiscoversTheWholeFabric) {
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    fabric.set_cable(sm_node, uplink_of(sm_node), false);
    runner.request_heavy();  // no trap: nothing says where to look
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    EXPECT_EQ(runner.stats().trap_sweeps, 0u);
    EXPECT_EQ(runner.last_heavy()->phases.front().name, "discovery");
    EXPECT_EQ(runner.last_heavy()->discovery.stats.links, 31u);
}

TEST_F(Runner, ALightSweepThatSeesAChangeCallsAHeavyOne) {
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    // Cut a cable, but never hand the traps to the runner: only the light sweep can tell.
    fabric.set_cable(sm_node, uplink_of(sm_node), false);
    fabric.set_now(fabric.now() + 1s);
    ASSERT_EQ(runner.step(), SmStep::kLight);
    EXPECT_TRUE(runner.last_light()->changed);
    EXPECT_TRUE(runner.heavy_due());
    EXPECT_EQ(runner.next_due(), SmTime{0});
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    EXPECT_EQ(runner.last_heavy()->discovery.stats.links, 31u);
    expect_programmed();
}

// A neighbour that does not answer yet behind a port that is up (no trap will come when it
// starts): the next sweep at the interval is heavy again, and finds it once it answers.
TEST_F(Runner, PortsUpWithNobodyAnsweringAreSweptAgainWhole) {
    const NodeIdx spine = topo.port(sm_node, uplink_of(sm_node)).peer;
    ASSERT_NE(spine, routing::kNoNode);
    fabric.silent.insert(spine);
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed) << runner.last_heavy()->why;
    EXPECT_GT(runner.last_heavy()->discovery.stats.dark_ports, 0u);
    EXPECT_LT(runner.last_heavy()->discovery.stats.switches, 8u);
    fabric.silent.clear();
    fabric.set_now(fabric.now() + 1s);
    ASSERT_EQ(runner.step(), SmStep::kHeavy);  // not a light sweep of the switches it knew
    EXPECT_EQ(runner.last_heavy()->discovery.stats.switches, 8u);
    EXPECT_EQ(runner.last_heavy()->discovery.stats.dark_ports, 0u);
    expect_programmed();
    fabric.set_now(fabric.now() + 1s);
    EXPECT_EQ(runner.step(), SmStep::kLight);  // all found: light sweeps from now on
}

TEST_F(Runner, AFailedSweepIsRetriedWholeAtTheInterval) {
    SmRunnerOptions o = options();
    o.chain = "no-such-engine";
    SmRunner bad(
        engine, [this] { return fabric.now(); }, o);
    ASSERT_EQ(bad.step(), SmStep::kHeavy);
    EXPECT_NE(bad.last_heavy()->outcome, SweepOutcome::kProgrammed);
    EXPECT_FALSE(bad.memory().last);
    EXPECT_EQ(bad.stats().failed, 1u);
    EXPECT_FALSE(problems.empty());
    EXPECT_EQ(bad.step(), SmStep::kNothing);
    fabric.set_now(fabric.now() + 1s);
    EXPECT_EQ(bad.step(), SmStep::kHeavy);  // not a light sweep: no fabric got through
    EXPECT_EQ(bad.stats().failed, 2u);
}

TEST_F(Runner, AFabricThatStaysUnsettledIsSweptWholeLessAndLessOften) {
    const NodeIdx spine = topo.port(sm_node, uplink_of(sm_node)).peer;
    fabric.silent.insert(spine);  // a port up with nothing answering behind it, for good
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    EXPECT_EQ(runner.stats().unsettled, 1u);
    // Heavy again after 1 s, then 2 s, then 4 s; light sweeps in between.
    std::vector<int> heavy_at;
    for (int t = 1; t <= 12; ++t) {
        fabric.set_now(fabric.now() + 1s);
        const SmStep s = runner.step();
        ASSERT_NE(s, SmStep::kNothing) << "at " << t << " s";
        if (s == SmStep::kHeavy) heavy_at.push_back(t);
    }
    EXPECT_EQ(heavy_at, (std::vector<int>{1, 3, 7}));
    EXPECT_EQ(runner.stats().unsettled, 4u);
    EXPECT_NE(std::find_if(notes.begin(), notes.end(),
                           [](const std::string &l) {
                               return l.find("unsettled: ") == 0 &&
                                      l.find("ports up with nothing answering") != std::string::npos;
                           }),
              notes.end());
    // A trap starts the back-off over; once all answer, the fabric is settled.
    fabric.silent.clear();
    runner.request_heavy();
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    EXPECT_EQ(runner.stats().unsettled, 0u);
    fabric.set_now(fabric.now() + 1s);
    EXPECT_EQ(runner.step(), SmStep::kLight);
}

// Seed 002 with a resident SM on a host: the hosts but its own become hypervisors with vLIDs; a
// VM moved live stays where it went, with its LID, through a trap's sweep and a whole heavy one
// (neither places VMs afresh nor adds any); moves that cannot be are refused, saying why.
TEST(RunnerVms, AMovedVmStaysWhereItWent) {
    const routing::Fabric topo = routing::generate("kary:k=2,n=3");  // 12 switches, 8 hosts
    NodeIdx host = routing::kNoNode, leaf = routing::kNoNode;
    for (NodeIdx n = 0; n < topo.node_count() && host == routing::kNoNode; ++n)
        if (!topo.node(n).is_switch()) host = n, leaf = topo.port(n, 1).peer;
    test::SmaFabric fabric(topo, host, 1, 192 * 1024);
    SmpEngine engine(fabric, SmpEngineConfig{8, 200ms, 3});
    std::vector<std::string> notes, problems;
    SmRunnerOptions o;
    o.chain = "vswitch-ftree";
    o.vms = routing::parse_vm_spec("vfs=2,load=50,vlids=extended,seed=3");
    o.sweep_interval = 1s;
    o.log = [&](SmLogLevel level, std::string_view line) {
        (level == SmLogLevel::kNote ? notes : problems).emplace_back(line);
    };
    const SmClock clock = [&fabric] { return fabric.now(); };
    SmRunner runner(engine, clock, o);
    auto check_programmed = [&] {
        test::expect_programmed(
            topo, [&fabric](NodeIdx n) -> const Sma & { return fabric.sma(n); }, *runner.last_heavy());
    };
    const routing::Migration none{};
    EXPECT_NE(runner.migrate(none, "").plan.error.find("no programmed fabric"), std::string::npos);

    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed) << runner.last_heavy()->why;
    const routing::Fabric &f = runner.last_heavy()->discovery.fabric;
    EXPECT_TRUE(f.extended_vlids);
    EXPECT_FALSE(f.node(*f.find_guid(topo.node(host).guid)).vswitch);  // the SM's own CA
    EXPECT_EQ(routing::hypervisors(f).size(), 7u);
    ASSERT_EQ(f.vms().size(), 7u);  // half of 14 VFs, one on each hypervisor
    for (const routing::VirtualMachine &vm : f.vms()) EXPECT_GE(vm.lid, kFirstVlid);
    EXPECT_GT(runner.last_heavy()->program.lft_vlid_blocks_set, 0u);

    // vm00001 to a hypervisor on another leaf.
    const std::uint32_t vm = *f.find_vm("vm00001");
    const routing::Guid leaf_guid = topo.node(leaf).guid;
    NodeIdx to = routing::kNoNode;
    for (NodeIdx h : routing::hypervisors(f))
        if (f.node(f.port(h, 1).peer).guid != f.node(f.port(f.vms()[vm].hypervisor, 1).peer).guid &&
            f.node(f.port(h, 1).peer).guid != leaf_guid)
            to = h;
    ASSERT_NE(to, routing::kNoNode);
    const routing::Guid to_guid = f.node(to).guid;
    const routing::Lid lid = f.vms()[vm].lid;
    const LiveMigrationReport x = runner.migrate({vm, to}, "");
    ASSERT_TRUE(x.plan.ok()) << x.plan.error;
    EXPECT_EQ(x.plan.method, routing::ReconfigMethod::FTreeMinRC);  // the default on a fat tree
    EXPECT_EQ(x.failures, 0u);
    EXPECT_GT(x.lft_blocks_set, 0u);
    EXPECT_EQ(runner.stats().migrations, 1u);
    check_programmed();  // the SMAs hold the tables after the move
    EXPECT_NE(std::find_if(notes.begin(), notes.end(),
                           [](const std::string &l) { return l.rfind("migrate: vm00001 '", 0) == 0; }),
              notes.end());

    // Refused, saying why, and nothing sent.
    const std::uint64_t sent = engine.counters().total().sent;
    EXPECT_NE(runner.migrate({vm, to}, "").plan.error.find("already runs on"), std::string::npos);
    EXPECT_NE(runner.migrate({vm == 0 ? 1u : 0u, to}, "").plan.error.find("is full (2 of 2 VFs in use)"),
              std::string::npos);
    EXPECT_NE(runner.migrate({vm, f.vms()[vm == 0 ? 1u : 0u].hypervisor}, "sideways")
                  .plan.error.find("unknown method"),
              std::string::npos);
    EXPECT_NE(
        runner.migrate({vm, *f.find_guid(topo.node(host).guid)}, "").plan.error.find("is not a hypervisor"),
        std::string::npos);
    EXPECT_EQ(runner.stats().migrations_refused, 5u);
    EXPECT_EQ(engine.counters().total().sent, sent);
    EXPECT_EQ(problems.size(), 5u);  // each refusal, and the one before the first sweep
    problems.clear();

    auto expect_in_place = [&](const char *when) {
        ASSERT_EQ(runner.last_heavy()->outcome, SweepOutcome::kProgrammed)
            << when << runner.last_heavy()->why;
        const routing::Fabric &g = runner.last_heavy()->discovery.fabric;
        EXPECT_EQ(g.vms().size(), 7u) << when;
        const auto moved = g.find_vm("vm00001");
        ASSERT_TRUE(moved) << when;
        EXPECT_EQ(g.node(g.vms()[*moved].hypervisor).guid, to_guid) << when;
        EXPECT_EQ(g.vms()[*moved].lid, lid) << when;
        EXPECT_EQ(routing::trace_paths(g, runner.last_heavy()->tables).unreachable, 0u) << when;
        check_programmed();
    };
    // A cable cut: the trap's sweep starts from the moved fabric and keeps its VMs.
    NodeIdx spine = routing::kNoNode;
    PortNum up = 0;
    for (PortNum p = 1; p <= topo.node(leaf).num_ports && up == 0; ++p)
        if (topo.port(leaf, p).peer != routing::kNoNode && topo.node(topo.port(leaf, p).peer).is_switch())
            up = p, spine = topo.port(leaf, p).peer;
    ASSERT_NE(up, 0);
    fabric.set_cable(leaf, up, false);
    for (int i = 0; i < 5 && !runner.heavy_due(); ++i) {
        engine.pump(clock, 10ms);
        runner.take_unsolicited();
        fabric.set_now(fabric.now() + 1ms);
    }
    ASSERT_TRUE(runner.heavy_due());
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    EXPECT_EQ(runner.stats().trap_sweeps, 1u);
    expect_in_place("after the trap's sweep: ");
    problems.clear();  // vswitch-ftree's word on the tree missing a cable
    // A whole heavy sweep: the VMs put back where they run, none added.
    fabric.set_cable(leaf, up, true);
    runner.request_heavy();
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    expect_in_place("after a whole heavy sweep: ");
    EXPECT_TRUE(problems.empty()) << problems.front();
    // Nothing changed since: the switches keep their vLID blocks, none is sent again.
    runner.request_heavy();
    ASSERT_EQ(runner.step(), SmStep::kHeavy);
    expect_in_place("after a heavy sweep with nothing to change: ");
    EXPECT_EQ(runner.last_heavy()->program.lft_vlid_blocks_set, 0u);
    EXPECT_GT(runner.last_heavy()->program.lft_blocks_unchanged, 0u);
    (void)spine;
}

}  // namespace
}  // namespace weft::sm
