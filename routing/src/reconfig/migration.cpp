// A VM's live migration as LFT changes: full re-route, ItRC and FTreeMinRC, their application
// to the tables, and the checks after a step.
#include <algorithm>
#include <stdexcept>

#include "verify/dest_walk.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/routing_metrics.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

// The switch a hypervisor's vSwitch port is cabled to, or kNoSwitch.
SwitchIdx leaf_of(const Fabric &f, NodeIdx hypervisor) {
    const Port &p = f.port(hypervisor, kVswitchPort);
    return p.linked() && f.node(p.peer).is_switch() ? f.node(p.peer).sw : kNoSwitch;
}

// Where a migration lands and whose routes the VM takes there.
struct Landing {
    std::uint16_t vf = 0;
    Lid route_lid = 0;
    bool swap = false;
};
Landing landing(const Fabric &f, const Migration &m) {
    Landing l;
    l.vf = static_cast<std::uint16_t>(free_vf(f, m.to));
    l.route_lid = f.vf(m.to, l.vf).lid;
    l.swap = l.route_lid != 0;  // prepopulated: the free VF has a LID, and the two swap
    if (!l.swap) l.route_lid = f.port(m.to, kVswitchPort).lid;
    return l;
}

MigrationPlan refused(ReconfigMethod method, const Migration &m, std::string why) {
    MigrationPlan p;
    p.method = method;
    p.migration = m;
    p.error = std::move(why);
    return p;
}

// Switches the old routes pass between the two hypervisors' leaves, both ways.
std::vector<std::uint8_t> active_switches(const Fabric &f, const RoutingTables &t, SwitchIdx a, Lid to_b,
                                          SwitchIdx b, Lid to_a) {
    std::vector<std::uint8_t> on(f.switch_count(), 0);
    for (auto [s, lid] : {std::pair{a, to_b}, std::pair{b, to_a}}) {
        for (std::size_t steps = 0; s != kNoSwitch && steps <= f.switch_count(); ++steps) {
            on[s] = 1;
            const PortNum q = t.lft[s][lid];
            const NodeIdx n = f.switch_node(s);
            if (q == kNoPort || q == 0 || q > f.node(n).num_ports || !f.port(n, q).linked()) break;
            const NodeIdx peer = f.port(n, q).peer;
            s = f.node(peer).is_switch() ? f.node(peer).sw : kNoSwitch;
        }
    }
    return on;
}

}  // namespace

std::string_view method_name(ReconfigMethod m) {
    switch (m) {
        case ReconfigMethod::FullReroute:
            return "full";
        case ReconfigMethod::ItRC:
            return "itrc";
        case ReconfigMethod::FTreeMinRC:
            return "ftree-minrc";
    }
    return "?";
}

std::string migration_refusal(const Fabric &f, const Migration &m) {
    if (m.vm >= f.vms().size()) return "no VM number " + std::to_string(m.vm);
    const VirtualMachine &vm = f.vms()[m.vm];
    if (m.to >= f.node_count()) return "no node number " + std::to_string(m.to);
    const Node &to = f.node(m.to);
    if (!to.vswitch) return verify::node_label(f, m.to) + " is not a hypervisor (a CA with a vSwitch)";
    if (m.to == vm.hypervisor) return "VM '" + vm.name + "' already runs on " + verify::node_label(f, m.to);
    if (free_vf(f, m.to) < 0)
        return "hypervisor " + verify::node_label(f, m.to) + " is full (" + std::to_string(to.vfs) + " of " +
               std::to_string(to.vfs) + " VFs in use)";
    if (leaf_of(f, m.to) == kNoSwitch || !f.port(m.to, kVswitchPort).lid)
        return "hypervisor " + verify::node_label(f, m.to) + " is not cabled to a switch (or has no LID)";
    if (!vm.lid || leaf_of(f, vm.hypervisor) == kNoSwitch)
        return "VM '" + vm.name + "' has no LID or its hypervisor is not cabled";
    return {};
}

MigrationPlan plan_lid_update(const Fabric &f, const RoutingTables &t, Lid moving, Lid route_from, bool swap,
                              std::span<const SwitchIdx> on) {
    MigrationPlan p;
    p.vm_lid = moving;
    p.route_lid = route_from;
    p.swap = swap;
    p.marked = on.empty() ? f.switch_count() : on.size();
    auto visit = [&](SwitchIdx s) {
        const PortNum pm = t.lft[s][moving], pr = t.lft[s][route_from];
        if (pm == pr) return;
        SwitchUpdate u;
        u.sw = s;
        u.entries.push_back({moving, pr, t.hops[s][route_from]});
        if (swap) u.entries.push_back({route_from, pm, t.hops[s][moving]});
        u.blocks = swap ? blocks_for(moving, route_from) : 1;
        p.entries += u.entries.size();
        p.smps += u.blocks;
        p.updates.push_back(std::move(u));
    };
    if (on.empty())
        for (SwitchIdx s = 0; s < f.switch_count(); ++s) visit(s);
    else
        for (SwitchIdx s : on) visit(s);
    return p;
}

MigrationPlan plan_itrc(const Fabric &f, const RoutingTables &t, const Migration &m) {
    if (auto why = migration_refusal(f, m); !why.empty()) return refused(ReconfigMethod::ItRC, m, why);
    const Landing l = landing(f, m);
    MigrationPlan p = plan_lid_update(f, t, f.vms()[m.vm].lid, l.route_lid, l.swap);
    p.method = ReconfigMethod::ItRC;
    p.migration = m;
    p.to_vf = l.vf;
    return p;
}

MigrationPlan plan_ftree_min_rc(const Fabric &f, const RoutingTables &t, const FatTreeSkyline &sky,
                                const Migration &m) {
    if (auto why = migration_refusal(f, m); !why.empty()) return refused(ReconfigMethod::FTreeMinRC, m, why);
    const NodeIdx from = f.vms()[m.vm].hypervisor;
    const SwitchIdx a = leaf_of(f, from), b = leaf_of(f, m.to);
    std::vector<SwitchIdx> marked;
    if (!sky.mark(a, b, marked))
        return refused(ReconfigMethod::FTreeMinRC, m,
                       "the leaves of " + verify::node_label(f, from) + " and " +
                           verify::node_label(f, m.to) + " share no sub-tree");
    const Landing l = landing(f, m);
    MigrationPlan p = plan_lid_update(f, t, f.vms()[m.vm].lid, l.route_lid, l.swap, marked);
    p.method = ReconfigMethod::FTreeMinRC;
    p.migration = m;
    p.to_vf = l.vf;
    // The switches carrying traffic between the two hypervisors are sent their updates first.
    const auto on =
        active_switches(f, t, a, f.port(m.to, kVswitchPort).lid, b, f.port(from, kVswitchPort).lid);
    for (SwitchUpdate &u : p.updates) u.active = on[u.sw] != 0;
    std::stable_partition(p.updates.begin(), p.updates.end(), [](const SwitchUpdate &u) { return u.active; });
    p.active = static_cast<std::size_t>(
        std::count_if(p.updates.begin(), p.updates.end(), [](const SwitchUpdate &u) { return u.active; }));
    return p;
}

namespace {

// The part of f made of the given switches and the CAs cabled to them, with f's GUIDs, LIDs,
// vSwitches and VMs; map[n] is node n's index in it (kNoNode when left out).
Fabric part_of(const Fabric &f, const std::vector<SwitchIdx> &switches, std::vector<NodeIdx> &map) {
    std::vector<std::uint8_t> in(f.node_count(), 0);
    for (SwitchIdx s : switches) in[f.switch_node(s)] = 1;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch())
            for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
                if (f.port(n, p).linked() && in[f.port(n, p).peer] && f.node(f.port(n, p).peer).is_switch())
                    in[n] = 1;
    Fabric g;
    map.assign(f.node_count(), kNoNode);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (!in[n]) continue;
        const Node &x = f.node(n);
        const NodeIdx y = map[n] = g.add_node(x.type, x.guid, x.num_ports, x.desc, x.sys_guid);
        for (PortNum p = 0; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (p && !x.is_switch() && pp.guid) g.set_port_guid(y, p, pp.guid);
            if (pp.lid) g.set_lid(y, p, pp.lid, pp.lmc);
        }
        if (x.vswitch) {
            g.add_vswitch(y, x.vfs);
            for (std::uint16_t i = 0; i < x.vfs; ++i)
                if (f.vf(n, i).lid) g.set_vf_lid(y, i, f.vf(n, i).lid);
        }
    }
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (map[n] == kNoNode) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (x.peer == kNoNode || map[x.peer] == kNoNode || x.peer < n || (x.peer == n && x.peer_port < p))
                continue;
            g.connect(map[n], p, map[x.peer], x.peer_port, x.width, x.speed, x.state);
        }
    }
    g.vf_lid_scheme = f.vf_lid_scheme;
    g.extended_vlids = f.extended_vlids;
    for (const VirtualMachine &vm : f.vms())
        if (map[vm.hypervisor] != kNoNode) g.add_vm(vm.name, map[vm.hypervisor], vm.vf);
    return g;
}

}  // namespace

MigrationPlan plan_ftree_min_rc_rebalanced(const Fabric &f, const RoutingTables &t, const FatTreeSkyline &sky,
                                           const Migration &m) {
    MigrationPlan p = plan_ftree_min_rc(f, t, sky, m);
    if (!p.ok()) return p;
    const NodeIdx from = f.vms()[m.vm].hypervisor;
    const SwitchIdx a = leaf_of(f, from), b = leaf_of(f, m.to);
    if (a == b) return p;  // a leaf is non-blocking: nothing to balance
    std::vector<SwitchIdx> part;
    sky.subtree(a, b, part);
    Fabric moved = f;
    moved.move_vm(m.vm, m.to, p.to_vf);
    std::vector<NodeIdx> map;
    const Fabric g = part_of(moved, part, map);
    RoutingOptions o;
    o.no_fallback = true;
    RoutingTables tg;
    const ChainResult r = run_chain("vswitch-ftree", g, o, tg);
    if (!r.ok)
        return refused(
            ReconfigMethod::FTreeMinRC, m,
            "re-balancing the sub-tree failed: " + (r.failures.empty() ? r.error : r.failures.back()));
    // The CA and VF LIDs inside the sub-tree: their entries on its switches are re-balanced.
    std::vector<Lid> lids;
    for (Lid l = 1; l <= g.max_lid(); ++l)
        if (const auto o2 = g.lid_owner(l); o2 && !g.node(o2->node).is_switch()) lids.push_back(l);
    const auto on =
        active_switches(f, t, a, f.port(m.to, kVswitchPort).lid, b, f.port(from, kVswitchPort).lid);
    MigrationPlan q;
    q.method = ReconfigMethod::FTreeMinRC;
    q.rebalanced = true;
    q.migration = m;
    q.to_vf = p.to_vf;
    q.vm_lid = p.vm_lid;
    q.route_lid = p.route_lid;
    q.swap = p.swap;
    q.marked = part.size();
    for (SwitchIdx s : part) {
        const SwitchIdx y = g.node(map[f.switch_node(s)]).sw;
        SwitchUpdate u;
        u.sw = s;
        u.active = on[s] != 0;
        Lid last_block = ~Lid{0};
        for (Lid l : lids) {
            const PortNum now = tg.lft[y][l];
            if (now == t.lft[s][l]) continue;
            u.entries.push_back({l, now, tg.hops[y][l]});
            if (lft_block(l) != last_block) ++u.blocks, last_block = lft_block(l);
        }
        if (u.entries.empty()) continue;
        q.entries += u.entries.size();
        q.smps += u.blocks;
        q.updates.push_back(std::move(u));
    }
    std::stable_partition(q.updates.begin(), q.updates.end(), [](const SwitchUpdate &u) { return u.active; });
    q.active = static_cast<std::size_t>(
        std::count_if(q.updates.begin(), q.updates.end(), [](const SwitchUpdate &u) { return u.active; }));
    return q;
}

MigrationPlan plan_full_reroute(const Fabric &f, const RoutingTables &t, const Migration &m,
                                std::string_view chain, const RoutingOptions &o, RoutingTables &rerouted) {
    if (auto why = migration_refusal(f, m); !why.empty()) return refused(ReconfigMethod::FullReroute, m, why);
    const Landing l = landing(f, m);
    Fabric moved = f;
    moved.move_vm(m.vm, m.to, l.vf);
    const ChainResult r = run_chain(chain, moved, o, rerouted);
    if (!r.ok)
        return refused(ReconfigMethod::FullReroute, m,
                       "re-routing failed: " + (r.failures.empty() ? r.error : r.failures.back()));
    MigrationPlan p;
    p.method = ReconfigMethod::FullReroute;
    p.migration = m;
    p.to_vf = l.vf;
    p.vm_lid = f.vms()[m.vm].lid;
    p.route_lid = l.route_lid;
    p.swap = l.swap;
    p.marked = f.switch_count();
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const auto &a = t.lft[s], &b = rerouted.lft[s];
        SwitchUpdate u;
        u.sw = s;
        Lid last_block = ~Lid{0};
        for (Lid lid = 0; lid < b.size(); ++lid) {
            const PortNum was = lid < a.size() ? a[lid] : kNoPort;
            if (was == b[lid]) continue;
            u.entries.push_back({lid, b[lid], rerouted.hops[s][lid]});
            if (lft_block(lid) != last_block) ++u.blocks, last_block = lft_block(lid);
        }
        if (u.entries.empty()) continue;
        p.entries += u.entries.size();
        p.smps += u.blocks;
        p.updates.push_back(std::move(u));
    }
    p.full_smps = vswitch_budget(moved).full_reconfig_smps;
    return p;
}

void apply_migration(Fabric &f, RoutingTables &t, const MigrationPlan &p, RoutingTables *rerouted) {
    if (!p.ok()) throw std::invalid_argument("migration not planned: " + p.error);
    if (auto why = migration_refusal(f, p.migration); !why.empty()) throw std::invalid_argument(why);
    if (p.method == ReconfigMethod::FullReroute) {
        if (!rerouted) throw std::invalid_argument("a full re-route is applied with its tables");
        f.move_vm(p.migration.vm, p.migration.to, p.to_vf);
        t = std::move(*rerouted);
        return;
    }
    f.move_vm(p.migration.vm, p.migration.to, p.to_vf);
    for (const SwitchUpdate &u : p.updates)
        for (const LftEntry &e : u.entries) {
            t.lft[u.sw][e.lid] = e.port;
            t.hops[u.sw][e.lid] = e.hops;
        }
    // Path SLs follow the routes the VM now takes (ItRC leaves its column equal to the one it
    // copied; FTreeMinRC only on fat trees, whose engine sets none).
    if (!t.path_sl.empty())
        for (auto &row : t.path_sl) {
            const std::uint8_t vm_sl = row[p.vm_lid];
            row[p.vm_lid] = row[p.route_lid];
            if (p.swap) row[p.route_lid] = vm_sl;
        }
}

MigrationCheck verify_migration(const Fabric &f, const RoutingTables &t, const RoutingTables &reroute,
                                unsigned ebb_runs, std::uint64_t seed) {
    MigrationCheck c;
    const RoutingCheck check = check_routing(f, t);
    c.unreachable = check.paths.unreachable;
    c.loops = check.paths.loops;
    c.credit_loop = check.credit_loops.has_cycle;
    const auto ends = traffic_endpoints(f);
    c.max_routes = routes_per_link(f, t, ends).all.max;
    c.max_routes_reroute = routes_per_link(f, reroute, ends).all.max;
    c.ebb = effective_bisection_bandwidth(f, t, ends, ebb_runs, seed).mean_bandwidth;
    c.ebb_reroute = effective_bisection_bandwidth(f, reroute, ends, ebb_runs, seed).mean_bandwidth;
    return c;
}

}  // namespace weft::routing
