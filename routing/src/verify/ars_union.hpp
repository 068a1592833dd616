// Private: where one destination's packets can be when every switch may pick any member of its
// next-hop group. Arrivals are (channel, SL, VL) states; adding a member to a group sends every
// arrival already at that switch through it and follows the new arrivals downstream through the
// groups as they stand, so the states reached do not depend on the order members are added in.
// Each dependency found goes to a sink, which may refuse it: the union check takes them all, the
// compiler refuses one that would close a cycle and the walk then forgets the member.
#pragma once

#include <cstdint>
#include <vector>

#include "dependency_graph.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::verify {

class UnionWalk {
  public:
    UnionWalk(const Fabric &f, const RoutingTables &t, const ChannelMap &m, unsigned vls);

    // A new destination: the leaf switch `dest` (its packets leave the fabric there) whose
    // representative LID `lid` gives the path SLs. No members, no arrivals.
    void start(SwitchIdx dest, Lid lid);

    // Adds port q to switch s's group and follows what it makes reachable, handing each
    // dependency (from, vl_in, vl_out, out) to sink, which returns false to refuse it; then
    // asks done() whether to keep the member after all (a sink may only collect the
    // dependencies and judge them together). After a refusal the walk is as before the call and
    // add() returns false.
    template <class Sink, class Done>
    bool add(SwitchIdx s, PortNum q, Sink &&sink, Done &&done) {
        const std::size_t mark = touched_.size();
        members_[s].push_back(q);
        work_.clear();
        if (!through_new_member(s, q, sink) || !drain(sink) || !done()) {
            undo(mark);
            members_[s].pop_back();
            return false;
        }
        return true;
    }
    template <class Sink>
    bool add(SwitchIdx s, PortNum q, Sink &&sink) {
        return add(s, q, sink, [] { return true; });
    }

    const std::vector<PortNum> &members(SwitchIdx s) const { return members_[s]; }
    // Whether packets for the destination can be at s now: its own hosts send, or some arrive.
    bool reached(SwitchIdx s) const {
        return s != dest_ && (!m_.ca_ports[s].empty() || !states_at_[s].empty());
    }

  private:
    static constexpr std::uint32_t kFromCa = 0xFFFFFFFFu;

    std::uint32_t key(std::uint32_t chan, unsigned sl, unsigned vl) const {
        return (chan * 16 + sl) * vls_ + vl;
    }
    // A packet of `sl` on `vl` (arrived over channel `from`, or from a CA on `in`) leaves s by out.
    template <class Sink>
    bool hop(SwitchIdx s, std::uint32_t from, PortNum in, unsigned sl, unsigned vl, PortNum out, Sink &sink) {
        const unsigned vo = hop_vl(f_, t_, vls_, s, in, out, sl);
        if (from != kFromCa && !sink(from, vl, vo, out)) return false;
        const std::uint32_t chan = f_.node(f_.switch_node(s)).port_base + out;
        if (m_.far[chan] == kNoNode) return true;  // leaves the fabric (or a dead port)
        const std::uint32_t k = key(chan, sl, vo);
        if (!seen_[k]) {
            seen_[k] = 1;
            touched_.push_back(k);
            states_at_[f_.node(m_.far[chan]).sw].push_back(k);
            work_.push_back(k);
        }
        return true;
    }
    template <class Sink>
    bool through_new_member(SwitchIdx s, PortNum q, Sink &sink) {
        if (s == dest_) return true;
        if (!m_.ca_ports[s].empty()) {
            const unsigned sl = t_.sl(s, lid_) & 15u;
            if (!t_.has_sl2vl()) {
                if (!hop(s, kFromCa, 0, sl, sl, q, sink)) return false;
            } else {
                for (PortNum p : m_.ca_ports[s])
                    if (!hop(s, kFromCa, p, sl, sl, q, sink)) return false;
            }
        }
        // Arrivals cannot come back to s by q's own cable, so this list does not grow meanwhile.
        const std::size_t n = states_at_[s].size();
        for (std::size_t i = 0; i < n; ++i)
            if (!from_state(s, states_at_[s][i], q, sink)) return false;
        return true;
    }
    template <class Sink>
    bool from_state(SwitchIdx s, std::uint32_t k, PortNum out, Sink &sink) {
        const unsigned vl = k % vls_, sl = (k / vls_) % 16;
        const std::uint32_t chan = k / vls_ / 16;
        const PortNum in = f_.port(m_.node[chan], m_.port[chan]).peer_port;
        return hop(s, chan, in, sl, vl, out, sink);
    }
    template <class Sink>
    bool drain(Sink &sink) {
        while (!work_.empty()) {
            const std::uint32_t k = work_.back();
            work_.pop_back();
            const SwitchIdx s = f_.node(m_.far[k / vls_ / 16]).sw;
            if (s == dest_) continue;
            for (PortNum out : members_[s])
                if (!from_state(s, k, out, sink)) return false;
        }
        return true;
    }
    void undo(std::size_t mark);

    const Fabric &f_;
    const RoutingTables &t_;
    const ChannelMap &m_;
    unsigned vls_;
    SwitchIdx dest_ = kNoSwitch;
    Lid lid_ = 0;
    std::vector<std::vector<PortNum>> members_;          // per switch
    std::vector<std::vector<std::uint32_t>> states_at_;  // per switch: arrivals, in arrival order
    std::vector<std::uint8_t> seen_;                     // by state key
    std::vector<std::uint32_t> touched_;                 // states in arrival order
    std::vector<std::uint32_t> work_;
};

}  // namespace weft::routing::verify
