// Credit-loop check on the channel dependency graph, per VL, ibdmchk style.
//
// Per destination, the packets that pass a switch are those of its own CA sources and of every
// switch upstream that has some; each such switch adds one dependency, from the channel it
// forwards on to the port the next switch forwards on. With one VL that is all there is: the
// switches with traffic are marked per LFT block (a bit per LID), and the dependencies of the
// block are then read switch by switch from the walker's decoded block, which stays in cache. With
// several VLs each switch carries a set of (SL, VL) pairs, and what is new at a switch is
// pushed down its path.
#include <algorithm>
#include <array>
#include <bit>
#include <optional>

#include "dependency_graph.hpp"
#include "dest_walk.hpp"
#include "lid_chunks.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

// (SL, VL) pairs as bits sl * 16 + vl.
struct SlVlSet {
    std::array<std::uint64_t, 4> w{};
    bool any() const { return w[0] | w[1] | w[2] | w[3]; }
    void set(unsigned sl, unsigned vl) {
        w[(sl * 16 + vl) / 64] |= std::uint64_t{1} << ((sl * 16 + vl) % 64);
    }
    template <class Fn>
    void for_each(Fn &&fn) const {
        for (unsigned k = 0; k < 4; ++k)
            for (std::uint64_t x = w[k]; x; x &= x - 1) {
                const unsigned b = k * 64 + static_cast<unsigned>(std::countr_zero(x));
                fn(b / 16, b % 16);
            }
    }
    // Keeps what is not in `seen` and adds it there.
    void keep_new(SlVlSet &seen) {
        for (unsigned k = 0; k < 4; ++k) {
            w[k] &= ~seen.w[k];
            seen.w[k] |= w[k];
        }
    }
};

class CreditWalker {
  public:
    CreditWalker(const Fabric &f, const RoutingTables &t, unsigned vls, const verify::ChannelMap &m)
        : f_(f), t_(t), vls_(vls), m_(m), w_(f, t) {
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

    void run(Lid first, Lid last) {
        for (Lid b = verify::DestWalker::block_first(first); b <= last; b += verify::DestWalker::kBlock) {
            bool any = false;
            const Lid end = std::min<Lid>(last, b + verify::DestWalker::kBlock - 1);
            for (Lid d = std::max(b, first); d <= end; ++d) {
                const auto o = f_.lid_owner(d);
                if (!o || f_.node(o->node).is_switch()) continue;  // CA-to-CA paths only, as ibdmchk
                if (!w_.walk(d, false) || w_.owner_switch == kNoSwitch) continue;
                any = true;
                if (vls_ == 1)
                    mark(d - b);
                else
                    push_sl_vl(d);
            }
            if (any && vls_ == 1) turns(b);
        }
    }

    // Adds what this walker found to g (made by one of the walkers: the first's).
    void add_to(std::optional<verify::DependencyGraph> &g) const {
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
                        g->add(
                            x.port_base + q, 0, 0,
                            static_cast<PortNum>(k * 64 + static_cast<unsigned>(std::countr_zero(bits)) + 1));
        }
    }

  private:
    // One VL: marks the switches the walked LID's packets pass (bit i of active_).
    void mark(unsigned i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        const std::size_t S = f_.switch_count();
        const SwitchIdx osw = w_.owner_switch;
        for (SwitchIdx s = 0; s < S; ++s) {
            if (w_.dist[s] < 0 || w_.ca_sources[s] <= (s == osw ? 1u : 0u)) continue;
            for (SwitchIdx x = s; x != kNoSwitch && !(active_[x] & bit); x = w_.next_of(x)) active_[x] |= bit;
        }
    }

    // One VL: the dependencies of the marked switches of the block from LID b, then a clean slate.
    void turns(Lid b) {
        const std::uint32_t *entry = w_.block(b);
        const std::size_t S = active_.size(), stride = w_.block_stride();
        using W = verify::DestWalker;
        for (SwitchIdx x = 0; x < S; ++x) {
            std::uint64_t a = active_[x];
            if (!a) continue;
            active_[x] = 0;
            for (; a; a &= a - 1) {
                const std::size_t row = static_cast<std::size_t>(std::countr_zero(a)) * stride;
                const std::uint32_t e = entry[row + x];
                const SwitchIdx nx = W::entry_switch(e);
                if (nx == kNoSwitch) continue;  // delivers
                const unsigned p = W::entry_port(entry[row + nx]) - 1u;
                turns_[(std::size_t{turn_base_[x]} + W::entry_port(e)) * words_ + p / 64] |= std::uint64_t{1}
                                                                                             << (p % 64);
            }
        }
    }

    // Several VLs: each switch's (SL, VL) pairs leaving it, what is new pushed down the path.
    void push_sl_vl(Lid d) {
        ++now_;
        const std::size_t S = f_.switch_count();
        const SwitchIdx osw = w_.owner_switch;
        const LidOwner o = w_.owner;
        auto seen = [&](SwitchIdx s) -> SlVlSet & {
            if (stamp_[s] != now_) {
                stamp_[s] = now_;
                sets_[s] = {};
            }
            return sets_[s];
        };
        for (SwitchIdx s = 0; s < S; ++s) {
            if (w_.dist[s] < 0 || w_.ca_sources[s] <= (s == osw ? 1u : 0u)) continue;
            const NodeIdx sn = f_.switch_node(s);
            const PortNum q = w_.out_of(s);
            const unsigned sl = t_.sl(s, d) & 15u;
            SlVlSet fresh;
            if (!t_.has_sl2vl()) {
                fresh.set(sl, verify::hop_vl(f_, t_, vls_, s, 0, q, sl));
            } else {
                for (PortNum p : m_.ca_ports[s]) {
                    const Port &pp = f_.port(sn, p);
                    if (!(pp.peer == o.node && pp.peer_port == o.port))
                        fresh.set(sl, verify::hop_vl(f_, t_, vls_, s, p, q, sl));
                }
            }
            fresh.keep_new(seen(s));
            for (SwitchIdx x = s; fresh.any() && w_.next_of(x) != kNoSwitch;) {
                const SwitchIdx nx = w_.next_of(x);
                const NodeIdx xn = f_.switch_node(x);
                const std::uint32_t from = f_.node(xn).port_base + w_.out_of(x);
                const PortNum in = f_.port(xn, w_.out_of(x)).peer_port, out = w_.out_of(nx);
                SlVlSet pushed;
                fresh.for_each([&](unsigned sl_, unsigned vl) {
                    const unsigned vo = verify::hop_vl(f_, t_, vls_, nx, in, out, sl_);
                    g_->add(from, vl, vo, out);
                    pushed.set(sl_, vo);
                });
                pushed.keep_new(seen(nx));
                fresh = pushed;
                x = nx;
            }
        }
    }

    const Fabric &f_;
    const RoutingTables &t_;
    unsigned vls_;
    const verify::ChannelMap &m_;
    verify::DestWalker w_;
    // One VL: per (switch, port), the ports of the next switch it hands packets to (bit port - 1).
    std::vector<std::uint32_t> turn_base_;
    unsigned words_ = 1;
    std::vector<std::uint64_t> turns_;
    std::vector<std::uint64_t> active_;  // per switch: LIDs of the current block passing it
    // Several VLs.
    std::optional<verify::DependencyGraph> g_;
    std::vector<SlVlSet> sets_;
    std::vector<std::uint32_t> stamp_;
    std::uint32_t now_ = 0;
};

}  // namespace

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
    CreditLoopReport r;
    const unsigned vls = verify::vls_in_play(t);
    r.vls = vls;
    const verify::ChannelMap m(f);
    const unsigned n = verify::check_threads(threads, f);
    std::vector<std::optional<CreditWalker>> walkers(n);
    verify::for_lid_chunks(f, n, progress, [&](unsigned worker, Lid first, Lid last) {
        if (!walkers[worker]) walkers[worker].emplace(f, t, vls, m);
        walkers[worker]->run(first, last);
    });
    std::optional<verify::DependencyGraph> g;
    for (const auto &w : walkers)
        if (w) w->add_to(g);
    if (!g) g.emplace(f, vls, m.size());
    r.dependencies = g->edges();
    r.cycle = g->find_cycle(m);
    r.has_cycle = !r.cycle.empty();
    return r;
}

}  // namespace weft::routing
