// The real SM core (heavy sweep over SmpEngine) over FrameSmpTransport, on a fabric of real SMAs
// that exchange encoded IB-over-Ethernet frames (frame_fabric.hpp): every switch ends with the
// routing's LFT, every port ACTIVE, every SMP having crossed the wire as a frame that decoded;
// malformed frames are refused and counted per reason without disturbing the sweep; a cut cable's
// trap reaches the SM as frames.
#include <gtest/gtest.h>

#include "frame_fabric.hpp"
#include "programmed_check.hpp"
#include "weft/routing/generators.hpp"
#include "weft/sm/frame_smp_transport.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/mad_frame.hpp"
#include "weft/sm/notice.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using routing::NodeIdx;

// A switch with a host on one of its ports (not `except`): the switch, that port, the host.
struct HostCable {
    NodeIdx sw = routing::kNoNode;
    PortNum port = 0;
    NodeIdx host = routing::kNoNode;
};
HostCable host_cable(const routing::Fabric &f, NodeIdx except = routing::kNoNode) {
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (!f.node(n).is_switch() || n == except) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const routing::Port &x = f.port(n, p);
            if (x.peer != routing::kNoNode && !f.node(x.peer).is_switch()) return {n, p, x.peer};
        }
    }
    return {};
}

struct FrameSweep : ::testing::Test {
    routing::Fabric topo = routing::generate("kary:k=4,n=2");  // 16 hosts, 8 switches
    test::FrameFabric fabric{topo};
    SmpEngineConfig config{8, 200ms, 3};

    SweepReport run(SmpEngine &engine, const std::string &chain, const TableMemory *held = nullptr) {
        SweepOptions o;
        o.chain = chain;
        o.held = held;
        return heavy_sweep(
            engine, [this] { return fabric.now(); }, o);
    }
    FrameSmpTransport transport_at(NodeIdx n, PortNum sm_port) {
        return FrameSmpTransport(
            fabric.agent(n), fabric.ports(n), [this] { return fabric.now(); }, sm_port);
    }
    void expect_programmed(const SweepReport &r) {
        test::expect_programmed(
            topo, [this](NodeIdx n) -> const Sma & { return fabric.sma(n); }, r);
    }
};

TEST_F(FrameSweep, SmOnASwitchPortZeroProgramsEveryone) {
    const NodeIdx leaf = host_cable(topo).sw;
    FrameSmpTransport transport = transport_at(leaf, 0);
    SmpEngine engine(transport, config);
    const SweepReport r = run(engine, "minhop");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_TRUE(r.program.problems.empty());
    EXPECT_EQ(r.discovery.stats.switches, 8u);
    EXPECT_EQ(r.discovery.stats.cas, 16u);
    EXPECT_EQ(r.discovery.stats.links, 32u);
    EXPECT_EQ(r.sm_lid, fabric.sma(leaf).lid());
    EXPECT_EQ(r.program.activated, 64u);
    expect_programmed(r);
    EXPECT_EQ(r.smps.total().timed_out, 0u);
    // Every SMP crossed the wire as a frame, and every frame decoded.
    EXPECT_GT(fabric.frames, 0u);
    EXPECT_EQ(fabric.lost, 0u);
    EXPECT_EQ(fabric.for_absent_sm, 0u);
    std::uint64_t in = 0, out = 0;
    for (NodeIdx n = 0; n < fabric.size(); ++n) {
        const SmaFrameCounters &c = fabric.agent(n).counters();
        EXPECT_EQ(c.refused.total(), 0u) << topo.node(n).desc;
        EXPECT_EQ(c.send_failed, 0u);
        EXPECT_EQ(fabric.sma(n).counters().dropped_total(), 0u) << topo.node(n).desc;
        in += c.smps_in;
        out += c.frames_out;
    }
    EXPECT_EQ(in, fabric.frames);
    EXPECT_EQ(out, fabric.frames);
    // A second sweep finds everything as programmed: no Set.
    const SweepReport again = run(engine, "minhop", &r.program.programmed);
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.program.port_info_sets + again.program.lft_blocks_set + again.program.activated, 0u);
}

TEST_F(FrameSweep, SmOnAHostPortWithFtree) {
    const NodeIdx host = host_cable(topo).host;
    FrameSmpTransport transport = transport_at(host, 1);
    SmpEngine engine(transport, config);
    const SweepReport r = run(engine, "ftree");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_EQ(r.chain.engine, "ftree");
    EXPECT_EQ(r.discovery.sm_port, 1);
    expect_programmed(r);
}

// Frames spoiled on the wire are refused by reason at the node that receives them; the engine
// retries and the sweep completes.
TEST_F(FrameSweep, SpoiledFramesAreCountedAndSurvived) {
    const NodeIdx leaf = host_cable(topo).sw;
    int n = 0;
    fabric.spoil = [&n](std::vector<std::uint8_t> &f) {
        switch (++n % 41) {
            case 0:
                f[100] ^= 0x01;  // inside the MAD: the ICRC catches it
                break;
            case 13:
                f.resize(40);  // truncated in the BTH
                break;
            case 27:
                f[12] = 0x08;  // not our EtherType
                f[13] = 0x00;
                break;
            default:
                break;
        }
    };
    FrameSmpTransport transport = transport_at(leaf, 0);
    SmpEngine engine(transport, config);
    const SweepReport r = run(engine, "minhop");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    expect_programmed(r);
    FrameDropCounters all;
    for (NodeIdx i = 0; i < fabric.size(); ++i)
        for (std::size_t k = 0; k < kFrameDropCount; ++k)
            all.by_reason[k] += fabric.agent(i).counters().refused.by_reason[k];
    EXPECT_GT(all[FrameDrop::kBadIcrc], 0u);
    EXPECT_GT(all[FrameDrop::kLrhPktLenPastFrame], 0u);
    EXPECT_GT(all[FrameDrop::kNotIboe], 0u);
    EXPECT_EQ(all.total(),
              all[FrameDrop::kBadIcrc] + all[FrameDrop::kLrhPktLenPastFrame] + all[FrameDrop::kNotIboe]);
    EXPECT_GT(r.smps.total().retried, 0u);
}

// A frame that is not an SMP never reaches the Sma: counted at the agent.
TEST_F(FrameSweep, NonSmpFramesStopAtTheAgent) {
    const NodeIdx leaf = host_cable(topo).sw;
    const SmpBytes mad = encode_smp(make_dr_smp(Method::kGet, attr::kNodeInfo, 0, {}, 1)).value();
    IboeHeaders data = smp_frame_headers(test::FrameFabric::mac_of(1, 1), 1, 2, 0);
    data.vl = 0;
    data.dest_qp = 0x42;
    IboeHeaders gsi = data;
    gsi.dest_qp = kGsiQp;
    fabric.inject(leaf, 1, encode_iboe_frame(data, mad));
    fabric.inject(leaf, 1, encode_iboe_frame(gsi, mad));
    fabric.run_others(routing::kNoNode);
    const SmaFrameCounters &c = fabric.agent(leaf).counters();
    EXPECT_EQ(c.frames_in, 2u);
    EXPECT_EQ(c.refused[FrameDrop::kNotManagementQp], 1u);
    EXPECT_EQ(c.gsi_ignored, 1u);
    EXPECT_EQ(c.smps_in, 0u);
    EXPECT_EQ(fabric.sma(leaf).counters().received, 0u);
}

// Trap 128 of a switch whose cable is cut reaches the SM in frames; the SM's TrapRepress goes back.
TEST_F(FrameSweep, TrapsTravelAsFrames) {
    const NodeIdx leaf = host_cable(topo).sw;
    FrameSmpTransport transport = transport_at(leaf, 0);
    SmpEngine engine(transport, config);
    const SweepReport r = run(engine, "minhop");
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    // A host cable of another leaf: that leaf's route to the SM stays whole.
    const auto [other, port, host] = host_cable(topo, leaf);
    (void)host;
    ASSERT_NE(other, routing::kNoNode);
    fabric.set_cable(other, port, false);
    const SmClock clock = [this] { return fabric.now(); };
    int traps = 0;
    for (int round = 0; round < 10; ++round) {
        engine.pump(clock, 10ms);
        while (auto u = engine.next_unsolicited()) {
            const auto notice = decode_notice(u->smp);
            ASSERT_TRUE(notice.ok());
            EXPECT_EQ(notice->trap_number, kTrapPortStateChange);
            EXPECT_EQ(u->slid, fabric.sma(other).lid());
            EXPECT_TRUE(engine.post({make_trap_repress(u->smp), u->slid, 0}, clock()));
            ++traps;
        }
    }
    EXPECT_EQ(traps, 1);
    EXPECT_FALSE(fabric.sma(other).trap_outstanding());
    EXPECT_EQ(fabric.sma(other).counters().traps_repressed, 1u);
}

}  // namespace
}  // namespace weft::sm

namespace weft::sm {
namespace {

// Two CAs back to back, one of them the SM (what weft-ca --sm does on a veth pair).
TEST(FrameSweepTwoCas, ACaIsTheSmOfItsPeer) {
    routing::Fabric topo;
    const NodeIdx a = topo.add_node(routing::NodeType::Ca, 0x1001, 1, "ca-a");
    const NodeIdx b = topo.add_node(routing::NodeType::Ca, 0x2001, 1, "ca-b");
    topo.connect(a, 1, b, 1);
    test::FrameFabric fabric(topo);
    FrameSmpTransport transport(
        fabric.agent(a), fabric.ports(a), [&fabric] { return fabric.now(); }, 1);
    SmpEngine engine(transport, SmpEngineConfig{});
    SweepOptions o;
    o.chain = "minhop";
    const SweepReport r = heavy_sweep(
        engine, [&fabric] { return fabric.now(); }, o);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_EQ(r.discovery.stats.cas, 2u);
    test::expect_programmed(
        topo, [&fabric](NodeIdx n) -> const Sma & { return fabric.sma(n); }, r);
    EXPECT_NE(fabric.sma(a).lid(), 0);
    EXPECT_NE(fabric.sma(b).lid(), 0);
    EXPECT_EQ(fabric.sma(b).port_info(1).master_sm_lid, fabric.sma(a).lid());
}

}  // namespace
}  // namespace weft::sm
