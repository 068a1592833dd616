// The Ethernet/RoCE step of the real SM core over a fabric of real SMAs: a 2-level fat tree whose
// leaves announce host subnets. After a heavy sweep every switch has committed a table that routes
// each remote leaf's subnets to a group whose primaries are the engine's equal-cost ports (as
// compile_ars_groups gives them) and whose fixed member is the port its LFT holds for the leaf; a
// second sweep writes nothing; a cut cable rewrites only the groups that changed.
#include <gtest/gtest.h>

#include <map>

#include "sma_fabric.hpp"
#include "weft/routing/ars_groups.hpp"
#include "weft/routing/generators.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/light_sweep.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using routing::NodeIdx;

struct Heard final : SmaObserver {
    std::vector<EthernetTable> tables;
    void ethernet_table_committed(const EthernetTable &t) override { tables.push_back(t); }
};

struct EthernetFabric : ::testing::Test {
    routing::Fabric topo = routing::generate("kary:k=4,n=2");  // 4 leaves, 4 spines, 4 hosts a leaf
    test::SmaFabric fabric{topo, leaf(0)};
    SmpEngine engine{fabric, SmpEngineConfig{8, 200ms, 3}};
    std::map<NodeIdx, Heard> heard;
    std::map<std::uint64_t, std::vector<HostSubnet>> subnets;  // leaf GUID -> what it announces
    std::vector<std::string> log;

    EthernetFabric() {
        unsigned i = 0;
        for (NodeIdx n = 0; n < topo.node_count(); ++n) {
            if (!topo.node(n).is_switch()) continue;
            EthernetAgentConfig c;
            if (is_leaf(n)) {
                ++i;
                // One IPv4 subnet per host port and an IPv6 one on the first.
                for (PortNum p = 1; p <= topo.node(n).num_ports; ++p) {
                    const routing::Port &x = topo.port(n, p);
                    if (x.peer == routing::kNoNode || topo.node(x.peer).is_switch()) continue;
                    if (c.host_subnets.empty())
                        c.host_subnets.push_back(
                            {p, IpPrefix::v6({0x20, 0x01, 0x0d, 0xb8, 0, std::uint8_t(i)}, 48)});
                    c.host_subnets.push_back({p, IpPrefix::v4(0x0A000000u | i << 16 | p << 8, 24)});
                }
                subnets[topo.node(n).guid] = c.host_subnets;
            }
            fabric.sma(n).enable_ethernet(c);
            fabric.sma(n).set_observer(&heard[n]);
        }
    }
    bool is_leaf(NodeIdx n) const {
        for (PortNum p = 1; p <= topo.node(n).num_ports; ++p) {
            const routing::Port &x = topo.port(n, p);
            if (x.peer != routing::kNoNode && !topo.node(x.peer).is_switch()) return true;
        }
        return false;
    }
    NodeIdx leaf(unsigned k) const {
        for (NodeIdx n = 0; n < topo.node_count(); ++n)
            if (topo.node(n).is_switch() && is_leaf(n) && k-- == 0) return n;
        return routing::kNoNode;
    }
    SweepReport sweep(const EthernetMemory *ethernet_held = nullptr, const TableMemory *held = nullptr) {
        SweepOptions o;
        o.chain = "ftree";
        o.held = held;
        o.ethernet.emplace();
        o.ethernet->held = ethernet_held;
        o.log = [this](std::string_view l) { log.emplace_back(l); };
        return heavy_sweep(
            engine, [this] { return fabric.now(); }, o);
    }

    // Every switch's committed table is what the engine's tables imply.
    void expect_tables(const SweepReport &r) {
        const routing::Fabric &f = r.discovery.fabric;
        const routing::ArsGroups g = routing::compile_ars_groups(f, r.tables);
        std::size_t checked = 0;
        for (routing::SwitchIdx s = 0; s < f.switch_count(); ++s) {
            const NodeIdx here = *topo.find_guid(f.node(f.switch_node(s)).guid);
            const Sma &sma = fabric.sma(here);
            const EthernetTable &t = sma.ethernet()->table();
            ASSERT_FALSE(heard[here].tables.empty()) << f.node(f.switch_node(s)).desc;
            EXPECT_EQ(heard[here].tables.back(), t);
            std::size_t routes = 0;
            for (std::size_t d = 0; d < g.destinations.size(); ++d) {
                const NodeIdx leaf_node = f.switch_node(g.destinations[d].sw);
                const auto &announced = subnets.at(f.node(leaf_node).guid);
                if (g.destinations[d].sw == s) {  // its own subnets: not routed by the SM
                    for (const HostSubnet &h : announced)
                        for (const EthernetRoute &x : t.routes) EXPECT_NE(x.prefix, h.prefix);
                    continue;
                }
                const routing::ArsGroup want = g.group(d, s);
                ASSERT_NE(want.fixed, routing::kNoPort);
                const auto id = static_cast<std::uint16_t>(f.port(leaf_node, 0).lid);
                const EthernetGroup *got = t.group(id);
                ASSERT_NE(got, nullptr) << "switch " << s << " leaf " << d;
                EXPECT_EQ(got->primary, std::vector<PortNum>(want.primary.begin(), want.primary.end()));
                EXPECT_EQ(got->alternate, std::vector<PortNum>(want.alternate.begin(), want.alternate.end()));
                EXPECT_EQ(got->fixed, sma.lft(static_cast<Lid>(g.destinations[d].lid)));
                EXPECT_EQ(got->mode, EthernetArsMode::kFlowletQuality);
                // On a fat tree every up port towards a remote leaf is a primary.
                if (f.port(f.switch_node(s), want.fixed).peer != leaf_node) {
                    EXPECT_GE(got->primary.size(), 2u);
                }
                for (const HostSubnet &h : announced) {
                    auto it = std::find_if(t.routes.begin(), t.routes.end(),
                                           [&](const EthernetRoute &x) { return x.prefix == h.prefix; });
                    ASSERT_NE(it, t.routes.end()) << h.prefix.to_string();
                    EXPECT_EQ(it->group, id);
                    ++routes;
                    ++checked;
                }
            }
            EXPECT_EQ(t.routes.size(), routes);
        }
        // Every switch routes every other leaf's subnets (4 spines, 4 leaves).
        std::size_t all = 0;
        for (const auto &[guid, s] : subnets) all += s.size();
        EXPECT_EQ(checked, 4u * all + 3u * all) << "spines: every leaf's; leaves: the other three's";
    }
};

TEST_F(EthernetFabric, SweepCommitsTheEnginesGroupsAndRoutes) {
    const SweepReport r = sweep();
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_TRUE(r.ethernet.problems.empty()) << r.ethernet.problems.front();
    EXPECT_EQ(r.ethernet.switches, 8u);
    EXPECT_EQ(r.ethernet.learned.size(), 4u);
    EXPECT_EQ(r.ethernet.subnets, 20u);  // 4 hosts a leaf: 4 IPv4 and 1 IPv6
    EXPECT_EQ(r.ethernet.commits, 8u);
    EXPECT_EQ(r.ethernet.ars.left_out_total(),
              r.ethernet.ars.count(routing::ArsLeftOut::AlternateCreditLoop).count +
                  r.ethernet.ars.count(routing::ArsLeftOut::AlternateTooLong).count);
    expect_tables(r);
    // The host ports are not followed: the hosts behind each are one end node the engine routes
    // to, with a GUID made from the leaf's; no SMP went to the hosts' own SMAs.
    EXPECT_EQ(r.discovery.stats.host_ports, 16u);
    EXPECT_EQ(r.discovery.stats.cas, 16u);
    std::size_t hosts = 0;
    for (const DiscoveredNode &x : r.discovery.nodes) {
        if (x.is_switch()) continue;
        ASSERT_TRUE(x.host_of.has_value()) << x.description;
        const auto &[sw, port] = *x.host_of;
        EXPECT_EQ(x.info.node_guid, ethernet_hosts_guid(r.discovery.nodes[sw].info.node_guid, port));
        const routing::Port &fp = r.discovery.fabric.port(sw, port);
        EXPECT_EQ(r.discovery.fabric.node(fp.peer).guid, x.info.node_guid);
        EXPECT_NE(r.discovery.fabric.port(fp.peer, 1).lid, 0u) << "routed to as any end port";
        ++hosts;
    }
    EXPECT_EQ(hosts, 16u);
    for (NodeIdx n = 0; n < topo.node_count(); ++n)
        if (!topo.node(n).is_switch()) {
            EXPECT_EQ(fabric.sma(n).counters().received, 0u) << topo.node(n).desc;
        }
    for (auto &[n, h] : heard) EXPECT_EQ(h.tables.size(), 1u) << topo.node(n).desc;  // one snapshot each
    EXPECT_EQ(r.smps.total().timed_out, 0u);

    // Again, with the memory: reads only (the probe), nothing written, nobody republishes.
    const SweepReport again = sweep(&r.ethernet.programmed, &r.program.programmed);
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.ethernet.unchanged, 8u);
    EXPECT_EQ(again.ethernet.begins + again.ethernet.commits + again.ethernet.group_blocks_set +
                  again.ethernet.route_blocks_set + again.ethernet.subnet_blocks_read,
              0u);
    for (const auto &[kind, k] : again.phases.back().smps.per_kind) EXPECT_EQ(kind.method, Method::kGet);
    for (auto &[n, h] : heard) EXPECT_EQ(h.tables.size(), 1u) << topo.node(n).desc;

    // Without the memory (a new SM): every table written whole once, the same content.
    const SweepReport fresh = sweep();
    EXPECT_EQ(fresh.ethernet.commits, 8u);
    for (auto &[n, h] : heard) {
        ASSERT_EQ(h.tables.size(), 2u);
        EXPECT_TRUE(h.tables[1].same_content(h.tables[0]));
        EXPECT_EQ(h.tables[1].generation, h.tables[0].generation + 1);
    }
}

TEST_F(EthernetFabric, ALightSweepSeesAHostSubnetAddedOnALeaf) {
    const SweepReport r = sweep();
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    SubnetVersions versions;
    for (const auto &[guid, held] : r.ethernet.programmed) versions[guid] = held.subnets_version;
    const SmClock clock = [this] { return fabric.now(); };
    LightSweepReport quiet = light_sweep(engine, clock, r.discovery, &versions);
    EXPECT_FALSE(quiet.changed) << quiet.why;
    EXPECT_EQ(quiet.smps.total().sent, 2u * 8u) << "SwitchInfo and WeftFibState of each switch";

    // `port P ip` on a leaf: no port changed state, so only the subnets' version tells.
    const NodeIdx l = leaf(2);
    std::vector<HostSubnet> more = subnets.at(topo.node(l).guid);
    more.push_back({more.back().port, IpPrefix::v4(0x0A630000u, 16)});
    fabric.sma(l).ethernet()->set_host_subnets(more);
    const LightSweepReport seen = light_sweep(engine, clock, r.discovery, &versions);
    EXPECT_TRUE(seen.changed);
    EXPECT_EQ(seen.subnets_changed, 1u);
    EXPECT_NE(seen.why.find("host subnets changed"), std::string::npos) << seen.why;
    EXPECT_EQ(light_sweep(engine, clock, r.discovery).changed, false) << "without versions: SwitchInfo only";

    // The heavy sweep it calls for reads them and routes the new subnet on every other switch.
    subnets[topo.node(l).guid] = more;
    const SweepReport again = sweep(&r.ethernet.programmed, &r.program.programmed);
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.ethernet.subnets, 21u);
    expect_tables(again);
}

TEST_F(EthernetFabric, ACutCableRewritesOnlyTheGroupsThatChanged) {
    const SweepReport r = sweep();
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    // Cut one uplink of leaf 1, then sweep with the memory.
    const NodeIdx l1 = leaf(1);
    PortNum up = 0;
    for (PortNum p = 1; p <= topo.node(l1).num_ports && !up; ++p)
        if (topo.port(l1, p).peer != routing::kNoNode && topo.node(topo.port(l1, p).peer).is_switch()) up = p;
    fabric.set_cable(l1, up, false);
    const SweepReport cut = sweep(&r.ethernet.programmed, &r.program.programmed);
    ASSERT_EQ(cut.outcome, SweepOutcome::kProgrammed) << cut.why;
    EXPECT_TRUE(cut.ethernet.problems.empty()) << cut.ethernet.problems.front();
    expect_tables(cut);
    // What changed is what the compiled tables say changed, block for block; routes stay.
    std::size_t changed_blocks = 0, changed_switches = 0;
    for (const auto &[guid, t] : cut.ethernet.tables) {
        const EthernetBlocks before = split_ethernet_table(r.ethernet.tables.at(guid));
        const EthernetBlocks after = split_ethernet_table(t);
        EXPECT_EQ(before.routes, after.routes);
        std::size_t n = 0;
        for (const auto &[mod, b] : after.groups)
            n += !before.groups.count(mod) || !(before.groups.at(mod) == b);
        for (const auto &[mod, b] : before.groups) n += b.block == 0 && !after.groups.count(mod);
        changed_blocks += n;
        changed_switches += n > 0;
        const NodeIdx at = *topo.find_guid(guid);
        EXPECT_EQ(heard[at].tables.size(), n > 0 ? 2u : 1u) << topo.node(at).desc;
    }
    EXPECT_GT(changed_switches, 0u);
    EXPECT_LT(changed_switches, 8u);
    EXPECT_EQ(cut.ethernet.commits, changed_switches);
    EXPECT_EQ(cut.ethernet.group_blocks_set, changed_blocks);
    EXPECT_EQ(cut.ethernet.route_blocks_set, 0u);
    EXPECT_EQ(cut.ethernet.unchanged, 8u - changed_switches);
}

TEST_F(EthernetFabric, ASwitchThatSpeaksNoWeftIsLeftAlone) {
    // A switch not in Ethernet mode answers "unsupported": the rest are programmed.
    const NodeIdx l2 = leaf(2);
    test::SmaFabric plain_fabric{topo, leaf(0)};
    for (NodeIdx n = 0; n < topo.node_count(); ++n)
        if (topo.node(n).is_switch() && n != l2) plain_fabric.sma(n).enable_ethernet({});
    SmpEngine e{plain_fabric, SmpEngineConfig{8, 200ms, 3}};
    SweepOptions o;
    o.chain = "ftree";
    o.ethernet.emplace();
    const SweepReport r = heavy_sweep(
        e, [&] { return plain_fabric.now(); }, o);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_EQ(r.ethernet.switches, 7u);
    EXPECT_EQ(r.ethernet.other, 1u);
    EXPECT_EQ(r.ethernet.failures, 0u);
    EXPECT_EQ(r.ethernet.commits, 0u);  // no leaf announced subnets: nothing to route
    EXPECT_EQ(r.ethernet.unchanged, 7u);
}

}  // namespace
}  // namespace weft::sm
