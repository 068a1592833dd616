// Seeded link and switch failures on any fabric.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "weft/routing/generators.hpp"
#include "weft/routing/seeded_rng.hpp"

namespace weft::routing {

Fabric apply_failures(const Fabric &f, const FailureParams &p) {
    SeededRng rng(p.seed);
    // Switch-to-switch cables, each once, in a fixed order.
    std::vector<std::pair<NodeIdx, PortNum>> cables;
    for (NodeIdx n : f.switches())
        for (PortNum q = 1; q <= f.node(n).num_ports; ++q) {
            const Port &x = f.port(n, q);
            if (x.peer != kNoNode && f.node(x.peer).is_switch() &&
                (x.peer > n || (x.peer == n && x.peer_port > q)))
                cables.emplace_back(n, q);
        }
    if (p.links > cables.size())
        throw std::invalid_argument("fail-links: only " + std::to_string(cables.size()) +
                                    " switch links to cut");
    if (p.switches >= f.switch_count() && p.switches)
        throw std::invalid_argument("fail-switches: the fabric has only " + std::to_string(f.switch_count()) +
                                    " switches");
    // Partial Fisher-Yates: the first k entries are a uniform k-subset.
    auto pick = [&](std::size_t total, std::size_t k) {
        std::vector<std::size_t> idx(total);
        std::iota(idx.begin(), idx.end(), 0);
        for (std::size_t i = 0; i < k; ++i) std::swap(idx[i], idx[i + rng.below(total - i)]);
        idx.resize(k);
        return idx;
    };
    std::vector<std::vector<char>> port_cut(f.node_count());
    for (NodeIdx n = 0; n < f.node_count(); ++n) port_cut[n].assign(f.node(n).num_ports + 1u, 0);
    for (std::size_t i : pick(cables.size(), p.links)) {
        auto [n, q] = cables[i];
        port_cut[n][q] = 1;
        port_cut[f.port(n, q).peer][f.port(n, q).peer_port] = 1;
    }
    std::vector<char> gone(f.node_count(), 0);
    for (std::size_t i : pick(f.switch_count(), p.switches))
        gone[f.switch_node(static_cast<SwitchIdx>(i))] = 1;
    auto alive = [&](NodeIdx n, PortNum q) {
        const Port &x = f.port(n, q);
        return x.peer != kNoNode && !port_cut[n][q] && !gone[n] && !gone[x.peer];
    };
    // Keep the largest connected part: what a subnet manager there would still discover.
    std::vector<std::uint32_t> comp(f.node_count(), ~0u);
    std::vector<std::size_t> size;
    for (NodeIdx s = 0; s < f.node_count(); ++s) {
        if (gone[s] || comp[s] != ~0u) continue;
        const auto c = static_cast<std::uint32_t>(size.size());
        size.push_back(0);
        std::vector<NodeIdx> stack{s};
        comp[s] = c;
        while (!stack.empty()) {
            const NodeIdx n = stack.back();
            stack.pop_back();
            ++size[c];
            for (PortNum q = 1; q <= f.node(n).num_ports; ++q)
                if (alive(n, q) && comp[f.port(n, q).peer] == ~0u) {
                    comp[f.port(n, q).peer] = c;
                    stack.push_back(f.port(n, q).peer);
                }
        }
    }
    const auto best = static_cast<std::uint32_t>(std::max_element(size.begin(), size.end()) - size.begin());
    Fabric out;
    std::vector<NodeIdx> map(f.node_count(), kNoNode);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (gone[n] || comp[n] != best) continue;
        const Node &x = f.node(n);
        map[n] = out.add_node(x.type, x.guid, x.num_ports, x.desc, x.sys_guid);
        if (x.vswitch) {
            out.add_vswitch(map[n], x.vfs);
            for (std::uint16_t i = 0; i < x.vfs; ++i)
                if (f.vf(n, i).lid) out.set_vf_lid(map[n], i, f.vf(n, i).lid);
        }
        for (PortNum q = 1; q <= x.num_ports; ++q)
            if (!x.is_switch() && f.port(n, q).guid) out.set_port_guid(map[n], q, f.port(n, q).guid);
        for (PortNum q = 0; q <= x.num_ports; ++q)
            if (f.port(n, q).lid) out.set_lid(map[n], q, f.port(n, q).lid, f.port(n, q).lmc);
    }
    // VMs on the hypervisors that are left, in their order.
    out.vf_lid_scheme = f.vf_lid_scheme;
    out.extended_vlids = f.extended_vlids;
    for (const VirtualMachine &vm : f.vms())
        if (map[vm.hypervisor] != kNoNode) out.add_vm(vm.name, map[vm.hypervisor], vm.vf);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (map[n] == kNoNode) continue;
        for (PortNum q = 1; q <= f.node(n).num_ports; ++q) {
            const Port &x = f.port(n, q);
            if (!alive(n, q) || map[x.peer] == kNoNode) continue;
            if (x.peer < n || (x.peer == n && x.peer_port < q)) continue;
            out.connect(map[n], q, map[x.peer], x.peer_port, x.width, x.speed, x.state);
        }
    }
    return out;
}

}  // namespace weft::routing
