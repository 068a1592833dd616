// Credit-loop check on the channel dependency graph, per VL, ibdmchk style.
//
// Per destination, the packets that pass a switch are those of its own CA sources and of every
// switch upstream that has some; each such switch adds one dependency, from the channel it
// forwards on to the port the next switch forwards on. With one VL that is all there is: the
// switches with traffic are marked per LFT block (a bit per LID), and the dependencies of the
// block are then read switch by switch from the walker's decoded block, which stays in cache.
// With several VLs each switch carries a set of (SL, VL) pairs, and what is new at a switch is
// pushed down its path.
#include "credit_loops.hpp"

#include <algorithm>

#include "routing_check.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace verify {

CreditWalker::CreditWalker(const Fabric &f, const RoutingTables &t, unsigned vls, const ChannelMap &m)
    : f_(f), t_(t), vls_(vls), m_(m) {
    const std::size_t S = f.switch_count();
    unsigned radix = 1;
    turn_base_.resize(S + 1, 0);
    for (SwitchIdx s = 0; s < S; ++s) {
        const unsigned r = f.node(f.switch_node(s)).num_ports;
        radix = std::max(radix, r);
        turn_base_[s + 1] = turn_base_[s] + r + 1;
    }
    words_ = (radix + 63) / 64;
    if (vls_ == 1) {
        turns_.assign(std::size_t{turn_base_[S]} * words_, 0);
        active_.assign(S, 0);
    } else {
        g_.emplace(f, vls, m.size());
        sets_.resize(S);
        stamp_.assign(S, 0);
    }
}

void CreditWalker::visit(const DestWalker &w, Lid d) {
    if (vls_ == 1) {
        mark(w, d - DestWalker::block_first(d));
        marked_ = true;
    } else {
        push_sl_vl(w, d);
    }
}

void CreditWalker::mark(const DestWalker &w, unsigned i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    const std::size_t S = f_.switch_count();
    const SwitchIdx osw = w.owner_switch;
    const std::int32_t *dist = w.dist.data();
    const std::uint32_t *ca = w.ca_sources.data();
    std::uint64_t *active = active_.data();
    for (SwitchIdx s = 0; s < S; ++s) {
        if (active[s] & bit || dist[s] < 0 || ca[s] <= (s == osw ? 1u : 0u)) continue;
        for (SwitchIdx x = s; x != kNoSwitch && !(active[x] & bit); x = w.next_of(x)) active[x] |= bit;
    }
}

void CreditWalker::end_block(DestWalker &w, Lid b) {
    if (vls_ != 1 || !marked_) return;
    marked_ = false;
    w.block(b);
    const std::uint16_t *next = w.next_block();
    const PortNum *port = w.port_block();
    const std::size_t S = active_.size(), stride = w.block_stride();
    constexpr std::size_t B = DestWalker::kBlock;
    for (SwitchIdx x = 0; x < S; ++x) {
        std::uint64_t a = active_[x];
        if (!a) continue;
        active_[x] = 0;
        for (; a; a &= a - 1) {
            const auto i = static_cast<std::size_t>(std::countr_zero(a));
            const SwitchIdx nx = DestWalker::code_switch(next[i * stride + x]);
            if (nx == kNoSwitch) continue;  // delivers
            const unsigned p = port[nx * B + i] - 1u;
            turns_[(std::size_t{turn_base_[x]} + port[x * B + i]) * words_ + p / 64] |= std::uint64_t{1}
                                                                                        << (p % 64);
        }
    }
}

void CreditWalker::push_sl_vl(const DestWalker &w, Lid d) {
    ++now_;
    const std::size_t S = f_.switch_count();
    const SwitchIdx osw = w.owner_switch;
    const LidOwner o = w.owner;
    auto seen = [&](SwitchIdx s) -> SlVlSet & {
        if (stamp_[s] != now_) {
            stamp_[s] = now_;
            sets_[s] = {};
        }
        return sets_[s];
    };
    for (SwitchIdx s = 0; s < S; ++s) {
        if (w.dist[s] < 0 || w.ca_sources[s] <= (s == osw ? 1u : 0u)) continue;
        const NodeIdx sn = f_.switch_node(s);
        const PortNum q = w.out_of(s);
        const unsigned sl = t_.sl(s, d) & 15u;
        SlVlSet fresh;
        if (!t_.has_sl2vl()) {
            fresh.set(sl, hop_vl(f_, t_, vls_, s, 0, q, sl));
        } else {
            for (PortNum p : m_.ca_ports[s]) {
                const Port &pp = f_.port(sn, p);
                if (!(pp.peer == o.node && pp.peer_port == o.port))
                    fresh.set(sl, hop_vl(f_, t_, vls_, s, p, q, sl));
            }
        }
        fresh.keep_new(seen(s));
        for (SwitchIdx x = s; fresh.any() && w.next_of(x) != kNoSwitch;) {
            const SwitchIdx nx = w.next_of(x);
            const NodeIdx xn = f_.switch_node(x);
            const std::uint32_t from = f_.node(xn).port_base + w.out_of(x);
            const PortNum in = f_.port(xn, w.out_of(x)).peer_port, out = w.out_of(nx);
            SlVlSet pushed;
            fresh.for_each([&](unsigned sl_, unsigned vl) {
                const unsigned vo = hop_vl(f_, t_, vls_, nx, in, out, sl_);
                g_->add(from, vl, vo, out);
                pushed.set(sl_, vo);
            });
            pushed.keep_new(seen(nx));
            fresh = pushed;
            x = nx;
        }
    }
}

void CreditWalker::add_to(std::optional<DependencyGraph> &g) const {
    if (!g) g.emplace(f_, vls_, m_.size());
    if (vls_ != 1) {
        g->merge(*g_);
        return;
    }
    for (SwitchIdx s = 0; s < f_.switch_count(); ++s) {
        const Node &x = f_.node(f_.switch_node(s));
        for (PortNum q = 1; q <= x.num_ports; ++q)
            for (unsigned k = 0; k < words_; ++k)
                for (std::uint64_t bits = turns_[(std::size_t{turn_base_[s]} + q) * words_ + k]; bits;
                     bits &= bits - 1)
                    g->add(x.port_base + q, 0, 0,
                           static_cast<PortNum>(k * 64 + static_cast<unsigned>(std::countr_zero(bits)) + 1));
    }
}

}  // namespace verify

std::string channel_name(const Fabric &f, NodeIdx n, PortNum p) {
    const Port &x = f.port(n, p);
    std::string s = verify::node_label(f, n) + " port " + std::to_string(p);
    if (x.peer != kNoNode)
        s += " -> " + verify::node_label(f, x.peer) + " port " + std::to_string(x.peer_port);
    return s;
}

std::string CreditLoopReport::describe(const Fabric &f) const {
    if (!has_cycle) return "no credit loop\n";
    std::string s = "credit loop of " + std::to_string(cycle.size()) + " channels:\n";
    for (const Channel &c : cycle)
        s += "  " + channel_name(f, c.node, c.port) + " VL " + std::to_string(c.vl) + "\n";
    return s;
}

CreditLoopReport check_credit_loops(const Fabric &f, const RoutingTables &t, const ProgressFn &progress,
                                    unsigned threads) {
    return verify::run_checks(f, t, progress, threads, false, true).credit_loops;
}

}  // namespace weft::routing
