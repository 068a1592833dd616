#include "sma_fabric.hpp"

#include <algorithm>

namespace weft::sm::test {

SmaConfig sma_config(const routing::Fabric &f, routing::NodeIdx n) {
    const routing::Node &node = f.node(n);
    SmaConfig c;
    c.node_type = node.is_switch() ? NodeType::kSwitch : NodeType::kCa;
    c.node_guid = node.guid;
    c.system_image_guid = node.sys_guid;
    c.num_ports = node.num_ports;
    c.description = node.desc.substr(0, kSmpDataSize);
    if (!node.is_switch()) {
        c.port_guids.assign(node.num_ports + 1u, 0);
        for (PortNum p = 1; p <= node.num_ports; ++p) c.port_guids[p] = f.port(n, p).guid;
    }
    c.link_speed_supported = 7;
    c.link_width_supported = 0x1F;
    return c;
}

SmaLinkRate link_rate(routing::LinkWidth width, routing::LinkSpeed speed) {
    SmaLinkRate r;
    switch (width) {
        case routing::LinkWidth::X1:
            r.width_active = 1;
            break;
        case routing::LinkWidth::X2:
            r.width_active = 16;
            break;
        case routing::LinkWidth::X4:
            r.width_active = 2;
            break;
        case routing::LinkWidth::X8:
            r.width_active = 4;
            break;
        case routing::LinkWidth::X12:
            r.width_active = 8;
            break;
    }
    r.speed_active = 4;
    switch (speed) {
        case routing::LinkSpeed::Sdr:
            r.speed_active = 1;
            break;
        case routing::LinkSpeed::Ddr:
            r.speed_active = 2;
            break;
        case routing::LinkSpeed::Qdr:
        case routing::LinkSpeed::Fdr10:
            break;
        case routing::LinkSpeed::Fdr:
            r.speed_ext_active = 1;
            break;
        case routing::LinkSpeed::Edr:
            r.speed_ext_active = 2;
            break;
        case routing::LinkSpeed::Hdr:
            r.speed_ext_active = 4;
            break;
        case routing::LinkSpeed::Ndr:
        case routing::LinkSpeed::Xdr:
            r.speed_ext_active = 8;
            break;
    }
    return r;
}

SmaFabric::SmaFabric(const routing::Fabric &f, routing::NodeIdx sm_node, PortNum sm_port,
                     std::uint32_t vlid_cap)
    : sm_node_(sm_node), sm_port_(sm_port) {
    nodes_.reserve(f.node_count());
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        SmaConfig c = sma_config(f, n);
        if (f.node(n).is_switch()) c.vlid_cap = vlid_cap;
        nodes_.push_back(Node{Sma(c), std::vector<Peer>(f.node(n).num_ports + 1u)});
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) nodes_[n].sma.set_fabric_port(p, true);
    }
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const routing::Port &x = f.port(n, p);
            if (x.peer == routing::kNoNode) continue;
            nodes_[n].peers[p] = Peer{x.peer, x.peer_port};
            nodes_[n].sma.set_link(p, true, now_, link_rate(x.width, x.speed));
        }
}

void SmaFabric::set_cable(routing::NodeIdx n, PortNum p, bool up) {
    const Peer peer = nodes_[n].peers[p];
    const SmaLinkRate rate = link_rate(routing::LinkWidth::X4, routing::LinkSpeed::Edr);
    // Both ends change before either trap travels: a trap routed over the cut cable is lost, as
    // it would be on the wire.
    std::optional<SmaOutput> a = nodes_[n].sma.set_link(p, up, now_, rate);
    std::optional<SmaOutput> b;
    if (peer.node != routing::kNoNode) b = nodes_[peer.node].sma.set_link(peer.port, up, now_, rate);
    if (a) run(n, *a);
    if (b) run(peer.node, *b);
}

void SmaFabric::poll() {
    for (routing::NodeIdx n = 0; n < nodes_.size(); ++n)
        if (std::optional<SmaOutput> o = nodes_[n].sma.poll(now_)) run(n, *o);
}

void SmaFabric::run(routing::NodeIdx at, SmaOutput out) {
    Lid slid = nodes_[at].sma.lid();
    unsigned steps = 0;
    for (;;) {
        if (out.action == SmaAction::kToSm) {
            if (at != sm_node_) {
                ++lost;
                return;
            }
            ReceivedSmp r;
            r.bytes = out.bytes;
            r.length = kSmpSize;
            r.slid = slid;
            if (r.bytes[3] == static_cast<std::uint8_t>(Method::kTrap)) ++traps_to_sm;
            pending_.push_back(Delivery{now_ + latency * (steps + 1), r});
            return;
        }
        if (out.action != SmaAction::kSend) return;
        const Peer peer = nodes_[at].peers[out.port];
        if (peer.node == routing::kNoNode || !nodes_[at].sma.link_up(out.port)) {
            ++lost;
            return;
        }
        if (silent.count(peer.node)) {
            ++lost;
            return;
        }
        ++hops;
        if (++steps > 1024) return;  // a forwarding loop: the SMP dies
        slid = out.lrh.slid;
        at = peer.node;
        out = nodes_[at].sma.handle(peer.port, out.bytes, now_, out.lrh);
    }
}

bool SmaFabric::send(const OutgoingSmp &smp) {
    const Lid dlid = smp.directed ? kPermissiveLid : smp.dlid;
    run(sm_node_, nodes_[sm_node_].sma.originate(sm_port_, smp.bytes, now_, dlid));
    return true;
}

std::optional<ReceivedSmp> SmaFabric::receive(std::chrono::milliseconds wait) {
    auto it = std::min_element(pending_.begin(), pending_.end(),
                               [](const Delivery &a, const Delivery &b) { return a.at < b.at; });
    if (time_passes_on_wait && (it == pending_.end() || it->at > now_)) {
        const auto until = now_ + std::chrono::duration_cast<std::chrono::nanoseconds>(wait);
        now_ = it != pending_.end() && it->at < until ? it->at : until;
    }
    if (it == pending_.end() || it->at > now_) return std::nullopt;
    ReceivedSmp r = std::move(it->mad);
    pending_.erase(it);
    return r;
}

}  // namespace weft::sm::test
