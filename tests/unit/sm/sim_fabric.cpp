#include "sim_fabric.hpp"

#include <algorithm>

#include "weft/sm/node_description.hpp"

namespace weft::sm::test {

namespace {

SimNode make_node(NodeType type, std::uint64_t guid, PortNum ports, std::string description) {
    SimNode n;
    n.info.node_type = type;
    n.info.num_ports = ports;
    n.info.node_guid = guid;
    n.info.port_guid = type == NodeType::kSwitch ? guid : guid + 1;
    n.info.system_image_guid = guid;
    n.description = std::move(description);
    n.ports.resize(ports + 1u);
    n.links.resize(ports + 1u);
    for (unsigned p = 0; p <= ports; ++p) {
        PortInfo &pi = n.ports[p];
        pi.local_port_num = static_cast<PortNum>(p);
        pi.port_state = PortState::kDown;
        pi.phys_state = PhysState::kPolling;
        pi.link_width_supported = 3;
        pi.link_speed_supported = 7;
        pi.vl_cap = 4;
        pi.mtu_cap = 5;
    }
    if (type == NodeType::kSwitch) {
        n.ports[0].port_state = PortState::kActive;
        n.ports[0].phys_state = PhysState::kLinkUp;
        n.switch_info.linear_fdb_cap = 1024;
        n.switch_info.multicast_fdb_cap = 256;
        n.lft.assign(n.switch_info.linear_fdb_cap, kNoPort);
    }
    return n;
}

}  // namespace

std::size_t SimFabric::add_switch(std::uint64_t guid, PortNum ports, std::string description) {
    nodes_.push_back(make_node(NodeType::kSwitch, guid, ports, std::move(description)));
    return nodes_.size() - 1;
}

std::size_t SimFabric::add_ca(std::uint64_t guid, PortNum ports, std::string description) {
    nodes_.push_back(make_node(NodeType::kCa, guid, ports, std::move(description)));
    return nodes_.size() - 1;
}

void SimFabric::link(std::size_t a, PortNum pa, std::size_t b, PortNum pb) {
    nodes_[a].links[pa] = SimNode::Peer{b, pb};
    nodes_[b].links[pb] = SimNode::Peer{a, pa};
    for (auto [n, p] : {std::pair{a, pa}, std::pair{b, pb}}) {
        nodes_[n].ports[p].port_state = PortState::kInit;
        nodes_[n].ports[p].phys_state = PhysState::kLinkUp;
        nodes_[n].ports[p].link_width_active = 2;
        nodes_[n].ports[p].link_speed_active = 4;
        nodes_[n].ports[p].neighbor_mtu = 5;
    }
}

std::size_t SimFabric::requests_in_flight() const {
    return in_flight_;
}

void SimFabric::send_trap(const Smp &trap, Lid from) {
    Delivery d{now_ + latency, {}, false};
    d.mad.bytes = encode_smp(trap).value();
    d.mad.length = kSmpSize;
    d.mad.slid = from;
    pending_.push_back(std::move(d));
}

bool SimFabric::send(const OutgoingSmp &out) {
    if (refuse_sends) {
        error_ = "refused by the test fabric";
        return false;
    }
    ++requests_seen;
    ++in_flight_;
    if (const Result<Smp> r = decode_smp(out.bytes))
        ++seen_by_kind[{static_cast<std::uint8_t>(r->method), r->attr_id}];
    if (lose_next_requests > 0) {
        --lose_next_requests;
        return true;
    }
    const Result<Smp> request = decode_smp(out.bytes);
    if (!request) return true;  // an SMA drops what it cannot parse
    std::optional<Smp> reply = answer(request.value());
    if (!reply) return true;
    Delivery d{now_ + latency, {}, true};
    d.mad.bytes = encode_smp(*reply).value();
    d.mad.length = kSmpSize;
    if (corrupt_reply) corrupt_reply(d.mad.bytes, d.mad.length);
    pending_.push_back(std::move(d));
    return true;
}

std::optional<ReceivedSmp> SimFabric::receive(std::chrono::milliseconds wait) {
    // Deliveries in time order; only those due by now.
    auto it = std::min_element(pending_.begin(), pending_.end(),
                               [](const Delivery &a, const Delivery &b) { return a.at < b.at; });
    if (time_passes_on_wait && (it == pending_.end() || it->at > now_)) {
        const auto until = now_ + std::chrono::duration_cast<std::chrono::nanoseconds>(wait);
        now_ = it != pending_.end() && it->at < until ? it->at : until;
    }
    if (it == pending_.end() || it->at > now_) return std::nullopt;
    Delivery d = std::move(*it);
    pending_.erase(it);
    if (d.reply && in_flight_ > 0) --in_flight_;
    return std::move(d.mad);
}

std::optional<Smp> SimFabric::answer(const Smp &request) {
    if (!request.directed()) return std::nullopt;  // the SM here speaks directed route only
    std::size_t at = sm_node;
    PortNum in_port = sm_port;
    Smp reply = request;
    for (unsigned hop = 1; hop <= request.hop_count; ++hop) {
        const PortNum out = request.initial_path[hop];
        SimNode &n = nodes_[at];
        // Hop 1 leaves the SM's node by the SM's own port, as the path's first entry says.
        if (out >= n.links.size() || !n.links[out]) return std::nullopt;
        at = n.links[out]->node;
        in_port = n.links[out]->port;
        reply.return_path[hop] = in_port;
    }
    if (drop_at && drop_at(at, request)) return std::nullopt;
    std::uint16_t status_value = 0;
    const SmpData data = attribute(nodes_[at], in_port, reply, status_value);
    Smp r = make_response(reply, data, status_value);
    r.hop_pointer = request.hop_count;
    if (alter_reply) alter_reply(at, r);
    return r;
}

SmpData SimFabric::attribute(SimNode &node, PortNum in_port, Smp &smp, std::uint16_t &status_value) {
    const bool set = smp.method == Method::kSet;
    const bool is_switch = node.info.is_switch();
    switch (smp.attr_id) {
        case attr::kNodeInfo: {
            NodeInfo info = node.info;
            info.local_port_num = is_switch && smp.hop_count == 0 ? 0 : in_port;
            return encode_node_info(info).value();
        }
        case attr::kNodeDescription:
            return encode_node_description({node.description}).value();
        case attr::kSwitchInfo:
            if (!is_switch) break;
            if (set) {
                const auto want = decode_switch_info(smp.data);
                if (!want) {
                    status_value = status::kInvalidField;
                    return {};
                }
                node.switch_info.linear_fdb_top = want->linear_fdb_top;
                node.switch_info.multicast_fdb_top = want->multicast_fdb_top;
                if (want->port_state_change)
                    node.switch_info.port_state_change = false;  // written 1: cleared
            }
            return encode_switch_info(node.switch_info).value();
        case attr::kSlToVlTable: {
            if (set) {
                const auto want = decode_sl_to_vl_table(smp.data);
                if (!want) {
                    status_value = status::kInvalidField;
                    return {};
                }
                node.sl2vl[smp.attr_mod] = *want;
            }
            auto it = node.sl2vl.find(smp.attr_mod);
            return encode_sl_to_vl_table(it == node.sl2vl.end() ? SlToVlTable{} : it->second).value();
        }
        case attr::kMulticastForwardingTable: {
            if (!is_switch) break;
            if (set) {
                const auto want = decode_mft_block(smp, node.info.num_ports);
                if (!want) {
                    status_value = status::kInvalidField;
                    return {};
                }
                node.mft[smp.attr_mod] = *want;
            }
            auto it = node.mft.find(smp.attr_mod);
            MftBlock empty;
            empty.block = static_cast<std::uint16_t>(smp.attr_mod & 0x1FF);
            empty.position = static_cast<std::uint8_t>(smp.attr_mod >> 28);
            return encode_mft_block(it == node.mft.end() ? empty : it->second).value();
        }
        case attr::kPortInfo: {
            const std::uint32_t port = is_switch ? smp.attr_mod : in_port;
            if (port >= node.ports.size()) {
                status_value = status::kInvalidField;
                return {};
            }
            const PortKind kind = is_switch && port != 0 ? PortKind::kSwitchExternal : PortKind::kEndPort;
            if (set) {
                const auto want = decode_port_info(smp.data, kind);
                if (!want) {
                    status_value = status::kInvalidField;
                    return {};
                }
                PortInfo &p = node.ports[port];
                // The logical state moves one step at a time (IBA 7.2): INIT -> ARMED -> ACTIVE,
                // and only on a link that is physically up; anything else is refused.
                const PortState from = p.port_state, to = want->port_state;
                const bool ok = to == PortState::kNoChange || to == PortState::kDown || to == from ||
                                (p.phys_state == PhysState::kLinkUp &&
                                 ((from == PortState::kInit && to == PortState::kArmed) ||
                                  (from == PortState::kArmed && to == PortState::kActive)));
                if (!ok) {
                    status_value = status::kInvalidField;
                    return encode_port_info(p, kind).value();
                }
                if (kind == PortKind::kEndPort) {
                    p.lid = want->lid;
                    p.lmc = want->lmc;
                    p.master_sm_lid = want->master_sm_lid;
                }
                if (want->operational_vls) p.operational_vls = want->operational_vls;
                if (want->neighbor_mtu) p.neighbor_mtu = want->neighbor_mtu;
                if (to != PortState::kNoChange) p.port_state = to;
            }
            return encode_port_info(node.ports[port], kind).value();
        }
        case attr::kLinearForwardingTable: {
            if (!is_switch || (smp.attr_mod + 1) * kLftBlockSize > node.lft.size()) break;
            auto first = node.lft.begin() + smp.attr_mod * kLftBlockSize;
            if (set) {
                const auto block = decode_lft_block(smp.data, smp.attr_mod, node.info.num_ports);
                if (!block) {
                    status_value = status::kInvalidField;
                    return {};
                }
                std::copy(block->ports.begin(), block->ports.end(), first);
            }
            LftBlock b;
            b.block = static_cast<std::uint16_t>(smp.attr_mod);
            std::copy(first, first + kLftBlockSize, b.ports.begin());
            return encode_lft_block(b).value();
        }
        default:
            break;
    }
    status_value = status::kUnsupportedMethodAttr;
    return {};
}

SimTree build_tree(SimFabric &fabric, unsigned spines, unsigned leaves, unsigned hosts_per_leaf,
                   PortNum radix) {
    SimTree t;
    for (unsigned h = 0; h < leaves * hosts_per_leaf; ++h)
        t.hosts.push_back(fabric.add_ca(0x1000 + 0x10 * h, 1, "host" + std::to_string(h)));
    for (unsigned s = 0; s < spines; ++s)
        t.spines.push_back(fabric.add_switch(0x2000 + s, radix, "spine" + std::to_string(s)));
    for (unsigned l = 0; l < leaves; ++l)
        t.leaves.push_back(fabric.add_switch(0x3000 + l, radix, "leaf" + std::to_string(l)));
    for (unsigned l = 0; l < leaves; ++l) {
        for (unsigned s = 0; s < spines; ++s)
            fabric.link(t.leaves[l], static_cast<PortNum>(s + 1), t.spines[s], static_cast<PortNum>(l + 1));
        for (unsigned h = 0; h < hosts_per_leaf; ++h)
            fabric.link(t.leaves[l], static_cast<PortNum>(spines + 1 + h), t.hosts[l * hosts_per_leaf + h],
                        1);
    }
    fabric.sm_node = t.hosts[0];
    fabric.sm_port = 1;
    return t;
}

}  // namespace weft::sm::test
