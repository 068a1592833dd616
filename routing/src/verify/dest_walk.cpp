#include "dest_walk.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace weft::routing::verify {

namespace {

// Per walker, for the 64-root batches of switch distances.
constexpr std::size_t kDistanceBudget = std::size_t{64} << 20;

}  // namespace

DestWalker::DestWalker(const Fabric &fabric, const RoutingTables &tables)
    : f(fabric), t(tables), distances_(fabric, kDistanceBudget) {
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
    if (S >= kCaCode) throw std::length_error("verification: more switches than 16-bit LIDs can address");
    hop_base_.resize(S + 1);
    for (SwitchIdx s = 0; s < S; ++s) {
        const NodeIdx n = f.switch_node(s);
        const Node &x = f.node(n);
        hop_base_[s] = static_cast<std::uint32_t>(hop_.size());
        hop_.push_back(kDeadCode);  // port 0 delivers only on the owner itself, decided per walk
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (!pp.linked())
                hop_.push_back(kDeadCode);
            else if (f.node(pp.peer).is_switch())
                hop_.push_back(static_cast<std::uint16_t>(f.node(pp.peer).sw));
            else
                hop_.push_back(kCaCode);
        }
    }
    hop_base_[S] = static_cast<std::uint32_t>(hop_.size());
    // An odd number of cache lines per row: rows a power-of-two multiple apart would share
    // cache sets, and the decoding writes all kBlock rows at once.
    stride_ = ((S + 31) / 32 | 1) * 32;
    next_.assign(stride_ * kBlock, kDeadCode);
    ports_.assign(S * kBlock, kNoPort);
    stack_.resize(S);
}

void DestWalker::block(Lid d) {
    const Lid first = block_first(d);
    if (block_valid_ && block_lid_ == first) return;
    const std::size_t S = f.switch_count();
    constexpr SwitchIdx ahead = 24;  // LFTs are separate allocations: no hardware prefetch across them
    for (SwitchIdx s = 0; s < S; ++s) {
        if (s + ahead < S && t.lft[s + ahead].size() > first)
            __builtin_prefetch(t.lft[s + ahead].data() + first);
        const std::uint16_t *hop = hop_.data() + hop_base_[s];
        const unsigned radix = hop_base_[s + 1] - hop_base_[s] - 1;
        const auto &lft = t.lft[s];
        const std::size_t have = lft.size() > first ? std::min<std::size_t>(kBlock, lft.size() - first) : 0;
        PortNum *port = ports_.data() + std::size_t{s} * kBlock;
        if (have) std::memcpy(port, lft.data() + first, have);
        std::memset(port + have, kNoPort, kBlock - have);
        std::uint16_t *dst = next_.data() + s;
        for (std::size_t i = 0; i < kBlock; ++i) {
            const PortNum q = port[i];
            dst[i * stride_] = q <= radix ? hop[q] : kDeadCode;
        }
    }
    block_lid_ = first;
    block_valid_ = true;
}

bool DestWalker::walk(Lid d, bool hops) {
    const auto o = f.lid_owner(d);
    if (!o) return false;
    owner = *o;
    const Node &on = f.node(owner.node);
    owner_switch = kNoSwitch;
    to_switch_ = on.is_switch();
    PortNum owner_port = 0;  // the port of owner_switch the owner (a CA) is cabled to
    if (to_switch_) {
        owner_switch = on.sw;
    } else {
        const Port &op = f.port(owner.node, owner.port);
        if (!op.linked()) return false;
        if (f.node(op.peer).is_switch()) {
            owner_switch = f.node(op.peer).sw;
            owner_port = op.peer_port;
        }
    }
    const std::size_t S = f.switch_count();
    block(d);
    const std::uint16_t *row = next_.data() + std::size_t{d - block_lid_} * stride_;
    row_ = row;
    col_ = S != 0 ? ports_.data() + (d - block_lid_) : nullptr;  // no switches: two CAs cabled together
    // Delivered at the owner's switch alone (a CA or router delivers only to the owner); every
    // other switch is found on the way: dropped where its entry leads to no switch.
    std::int32_t *dist_p = dist.data();  // plain pointers: no aliasing through the vectors
    std::fill(dist_p, dist_p + S, kUnknown);
    if (to_switch_)
        dist_p[owner_switch] = 0;
    else if (owner_switch != kNoSwitch && row[owner_switch] == kCaCode &&
             col_[owner_switch * kBlock] == owner_port)
        dist_p[owner_switch] = 0;
    // Each switch in turn, nearest the owner first: settled at once when its next switch is;
    // otherwise follow the chain of forwarding switches to one with a known fate (or back onto
    // itself), then give the chain its distances on the way back.
    std::int32_t longest = 0;
    SwitchIdx *stack = stack_.data();
    const std::uint16_t *order = nullptr;
    shortest_ = nullptr;
    if (owner_switch != kNoSwitch) {
        const SwitchDistances::Row r = distances_.from(owner_switch);
        order = r.order;
        shortest_ = r.dist;
    }
    for (std::size_t k = 0; k < S; ++k) {
        const SwitchIdx s0 = order ? order[k] : static_cast<SwitchIdx>(k);
        if (dist_p[s0] != kUnknown) continue;
        const std::uint16_t c0 = row[s0];
        if (c0 < kCaCode && dist_p[c0] >= 0) {
            const std::int32_t v = dist_p[c0] + 1;
            dist_p[s0] = v;
            longest = std::max(longest, v);
            continue;
        }
        std::size_t top = 0;
        SwitchIdx x = s0;
        std::int32_t fate;
        for (;;) {
            const std::uint16_t c = row[x];
            if (c >= kCaCode) {
                fate = dist_p[x] = kDropped;
                break;
            }
            dist_p[x] = kOnStack;
            stack[top++] = x;
            x = c;
            fate = dist_p[x];
            if (fate != kUnknown) break;
        }
        if (fate == kOnStack) fate = kLooped;
        while (top) {
            if (fate >= 0) ++fate;
            dist_p[stack[--top]] = fate;
        }
        longest = std::max(longest, fate);
    }
    max_dist = longest;
    if (hops) {
        PortNum *out_p = out.data();
        SwitchIdx *next_p = next.data();
        for (SwitchIdx s = 0; s < S; ++s) {
            out_p[s] = col_[s * kBlock];
            next_p[s] = code_switch(row[s]);
        }
        if (to_switch_) {
            out_p[owner_switch] = 0;
            next_p[owner_switch] = kNoSwitch;
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
