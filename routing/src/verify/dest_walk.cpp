#include "dest_walk.hpp"

#include <algorithm>
#include <cstring>

namespace weft::routing::verify {

DestWalker::DestWalker(const Fabric &fabric, const RoutingTables &tables) : f(fabric), t(tables) {
    const std::size_t S = f.switch_count();
    dist.assign(S, 0);
    next.assign(S, kNoSwitch);
    out.assign(S, kNoPort);
    ca_sources.assign(S, 0);
    std::size_t ports = 0;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        ports = std::max<std::size_t>(ports, f.node(n).port_base + f.node(n).num_ports + 1u);
    peer_switch.assign(ports, kNoSwitch);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (!pp.linked()) continue;
            const Node &peer = f.node(pp.peer);
            if (peer.is_switch()) {
                peer_switch[x.port_base + p] = peer.sw;
                if (!x.is_switch()) ++ca_sources[peer.sw];
            }
        }
    }
    hop_base_.resize(S);
    radix_.resize(S);
    for (SwitchIdx s = 0; s < S; ++s) {
        const NodeIdx n = f.switch_node(s);
        const Node &x = f.node(n);
        hop_base_[s] = static_cast<std::uint32_t>(hop_.size());
        radix_[s] = x.num_ports;
        hop_.push_back(kDead);  // port 0 delivers only on the owner itself, decided per walk
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (!pp.linked())
                hop_.push_back(kDead);
            else if (f.node(pp.peer).is_switch())
                hop_.push_back(f.node(pp.peer).sw);
            else
                hop_.push_back(kCaFlag | (f.node(pp.peer).port_base + pp.peer_port));
        }
    }
    block_.assign(S * kBlock, kNoPort);
    stack_.resize(S);
}

const PortNum *DestWalker::block(Lid d) {
    const Lid first = block_first(d);
    if (block_valid_ && block_lid_ == first) return block_.data();
    const std::size_t S = f.switch_count();
    for (SwitchIdx s = 0; s < S; ++s) {
        const auto &lft = t.lft[s];
        PortNum *dst = block_.data() + std::size_t{s} * kBlock;
        if (first + kBlock <= lft.size()) {
            std::memcpy(dst, lft.data() + first, kBlock);
        } else {
            const std::size_t have = lft.size() > first ? lft.size() - first : 0;
            std::memcpy(dst, lft.data() + first, have);
            std::memset(dst + have, kNoPort, kBlock - have);
        }
    }
    block_lid_ = first;
    block_valid_ = true;
    return block_.data();
}

bool DestWalker::walk(Lid d) {
    const auto o = f.lid_owner(d);
    if (!o) return false;
    owner = *o;
    const Node &on = f.node(owner.node);
    owner_switch = kNoSwitch;
    if (on.is_switch()) {
        owner_switch = on.sw;
    } else {
        const Port &op = f.port(owner.node, owner.port);
        if (!op.linked()) return false;
        if (f.node(op.peer).is_switch()) owner_switch = f.node(op.peer).sw;
    }
    const std::size_t S = f.switch_count();
    // Where each switch's entry leads: dist is set for the switches that end the walk there
    // (delivered or dropped), kUnknown for those that forward to another switch.
    const PortNum *col = block(d) + (d - block_lid_);
    const std::uint32_t owner_code = kCaFlag | (on.port_base + owner.port);
    for (SwitchIdx s = 0; s < S; ++s) {
        const PortNum q = col[std::size_t{s} * kBlock];
        out[s] = q;
        const std::uint32_t v = q <= radix_[s] ? hop_[hop_base_[s] + q] : kDead;
        if (!(v & kCaFlag)) {
            next[s] = v;
            dist[s] = kUnknown;
        } else {
            next[s] = kNoSwitch;
            dist[s] = v == owner_code ? 0 : kDropped;  // a CA or router delivers only to the owner
        }
    }
    if (on.is_switch()) {
        out[owner_switch] = 0;
        next[owner_switch] = kNoSwitch;
        dist[owner_switch] = 0;
    }
    // Follow each chain of forwarding switches to one with a known fate (or back onto itself),
    // then give the chain its distances on the way back.
    max_dist = 0;
    SwitchIdx *stack = stack_.data();
    for (SwitchIdx s0 = 0; s0 < S; ++s0) {
        if (dist[s0] != kUnknown) continue;
        std::size_t top = 0;
        SwitchIdx x = s0;
        std::int32_t fate;
        do {
            dist[x] = kOnStack;
            stack[top++] = x;
            x = next[x];
            fate = dist[x];
        } while (fate == kUnknown);
        if (fate == kOnStack) fate = kLooped;
        while (top) {
            if (fate >= 0) ++fate;
            dist[stack[--top]] = fate;
        }
        max_dist = std::max(max_dist, fate);
    }
    return true;
}

const std::vector<SwitchIdx> &DestWalker::sources_first() {
    // Counting sort by distance, farthest first.
    bucket_.assign(static_cast<std::size_t>(max_dist) + 2, 0);
    for (std::int32_t d : dist)
        if (d >= 0) ++bucket_[static_cast<std::size_t>(max_dist - d) + 1];
    for (std::size_t i = 1; i < bucket_.size(); ++i) bucket_[i] += bucket_[i - 1];
    std::size_t reachable = bucket_.back();
    order_.resize(reachable);
    for (SwitchIdx s = 0; s < dist.size(); ++s)
        if (dist[s] >= 0) order_[bucket_[static_cast<std::size_t>(max_dist - dist[s])]++] = s;
    return order_;
}

std::string node_label(const Fabric &f, NodeIdx n) {
    return "'" + f.node(n).desc + "' (" + guid_text(f.node(n).guid) + ")";
}

}  // namespace weft::routing::verify
