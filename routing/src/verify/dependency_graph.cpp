#include "dependency_graph.hpp"

#include <algorithm>
#include <bit>

namespace weft::routing::verify {

ChannelMap::ChannelMap(const Fabric &f) {
    std::size_t channels = 0;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        channels = std::max<std::size_t>(channels, f.node(n).port_base + f.node(n).num_ports + 1u);
    far.assign(channels, kNoNode);
    node.assign(channels, kNoNode);
    port.assign(channels, 0);
    ca_ports.resize(f.switch_count());
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        for (PortNum p = 0; p <= x.num_ports; ++p) {
            node[x.port_base + p] = n;
            port[x.port_base + p] = p;
            const Port &pp = f.port(n, p);
            if (!p || !pp.linked()) continue;
            if (f.node(pp.peer).is_switch())
                far[x.port_base + p] = pp.peer;
            else if (x.is_switch())
                ca_ports[x.sw].push_back(p);
        }
    }
}

unsigned vls_in_play(const RoutingTables &t) {
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
    return vls;
}

unsigned hop_vl(const Fabric &f, const RoutingTables &t, unsigned vls, SwitchIdx s, PortNum in, PortNum out,
                unsigned sl) {
    if (!t.has_sl2vl() || in == 0) return std::min<unsigned>(sl, vls - 1);
    if (t.sl2vl_all) return std::min<unsigned>((*t.sl2vl_all)[sl & 15], vls - 1);
    const unsigned radix = f.node(f.switch_node(s)).num_ports;
    const auto &tabs = t.sl2vl[s];
    const std::size_t i = std::size_t{in} * (radix + 1) + out;
    if (i >= tabs.size()) return std::min<unsigned>(sl, vls - 1);
    return std::min<unsigned>(tabs[i][sl & 15], vls - 1);
}

DependencyGraph::DependencyGraph(const Fabric &f, unsigned vls, std::size_t channels)
    : f_(f), vls_(vls), channels_(channels) {
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        max_ports_ = std::max<unsigned>(max_ports_, f.node(n).num_ports);
    words_ = (max_ports_ + 1 + 63) / 64;
    bits_.assign(channels_ * vls_ * vls_ * words_, 0);
}

std::uint64_t DependencyGraph::edges() const {
    std::uint64_t n = 0;
    for (auto w : bits_) n += static_cast<unsigned>(std::popcount(w));
    return n;
}

bool DependencyGraph::has_out(std::uint32_t node) const {
    const std::size_t c = node / vls_, vin = node % vls_;
    for (unsigned vo = 0; vo < vls_; ++vo)
        for (unsigned k = 0; k < words_; ++k)
            if (bits_[index(c, static_cast<unsigned>(vin), vo) + k]) return true;
    return false;
}

std::vector<Channel> DependencyGraph::find_cycle(const ChannelMap &m) const {
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
                if (!(w >> (port % 64) & 1)) continue;
                const NodeIdx sw = m.far[c];
                const std::uint32_t next = (f_.node(sw).port_base + port) * vls_ + vout;
                if (color[next] == 1) {
                    std::vector<Channel> cyc;
                    bool in = false;
                    for (const Frame &fr : stack) {
                        if (fr.node == next) in = true;
                        if (in)
                            cyc.push_back({m.node[fr.node / vls_], m.port[fr.node / vls_],
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

}  // namespace weft::routing::verify
