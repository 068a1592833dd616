#include "dest_walk.hpp"

#include <cinttypes>
#include <cstdio>

namespace weft::routing::verify {

DestWalker::DestWalker(const Fabric &fabric, const RoutingTables &tables) : f(fabric), t(tables) {
    const std::size_t S = f.switch_count();
    dist.assign(S, 0);
    next.assign(S, kNoSwitch);
    out.assign(S, kNoPort);
    state_.assign(S, 0);
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
    std::fill(state_.begin(), state_.end(), 0);
    max_dist = 0;
    for (SwitchIdx s0 = 0; s0 < S; ++s0) {
        if (state_[s0] == 2) continue;
        // Follow the LFT until a switch with a known fate, a terminal step, or a repeat.
        stack_.clear();
        SwitchIdx s = s0;
        std::int32_t fate = 0;
        bool settled = false;
        while (true) {
            if (state_[s] == 2) {
                fate = dist[s];
                settled = true;
                break;
            }
            if (state_[s] == 1) {
                fate = kLooped;
                break;
            }
            state_[s] = 1;
            stack_.push_back(s);
            next[s] = kNoSwitch;
            const NodeIdx n = f.switch_node(s);
            if (on.is_switch() && n == owner.node) {
                out[s] = 0;
                fate = 0;
                break;
            }
            const auto &lft = t.lft[s];
            const PortNum q = d < lft.size() ? lft[d] : kNoPort;
            out[s] = q;
            const Node &x = f.node(n);
            if (q == kNoPort || q == 0 || q > x.num_ports || !f.port(n, q).linked()) {
                fate = kDropped;
                break;
            }
            const Port &pp = f.port(n, q);
            const SwitchIdx ns = peer_switch[x.port_base + q];
            if (ns == kNoSwitch) {  // a CA or router: delivered only if it is the owner
                fate = (pp.peer == owner.node && pp.peer_port == owner.port) ? 0 : kDropped;
                break;
            }
            next[s] = ns;
            s = ns;
        }
        // Unwind: distances grow by one per switch back along the chain. The top of the stack
        // is itself the terminal switch unless the walk ended on a settled one or in a loop.
        std::int32_t v = fate;
        const bool terminal_on_stack = !settled && fate != kLooped;
        for (std::size_t i = stack_.size(); i-- > 0;) {
            const SwitchIdx x = stack_[i];
            if (terminal_on_stack && i + 1 == stack_.size()) {
                dist[x] = v;
            } else {
                if (v >= 0) ++v;
                dist[x] = v;
            }
            state_[x] = 2;
            if (dist[x] > max_dist) max_dist = dist[x];
        }
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
