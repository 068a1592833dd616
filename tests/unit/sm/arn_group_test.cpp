// ARN's dragonfly group from the SM's topology (arn_group.hpp, WeftArnGroup): the groups as the
// routing library recognises them, numbered by GUID; every switch of a group told the same local
// and global links and which of its next-hop groups lead where; and over a fabric of real SMAs,
// every switch committing it with its table, and a second sweep writing nothing.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "sma_fabric.hpp"
#include "weft/routing/ars_groups.hpp"
#include "weft/routing/generators.hpp"
#include "weft/sm/arn_group.hpp"
#include "weft/sm/heavy_sweep.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;
using routing::NodeIdx;
using routing::SwitchIdx;

// The generator names a dragonfly's routers "g<group>-r<router>", and numbers GUIDs in that order.
unsigned named_group(const routing::Fabric &f, SwitchIdx s) {
    const std::string &d = f.node(f.switch_node(s)).desc;
    return static_cast<unsigned>(std::stoul(d.substr(1, d.find('-') - 1)));
}

std::size_t count(const std::vector<ArnGroupEntry> &v, ArnEntryKind k) {
    return static_cast<std::size_t>(
        std::count_if(v.begin(), v.end(), [k](const auto &e) { return e.kind == k; }));
}

TEST(ArnGroup, TheSmTellsEachSwitchItsDragonflyGroup) {
    const routing::Fabric f = routing::generate("dragonfly:a=4,p=1,h=2");  // 9 groups of 4
    const std::vector<std::uint16_t> group = dragonfly_groups(f);
    ASSERT_EQ(group.size(), f.switch_count());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) EXPECT_EQ(group[s], named_group(f, s));
    EXPECT_TRUE(dragonfly_groups(routing::generate("kary:k=4,n=2")).empty());  // a fat tree has none

    // Each switch a group for every other router (its id: that router's GUID's low bits).
    std::vector<EthernetTable> tables(f.switch_count());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (SwitchIdx d = 0; d < f.switch_count(); ++d)
            if (d != s) tables[s].groups.push_back({static_cast<std::uint16_t>(d + 1), 0, {}, 0, {}, {}});
    routing::Fabric lids = f;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) lids.set_lid(f.switch_node(s), 0, s + 1, 0);
    add_arn_groups(lids, group, tables);
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const std::vector<ArnGroupEntry> &arn = tables[s].arn;
        EXPECT_EQ(count(arn, ArnEntryKind::kLocalLink), 6u);     // 4 routers, all to all
        EXPECT_EQ(count(arn, ArnEntryKind::kGlobalLink), 8u);    // 2 each, to the 8 other groups
        EXPECT_EQ(count(arn, ArnEntryKind::kDestination), 32u);  // the routers of the 8 other groups
        EXPECT_TRUE(std::is_sorted(arn.begin(), arn.begin() + 14));
        std::set<std::uint16_t> beyond;
        for (const ArnGroupEntry &e : arn) {
            if (e.kind == ArnEntryKind::kLocalLink) {
                EXPECT_LT(e.a, e.b);
                const auto a = f.find_guid(e.a), b = f.find_guid(e.b);
                ASSERT_TRUE(a && b);
                EXPECT_EQ(f.port(*a, e.port_a).peer, *b);
                EXPECT_EQ(f.port(*a, e.port_a).peer_port, e.port_b);
                EXPECT_EQ(group[f.node(*a).sw], group[s]);
                EXPECT_EQ(group[f.node(*b).sw], group[s]);
            } else if (e.kind == ArnEntryKind::kGlobalLink) {
                const auto a = f.find_guid(e.a);
                ASSERT_TRUE(a);
                EXPECT_EQ(group[f.node(*a).sw], group[s]);
                EXPECT_EQ(group[f.node(f.port(*a, e.port_a).peer).sw], e.group);
                beyond.insert(e.group);
            } else {
                EXPECT_EQ(e.group, group[e.nhg - 1]);
                EXPECT_NE(e.group, group[s]);
            }
        }
        EXPECT_EQ(beyond.size(), 8u);
        // Every switch of a group is told the same links.
        const SwitchIdx first = static_cast<SwitchIdx>(group[s] * 4);
        EXPECT_TRUE(std::equal(arn.begin(), arn.begin() + 14, tables[first].arn.begin())) << s;
        encode_arn_group_block(split_ethernet_table(tables[s]).arn.at(0)).value();  // what it sends encodes
    }
}

// The real SM core over real SMAs on a dragonfly whose routers announce host subnets.
TEST(ArnGroup, EverySwitchCommitsItsGroupWithItsTable) {
    struct Heard final : SmaObserver {
        std::vector<EthernetTable> tables;
        void ethernet_table_committed(const EthernetTable &t) override { tables.push_back(t); }
    };
    const routing::Fabric topo = routing::generate("dragonfly:a=3,p=1,h=1,g=4");  // 4 groups of 3
    NodeIdx sm_node = routing::kNoNode;
    std::map<NodeIdx, Heard> heard;
    for (NodeIdx n = 0; n < topo.node_count() && sm_node == routing::kNoNode; ++n)
        if (topo.node(n).is_switch()) sm_node = n;
    test::SmaFabric fabric{topo, sm_node};
    SmpEngine engine{fabric, SmpEngineConfig{8, 200ms, 3}};
    unsigned i = 0;
    for (NodeIdx n = 0; n < topo.node_count(); ++n) {
        if (!topo.node(n).is_switch()) continue;
        EthernetAgentConfig c;
        ++i;
        for (PortNum p = 1; p <= topo.node(n).num_ports; ++p) {
            const routing::Port &x = topo.port(n, p);
            if (x.peer != routing::kNoNode && !topo.node(x.peer).is_switch())
                c.host_subnets.push_back({p, IpPrefix::v4(0x0A000000u | i << 16 | p << 8, 24)});
        }
        fabric.sma(n).enable_ethernet(c);
        fabric.sma(n).set_observer(&heard[n]);
    }
    auto sweep = [&](const EthernetMemory *held, const TableMemory *lfts) {
        SweepOptions o;
        o.chain = "nue";
        o.held = lfts;
        o.ethernet.emplace();
        o.ethernet->held = held;
        return heavy_sweep(
            engine, [&] { return fabric.now(); }, o);
    };
    const SweepReport r = sweep(nullptr, nullptr);
    ASSERT_EQ(r.outcome, SweepOutcome::kProgrammed) << r.why;
    EXPECT_GT(r.ethernet.arn_blocks_set, 0u);
    std::size_t told = 0;
    for (auto &[n, h] : heard) {
        ASSERT_EQ(h.tables.size(), 1u) << topo.node(n).desc;
        const EthernetTable &got = h.tables[0];
        EXPECT_EQ(got.arn, r.ethernet.tables.at(topo.node(n).guid).arn);
        EXPECT_EQ(count(got.arn, ArnEntryKind::kLocalLink), 3u) << topo.node(n).desc;
        EXPECT_EQ(count(got.arn, ArnEntryKind::kGlobalLink), 3u);
        EXPECT_EQ(count(got.arn, ArnEntryKind::kDestination), 9u);  // the 9 routers of the other groups
        for (const ArnGroupEntry &e : got.arn) {
            if (e.kind == ArnEntryKind::kDestination) {
                EXPECT_NE(got.group(e.nhg), nullptr);
            }
        }
        ++told;
    }
    EXPECT_EQ(told, 12u);
    // Again with the memory: nothing written.
    const SweepReport again = sweep(&r.ethernet.programmed, &r.program.programmed);
    ASSERT_EQ(again.outcome, SweepOutcome::kProgrammed) << again.why;
    EXPECT_EQ(again.ethernet.unchanged, 12u);
    EXPECT_EQ(again.ethernet.arn_blocks_set + again.ethernet.commits, 0u);
}

}  // namespace
}  // namespace weft::sm
