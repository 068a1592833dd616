// Credit-loop check on the channel dependency graph, per VL, ibdmchk style.
#include <algorithm>

#include "dependency_graph.hpp"
#include "dest_walk.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

struct Arrival {
    PortNum in;  // port of this switch the packets came in on (0: from its own CAs, identity SL2VL)
    std::uint8_t sl, vl;
    std::uint32_t from;  // channel (global port index) they came over, or kNone for CA cables
};
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

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
                                    unsigned) {
    CreditLoopReport r;
    verify::DestWalker w(f, t);
    const std::size_t S = f.switch_count();
    const unsigned vls = verify::vls_in_play(t);
    r.vls = vls;
    const verify::ChannelMap m(f);
    verify::DependencyGraph g(f, vls, m.size());
    const auto &ca_ports = m.ca_ports;
    auto vl_of = [&](SwitchIdx s, PortNum in, PortNum out, unsigned sl) {
        return verify::hop_vl(f, t, vls, s, in, out, sl);
    };
    std::vector<std::vector<Arrival>> arrivals(S);
    std::vector<std::pair<std::uint8_t, std::uint8_t>> outgoing;  // distinct (sl, vl) leaving a switch
    const Lid max = f.max_lid();
    for (Lid d = 1; d <= max; ++d) {
        if (progress && (d % 256 == 0 || d == max)) progress(d, max);
        const auto o = f.lid_owner(d);
        if (!o || f.node(o->node).is_switch()) continue;  // CA-to-CA paths only, as ibdmchk
        if (!w.walk(d) || w.owner_switch == kNoSwitch) continue;
        const auto &order = w.sources_first();
        for (SwitchIdx s : order) arrivals[s].clear();
        for (SwitchIdx s : order) {
            const unsigned own = s == w.owner_switch ? 1 : 0;
            if (w.ca_sources[s] > own) {
                const auto sl = static_cast<std::uint8_t>(t.sl(s, d) & 15);
                if (!t.has_sl2vl()) {
                    arrivals[s].push_back({0, sl, sl, kNone});
                } else {
                    for (PortNum p : ca_ports[s])
                        if (!(f.port(f.switch_node(s), p).peer == o->node &&
                              f.port(f.switch_node(s), p).peer_port == o->port))
                            arrivals[s].push_back({p, sl, sl, kNone});
                }
            }
            const PortNum q = w.out[s];
            const NodeIdx sn = f.switch_node(s);
            const std::uint32_t out_chan = f.node(sn).port_base + q;
            outgoing.clear();
            for (const Arrival &a : arrivals[s]) {
                const auto vo = static_cast<std::uint8_t>(vl_of(s, a.in, q, a.sl));
                if (a.from != kNone) g.add(a.from, a.vl, vo, q);
                if (std::find(outgoing.begin(), outgoing.end(), std::pair{a.sl, vo}) == outgoing.end())
                    outgoing.emplace_back(a.sl, vo);
            }
            if (w.next[s] != kNoSwitch) {
                const PortNum in = f.port(sn, q).peer_port;
                for (auto [sl, vl] : outgoing) arrivals[w.next[s]].push_back({in, sl, vl, out_chan});
            }
        }
    }
    r.dependencies = g.edges();
    r.cycle = g.find_cycle(m);
    r.has_cycle = !r.cycle.empty();
    return r;
}

}  // namespace weft::routing
