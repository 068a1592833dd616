// The vSwitch model's helpers: VM placement for generated fabrics, the LID/LFT-block budget of
// Tables 1 and 2, and VMs as traffic endpoints.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "weft/routing/seeded_rng.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {

std::vector<NodeIdx> hypervisors(const Fabric &f) {
    std::vector<NodeIdx> out;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (f.node(n).vswitch) out.push_back(n);
    return out;
}

int free_vf(const Fabric &f, NodeIdx hypervisor) {
    const auto vfs = f.vfs(hypervisor);
    for (std::size_t i = 0; i < vfs.size(); ++i)
        if (vfs[i].vm == kNoVm) return static_cast<int>(i);
    return -1;
}

std::uint16_t running_vms(const Fabric &f, NodeIdx hypervisor) {
    std::uint16_t n = 0;
    for (const VirtualFunction &v : f.vfs(hypervisor)) n += v.vm != kNoVm;
    return n;
}

namespace {

// `total` VMs on the hypervisors `hyp` (fabric order), uniformly or at random as p says, each on
// its hypervisor's lowest free VF, named vm00001... (the next free number).
void place_vms(Fabric &f, const VmParams &p, const std::vector<NodeIdx> &hyp, std::uint64_t total) {
    SeededRng rng(p.seed);
    std::vector<NodeIdx> open;  // hypervisors with a free VF (random placement)
    for (NodeIdx n : hyp)
        if (free_vf(f, n) >= 0) open.push_back(n);
    char name[24];
    std::uint64_t number = f.vms().size();
    std::size_t next = 0;  // uniform: round robin over the hypervisors
    for (std::uint64_t k = 0; k < total; ++k) {
        NodeIdx h;
        if (p.random) {
            const std::size_t i = rng.below(open.size());
            h = open[i];
            if (running_vms(f, h) + 1 == f.node(h).vfs) open[i] = open.back(), open.pop_back();
        } else {
            do h = hyp[next++ % hyp.size()];
            while (free_vf(f, h) < 0);
        }
        do std::snprintf(name, sizeof name, "vm%05llu", static_cast<unsigned long long>(++number));
        while (f.find_vm(name));
        f.add_vm(name, h, static_cast<std::uint16_t>(free_vf(f, h)));
    }
}

std::uint64_t capacity_of(const Fabric &f, const std::vector<NodeIdx> &hyp) {
    std::uint64_t c = 0;
    for (NodeIdx n : hyp) c += f.node(n).vfs - running_vms(f, n);
    return c;
}

}  // namespace

void add_vms(Fabric &f, const VmParams &p, NodeIdx not_hypervisor) {
    std::vector<NodeIdx> hyp;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (x.type != NodeType::Ca || n == not_hypervisor) continue;
        if (!x.vswitch) f.add_vswitch(n, p.vfs);
        hyp.push_back(n);
    }
    if (hyp.empty()) throw std::invalid_argument("vms: the fabric has no CA to be a hypervisor");
    const std::uint64_t capacity = capacity_of(f, hyp);
    const std::uint64_t total =
        p.count >= 0 ? static_cast<std::uint64_t>(p.count) : capacity * p.load_percent / 100;
    if (total > capacity)
        throw std::invalid_argument("vms: " + std::to_string(total) + " VMs do not fit in " +
                                    std::to_string(capacity) + " free VFs");
    f.vf_lid_scheme = p.scheme;
    f.extended_vlids = p.extended_vlids;
    place_vms(f, p, hyp, total);
}

VswitchState vswitch_state(const Fabric &f) {
    VswitchState s;
    for (NodeIdx n : hypervisors(f)) {
        VswitchState::Hypervisor h{f.node(n).guid, {}};
        for (const VirtualFunction &v : f.vfs(n)) h.vf_lids.push_back(v.lid);
        s.hypervisors.push_back(std::move(h));
    }
    for (const VirtualMachine &vm : f.vms()) s.vms.push_back({vm.name, f.node(vm.hypervisor).guid, vm.vf});
    return s;
}

std::vector<std::string> restore_vswitches(Fabric &f, const VmParams &p, const VswitchState &s,
                                           NodeIdx not_hypervisor) {
    std::vector<std::string> left;
    std::vector<NodeIdx> fresh;  // CAs the state does not know: hypervisors new to the fabric
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (f.node(n).type != NodeType::Ca || n == not_hypervisor || f.node(n).vswitch) continue;
        f.add_vswitch(n, p.vfs);
        const Guid g = f.node(n).guid;
        if (std::none_of(s.hypervisors.begin(), s.hypervisors.end(),
                         [g](const VswitchState::Hypervisor &h) { return h.guid == g; }))
            fresh.push_back(n);
    }
    f.vf_lid_scheme = p.scheme;
    f.extended_vlids = p.extended_vlids;
    auto hypervisor = [&f](Guid g) -> std::optional<NodeIdx> {
        const auto n = f.find_guid(g);
        if (!n || !f.node(*n).vswitch) return std::nullopt;
        return n;
    };
    for (const VswitchState::Hypervisor &h : s.hypervisors) {
        const auto n = hypervisor(h.guid);
        if (!n) continue;  // gone: its VMs are reported below
        for (std::size_t i = 0; i < h.vf_lids.size() && i < f.node(*n).vfs; ++i) {
            const Lid l = h.vf_lids[i];
            if (l == 0) continue;
            // The LID is taken (by a port the discovery found with it) or outside the LID space:
            // assign_lids gives the VF another.
            try {
                f.set_vf_lid(*n, static_cast<std::uint16_t>(i), l);
            } catch (const std::invalid_argument &e) {
                left.push_back("VF " + std::to_string(i) + " of " + guid_text(h.guid) + ": LID " +
                               std::to_string(l) + " not kept: " + e.what());
            }
        }
    }
    for (const VswitchState::Vm &vm : s.vms) {
        const auto n = hypervisor(vm.hypervisor);
        if (!n) {
            left.push_back("VM '" + vm.name + "' left out: its hypervisor " + guid_text(vm.hypervisor) +
                           " is gone (or is no hypervisor)");
            continue;
        }
        try {
            f.add_vm(vm.name, *n, vm.vf);
        } catch (const std::invalid_argument &e) {
            left.push_back("VM '" + vm.name + "' left out: " + e.what());
        }
    }
    // A hypervisor new to the fabric (a host that came up after the first sweep) gets its share
    // of the load; a population given as a count was placed once.
    if (p.count < 0 && !fresh.empty()) place_vms(f, p, fresh, capacity_of(f, fresh) * p.load_percent / 100);
    return left;
}

Lid max_plid(const Fabric &f) {
    Lid l = std::min(f.max_lid(), kFirstVlid - 1);
    while (l > 0 && !f.lid_owner(l)) --l;
    return l;
}

VswitchBudget vswitch_budget(const Fabric &f) {
    VswitchBudget b;
    b.switches = f.switch_count();
    Lid max_plid = 0;
    for (Lid l = 1; l <= f.max_lid(); ++l) {
        const auto o = f.lid_owner(l);
        if (!o) continue;
        if (l < kFirstVlid) max_plid = l;
        const Port &p = f.port(o->node, o->port);
        const bool physical = l >= p.lid && l < p.lid + (Lid{1} << p.lmc);
        (physical ? b.physical_lids : b.vf_lids)++;
    }
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (f.node(n).vswitch) ++b.hypervisors, b.vfs += f.node(n).vfs;
    b.vms = f.vms().size();
    b.max_lid = f.max_lid();
    // A vLID-space LFT is the switch's secondary table: its blocks count from kFirstVlid.
    const Lid primary = f.extended_vlids ? max_plid : b.max_lid;
    b.blocks_per_switch = lft_blocks(primary);
    if (f.extended_vlids && b.max_lid >= kFirstVlid)
        b.blocks_per_switch += lft_blocks(b.max_lid - kFirstVlid);
    b.full_reconfig_smps = b.blocks_per_switch * b.switches;
    const bool prepopulated = f.vf_lid_scheme == VfLidScheme::Prepopulated;
    b.boot_smps = prepopulated || !b.hypervisors ? 0 : b.switches;
    b.worst_migration_smps = b.switches * (prepopulated ? 2u : 1u);
    return b;
}

std::vector<VmEndpoint> traffic_endpoints(const Fabric &f) {
    std::vector<VmEndpoint> out;
    if (!f.vms().empty()) {
        for (const VirtualMachine &vm : f.vms())
            if (vm.lid && f.port(vm.hypervisor, kVswitchPort).linked())
                out.push_back({{vm.hypervisor, kVswitchPort}, vm.lid});
        return out;
    }
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (f.node(n).is_switch()) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (f.port(n, p).linked() && f.port(n, p).lid) out.push_back({{n, p}, f.port(n, p).lid});
    }
    return out;
}

}  // namespace weft::routing
