// Credit-loop check on the channel dependency graph, per VL, ibdmchk style.
#include <algorithm>
#include <bit>

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

class DependencyGraph {
  public:
    DependencyGraph(const Fabric &f, unsigned vls, std::size_t channels)
        : f_(f), vls_(vls), channels_(channels) {
        for (NodeIdx n = 0; n < f.node_count(); ++n)
            max_ports_ = std::max<unsigned>(max_ports_, f.node(n).num_ports);
        words_ = (max_ports_ + 1 + 63) / 64;
        bits_.assign(channels_ * vls_ * vls_ * words_, 0);
    }
    // Packets holding channel `from` on vl_in wait for port `out` (of the switch `from` leads to)
    // on vl_out.
    void add(std::uint32_t from, unsigned vl_in, unsigned vl_out, PortNum out) {
        std::uint64_t &w = bits_[index(from, vl_in, vl_out) + out / 64];
        w |= std::uint64_t{1} << (out % 64);
    }
    std::uint64_t edges() const {
        std::uint64_t n = 0;
        for (auto w : bits_) n += static_cast<unsigned>(std::popcount(w));
        return n;
    }
    void set_far_end(std::vector<NodeIdx> far) { far_ = std::move(far); }

    // Iterative DFS over (channel, VL); returns a cycle if one exists.
    std::vector<Channel> find_cycle(const std::vector<NodeIdx> &chan_node,
                                    const std::vector<PortNum> &chan_port) {
        const std::size_t N = channels_ * vls_;
        std::vector<std::uint8_t> color(N, 0);  // 0 white, 1 on stack, 2 done
        struct Frame {
            std::uint32_t node;    // channel * vls + vl
            std::uint32_t cursor;  // next (vl_out, port) to try
        };
        std::vector<Frame> stack;
        const std::uint32_t per_vl = (max_ports_ + 1);
        for (std::uint32_t start = 0; start < N; ++start) {
            if (color[start] || !has_out(start)) continue;
            stack.push_back({start, 0});
            color[start] = 1;
            while (!stack.empty()) {
                Frame &top = stack.back();
                const std::uint32_t c = top.node / vls_, vin = top.node % vls_;
                bool pushed = false;
                while (top.cursor < vls_ * per_vl) {
                    const std::uint32_t vout = top.cursor / per_vl, port = top.cursor % per_vl;
                    ++top.cursor;
                    const std::uint64_t w = bits_[index(c, vin, vout) + port / 64];
                    if (!(w >> (port % 64) & 1)) {
                        // skip quickly to the next set bit in this word
                        continue;
                    }
                    const NodeIdx sw = far_[c];
                    const std::uint32_t next = (f_.node(sw).port_base + port) * vls_ + vout;
                    if (color[next] == 1) {
                        std::vector<Channel> cyc;
                        bool in = false;
                        for (const Frame &fr : stack) {
                            if (fr.node == next) in = true;
                            if (in)
                                cyc.push_back({chan_node[fr.node / vls_], chan_port[fr.node / vls_],
                                               static_cast<std::uint8_t>(fr.node % vls_)});
                        }
                        return cyc;
                    }
                    if (color[next] == 0) {
                        color[next] = 1;
                        stack.push_back({next, 0});
                        pushed = true;
                        break;
                    }
                }
                if (!pushed) {
                    color[stack.back().node] = 2;
                    stack.pop_back();
                }
            }
        }
        return {};
    }

  private:
    std::size_t index(std::size_t from, unsigned vl_in, unsigned vl_out) const {
        return ((from * vls_ + vl_in) * vls_ + vl_out) * words_;
    }
    bool has_out(std::uint32_t node) const {
        const std::size_t c = node / vls_, vin = node % vls_;
        for (unsigned vo = 0; vo < vls_; ++vo)
            for (unsigned k = 0; k < words_; ++k)
                if (bits_[index(c, static_cast<unsigned>(vin), vo) + k]) return true;
        return false;
    }

    const Fabric &f_;
    unsigned vls_;
    std::size_t channels_;
    unsigned max_ports_ = 0, words_ = 1;
    std::vector<std::uint64_t> bits_;
    std::vector<NodeIdx> far_;
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

CreditLoopReport check_credit_loops(const Fabric &f, const RoutingTables &t, const ProgressFn &progress) {
    CreditLoopReport r;
    verify::DestWalker w(f, t);
    const std::size_t S = f.switch_count();
    // VLs in play: SL2VL tables decide; without them VL = SL.
    unsigned vls = 1;
    if (!t.has_sl2vl()) {
        for (const auto &row : t.path_sl)
            for (auto sl : row) vls = std::max<unsigned>(vls, std::min<unsigned>(sl, 15) + 1u);
    } else if (t.sl2vl_all) {
        for (auto vl : *t.sl2vl_all) vls = std::max<unsigned>(vls, std::min<unsigned>(vl, 15) + 1u);
    } else {
        for (const auto &sw : t.sl2vl)
            for (const auto &tab : sw)
                for (auto vl : tab) vls = std::max<unsigned>(vls, std::min<unsigned>(vl, 15) + 1u);
    }
    r.vls = vls;
    const std::size_t channels = w.peer_switch.size();
    DependencyGraph g(f, vls, channels);
    std::vector<NodeIdx> far(channels, kNoNode), chan_node(channels, kNoNode);
    std::vector<PortNum> chan_port(channels, 0);
    std::vector<std::vector<PortNum>> ca_ports(S);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        for (PortNum p = 0; p <= x.num_ports; ++p) {
            chan_node[x.port_base + p] = n;
            chan_port[x.port_base + p] = p;
            const SwitchIdx ps = w.peer_switch[x.port_base + p];
            if (ps != kNoSwitch) far[x.port_base + p] = f.switch_node(ps);
            if (x.is_switch() && p && f.port(n, p).linked() && !f.node(f.port(n, p).peer).is_switch())
                ca_ports[x.sw].push_back(p);
        }
    }
    g.set_far_end(far);
    auto vl_of = [&](SwitchIdx s, PortNum in, PortNum out, unsigned sl) -> unsigned {
        if (!t.has_sl2vl() || in == 0) return std::min<unsigned>(sl, vls - 1);
        if (t.sl2vl_all) return std::min<unsigned>((*t.sl2vl_all)[sl & 15], vls - 1);
        const unsigned radix = f.node(f.switch_node(s)).num_ports;
        const auto &tabs = t.sl2vl[s];
        const std::size_t i = std::size_t{in} * (radix + 1) + out;
        if (i >= tabs.size()) return std::min<unsigned>(sl, vls - 1);
        return std::min<unsigned>(tabs[i][sl & 15], vls - 1);
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
    r.cycle = g.find_cycle(chan_node, chan_port);
    r.has_cycle = !r.cycle.empty();
    return r;
}

}  // namespace weft::routing
