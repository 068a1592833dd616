// Live migration (seed 002): the paper's small fat trees by hand (Fig. 3: a migration inside a
// leaf; Fig. 5: the skyline of XGFT(4;2,2,2,2;2,2,2,1)), the three methods on random moves with
// the tables checked after each, Table 2 computed from the fabrics, and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {
namespace {

RoutingTables route(const Fabric &f, const std::string &engine) {
    RoutingOptions o;
    o.no_fallback = true;
    RoutingTables t;
    const ChainResult r = run_chain(engine, f, o, t);
    EXPECT_TRUE(r.ok) << (r.failures.empty() ? r.error : r.failures[0]);
    return t;
}

Fabric fabric(const std::string &spec) {
    Fabric f = generate(spec);
    assign_lids(f, {});
    return f;
}

NodeIdx host(const Fabric &f, const std::string &desc) {
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (f.node(n).desc == desc) return n;
    ADD_FAILURE() << "no node " << desc;
    return kNoNode;
}

SwitchIdx leaf(const Fabric &f, NodeIdx h) {
    return f.node(f.port(h, 1).peer).sw;
}

// Fig. 3: a 3-level tree of 12 switches (kary k=2 n=3), one VM per hypervisor, routed as ftree.
// A VM moving to the other hypervisor of its leaf: ItRC rewrites every switch whose routes to
// the two differ: the leaf, its pod neighbour, the other pod's two leaves and one of its two
// middle switches (OpenSM's ftree sends both hypervisors' routes there through one root), 5 of
// 12 (the paper counts 6 on its drawing); FTreeMinRC only the leaf, with one SMP.
TEST(Migration, Fig3MigrationInsideALeaf) {
    Fabric f = fabric("kary:k=2,n=3/vms:vfs=2,load=50");
    RoutingTables t = route(f, "vswitch-ftree");
    const NodeIdx h1 = host(f, "h00001"), h2 = host(f, "h00002");
    const std::uint32_t vm = f.vf(h1, 0).vm;
    ASSERT_NE(vm, kNoVm);
    const Migration m{vm, h2};
    const MigrationPlan itrc = plan_itrc(f, t, m);
    ASSERT_TRUE(itrc.ok()) << itrc.error;
    EXPECT_EQ(itrc.updates.size(), 5u);
    EXPECT_TRUE(itrc.swap);  // prepopulated: the VM swaps LIDs with h2's free VF
    EXPECT_EQ(itrc.route_lid, f.vf(h2, 1).lid);
    const auto sky = FatTreeSkyline::build(f);
    ASSERT_TRUE(sky);
    EXPECT_EQ(sky->levels(), 3u);
    const MigrationPlan min = plan_ftree_min_rc(f, t, *sky, m);
    ASSERT_TRUE(min.ok()) << min.error;
    EXPECT_EQ(min.marked, 1u);
    ASSERT_EQ(min.updates.size(), 1u);
    EXPECT_EQ(min.updates[0].sw, leaf(f, h1));
    EXPECT_EQ(min.smps, 1u);
    EXPECT_TRUE(min.updates[0].active);
    const Lid vm_lid = f.vms()[vm].lid, other = min.route_lid;
    apply_migration(f, t, min);
    // The leaf now sends the VM to h2's port and the swapped LID (h1's free VF) to h1's.
    EXPECT_EQ(t.lft[leaf(f, h1)][vm_lid], f.port(h2, 1).peer_port);
    EXPECT_EQ(t.lft[leaf(f, h1)][other], f.port(h1, 1).peer_port);
    EXPECT_EQ(f.vms()[vm].hypervisor, h2);
    EXPECT_EQ(f.lid_owner(other)->node, h1);
    EXPECT_TRUE(trace_paths(f, t).ok());
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
}

// Fig. 5: XGFT(4;2,2,2,2;2,2,2,1), a VM moved between the leaves the paper calls 3.0.0.0 and
// 3.0.1.1 (the first and fourth): their sub-trees meet one level below the roots, so the marked
// switches are the two leaves, the two parents of each, and the four switches above those.
TEST(Migration, Fig5SkylineOfTheSmallestCommonSubtree) {
    Fabric f = fabric("xgft:n=4;m=2,2,2,2;w=2,2,2,1/vms:vfs=2,load=50,scheme=dynamic");
    const auto sky = FatTreeSkyline::build(f);
    ASSERT_TRUE(sky);
    EXPECT_EQ(sky->levels(), 4u);
    const NodeIdx a = host(f, "h00001"), b = host(f, "h00008");
    const SwitchIdx la = leaf(f, a), lb = leaf(f, b);
    std::vector<SwitchIdx> marked;
    ASSERT_TRUE(sky->mark(la, lb, marked));
    ASSERT_EQ(marked.size(), 10u);
    std::set<SwitchIdx> want{la, lb};
    auto ups = [&](SwitchIdx s) {
        std::set<SwitchIdx> u;
        const NodeIdx n = f.switch_node(s);
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (x.linked() && f.node(x.peer).is_switch() && sky->height(f.node(x.peer).sw) > sky->height(s))
                u.insert(f.node(x.peer).sw);
        }
        return u;
    };
    std::set<SwitchIdx> level2;
    for (SwitchIdx s : {la, lb})
        for (SwitchIdx u : ups(s)) level2.insert(u);
    EXPECT_EQ(level2.size(), 4u);
    std::set<SwitchIdx> level1;
    for (SwitchIdx s : level2)
        for (SwitchIdx u : ups(s)) level1.insert(u);
    EXPECT_EQ(level1.size(), 4u);
    want.insert(level2.begin(), level2.end());
    want.insert(level1.begin(), level1.end());
    EXPECT_EQ(std::set<SwitchIdx>(marked.begin(), marked.end()), want);
    // The same leaf, and leaves under one parent pair.
    marked.clear();
    sky->mark(la, la, marked);
    EXPECT_EQ(marked, std::vector<SwitchIdx>{la});
    marked.clear();
    sky->mark(la, leaf(f, host(f, "h00003")), marked);
    EXPECT_EQ(marked.size(), 4u);

    // The migration itself, with dynamic LIDs: a copy of the destination PF's entries, one block
    // per switch, on marked switches only; the switches on the two hypervisors' paths first.
    RoutingTables t = route(f, "vswitch-ftree");
    const std::uint32_t vm = f.vf(a, 0).vm;
    const MigrationPlan p = plan_ftree_min_rc(f, t, *sky, {vm, b});
    ASSERT_TRUE(p.ok()) << p.error;
    EXPECT_FALSE(p.swap);
    EXPECT_EQ(p.route_lid, f.port(b, 1).lid);
    EXPECT_EQ(p.marked, 10u);
    EXPECT_EQ(p.smps, p.updates.size());
    EXPECT_GE(p.active, 2u);
    for (std::size_t i = 0; i < p.updates.size(); ++i) {
        EXPECT_TRUE(want.count(p.updates[i].sw));
        EXPECT_EQ(p.updates[i].active, i < p.active);
    }
    apply_migration(f, t, p);
    EXPECT_TRUE(trace_paths(f, t).ok());
    EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
    EXPECT_EQ(f.vf(a, 0).lid, 0u);  // dynamic: the VF left has no LID
}

// Random moves on the paper's Table 4 trees: after each, every method leaves every pair
// reachable without credit loops; FTreeMinRC touches no more switches than ItRC; the full
// re-route is vswitch-ftree's own tables.
class RandomMoves : public ::testing::TestWithParam<const char *> {};

TEST_P(RandomMoves, EveryMethodKeepsTheFabricRouted) {
    Fabric f = fabric(GetParam());
    RoutingTables t = route(f, "vswitch-ftree");
    const auto sky = FatTreeSkyline::build(f);
    ASSERT_TRUE(sky);
    const auto moves = generate_migrations(f, MigrationPattern::Random, 7);
    ASSERT_EQ(moves.size(), 2 * hypervisors(f).size());
    const RoutingOptions o;
    std::size_t step = 0;
    for (const Migration &m : moves) {
        if (++step > 24) break;
        RoutingTables rerouted;
        const MigrationPlan full = plan_full_reroute(f, t, m, "vswitch-ftree", o, rerouted);
        const MigrationPlan itrc = plan_itrc(f, t, m);
        const MigrationPlan min = plan_ftree_min_rc(f, t, *sky, m);
        ASSERT_TRUE(full.ok() && itrc.ok() && min.ok()) << full.error << itrc.error << min.error;
        EXPECT_LE(min.updates.size(), itrc.updates.size());
        EXPECT_LE(min.marked, f.switch_count());
        EXPECT_EQ(full.full_smps, vswitch_budget(f).full_reconfig_smps);
        // Each method, applied to its own copy, leaves the fabric routed.
        for (const MigrationPlan *p : {&itrc, &full}) {
            Fabric g = f;
            RoutingTables u = t, r = rerouted;
            apply_migration(g, u, *p, &r);
            const MigrationCheck c = verify_migration(g, u, rerouted, 4, 1);
            EXPECT_TRUE(c.ok()) << method_name(p->method) << " step " << step;
        }
        // The re-balanced variant changes nothing outside the sub-tree and keeps the fabric routed.
        const MigrationPlan reb = plan_ftree_min_rc_rebalanced(f, t, *sky, m);
        ASSERT_TRUE(reb.ok()) << reb.error;
        {
            std::vector<SwitchIdx> part;
            const NodeIdx from = f.vms()[m.vm].hypervisor;
            sky->subtree(leaf(f, from), leaf(f, m.to), part);
            for (const SwitchUpdate &u : reb.updates)
                EXPECT_NE(std::find(part.begin(), part.end(), u.sw), part.end()) << "step " << step;
            Fabric g = f;
            RoutingTables u = t;
            apply_migration(g, u, reb);
            const MigrationCheck cr = verify_migration(g, u, rerouted, 4, 1);
            EXPECT_TRUE(cr.ok()) << "re-balanced step " << step << ": unreachable " << cr.unreachable;
        }
        apply_migration(f, t, min);
        const MigrationCheck c = verify_migration(f, t, rerouted, 4, 1);
        EXPECT_TRUE(c.ok()) << "ftree-minrc step " << step << ": unreachable " << c.unreachable;
        EXPECT_GT(c.ebb, 0.0);
    }
}

INSTANTIATE_TEST_SUITE_P(Table4, RandomMoves,
                         ::testing::Values("xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=50,dist=random",
                                           "xgft:n=3;m=8,4,4;w=4,4,1/vms:vfs=4,load=25,scheme=dynamic",
                                           "xgft:n=3;m=8,4,4;w=4,4,1/vms:vfs=4,load=75,dist=random"));

// Seed 002's Table 2, computed from the fabrics: LIDs in use, the fewest LFT blocks per switch,
// the SMPs of a full reconfiguration, and the fewest and most SMPs of a LID swap (the fewest:
// FTreeMinRC within a leaf, both LIDs in one block; the most: ItRC when every switch changes
// two blocks).
struct Table2Row {
    const char *spec;
    std::size_t switches, lids;
    std::uint64_t blocks, full, min_swap, max_swap;
};

class Table2 : public ::testing::TestWithParam<Table2Row> {};

TEST_P(Table2, SameNumbersAsThePaper) {
    const Table2Row row = GetParam();
    const Fabric f = fabric(row.spec);
    const VswitchBudget b = vswitch_budget(f);
    EXPECT_EQ(b.switches, row.switches);
    EXPECT_EQ(b.physical_lids, row.lids);
    EXPECT_EQ(b.blocks_per_switch, row.blocks);
    EXPECT_EQ(b.full_reconfig_smps, row.full);
    const RoutingTables t = route(f, "ftree");
    const auto sky = FatTreeSkyline::build(f);
    ASSERT_TRUE(sky);
    // The hosts in LID order; each leaf's hosts are neighbours in it.
    std::vector<NodeIdx> hosts;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch()) hosts.push_back(n);
    std::uint64_t min_swap = ~std::uint64_t{0}, max_swap = 0;
    const Lid first = f.port(hosts[0], 1).lid;
    for (NodeIdx h : hosts) {
        const Lid lid = f.port(h, 1).lid;
        if (lid == first) continue;
        max_swap = std::max(max_swap, plan_lid_update(f, t, first, lid, true).smps);
        if (leaf(f, h) == leaf(f, hosts[0])) {
            std::vector<SwitchIdx> marked;
            sky->mark(leaf(f, h), leaf(f, hosts[0]), marked);
            min_swap = std::min(min_swap, plan_lid_update(f, t, first, lid, true, marked).smps);
        }
    }
    EXPECT_EQ(min_swap, row.min_swap);
    EXPECT_EQ(max_swap, row.max_swap);
    EXPECT_EQ(max_swap, b.worst_migration_smps);
}

INSTANTIATE_TEST_SUITE_P(Seed002, Table2,
                         ::testing::Values(Table2Row{"ft36:hosts=324", 36, 360, 6, 216, 1, 72},
                                           Table2Row{"ft36:hosts=648", 54, 702, 11, 594, 1, 108},
                                           Table2Row{"ft36:hosts=5832", 972, 6804, 107, 104004, 1, 1944},
                                           Table2Row{"ft36:hosts=11664", 1620, 13284, 208, 336960, 1, 3240}));

TEST(Migration, RefusalsSayWhy) {
    Fabric f = fabric("kary:k=2,n=2/vms:vfs=1,load=100");
    const NodeIdx h1 = host(f, "h00001"), h2 = host(f, "h00002");
    const std::uint32_t vm = f.vf(h1, 0).vm;
    EXPECT_NE(migration_refusal(f, {vm, h2}).find("hypervisor 'h00002' (0x"), std::string::npos);
    EXPECT_NE(migration_refusal(f, {vm, h2}).find("is full (1 of 1 VFs in use)"), std::string::npos);
    EXPECT_NE(migration_refusal(f, {vm, h1}).find("already runs on"), std::string::npos);
    EXPECT_NE(migration_refusal(f, {vm, f.switch_node(0)}).find("is not a hypervisor"), std::string::npos);
    EXPECT_NE(migration_refusal(f, {99, h2}).find("no VM number 99"), std::string::npos);
    const RoutingTables t = route(f, "ftree");
    const MigrationPlan p = plan_itrc(f, t, {vm, h2});
    EXPECT_FALSE(p.ok());
    RoutingTables u = t;
    EXPECT_THROW(apply_migration(f, u, p), std::invalid_argument);
    // FTreeMinRC needs a fat tree.
    std::string why;
    EXPECT_FALSE(FatTreeSkyline::build(fabric("torus:3x3,hosts=1"), &why));
    EXPECT_NE(why.find("not a fat tree"), std::string::npos) << why;
}

TEST(Migration, FileAndPatterns) {
    const Fabric f = fabric("xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=50,dist=random,seed=2");
    const auto m = read_migrations(
        "# a comment\nmigrate vm00003 to h00005\n  migrate vm00001 to 0x0002c90300000020 # x\n", "m.txt", f);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].vm, 2u);
    EXPECT_EQ(f.node(m[0].to).desc, "h00005");
    EXPECT_EQ(f.node(m[1].to).guid, 0x0002c90300000020u);
    auto error = [&](const char *text, std::size_t col, const char *part) {
        try {
            read_migrations(text, "m.txt", f);
            ADD_FAILURE() << text;
        } catch (const ParseError &e) {
            EXPECT_EQ(e.column(), col) << e.what();
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    };
    error("migrate vm09999 to h00005\n", 9, "the name of a VM");
    error("migrate vm00001 to L1-0000\n", 20, "a hypervisor of the fabric");
    error("migrate vm00001 into h00005\n", 17, "\"to\"");
    error("move vm00001 to h00005\n", 1, "migrate VM to HYPERVISOR");
    error("migrate vm00001 to h00005 now\n", 27, "end of line");

    // Consolidation packs the VMs onto the leftmost hypervisors; to-uniform evens them out.
    for (MigrationPattern p : {MigrationPattern::Consolidate, MigrationPattern::ToUniform,
                               MigrationPattern::Grouping, MigrationPattern::Random}) {
        Fabric g = f;
        for (const Migration &x : generate_migrations(g, p, 3)) {
            ASSERT_EQ(migration_refusal(g, x), "");
            g.move_vm(x.vm, x.to, static_cast<std::uint16_t>(free_vf(g, x.to)));
        }
        const auto hyps = hypervisors(g);
        if (p == MigrationPattern::Consolidate) {
            for (std::size_t i = 0; i < hyps.size(); ++i)
                EXPECT_EQ(running_vms(g, hyps[i]), i < 16 ? 4 : 0) << i;
        } else if (p == MigrationPattern::ToUniform) {
            for (NodeIdx h : hyps) EXPECT_EQ(running_vms(g, h), 2u);
        }
    }
    EXPECT_EQ(parse_migration_pattern("to-uniform"), MigrationPattern::ToUniform);
    EXPECT_FALSE(parse_migration_pattern("uniform"));
}

}  // namespace
}  // namespace weft::routing
