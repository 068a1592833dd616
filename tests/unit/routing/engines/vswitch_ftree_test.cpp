// vswitch-ftree (seed 002's vSwitchFatTree): Fig. 2 by hand, ftree's tables with one VM per
// hypervisor, balance of the weighted down routes, and VF LIDs under engines that know no VMs.
#include <gtest/gtest.h>

#include <map>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {
namespace {

// Seed 002, Fig. 2: leaves L1, L2 (hypervisors on ports 1-2, roots R1 on port 3, R2 on port 4);
// L1 has vSw1 (VMs 1, 2) and vSw2 (VMs 3, 4), L2 has vSw3 (VMs 5, 6, 7) and vSw4 (VM 8).
struct Fig2 {
    Fabric f;
    NodeIdx l1, l2, r1, r2;
    Lid vm(int i) const { return f.vms()[*f.find_vm("VM" + std::to_string(i))].lid; }
};

Fig2 fig2() {
    Fig2 x;
    Fabric &f = x.f;
    x.l1 = f.add_node(NodeType::Switch, 0x10, 4, "L1");
    x.l2 = f.add_node(NodeType::Switch, 0x11, 4, "L2");
    x.r1 = f.add_node(NodeType::Switch, 0x20, 2, "R1");
    x.r2 = f.add_node(NodeType::Switch, 0x21, 2, "R2");
    f.connect(x.l1, 3, x.r1, 1);
    f.connect(x.l1, 4, x.r2, 1);
    f.connect(x.l2, 3, x.r1, 2);
    f.connect(x.l2, 4, x.r2, 2);
    const int vms[4] = {2, 2, 3, 1};
    int next = 1;
    for (int h = 0; h < 4; ++h) {
        const NodeIdx n = f.add_node(NodeType::Ca, 0x100 + 0x10 * h, 1, "vSw" + std::to_string(h + 1));
        f.connect(h < 2 ? x.l1 : x.l2, static_cast<PortNum>(1 + h % 2), n, 1);
        f.add_vswitch(n, 4);
    }
    assign_lids(f, {});
    for (int h = 0; h < 4; ++h)
        for (int v = 0; v < vms[h]; ++v) f.add_vm("VM" + std::to_string(next++), f.node_count() - 4 + h, v);
    return x;
}

TEST(VswitchFtree, Fig2ByHand) {
    const Fig2 x = fig2();
    const auto t = test::route_alone("vswitch-ftree", x.f);
    const SwitchIdx l1 = x.f.node(x.l1).sw, l2 = x.f.node(x.l2).sw;
    // L1's VMs alternate over R1 and R2 (0.5 each), so L2 goes up to R1 for VMs 1 and 3 and to
    // R2 for VMs 2 and 4.
    EXPECT_EQ(t.lft[l2][x.vm(1)], 3);
    EXPECT_EQ(t.lft[l2][x.vm(2)], 4);
    EXPECT_EQ(t.lft[l2][x.vm(3)], 3);
    EXPECT_EQ(t.lft[l2][x.vm(4)], 4);
    // L2: vSw4's single VM first (weight 1) over R1, then vSw3's three (1/3 each) all over R2.
    EXPECT_EQ(t.lft[l1][x.vm(8)], 3);
    for (int i : {5, 6, 7}) EXPECT_EQ(t.lft[l1][x.vm(i)], 4) << "VM" << i;
    // The leaves deliver to the hypervisor's port; the roots go straight down.
    EXPECT_EQ(t.lft[l1][x.vm(1)], 1);
    EXPECT_EQ(t.lft[l1][x.vm(3)], 2);
    EXPECT_EQ(t.lft[l2][x.vm(5)], 1);
    EXPECT_EQ(t.lft[l2][x.vm(8)], 2);
    for (int i = 1; i <= 8; ++i) {
        EXPECT_EQ(t.lft[x.f.node(x.r1).sw][x.vm(i)], i <= 4 ? 1 : 2);
        EXPECT_EQ(t.lft[x.f.node(x.r2).sw][x.vm(i)], i <= 4 ? 1 : 2);
    }
    // ftree routes the VMs as their vSwitches: the VMs of one vSwitch share a root.
    const auto ft = test::route_alone("ftree", x.f);
    EXPECT_EQ(ft.lft[l2][x.vm(1)], ft.lft[l2][x.vm(2)]);
    EXPECT_EQ(ft.lft[l1][x.vm(5)], ft.lft[l1][x.vm(7)]);
    EXPECT_EQ(trace_paths(x.f, t).unreachable, 0u);
}

// With one VM per hypervisor every VM is routed where ftree routes its hypervisor, and every
// other LID exactly as ftree: the same tables.
class OneVmEach : public ::testing::TestWithParam<const char *> {};

TEST_P(OneVmEach, SameTablesAsFtree) {
    Fabric f = generate(GetParam());
    assign_lids(f, {});
    const auto vs = test::route_alone("vswitch-ftree", f);
    const auto ft = test::route_alone("ftree", f);
    ASSERT_FALSE(f.vms().empty());
    EXPECT_EQ(vs.lft, ft.lft);
    EXPECT_EQ(vs.hops, ft.hops);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, OneVmEach,
                         ::testing::Values("kary:k=4,n=3/vms:vfs=4,load=25",
                                           "xgft:n=3;m=8,4,4;w=4,4,1/vms:vfs=4,load=25",
                                           "ftree:k=8,n=2/vms:vfs=2,load=50,scheme=dynamic",
                                           "pgft:h=2;m=6,4;w=1,3;p=1,2/vms:vfs=3,count=24"));

TEST(VswitchFtree, OneVmEachWithHostsMissing) {
    Fabric f = generate("kary:k=4,n=2/vms:vfs=2,load=50");
    f.disconnect(f.vms()[3].hypervisor, 1);  // a leaf one host short: dummies
    assign_lids(f, {});
    const auto vs = test::route_alone("vswitch-ftree", f);
    const auto ft = test::route_alone("ftree", f);
    EXPECT_EQ(vs.lft, ft.lft);
}

// Weighted balance on a two-level tree: over each leaf's up links, the weights of the VMs whose
// downward route arrives by that link differ by at most the heaviest weight on the leaf.
TEST(VswitchFtree, DownRoutesBalancedByWeight) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        Fabric f = generate("ftree:k=8,n=2/vms:vfs=4,load=50,dist=random,seed=" + std::to_string(seed));
        assign_lids(f, {});
        const auto t = test::route_alone("vswitch-ftree", f);
        const PathReport pr = trace_paths(f, t);
        EXPECT_EQ(pr.unreachable, 0u);
        EXPECT_EQ(pr.loops, 0u);
        EXPECT_EQ(pr.non_minimal, 0u);
        EXPECT_FALSE(check_credit_loops(f, t).has_cycle);
        // The root a VM's route comes down from is where another leaf sends it up.
        std::map<std::pair<NodeIdx, PortNum>, double> load;  // (leaf, up port) -> weight
        std::map<NodeIdx, double> heaviest;
        for (const VirtualMachine &vm : f.vms()) {
            const NodeIdx leaf = f.port(vm.hypervisor, 1).peer;
            const NodeIdx other = f.switch_node(f.node(leaf).sw == 0 ? 1 : 0);
            const NodeIdx root = f.port(other, t.lft[f.node(other).sw][vm.lid]).peer;
            PortNum up = 0;
            for (PortNum p = 1; p <= f.node(leaf).num_ports; ++p)
                if (f.port(leaf, p).peer == root) up = p;
            const double w = 1.0 / running_vms(f, vm.hypervisor);
            load[{leaf, up}] += w;
            heaviest[leaf] = std::max(heaviest[leaf], w);
        }
        std::map<NodeIdx, std::pair<double, double>> span;
        for (NodeIdx leaf = 0; leaf < f.node_count(); ++leaf) {
            if (!heaviest.count(leaf)) continue;
            double lo = 1e9, hi = 0;
            for (PortNum p = 1; p <= f.node(leaf).num_ports; ++p) {
                if (!f.node(f.port(leaf, p).peer).is_switch()) continue;
                const double l = load.count({leaf, p}) ? load[{leaf, p}] : 0.0;
                lo = std::min(lo, l), hi = std::max(hi, l);
            }
            EXPECT_LE(hi - lo, heaviest[leaf] + 1e-9) << "seed " << seed << " leaf " << f.node(leaf).desc;
        }
    }
}

// Routes are written 64 LIDs at a time (FatTree::flush): on a tree of a few hundred LIDs, with
// VMs routed after their PFs, every hop entry is the one the LFTs give.
TEST(VswitchFtree, HopsAreTheLftsOwn) {
    Fabric f = generate("pgft:h=3;m=4,4,3;w=1,4,4;radix=8/vms:vfs=4,load=75,dist=random,vlids=extended");
    assign_lids(f, {});
    ASSERT_GT(f.max_lid() - kFirstVlid, 128u);
    for (const char *engine : {"ftree", "vswitch-ftree"}) {
        const auto t = test::route_alone(engine, f);
        RoutingTables walked = t;
        hops_from_lfts(f, walked);
        EXPECT_EQ(walked.hops, t.hops) << engine;
        EXPECT_TRUE(trace_paths(f, t).ok()) << engine;
    }
}

TEST(VswitchFtree, OtherEnginesRouteVfLidsAsTheirPf) {
    Fabric f = generate("kary:k=2,n=3/vms:vfs=3,load=50,dist=random");
    assign_lids(f, {});
    for (const char *engine : {"minhop", "updn", "ftree", "dfsssp"}) {
        const auto t = test::route_alone(engine, f);
        for (NodeIdx h : hypervisors(f))
            for (const VirtualFunction &v : f.vfs(h))
                for (SwitchIdx s = 0; s < f.switch_count(); ++s)
                    ASSERT_EQ(t.lft[s][v.lid], t.lft[s][f.port(h, 1).lid]) << engine;
        EXPECT_EQ(trace_paths(f, t).unreachable, 0u) << engine;
    }
}

TEST(VswitchFtree, RefusesWhatFtreeRefuses) {
    Fabric f = generate("torus:3x3,hosts=1/vms:vfs=2,load=50");
    assign_lids(f, {});
    RoutingOptions o;
    o.no_fallback = true;
    RoutingTables t;
    const ChainResult r = run_chain("vswitch-ftree", f, o, t);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].rfind("vswitch-ftree: ", 0), 0u) << r.failures[0];
}

}  // namespace
}  // namespace weft::routing
