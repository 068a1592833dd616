// The vSwitch model: VFs, VMs and their LIDs moving with them; LID schemes and the LID/LFT-block
// arithmetic of seed 002's Table 1; the "vms:" generator component.
#include <gtest/gtest.h>

#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {
namespace {

// One switch, hypervisors h0..h(n-1) on ports 1..n with `vfs` VFs each.
Fabric star(unsigned n, std::uint16_t vfs) {
    Fabric f;
    const NodeIdx s = f.add_node(NodeType::Switch, 0x1000, static_cast<PortNum>(n + 1), "s");
    for (unsigned i = 0; i < n; ++i) {
        const NodeIdx h = f.add_node(NodeType::Ca, 0x2000 + 0x10 * i, 1, "h" + std::to_string(i));
        f.connect(s, static_cast<PortNum>(i + 1), h, 1);
        f.add_vswitch(h, vfs);
    }
    return f;
}

TEST(Vswitch, PrepopulatedMigrationSwapsTheVfLids) {
    Fabric f = star(2, 2);
    f.set_vf_lid(1, 0, 10);
    f.set_vf_lid(1, 1, 11);
    f.set_vf_lid(2, 0, 20);
    f.set_vf_lid(2, 1, 21);
    const auto vm = f.add_vm("a", 1, 1);
    EXPECT_EQ(f.vms()[vm].lid, 11u);
    EXPECT_EQ(f.vf(1, 1).vm, vm);
    f.move_vm(vm, 2, 0);
    // The VM keeps 11 on h1's VF 0; h0's VF 1 takes the 20 that VF had.
    EXPECT_EQ(f.vms()[vm].lid, 11u);
    EXPECT_EQ(f.vms()[vm].hypervisor, 2u);
    EXPECT_EQ(f.vf(2, 0).lid, 11u);
    EXPECT_EQ(f.vf(1, 1).lid, 20u);
    EXPECT_EQ(f.vf(1, 1).vm, kNoVm);
    EXPECT_EQ(f.lid_owner(11)->node, 2u);
    EXPECT_EQ(f.lid_owner(20)->node, 1u);
    EXPECT_EQ(f.lid_owner(20)->port, kVswitchPort);
    EXPECT_EQ(f.find_vm("a"), vm);
}

TEST(Vswitch, DynamicMigrationLeavesTheSourceVfWithoutALid) {
    Fabric f = star(2, 2);
    f.vf_lid_scheme = VfLidScheme::Dynamic;
    f.set_vf_lid(1, 0, 10);
    const auto vm = f.add_vm("a", 1, 0);
    f.move_vm(vm, 2, 1);
    EXPECT_EQ(f.vf(2, 1).lid, 10u);
    EXPECT_EQ(f.vf(1, 0).lid, 0u);
    EXPECT_EQ(f.lid_owner(10)->node, 2u);
}

TEST(Vswitch, RefusesWhatTheModelCannotHold) {
    Fabric f = star(2, 1);
    EXPECT_THROW(f.add_vswitch(0, 4), std::invalid_argument);  // a switch
    EXPECT_THROW(f.add_vswitch(1, 4), std::invalid_argument);  // twice
    f.set_vf_lid(1, 0, 10);
    EXPECT_THROW(f.set_vf_lid(2, 0, 10), std::invalid_argument);  // taken
    EXPECT_THROW(f.set_vf_lid(2, 1, 12), std::invalid_argument);  // no VF 1
    const auto vm = f.add_vm("a", 1, 0);
    EXPECT_THROW(f.add_vm("b", 1, 0), std::invalid_argument);  // VF busy
    EXPECT_THROW(f.add_vm("a", 2, 0), std::invalid_argument);  // name taken
    f.set_vf_lid(2, 0, 20);
    f.add_vm("b", 2, 0);
    EXPECT_THROW(f.move_vm(vm, 2, 0), std::invalid_argument);  // full
}

TEST(Vswitch, PrepopulatedLidsGoToEveryVfAfterThePhysicalOnes) {
    Fabric f = star(3, 2);
    f.add_vm("a", 2, 1);
    const LidReport r = assign_lids(f, {});
    EXPECT_EQ(r.max_lid, 4u + 6u);  // switch + 3 PFs, then 6 VFs
    EXPECT_EQ(f.vf(1, 0).lid, 5u);
    EXPECT_EQ(f.vf(3, 1).lid, 10u);
    EXPECT_EQ(f.vms()[0].lid, f.vf(2, 1).lid);
    const VswitchBudget b = vswitch_budget(f);
    EXPECT_EQ(b.physical_lids, 4u);
    EXPECT_EQ(b.vf_lids, 6u);
    EXPECT_EQ(b.vms, 1u);
    EXPECT_EQ(b.blocks_per_switch, 1u);
    EXPECT_EQ(b.boot_smps, 0u);             // routes to every VF exist already
    EXPECT_EQ(b.worst_migration_smps, 2u);  // n' = 1 switch, m' = 2
}

TEST(Vswitch, DynamicLidsOnlyForRunningVmsAndKeptWhenFree) {
    Fabric f = star(3, 2);
    f.vf_lid_scheme = VfLidScheme::Dynamic;
    f.set_vf_lid(3, 0, 40);
    f.add_vm("a", 3, 0);
    f.set_vf_lid(1, 1, 2);  // will clash with a physical LID
    f.add_vm("b", 1, 1);
    const LidReport r = assign_lids(f, {});
    EXPECT_EQ(f.vf(3, 0).lid, 40u);  // kept
    EXPECT_EQ(f.vf(1, 1).lid, 5u);   // reassigned after the physical ones
    EXPECT_EQ(f.vf(1, 0).lid, 0u);
    ASSERT_EQ(r.conflicts.size(), 1u);
    EXPECT_NE(r.conflicts[0].find("VF 1 of 'h0' LID 2 overlaps"), std::string::npos) << r.conflicts[0];
    const VswitchBudget b = vswitch_budget(f);
    EXPECT_EQ(b.vf_lids, 2u);
    EXPECT_EQ(b.boot_smps, 1u);  // one block on the one switch
    EXPECT_EQ(b.worst_migration_smps, 1u);
}

TEST(Vswitch, ExtendedVlidsLiveAboveTheSixteenBitSpace) {
    Fabric f = star(2, 3);
    f.extended_vlids = true;
    assign_lids(f, {});
    EXPECT_EQ(f.vf(1, 0).lid, kFirstVlid);
    EXPECT_EQ(f.vf(2, 2).lid, kFirstVlid + 5);
    const VswitchBudget b = vswitch_budget(f);
    // Primary LFT: LIDs 0..3, one block; secondary: 6 vLIDs, one block.
    EXPECT_EQ(b.blocks_per_switch, 2u);
}

TEST(Vswitch, LegacyVfLidsRunOutWithAClearMessage) {
    Fabric f = generate("kary:k=4,n=2");
    add_vms(f, {.vfs = 4096, .load_percent = 0});
    try {
        assign_lids(f, {});
        FAIL() << "no error";
    } catch (const std::runtime_error &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unicast LID space"), std::string::npos) << what;
        EXPECT_NE(what.find("65536 LIDs beside its 24 physical ones"), std::string::npos) << what;
    }
    Fabric g = generate("kary:k=4,n=2");
    add_vms(g, {.vfs = 4096, .load_percent = 0, .extended_vlids = true});
    EXPECT_NO_THROW(assign_lids(g, {}));
}

TEST(Vswitch, LftBlockArithmetic) {
    EXPECT_EQ(lft_block(63), 0u);
    EXPECT_EQ(lft_block(64), 1u);
    EXPECT_EQ(lft_blocks(360), 6u);  // Table 2: 324 nodes + 36 switches
    EXPECT_EQ(lft_blocks(13284), 208u);
    EXPECT_EQ(blocks_for(70, 100), 1u);
    EXPECT_EQ(blocks_for(70, 130), 2u);
    EXPECT_EQ(blocks_for(70, 0), 1u);
}

TEST(Vswitch, GeneratorPlacesVmsUniformlyOrAtRandom) {
    const Fabric u = generate("xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=25");
    EXPECT_EQ(u.vms().size(), 32u);
    for (NodeIdx h : hypervisors(u)) EXPECT_EQ(running_vms(u, h), 1u);
    const Fabric r1 = generate("xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=50,dist=random,seed=3");
    const Fabric r2 = generate("xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=50,dist=random,seed=3");
    ASSERT_EQ(r1.vms().size(), 64u);
    unsigned differ = 0;
    for (NodeIdx h : hypervisors(r1)) differ += running_vms(r1, h) != 2;
    EXPECT_GT(differ, 0u);
    for (std::size_t i = 0; i < r1.vms().size(); ++i)
        EXPECT_EQ(r1.vms()[i].hypervisor, r2.vms()[i].hypervisor);
    const Fabric d = generate("kary:k=2,n=2/vms:vfs=2,count=3,scheme=dynamic,vlids=extended");
    EXPECT_EQ(d.vms().size(), 3u);
    EXPECT_EQ(d.vf_lid_scheme, VfLidScheme::Dynamic);
    EXPECT_TRUE(d.extended_vlids);
    EXPECT_THROW(generate("kary:k=2,n=2/vms:vfs=2,count=9"), ParseError);
    EXPECT_THROW(generate("kary:k=2,n=2/vms:dist=even"), ParseError);
    EXPECT_THROW(generate("vms:vfs=2"), ParseError);
    // Failures after the VMs keep the VMs of the hypervisors that are left.
    const Fabric fl = generate("kary:k=4,n=2/vms:vfs=2,load=100/fail-links=1,seed=1");
    EXPECT_EQ(fl.vms().size(), 32u);
}

TEST(Vswitch, TrafficEndpointsAreTheVms) {
    Fabric f = generate("kary:k=2,n=2/vms:vfs=2,count=3");
    assign_lids(f, {});
    const auto e = traffic_endpoints(f);
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0].lid, f.vms()[0].lid);
    EXPECT_EQ(e[0].port.node, f.vms()[0].hypervisor);
    Fabric g = generate("kary:k=2,n=2");
    assign_lids(g, {});
    EXPECT_EQ(traffic_endpoints(g).size(), 4u);
}

// A plain CA: a star's host that is no hypervisor yet, as a discovery finds it.
Fabric plain_star(unsigned n) {
    Fabric f;
    const NodeIdx s = f.add_node(NodeType::Switch, 0x1000, static_cast<PortNum>(n + 1), "s");
    for (unsigned i = 0; i < n; ++i)
        f.connect(s, static_cast<PortNum>(i + 1),
                  f.add_node(NodeType::Ca, 0x2000 + 0x10 * i, 1, "h" + std::to_string(i)), 1);
    return f;
}

// What a resident SM keeps between sweeps (by GUID), put back on the fabric found again: the VMs
// where they were moved, with their LIDs; the SM's own CA never a hypervisor; a VM whose
// hypervisor is gone left out and said; a host new to the fabric given its share of the load.
TEST(Vswitch, StateComesBackOnTheFabricFoundAgain) {
    const VmParams p{.vfs = 2, .load_percent = 50, .extended_vlids = true};
    Fabric a = plain_star(4);
    add_vms(a, p, /*not_hypervisor=*/1);  // h0: the SM's own CA
    EXPECT_FALSE(a.node(1).vswitch);
    ASSERT_EQ(hypervisors(a).size(), 3u);
    ASSERT_EQ(a.vms().size(), 3u);  // half of 6 VFs
    assign_lids(a, {});
    a.move_vm(*a.find_vm("vm00001"), 4, static_cast<std::uint16_t>(free_vf(a, 4)));
    const Lid lid = a.vms()[*a.find_vm("vm00001")].lid;
    EXPECT_GE(lid, kFirstVlid);
    const VswitchState st = vswitch_state(a);
    ASSERT_EQ(st.vms.size(), 3u);

    // Found again with h2 gone and a new host h4 (GUID 0x2040) on port 5.
    Fabric b;
    const NodeIdx s = b.add_node(NodeType::Switch, 0x1000, 5, "s");
    for (unsigned i : {0u, 1u, 3u, 4u})
        b.connect(s, static_cast<PortNum>(i + 1),
                  b.add_node(NodeType::Ca, 0x2000 + 0x10 * i, 1, "h" + std::to_string(i)), 1);
    const std::vector<std::string> left = restore_vswitches(b, p, st, /*not_hypervisor=*/1);
    EXPECT_FALSE(b.node(1).vswitch);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_NE(left[0].find("VM 'vm00002' left out: its hypervisor 0x0000000000002020 is gone"),
              std::string::npos)
        << left[0];
    const auto moved = b.find_vm("vm00001");
    ASSERT_TRUE(moved);
    EXPECT_EQ(b.node(b.vms()[*moved].hypervisor).guid, 0x2030u);  // h3, where it was moved
    EXPECT_EQ(b.vms()[*moved].lid, lid);                          // its LID, before assign_lids
    EXPECT_TRUE(b.find_vm("vm00003"));
    // h4 is new: half of its VFs, a name no VM has.
    const NodeIdx h4 = *b.find_guid(0x2040);
    EXPECT_TRUE(b.node(h4).vswitch);
    EXPECT_EQ(running_vms(b, h4), 1u);
    EXPECT_EQ(b.vms().size(), 3u);
    EXPECT_TRUE(b.find_vm("vm00004"));
    assign_lids(b, {});
    EXPECT_EQ(b.vms()[*moved].lid, lid);  // kept by the LID assignment
    // A population given as a count was placed once: the new host gets none.
    Fabric c = plain_star(2);
    c.connect(c.add_node(NodeType::Switch, 0x1001, 2, "t"), 1, c.add_node(NodeType::Ca, 0x3000, 1, "x"), 1);
    restore_vswitches(c, VmParams{.vfs = 2, .count = 1, .extended_vlids = true}, st);
    EXPECT_EQ(running_vms(c, *c.find_guid(0x3000)), 0u);
}

}  // namespace
}  // namespace weft::routing
