// Credit-loop check over routes given as turns (check_turn_credit_loops): the dependency graph and
// cycle search of the LFT check, fed by the caller's turns.
#include <algorithm>
#include <stdexcept>

#include "dependency_graph.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {

CreditLoopReport check_turn_credit_loops(const Fabric &f, std::span<const ChannelTurn> turns) {
    CreditLoopReport r;
    unsigned vls = 1;
    for (const ChannelTurn &t : turns)
        vls = std::max(
            {vls, std::min(t.vl_in, std::uint8_t{15}) + 1u, std::min(t.vl_out, std::uint8_t{15}) + 1u});
    r.vls = vls;
    const verify::ChannelMap m(f);
    verify::DependencyGraph g(f, vls, m.size());
    for (const ChannelTurn &t : turns) {
        if (t.node >= f.node_count() || !f.node(t.node).is_switch())
            throw std::invalid_argument("credit-loop turn: node " + std::to_string(t.node) +
                                        " is not a switch");
        const PortNum radix = f.node(t.node).num_ports;
        if (t.in_port == 0 || t.in_port > radix || t.out_port == 0 || t.out_port > radix ||
            !f.port(t.node, t.in_port).linked() || !f.port(t.node, t.out_port).linked())
            throw std::invalid_argument("credit-loop turn at " + channel_name(f, t.node, t.in_port) +
                                        ": a port that is not linked");
        const Port &in = f.port(t.node, t.in_port);
        if (!f.node(in.peer).is_switch() || !f.node(f.port(t.node, t.out_port).peer).is_switch()) continue;
        const std::uint32_t from = f.node(in.peer).port_base + in.peer_port;
        g.add(from, std::min<unsigned>(t.vl_in, vls - 1), std::min<unsigned>(t.vl_out, vls - 1), t.out_port);
    }
    r.dependencies = g.edges();
    r.cycle = g.find_cycle(m);
    r.has_cycle = !r.cycle.empty();
    return r;
}

}  // namespace weft::routing
