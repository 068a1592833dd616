// vswitch-ftree: seed 002's vSwitchFatTree (the engine is ftree's, ftree.cpp, with its VMs routed
// here by FatTree::route_vms). The physical LIDs (PFs, other CAs, switches) are
// routed exactly as ftree routes them; then, with every port's load back at zero, each VM is
// routed as a compute node of its own with a weight of 1/(VMs on its vSwitch), leaf by leaf, the
// vSwitches with the fewest VMs first (so the heavier VMs are placed while the links are still
// even). Every vSwitch weighs the same as a plain node, so the links stay balanced whatever the
// VM distribution, while the VMs of one vSwitch take different paths. The PF routes are kept
// balanced among themselves (equal weights): a migration by FTreeMinRC gives a VM its new PF's
// routes. With one VM per vSwitch the VM routes are the PF routes, i.e. ftree's.
//
// Weights are integers: a vSwitch weighs W, the least common multiple of the VM counts present,
// so 1/n is exact; when W times the routes would not fit the 32-bit port counters, W is capped
// and a VM's weight rounded (never below 1).
#include <algorithm>
#include <numeric>

#include "engines/engines.hpp"
#include "engines/fat_tree.hpp"

namespace weft::routing::engines {

void FatTree::reset_loads() {
    for (FtPort &p : ports_) p.up = p.down = 0;
    build_slots();
}

void FatTree::route_vms(const Fabric &f, RoutingTables &t) {
    copy_vf_routes(f, t);  // VF LIDs without a VM here, and VMs not on a leaf's compute node
    reset_loads();
    attach(t);

    // The weight unit: the LCM of the VM counts, while W times every route fits the counters.
    std::uint64_t routes = std::uint64_t{max_cns_} * leaves_.size() + f.vms().size() + 1;
    std::uint64_t w = 1;
    bool exact = true;
    const std::uint64_t cap = (std::uint64_t{1} << 31) / routes;
    for (SwitchIdx leaf : leaves_)
        for (std::uint32_t gid = sw_[leaf].gbeg; gid < sw_[leaf].gend; ++gid) {
            const FtGroup &g = groups_[gid];
            if (g.remote != kNone || !g.cn || !f.node(g.ca).vswitch) continue;
            const std::uint64_t c = running_vms_of(f, g.ca);
            if (!c || !exact) continue;
            const std::uint64_t next = std::lcm(w, c);
            if (next > cap)
                exact = false;
            else
                w = next;
        }
    if (!exact) w = std::max<std::uint64_t>(cap, 1);
    const auto unit = static_cast<std::uint32_t>(w);

    struct Cn {
        std::uint32_t gid;
        std::uint16_t vms;
    };
    std::vector<Cn> cns;
    for (SwitchIdx leaf : leaves_) {
        cns.clear();
        for (std::uint32_t gid = sw_[leaf].gbeg; gid < sw_[leaf].gend; ++gid) {
            const FtGroup &g = groups_[gid];
            if (g.remote != kNone || !g.cn) continue;
            cns.push_back({gid, f.node(g.ca).vswitch ? running_vms_of(f, g.ca) : std::uint16_t{0}});
        }
        std::stable_sort(cns.begin(), cns.end(), [](const Cn &a, const Cn &b) { return a.vms < b.vms; });
        for (const Cn &c : cns) {
            const FtGroup &g = groups_[c.gid];
            if (c.vms == 0) {  // a plain node, or a vSwitch without VMs: a node's weight, no LID
                w_ = unit;
                route_down_by_up<false>(leaf, kNone, true, 0, 1);
                continue;
            }
            w_ = std::max<std::uint32_t>(1, (unit + c.vms / 2) / c.vms);
            for (const VirtualFunction &v : f.vfs(g.ca)) {
                if (v.vm == kNoVm || !v.lid) continue;
                begin_lid(v.lid);
                set_route(leaf, ports_[g.first].port, 1);
                route_down_by_up<true>(leaf, kNone, true, 0, 1);
            }
        }
        w_ = unit;
        for (auto k = static_cast<std::uint32_t>(cns.size()); k < max_cns_; ++k)
            route_down_by_up<false>(leaf, kNone, true, 0, 1);
    }
    w_ = 1;
    flush();
}

std::uint16_t FatTree::running_vms_of(const Fabric &f, NodeIdx ca) {
    std::uint16_t k = 0;
    for (const VirtualFunction &v : f.vfs(ca)) k += v.vm != kNoVm && v.lid != 0;
    return k;
}

}  // namespace weft::routing::engines
