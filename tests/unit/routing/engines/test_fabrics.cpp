#include "test_fabrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "weft/routing/generators.hpp"

namespace weft::routing::test {

RoutingTables route_alone(const std::string &engine, const Fabric &f, RoutingOptions o) {
    o.no_fallback = true;
    RoutingTables t;
    const ChainResult r = run_chain(engine, f, o, t);
    EXPECT_TRUE(r.ok) << r.error << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(t.engine, engine);
    return t;
}

Fabric generated(const std::string &spec) {
    Fabric f = generate(spec);
    assign_lids(f);
    return f;
}

Lid switch_lid(const Fabric &f, SwitchIdx s) {
    return f.port(f.switch_node(s), 0).lid;
}

NodeIdx Builder::sw(PortNum ports) {
    const auto i = sws.size();
    const NodeIdx n = f.add_node(NodeType::Switch, 0x1000 + i, ports, "sw" + std::to_string(i));
    sws.push_back(n);
    return n;
}

NodeIdx Builder::host(NodeIdx to_switch, PortNum at_port) {
    const auto i = hosts.size();
    const Guid g = 0x100000 + i * 0x10;
    const NodeIdx n = f.add_node(NodeType::Ca, g, 1, "h" + std::to_string(i));
    f.set_port_guid(n, 1, g + 1);
    f.connect(to_switch, at_port, n, 1);
    hosts.push_back(n);
    return n;
}

void assign_lids(Fabric &f, std::uint8_t lmc) {
    f.clear_lids();
    Lid next = 1;
    for (NodeIdx s : f.switches()) f.set_lid(s, 0, next++, 0);
    const Lid block = Lid{1} << lmc;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (f.node(n).is_switch()) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            next = (next + block - 1) / block * block;
            f.set_lid(n, p, next, lmc);
            next += block;
        }
    }
}

Fabric two_level(unsigned leaves, unsigned spines, unsigned hosts, unsigned parallel, std::uint8_t lmc) {
    Builder b;
    const auto leaf_ports = static_cast<PortNum>(hosts + spines * parallel);
    const auto spine_ports = static_cast<PortNum>(leaves * parallel);
    for (unsigned i = 0; i < leaves; ++i) b.sw(leaf_ports);
    for (unsigned i = 0; i < spines; ++i) b.sw(spine_ports);
    for (unsigned l = 0; l < leaves; ++l)
        for (unsigned s = 0; s < spines; ++s)
            for (unsigned c = 0; c < parallel; ++c)
                b.f.connect(b.sws[l], static_cast<PortNum>(hosts + 1 + s * parallel + c), b.sws[leaves + s],
                            static_cast<PortNum>(1 + l * parallel + c));
    for (unsigned l = 0; l < leaves; ++l)
        for (unsigned h = 0; h < hosts; ++h) b.host(b.sws[l], static_cast<PortNum>(1 + h));
    assign_lids(b.f, lmc);
    return std::move(b.f);
}

static Fabric chain_of(unsigned n, unsigned hosts, bool closed) {
    Builder b;
    for (unsigned i = 0; i < n; ++i) b.sw(static_cast<PortNum>(2 + hosts));
    for (unsigned i = 0; i + 1 < n + (closed ? 1 : 0); ++i) b.f.connect(b.sws[i], 1, b.sws[(i + 1) % n], 2);
    for (unsigned i = 0; i < n; ++i)
        for (unsigned h = 0; h < hosts; ++h) b.host(b.sws[i], static_cast<PortNum>(3 + h));
    assign_lids(b.f);
    return std::move(b.f);
}

Fabric ring(unsigned n, unsigned hosts) {
    return chain_of(n, hosts, true);
}
Fabric line(unsigned n, unsigned hosts) {
    return chain_of(n, hosts, false);
}

Fabric torus2d(unsigned x, unsigned y) {
    Builder b;
    for (unsigned i = 0; i < x * y; ++i) b.sw(5);
    for (unsigned j = 0; j < y; ++j)
        for (unsigned i = 0; i < x; ++i) {
            b.f.connect(b.sws[j * x + i], 1, b.sws[j * x + (i + 1) % x], 2);
            b.f.connect(b.sws[j * x + i], 3, b.sws[((j + 1) % y) * x + i], 4);
        }
    for (unsigned i = 0; i < x * y; ++i) b.host(b.sws[i], 5);
    assign_lids(b.f);
    return std::move(b.f);
}

Fabric kary_ntree(unsigned k, unsigned n) {
    Builder b;
    unsigned per_level = 1;
    for (unsigned i = 0; i + 1 < n; ++i) per_level *= k;
    for (unsigned l = 0; l < n; ++l)
        for (unsigned w = 0; w < per_level; ++w) b.sw(static_cast<PortNum>(2 * k));
    auto at = [&](unsigned level, unsigned w) { return b.sws[level * per_level + w]; };
    unsigned weight = 1;  // k^l
    for (unsigned l = 0; l + 1 < n; ++l, weight *= k)
        for (unsigned w = 0; w < per_level; ++w) {
            const unsigned digit = (w / weight) % k;
            for (unsigned j = 0; j < k; ++j) {
                const unsigned up = w - digit * weight + j * weight;
                b.f.connect(at(l, w), static_cast<PortNum>(k + 1 + j), at(l + 1, up),
                            static_cast<PortNum>(1 + digit));
            }
        }
    for (unsigned w = 0; w < per_level; ++w)
        for (unsigned h = 0; h < k; ++h) b.host(at(0, w), static_cast<PortNum>(1 + h));
    assign_lids(b.f);
    return std::move(b.f);
}

std::optional<std::vector<std::pair<SwitchIdx, PortNum>>> walk(const Fabric &f, const RoutingTables &t,
                                                               SwitchIdx s, Lid lid) {
    std::vector<std::pair<SwitchIdx, PortNum>> path;
    const auto owner = f.lid_owner(lid);
    if (!owner) return std::nullopt;
    for (std::size_t steps = 0; steps <= f.switch_count(); ++steps) {
        const PortNum p = t.lft[s][lid];
        const NodeIdx node = f.switch_node(s);
        if (p == 0) return owner->node == node ? std::optional(path) : std::nullopt;
        if (p == kNoPort || p > f.node(node).num_ports || !f.port(node, p).linked()) return std::nullopt;
        const Port &x = f.port(node, p);
        if (!f.node(x.peer).is_switch())
            return (x.peer == owner->node && x.peer_port == owner->port) ? std::optional(path) : std::nullopt;
        path.emplace_back(s, p);
        s = f.node(x.peer).sw;
    }
    return std::nullopt;  // loop
}

std::vector<Lid> ca_lids(const Fabric &f) {
    std::vector<Lid> out;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!f.node(n).is_switch())
            for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
                if (f.port(n, p).lid && f.port(n, p).linked()) out.push_back(f.port(n, p).lid);
    return out;
}

std::vector<SwitchIdx> switches_with_cas(const Fabric &f) {
    std::vector<SwitchIdx> out;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const auto ports = f.ports(f.switch_node(s));
        for (PortNum p = 1; p < ports.size(); ++p)
            if (ports[p].linked() && !f.node(ports[p].peer).is_switch()) {
                out.push_back(s);
                break;
            }
    }
    return out;
}

std::string check_all_routes(const Fabric &f, const RoutingTables &t, bool switches) {
    const auto cas = ca_lids(f);
    for (SwitchIdx s : switches_with_cas(f))
        for (Lid l : cas)
            for (Lid x = l; x < l + (Lid{1} << f.port(f.lid_owner(l)->node, f.lid_owner(l)->port).lmc); ++x)
                if (!walk(f, t, s, x))
                    return "switch " + std::to_string(s) + " cannot reach CA LID " + std::to_string(x);
    if (switches)
        for (SwitchIdx s = 0; s < f.switch_count(); ++s)
            for (SwitchIdx d = 0; d < f.switch_count(); ++d) {
                const Lid l = f.port(f.switch_node(d), 0).lid;
                if (!walk(f, t, s, l))
                    return "switch " + std::to_string(s) + " cannot reach switch LID " + std::to_string(l);
            }
    return {};
}

unsigned cdg_cycles(const Fabric &f, const RoutingTables &t) {
    return cdg_cycles(f, t, switches_with_cas(f), ca_lids(f));
}

unsigned cdg_cycles(const Fabric &f, const RoutingTables &t, const std::vector<SwitchIdx> &sources,
                    const std::vector<Lid> &dests) {
    // Channel = (switch, out port); an edge joins consecutive channels of one route.
    std::map<unsigned, std::map<std::uint64_t, std::vector<std::uint64_t>>> layers;
    auto key = [](std::pair<SwitchIdx, PortNum> c) { return (std::uint64_t{c.first} << 8) | c.second; };
    for (SwitchIdx s : sources)
        for (Lid l : dests) {
            auto path = walk(f, t, s, l);
            if (!path) continue;
            auto &g = layers[t.sl(s, l)];
            for (std::size_t i = 0; i + 1 < path->size(); ++i)
                g[key((*path)[i])].push_back(key((*path)[i + 1]));
        }
    unsigned cyclic = 0;
    for (auto &[sl, g] : layers) {
        std::map<std::uint64_t, int> color;  // 0 white, 1 on stack, 2 done
        bool cycle = false;
        for (auto &[start, ignored] : g) {
            if (color[start] || cycle) continue;
            std::vector<std::pair<std::uint64_t, std::size_t>> stack{{start, 0}};
            color[start] = 1;
            while (!stack.empty() && !cycle) {
                auto &[u, i] = stack.back();
                auto it = g.find(u);
                if (it == g.end() || i >= it->second.size()) {
                    color[u] = 2;
                    stack.pop_back();
                    continue;
                }
                const std::uint64_t v = it->second[i++];
                if (color[v] == 1)
                    cycle = true;
                else if (color[v] == 0)
                    color[v] = 1, stack.emplace_back(v, 0);
            }
        }
        cyclic += cycle;
    }
    return cyclic;
}

unsigned worst_shift_load(const Fabric &f, const RoutingTables &t, const std::vector<Lid> &order) {
    const std::size_t n = order.size();
    unsigned worst = 0;
    std::map<std::pair<SwitchIdx, PortNum>, unsigned> load;
    for (std::size_t shift = 1; shift < n; ++shift) {
        load.clear();
        for (std::size_t i = 0; i < n; ++i) {
            const Lid src = order[i], dst = order[(i + shift) % n];
            if (!src || !dst) continue;
            const NodeIdx sw = f.attached_switch(src);
            auto path = walk(f, t, f.node(sw).sw, dst);
            if (!path) return ~0u;
            for (const auto &c : *path) worst = std::max(worst, ++load[c]);
        }
    }
    return worst;
}

}  // namespace weft::routing::test
