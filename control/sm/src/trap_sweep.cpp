#include "weft/sm/trap_sweep.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "smp_batch.hpp"
#include "sweep_phase.hpp"

namespace weft::sm {

namespace {

using routing::NodeIdx;

// The switch that holds `lid` (its port 0's LID range), or kNoNode.
NodeIdx switch_with_lid(const routing::Fabric &f, Lid lid) {
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (!f.node(n).is_switch()) continue;
        const routing::Port &p0 = f.port(n, 0);
        if (p0.lid != 0 && lid >= p0.lid && lid < p0.lid + (1u << p0.lmc)) return n;
    }
    return routing::kNoNode;
}

struct Update {
    DiscoveryResult &d;
    SmpEngine &engine;
    const SmClock &clock;
    std::string why_not;  // the first thing only a heavy sweep can sort out
    std::size_t read = 0, down = 0, up = 0, rerouted = 0;

    void give_up(std::string why) {
        if (why_not.empty()) why_not = std::move(why);
    }
    std::string name(NodeIdx n) const {
        const DiscoveredNode &x = d.nodes[n];
        return "switch '" + x.description + "' via path " + path_text(x.path);
    }
};

// A link came up on (n, port): who is behind it, cabled in if it is a switch port the SM knows
// unlinked; its PortInfo read too, so programming arms and activates both ends.
void link_up(SmpBatch &b, Update &u, NodeIdx n, PortNum port) {
    DrPath path = u.d.nodes[n].path;
    path.push_back(port);
    b.add(Method::kGet, attr::kNodeInfo, 0, path, {}, [&b, &u, n, port](const SmpCompletion &c) {
        if (!failure_text(c).empty())
            return u.give_up("nothing answers behind port " + std::to_string(port) + " of " + u.name(n));
        const auto info = decode_node_info(c.response);
        if (!info)
            return u.give_up("NodeInfo behind port " + std::to_string(port) + " of " + u.name(n) +
                             " malformed");
        const auto peer = u.d.fabric.find_guid(info->node_guid);
        if (!peer || !info->is_switch())
            return u.give_up("port " + std::to_string(port) + " of " + u.name(n) +
                             " leads to a node not met before");
        const PortNum pp = info->local_port_num;
        routing::Fabric &f = u.d.fabric;
        if (pp == 0 || pp > f.node(*peer).num_ports || f.port(*peer, pp).peer != routing::kNoNode)
            return u.give_up("port " + std::to_string(port) + " of " + u.name(n) + " leads to port " +
                             std::to_string(pp) + " of " + u.name(*peer) + ", which the SM knows otherwise");
        const NodeIdx p = *peer;
        b.add(Method::kGet, attr::kPortInfo, pp, u.d.nodes[p].path, {},
              [&u, n, port, p, pp](const SmpCompletion &r) {
                  if (!failure_text(r).empty())
                      return u.give_up("PortInfo of port " + std::to_string(pp) + " of " + u.name(p) +
                                       " unread");
                  const auto pi = decode_port_info(r.response, PortKind::kSwitchExternal);
                  if (!pi)
                      return u.give_up("PortInfo of port " + std::to_string(pp) + " of " + u.name(p) +
                                       " malformed");
                  u.d.nodes[p].ports[pp] = *pi;
                  routing::Fabric &fab = u.d.fabric;
                  if (fab.port(n, port).peer == p && fab.port(n, port).peer_port == pp)
                      return;  // both ends trapped
                  if (fab.port(n, port).peer != routing::kNoNode || fab.port(p, pp).peer != routing::kNoNode)
                      return u.give_up("port " + std::to_string(port) + " of " + u.name(n) + " and port " +
                                       std::to_string(pp) + " of " + u.name(p) + " came up linked elsewhere");
                  if (u.d.nodes[p].switch_info) u.d.nodes[p].switch_info->port_state_change = true;
                  connect_as_read(u.d.fabric, n, port, p, pp, *u.d.nodes[n].ports[port]);
                  ++u.d.stats.links;
                  ++u.up;
              });
    });
}

// Port `port` of switch n was read down while the fabric has it linked: the link leaves the
// fabric, and its other end is marked as the SM would have read it.
void take_down(Update &u, NodeIdx n, PortNum port) {
    routing::Fabric &f = u.d.fabric;
    const NodeIdx peer = f.port(n, port).peer;
    if (!f.node(peer).is_switch())
        return u.give_up("host port " + std::to_string(port) + " of " + u.name(n) + " went down");
    // Its other end went down too; its trap may never come (it is LID-routed, and its route to
    // the SM may have been this link): programming clears its PortStateChange all the same.
    const PortNum pp = f.port(n, port).peer_port;
    DiscoveredNode &other = u.d.nodes[peer];
    if (other.switch_info) other.switch_info->port_state_change = true;
    if (other.ports[pp]) {
        other.ports[pp]->port_state = PortState::kDown;
        other.ports[pp]->phys_state = PhysState::kPolling;
    }
    f.disconnect(n, port);
    --u.d.stats.links;
    ++u.down;
}

// A directed route from the SM to switch n that does not arrive by the link `path` arrives by
// (breadth first over the fabric as the SM knows it, as route_paths walks it), or none.
std::optional<DrPath> other_way(const DiscoveryResult &d, NodeIdx n, const DrPath &path) {
    if (path.empty()) return std::nullopt;
    const routing::Fabric &f = d.fabric;
    std::vector<std::optional<DrPath>> way(f.node_count());
    way[d.sm_node] = DrPath{};
    std::vector<NodeIdx> queue{d.sm_node};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const NodeIdx m = queue[i];
        const bool on_path = *way[m] == DrPath(path.begin(), path.end() - 1);
        for (PortNum port = 1; port <= f.node(m).num_ports; ++port) {
            if (!d.nodes[m].is_switch() && !(m == d.sm_node && port == d.sm_port)) continue;
            const NodeIdx peer = f.port(m, port).peer;
            if (peer == routing::kNoNode || way[peer] || d.nodes[peer].host_of || !d.nodes[peer].is_switch())
                continue;
            if (peer == n && on_path && port == path.back()) continue;  // the link to avoid
            DrPath w = *way[m];
            w.push_back(static_cast<std::uint8_t>(port));
            if (peer == n) return w;
            way[peer] = std::move(w);
            queue.push_back(peer);
        }
    }
    return std::nullopt;
}

void read_ports(SmpBatch &b, Update &u, NodeIdx n, const DrPath &path, std::vector<std::uint64_t> *cookies);

// The trap names the switch, not the port, so the link the SM's directed route to it arrives by
// may be the one that went down, and every read along it would only time out. SwitchInfo is
// asked along that route and along another that arrives by another link; the first answer
// decides: the reads along the other route are withdrawn, and the ports are read along the
// route that answered.
void read_switch(SmpBatch &b, Update &u, NodeIdx n) {
    struct Race {
        bool decided = false;
        std::vector<std::uint64_t> usual, other;  // cookies of the requests along each route
    };
    const auto race = std::make_shared<Race>();
    const DrPath usual = u.d.nodes[n].path;
    const auto take = [&u, n](const SmpCompletion &c) {
        if (!failure_text(c).empty()) return u.give_up("SwitchInfo of " + u.name(n) + " unread");
        const auto si = decode_switch_info(c.response);
        if (!si) return u.give_up("SwitchInfo of " + u.name(n) + " malformed");
        u.d.nodes[n].switch_info = *si;
    };
    const auto withdraw = [&u](const std::vector<std::uint64_t> &cookies) {
        return u.engine.cancel(
            [&cookies](const SmpRequest &r) {
                return std::find(cookies.begin(), cookies.end(), r.cookie) != cookies.end();
            },
            u.clock());
    };
    const std::optional<DrPath> other = other_way(u.d, n, usual);
    race->usual.push_back(
        b.add(Method::kGet, attr::kSwitchInfo, 0, usual, {}, [race, take, withdraw](const SmpCompletion &c) {
            if (failure_text(c).empty() && !race->decided) {
                race->decided = true;
                withdraw(race->other);
            }
            take(c);
        }));
    if (other)
        race->other.push_back(b.add(Method::kGet, attr::kSwitchInfo, 0, *other, {},
                                    [&b, &u, n, race, take, withdraw, way = *other](const SmpCompletion &c) {
                                        if (!failure_text(c).empty() || race->decided) return;
                                        race->decided = true;
                                        withdraw(race->usual);
                                        ++u.rerouted;
                                        take(c);
                                        read_ports(b, u, n, way, nullptr);
                                    }));
    read_ports(b, u, n, usual, &race->usual);
}

// The ports of switch n as they are now, read along `path`, applied to the fabric.
void read_ports(SmpBatch &b, Update &u, NodeIdx n, const DrPath &path, std::vector<std::uint64_t> *cookies) {
    for (PortNum port = 1; port <= u.d.nodes[n].info.num_ports; ++port) {
        const std::uint64_t cookie =
            b.add(Method::kGet, attr::kPortInfo, port, path, {}, [&b, &u, n, port](const SmpCompletion &c) {
                if (!failure_text(c).empty())
                    return u.give_up("PortInfo of port " + std::to_string(port) + " of " + u.name(n) +
                                     " unread");
                const auto pi = decode_port_info(c.response, PortKind::kSwitchExternal);
                if (!pi)
                    return u.give_up("PortInfo of port " + std::to_string(port) + " of " + u.name(n) +
                                     " malformed");
                ++u.read;
                DiscoveredNode &me = u.d.nodes[n];
                routing::Fabric &f = u.d.fabric;
                const bool was = f.port(n, port).peer != routing::kNoNode;
                const bool is = pi->phys_state == PhysState::kLinkUp;
                me.ports[port] = *pi;
                if (was && !is) {
                    take_down(u, n, port);
                } else if (!was && is) {
                    link_up(b, u, n, port);
                }
            });
        if (cookies) cookies->push_back(cookie);
    }
}

// The directed routes to every node over the fabric as it is now (those through a link that
// went down lead nowhere): breadth first from the SM's node, ports in order. False when a node
// can no longer be reached.
bool route_paths(DiscoveryResult &d, std::string &why) {
    const routing::Fabric &f = d.fabric;
    std::vector<bool> seen(f.node_count(), false);
    std::vector<NodeIdx> queue{d.sm_node};
    seen[d.sm_node] = true;
    d.nodes[d.sm_node].path.clear();
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const NodeIdx n = queue[i];
        const DiscoveredNode &x = d.nodes[n];
        for (PortNum port = 1; port <= f.node(n).num_ports; ++port) {
            // Only a switch forwards directed routes; the SM's own CA sends out of its port.
            if (!x.is_switch() && !(n == d.sm_node && port == d.sm_port)) continue;
            const routing::Port &fp = f.port(n, port);
            if (fp.peer == routing::kNoNode) continue;
            DiscoveredNode &y = d.nodes[fp.peer];
            if (y.host_of) {
                seen[fp.peer] = true;  // Ethernet hosts: no SMA, no route
                continue;
            }
            DrPath path = x.path;
            path.push_back(static_cast<std::uint8_t>(port));
            if (!y.is_switch() && fp.peer_port < y.port_path.size()) y.port_path[fp.peer_port] = path;
            if (seen[fp.peer]) continue;
            seen[fp.peer] = true;
            y.path = std::move(path);
            queue.push_back(fp.peer);
        }
    }
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (!seen[n]) {
            why = "node '" + d.nodes[n].description + "' can no longer be reached";
            return false;
        }
    return true;
}

}  // namespace

TrapSweepResult trap_sweep(SmpEngine &engine, const SmClock &clock, const SweepOptions &options,
                           const DiscoveryResult &known, const std::vector<Lid> &trapped) {
    TrapSweepResult out;
    SweepReport r;
    const SmpCounters before = engine.counters();
    r.discovery = known;
    Update u{r.discovery, engine, clock, {}};
    {
        Phase phase(r, engine, clock, options, "update");
        std::vector<NodeIdx> switches;
        for (Lid lid : trapped) {
            const NodeIdx n = switch_with_lid(known.fabric, lid);
            if (n == routing::kNoNode) {
                out.why_not = "a trap from LID " + std::to_string(lid) + ", which is no switch the SM knows";
                return out;
            }
            if (std::find(switches.begin(), switches.end(), n) == switches.end()) switches.push_back(n);
        }
        SmpBatch b(engine, clock);
        for (NodeIdx n : switches) read_switch(b, u, n);
        b.run();
        phase.end(std::to_string(switches.size()) + " trapping switches, " + std::to_string(u.read) +
                  " ports read: " + std::to_string(u.down) + " links down, " + std::to_string(u.up) + " up" +
                  (u.rerouted ? ", " + std::to_string(u.rerouted) + " read again around a dead link" : "") +
                  (u.why_not.empty() ? "" : "; left to a heavy sweep: " + u.why_not));
    }
    if (u.why_not.empty()) route_paths(r.discovery, u.why_not);
    if (!u.why_not.empty()) {
        out.why_not = u.why_not;
        return out;
    }
    route_and_program(engine, clock, options, r);
    r.smps = counters_since(engine.counters(), before);
    for (const PhaseReport &p : r.phases) r.seconds += p.seconds;
    out.report = std::move(r);
    return out;
}

}  // namespace weft::sm
