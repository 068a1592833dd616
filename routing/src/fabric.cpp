#include "weft/routing/fabric.hpp"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

namespace weft::routing {

std::string guid_text(Guid g) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, static_cast<std::uint64_t>(g));
    return buf;
}

unsigned lanes(LinkWidth w) {
    switch (w) {
        case LinkWidth::X1:
            return 1;
        case LinkWidth::X2:
            return 2;
        case LinkWidth::X4:
            return 4;
        case LinkWidth::X8:
            return 8;
        case LinkWidth::X12:
            return 12;
    }
    return 0;
}

double lane_gbps(LinkSpeed s) {
    // Data rate per lane after line encoding (8b/10b up to QDR, 64b/66b from FDR10 on).
    switch (s) {
        case LinkSpeed::Sdr:
            return 2.0;
        case LinkSpeed::Ddr:
            return 4.0;
        case LinkSpeed::Qdr:
            return 8.0;
        case LinkSpeed::Fdr10:
            return 10.0;
        case LinkSpeed::Fdr:
            return 13.64;
        case LinkSpeed::Edr:
            return 25.0;
        case LinkSpeed::Hdr:
            return 50.0;
        case LinkSpeed::Ndr:
            return 100.0;
        case LinkSpeed::Xdr:
            return 200.0;
    }
    return 0.0;
}

NodeIdx Fabric::add_node(NodeType type, Guid guid, PortNum num_ports, std::string desc, Guid sys_guid) {
    if (num_ports == 0 || num_ports == kNoPort)
        throw std::invalid_argument("node 0x" + std::to_string(guid) + ": port count must be 1..254");
    if (by_guid_.count(guid)) throw std::invalid_argument("duplicate node GUID " + std::to_string(guid));
    const auto idx = static_cast<NodeIdx>(nodes_.size());
    Node n;
    n.type = type;
    n.guid = guid;
    n.sys_guid = sys_guid ? sys_guid : guid;
    n.desc = std::move(desc);
    n.num_ports = num_ports;
    n.port_base = static_cast<std::uint32_t>(ports_.size());
    if (type == NodeType::Switch) {
        n.sw = static_cast<SwitchIdx>(switches_.size());
        switches_.push_back(idx);
        by_port_guid_[guid] = {idx, 0};
    }
    nodes_.push_back(std::move(n));
    ports_.resize(ports_.size() + num_ports + 1u);
    by_guid_[guid] = idx;
    return idx;
}

void Fabric::connect(NodeIdx a, PortNum pa, NodeIdx b, PortNum pb, LinkWidth w, LinkSpeed s,
                     PortState state) {
    auto check = [&](NodeIdx n, PortNum p) {
        if (n >= nodes_.size()) throw std::invalid_argument("connect: no node " + std::to_string(n));
        if (p == 0 || p > nodes_[n].num_ports)
            throw std::invalid_argument("connect: node " + std::to_string(n) + " has no port " +
                                        std::to_string(p));
        if (port(n, p).peer != kNoNode)
            throw std::invalid_argument("connect: node " + std::to_string(n) + " port " + std::to_string(p) +
                                        " is already cabled");
    };
    check(a, pa);
    check(b, pb);
    if (a == b && pa == pb) throw std::invalid_argument("connect: a port cannot be cabled to itself");
    for (auto [n, p, peer, pp] : {std::tuple{a, pa, b, pb}, std::tuple{b, pb, a, pa}}) {
        Port &x = port(n, p);
        x.peer = peer;
        x.peer_port = pp;
        x.width = w;
        x.speed = s;
        x.state = state;
    }
}

void Fabric::disconnect(NodeIdx n, PortNum p) {
    Port &x = port(n, p);
    if (x.peer == kNoNode) return;
    Port &y = port(x.peer, x.peer_port);
    y.peer = kNoNode;
    y.peer_port = 0;
    y.state = PortState::Down;
    x.peer = kNoNode;
    x.peer_port = 0;
    x.state = PortState::Down;
}

std::optional<NodeIdx> Fabric::find_guid(Guid g) const {
    auto it = by_guid_.find(g);
    if (it == by_guid_.end()) return std::nullopt;
    return it->second;
}

std::optional<LidOwner> Fabric::find_port_guid(Guid g) const {
    auto it = by_port_guid_.find(g);
    if (it == by_port_guid_.end()) return std::nullopt;
    return it->second;
}

void Fabric::set_port_guid(NodeIdx n, PortNum p, Guid g) {
    port(n, p).guid = g;
    by_port_guid_[g] = {n, p};
}

void Fabric::set_lid(NodeIdx n, PortNum p, Lid base, std::uint8_t lmc) {
    if (base == 0 || lmc > 7) throw std::invalid_argument("set_lid: LID must be non-zero and LMC 0..7");
    const Lid count = Lid{1} << lmc;
    if (base + count - 1 > kMaxExtendedLid)
        throw std::invalid_argument("set_lid: LID range past the LID space");
    Port &x = port(n, p);
    x.lid = base;
    x.lmc = lmc;
    if (lid_owner_.size() < base + count) lid_owner_.resize(base + count);
    for (Lid l = base; l < base + count; ++l) lid_owner_[l] = {n, p};
}

void Fabric::clear_lids() {
    lid_owner_.clear();
    for (auto &p : ports_) {
        p.lid = 0;
        p.lmc = 0;
    }
    for (auto &v : vfs_) v.lid = 0;
    for (auto &vm : vms_) vm.lid = 0;
}

void Fabric::own_lid(Lid lid, LidOwner o) {
    if (lid_owner_.size() <= lid) lid_owner_.resize(std::size_t{lid} + 1);
    lid_owner_[lid] = o;
}

void Fabric::add_vswitch(NodeIdx n, std::uint16_t vfs) {
    Node &x = nodes_.at(n);
    if (x.type != NodeType::Ca)
        throw std::invalid_argument("'" + x.desc + "' is not a CA: only a CA can be a vSwitch");
    if (x.vfs) throw std::invalid_argument("'" + x.desc + "' is already a vSwitch");
    if (vfs == 0 || vfs > kMaxVfs)
        throw std::invalid_argument("'" + x.desc + "': a vSwitch has 1.." + std::to_string(kMaxVfs) + " VFs");
    x.vswitch = true;
    x.vfs = vfs;
    x.vf_base = static_cast<std::uint32_t>(vfs_.size());
    vfs_.resize(vfs_.size() + vfs);
}

void Fabric::set_vf_lid(NodeIdx n, std::uint16_t i, Lid lid) {
    const Node &x = nodes_.at(n);
    if (i >= x.vfs) throw std::invalid_argument("'" + x.desc + "' has no VF " + std::to_string(i));
    VirtualFunction &v = vfs_[x.vf_base + i];
    if (lid == v.lid) return;
    if (lid > kMaxExtendedLid)
        throw std::invalid_argument("VF LID " + std::to_string(lid) + " past the LID space");
    if (lid && lid_owner(lid)) throw std::invalid_argument("VF LID " + std::to_string(lid) + " is taken");
    if (v.lid && v.lid < lid_owner_.size()) lid_owner_[v.lid] = {};
    v.lid = lid;
    if (lid) own_lid(lid, {n, kVswitchPort});
    if (v.vm != kNoVm) vms_[v.vm].lid = lid;
}

VirtualFunction &Fabric::free_vf_at(NodeIdx n, std::uint16_t i) {
    const Node &x = nodes_.at(n);
    if (!x.vswitch) throw std::invalid_argument("'" + x.desc + "' is not a hypervisor (a vSwitch with VFs)");
    if (i >= x.vfs) throw std::invalid_argument("'" + x.desc + "' has no VF " + std::to_string(i));
    VirtualFunction &v = vfs_[x.vf_base + i];
    if (v.vm != kNoVm)
        throw std::invalid_argument("VF " + std::to_string(i) + " of '" + x.desc + "' already runs VM '" +
                                    vms_[v.vm].name + "'");
    return v;
}

std::uint32_t Fabric::add_vm(std::string name, NodeIdx n, std::uint16_t i) {
    VirtualFunction &v = free_vf_at(n, i);
    if (name.empty() || vm_by_name_.count(name))
        throw std::invalid_argument("VM name '" + name + "' is empty or taken");
    const auto id = static_cast<std::uint32_t>(vms_.size());
    vm_by_name_.emplace(name, id);
    vms_.push_back({std::move(name), n, i, v.lid});
    v.vm = id;
    return id;
}

void Fabric::move_vm(std::uint32_t vm, NodeIdx n, std::uint16_t i) {
    VirtualMachine &m = vms_.at(vm);
    VirtualFunction &to = free_vf_at(n, i);
    VirtualFunction &from = vfs_[nodes_[m.hypervisor].vf_base + m.vf];
    const Lid swapped = to.lid;
    to.lid = m.lid;
    to.vm = vm;
    from.lid = swapped;
    from.vm = kNoVm;
    if (m.lid) own_lid(m.lid, {n, kVswitchPort});
    if (swapped) own_lid(swapped, {m.hypervisor, kVswitchPort});
    m.hypervisor = n;
    m.vf = i;
}

std::optional<std::uint32_t> Fabric::find_vm(std::string_view name) const {
    auto it = vm_by_name_.find(std::string(name));
    if (it == vm_by_name_.end()) return std::nullopt;
    return it->second;
}

NodeIdx Fabric::attached_switch(Lid lid) const {
    auto o = lid_owner(lid);
    if (!o) return kNoNode;
    if (nodes_[o->node].is_switch()) return o->node;
    const Port &p = port(o->node, o->port);
    if (p.peer == kNoNode || !nodes_[p.peer].is_switch()) return kNoNode;
    return p.peer;
}

}  // namespace weft::routing
