// Virtualized fabrics (seed 002, Tasoulas et al.): hypervisors whose HCA is a vSwitch with VFs,
// VMs on the VFs, and what their LIDs cost in LFT blocks.
//
// The model lives in Fabric (add_vswitch, set_vf_lid, add_vm, move_vm): a VF's LID is owned by the
// hypervisor's vSwitch port, so every engine, trace and metric sees it as a LID of that port.
// Engines that do not route VMs themselves give a VF LID its PF's routes (the paper's "simplest
// strategy", done by run_chain); vswitch-ftree routes each VM on its own with its weight.
//
// LID schemes (Table 1): prepopulated LIDs give every VF a LID up front, so routes to a VM exist
// before it boots and a migration swaps the VM's LFT entries with those of the destination VF
// (two LFT blocks per switch when the two LIDs fall in different blocks); dynamic assignment
// gives a VF a LID when a VM starts on it, and a migration copies the destination PF's entries
// (one block per switch). assign_lids() hands them out (weft/routing/lid_assignment.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/fabric.hpp"

namespace weft::routing {

// An LFT block is 64 entries: the unit of a LinearForwardingTable SMP.
inline constexpr Lid kLftBlockSize = 64;
inline constexpr Lid lft_block(Lid lid) {
    return lid / kLftBlockSize;
}
// Blocks a switch needs for LIDs 0..max_lid (OpenSM sends them all on a full reconfiguration).
inline constexpr std::uint64_t lft_blocks(Lid max_lid) {
    return (std::uint64_t{max_lid} + kLftBlockSize) / kLftBlockSize;
}
// Blocks one switch's update needs when it rewrites the entries of LIDs a and b (b = 0: only a):
// Table 1's m' (1 when both fall in one block, else 2).
inline constexpr unsigned blocks_for(Lid a, Lid b) {
    return b == 0 || lft_block(a) == lft_block(b) ? 1u : 2u;
}

// The numbers of seed 002's Tables 1 and 2 for a fabric with its LIDs assigned.
struct VswitchBudget {
    std::size_t switches = 0;
    std::size_t physical_lids = 0;  // switches and CA/router ports (PFs included)
    std::size_t vf_lids = 0;        // VF LIDs in use (all VFs when prepopulated)
    std::size_t hypervisors = 0, vfs = 0, vms = 0;
    Lid max_lid = 0;
    std::uint64_t blocks_per_switch = 0;   // the minimum, from the LIDs in use
    std::uint64_t full_reconfig_smps = 0;  // every block of every switch
    // A VM boot: nothing with prepopulated LIDs (routes exist), one block per switch with dynamic
    // assignment (its LID's entry copied from the PF's).
    std::uint64_t boot_smps = 0;
    // A migration that updates every switch: n' = switches, times m' = 2 (prepopulated, LIDs in
    // different blocks) or 1 (dynamic); the fewest is one SMP (one leaf, one block).
    std::uint64_t worst_migration_smps = 0;
};
VswitchBudget vswitch_budget(const Fabric &f);

// The highest LID with an owner below the vLIDs (kFirstVlid): the top of a switch's primary LFT.
Lid max_plid(const Fabric &f);

// A VM as a traffic endpoint: its LID and the hypervisor port it is reached by.
struct VmEndpoint {
    LidOwner port;
    Lid lid = 0;
};
// The running VMs with LIDs, in VM order; a fabric without VMs gives its host ports (base LIDs).
std::vector<VmEndpoint> traffic_endpoints(const Fabric &f);

// Hypervisors and VMs for a generated fabric (the generator component "vms:...", see
// generators.hpp): every CA becomes a vSwitch with `vfs` VFs; `load` percent of all VFs (or
// `count` VMs) start, spread evenly (uniform: every hypervisor within one VM of the others, in
// fabric order) or at random (each VM on a random hypervisor with a free VF). VMs are named
// vm00001...; each takes the lowest free VF. Deterministic for a seed.
struct VmParams {
    std::uint16_t vfs = 4;
    unsigned load_percent = 50;
    std::int64_t count = -1;  // >= 0: this many VMs instead of load_percent
    bool random = false;
    VfLidScheme scheme = VfLidScheme::Prepopulated;
    bool extended_vlids = false;
    std::uint64_t seed = 1;
};
// Throws std::invalid_argument when the VMs do not fit or the fabric has no CA. `not_hypervisor`
// (an SM's own CA) stays a plain CA.
void add_vms(Fabric &f, const VmParams &p, NodeIdx not_hypervisor = kNoNode);

// The VMs and VF LIDs of a fabric by their hypervisors' node GUIDs: what a resident SM keeps from
// one sweep to the next, so that a VM stays where it was moved, with its LID, and a VF keeps its
// LID, whatever a discovery finds next.
struct VswitchState {
    struct Hypervisor {
        Guid guid = 0;
        std::vector<Lid> vf_lids;  // per VF (0: none)
    };
    struct Vm {
        std::string name;
        Guid hypervisor = 0;
        std::uint16_t vf = 0;
    };
    std::vector<Hypervisor> hypervisors;
    std::vector<Vm> vms;
    bool empty() const { return hypervisors.empty(); }
};
VswitchState vswitch_state(const Fabric &f);
// Puts `s` back on a fabric discovered again: every CA but `not_hypervisor` a vSwitch with p.vfs
// VFs (p's LID scheme and vLID choice), every VF its LID (assign_lids keeps them where they still
// fit), every VM on its hypervisor's VF. A VM whose hypervisor is gone, or a VF or LID that no
// longer fits, is left out: one line each in the result. A CA `s` does not know (a host that came
// up since) gets p.load_percent of its VFs' VMs as add_vms would place them (none with p.count).
std::vector<std::string> restore_vswitches(Fabric &f, const VmParams &p, const VswitchState &s,
                                           NodeIdx not_hypervisor = kNoNode);
// The settings of a generator's "vms:" component alone ("vfs=4,load=50,scheme=dynamic"; its
// grammar in generators.hpp), as weft-sm's --vms takes them for the hypervisors it discovers.
// Throws ParseError (file `name`, column of the offending field).
VmParams parse_vm_spec(std::string_view spec, const std::string &name = "<vms>");

// The hypervisors (vSwitch CAs) in fabric order, and the lowest free VF of one (-1 when full).
std::vector<NodeIdx> hypervisors(const Fabric &f);
int free_vf(const Fabric &f, NodeIdx hypervisor);
std::uint16_t running_vms(const Fabric &f, NodeIdx hypervisor);

}  // namespace weft::routing
