// Routes per link, and the per-flow bandwidth of traffic patterns (ORCS's effective bisection
// bandwidth, shifts, all-to-all).
#include <algorithm>
#include <cmath>

#include "dest_walk.hpp"
#include "weft/routing/routing_metrics.hpp"
#include "weft/routing/seeded_rng.hpp"

namespace weft::routing {
namespace {

std::size_t port_slots(const Fabric &f) {
    std::size_t n = 0;
    for (NodeIdx i = 0; i < f.node_count(); ++i)
        n = std::max<std::size_t>(n, f.node(i).port_base + f.node(i).num_ports + 1u);
    return n;
}

bool is_host_port(const Fabric &f, NodeIdx n, PortNum p) {
    return !f.node(n).is_switch() && f.port(n, p).linked() && f.port(n, p).lid;
}

// Routes from every CA/router port to every destination LID owned by one (base LIDs only when
// base_only), accumulated per destination tree.
std::vector<std::uint64_t> load(const Fabric &f, const RoutingTables &t, bool base_only,
                                const std::function<void(std::size_t, std::size_t)> &progress) {
    verify::DestWalker w(f, t);
    std::vector<std::uint64_t> routes(port_slots(f), 0);
    const std::size_t S = f.switch_count();
    std::vector<std::uint64_t> acc(S), delivered(S, 0), self(routes.size(), 0);
    const Lid max = f.max_lid();
    for (Lid d = 1; d <= max; ++d) {
        if (progress && (d % 256 == 0 || d == max)) progress(d, max);
        const auto o = f.lid_owner(d);
        if (!o || f.node(o->node).is_switch()) continue;
        if (base_only && f.port(o->node, o->port).lid != d) continue;
        if (!w.walk(d) || w.owner_switch == kNoSwitch) continue;
        for (SwitchIdx s = 0; s < S; ++s) acc[s] = w.ca_sources[s];
        acc[w.owner_switch] -= 1;  // the destination port does not send to itself
        self[f.node(o->node).port_base + o->port] += 1;
        for (SwitchIdx s : w.sources_first()) {
            ++delivered[s];
            const NodeIdx n = f.switch_node(s);
            routes[f.node(n).port_base + w.out[s]] += acc[s];
            if (w.next[s] != kNoSwitch) acc[w.next[s]] += acc[s];
        }
    }
    // Each CA port's own cable carries its routes to every destination its switch delivers.
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (x.is_switch()) continue;
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (!pp.linked() || !f.node(pp.peer).is_switch()) continue;
            const std::size_t i = x.port_base + p;
            routes[i] = delivered[f.node(pp.peer).sw] - self[i];
        }
    }
    return routes;
}

// The same over traffic endpoints (VMs): every endpoint sends to every other endpoint's LID
// except those behind its own port (a vSwitch delivers those itself).
std::vector<std::uint64_t> load(const Fabric &f, const RoutingTables &t, const std::vector<VmEndpoint> &ends,
                                const std::function<void(std::size_t, std::size_t)> &progress) {
    verify::DestWalker w(f, t);
    std::vector<std::uint64_t> routes(port_slots(f), 0);
    const std::size_t S = f.switch_count();
    std::vector<std::uint64_t> acc(S), per_switch(S, 0), on_port(routes.size(), 0),
        delivered_to(routes.size(), 0);
    for (const VmEndpoint &e : ends) {
        const std::size_t i = f.node(e.port.node).port_base + e.port.port;
        ++on_port[i];
        const Port &pp = f.port(e.port.node, e.port.port);
        if (pp.linked() && f.node(pp.peer).is_switch()) ++per_switch[f.node(pp.peer).sw];
    }
    // Per switch: endpoints that hang off it and reach the destination, summed over destinations.
    std::vector<std::uint64_t> reached(S, 0);
    for (std::size_t k = 0; k < ends.size(); ++k) {
        if (progress && (k % 256 == 0 || k + 1 == ends.size())) progress(k + 1, ends.size());
        const VmEndpoint &e = ends[k];
        if (!w.walk(e.lid) || w.owner_switch == kNoSwitch) continue;
        const std::size_t own = f.node(e.port.node).port_base + e.port.port;
        for (SwitchIdx s = 0; s < S; ++s) acc[s] = per_switch[s];
        acc[w.owner_switch] -= on_port[own];
        for (SwitchIdx s : w.sources_first()) {
            ++reached[s];
            const NodeIdx n = f.switch_node(s);
            routes[f.node(n).port_base + w.out[s]] += acc[s];
            if (w.next[s] != kNoSwitch) acc[w.next[s]] += acc[s];
        }
        ++delivered_to[own];
    }
    // An endpoint's port cable carries its endpoints' routes to every destination their switch
    // reaches, less the destinations behind that port.
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (x.is_switch()) continue;
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            const std::size_t i = x.port_base + p;
            if (!pp.linked() || !f.node(pp.peer).is_switch() || !on_port[i]) continue;
            routes[i] = on_port[i] * (reached[f.node(pp.peer).sw] - delivered_to[i]);
        }
    }
    return routes;
}

LoadStats stats(const Fabric &f, const std::vector<std::uint64_t> &routes, bool switch_only) {
    LoadStats s;
    double sum = 0, sq = 0;
    bool first = true;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (switch_only && !x.is_switch()) continue;
        for (PortNum p = 1; p <= x.num_ports; ++p) {
            const Port &pp = f.port(n, p);
            if (!pp.linked() || (switch_only && !f.node(pp.peer).is_switch())) continue;
            const std::uint64_t v = routes[x.port_base + p];
            s.min = first ? v : std::min(s.min, v);
            s.max = std::max(s.max, v);
            first = false;
            ++s.links;
            sum += static_cast<double>(v);
            sq += static_cast<double>(v) * static_cast<double>(v);
        }
    }
    if (s.links) {
        s.mean = sum / static_cast<double>(s.links);
        s.stddev = std::sqrt(std::max(0.0, sq / static_cast<double>(s.links) - s.mean * s.mean));
    }
    return s;
}

// A batch of flows: paths as channel lists, then congestion and per-flow bandwidth.
class FlowSet {
  public:
    FlowSet(const Fabric &f, const RoutingTables &t) : f_(f), t_(t), count_(port_slots(f), 0) {}

    void add(LidOwner src, Lid dst) {
        starts_.push_back(static_cast<std::uint32_t>(chan_.size()));
        NodeIdx n = src.node;
        PortNum p = src.port;
        bool ok = false;
        if (const auto o = f_.lid_owner(dst); o && o->node == n && o->port == p && !f_.node(n).is_switch()) {
            delivered_.push_back(true);  // two VMs behind one vSwitch: no link of the fabric
            return;
        }
        for (std::size_t steps = 0; steps <= f_.switch_count() + 1; ++steps) {
            const Port &pp = f_.port(n, p);
            if (!pp.linked()) break;
            chan_.push_back(f_.node(n).port_base + p);
            const auto o = f_.lid_owner(dst);
            if (!o) break;
            if (pp.peer == o->node && (f_.node(pp.peer).is_switch() || pp.peer_port == o->port)) {
                ok = true;
                break;
            }
            if (!f_.node(pp.peer).is_switch()) break;
            n = pp.peer;
            const auto &lft = t_.lft[f_.node(n).sw];
            p = dst < lft.size() ? lft[dst] : kNoPort;
            if (p == kNoPort || p == 0 || p > f_.node(n).num_ports) break;
        }
        delivered_.push_back(ok);
    }

    // Adds each flow's bandwidth share to the result and clears the batch.
    void settle(PatternResult &r) {
        starts_.push_back(static_cast<std::uint32_t>(chan_.size()));
        for (std::size_t i = 0; i + 1 < starts_.size(); ++i)
            if (delivered_[i])
                for (std::uint32_t k = starts_[i]; k < starts_[i + 1]; ++k) ++count_[chan_[k]];
        for (std::size_t i = 0; i + 1 < starts_.size(); ++i) {
            ++r.flows;
            double bw = 0;
            if (delivered_[i]) {
                std::uint32_t worst = 1;
                for (std::uint32_t k = starts_[i]; k < starts_[i + 1]; ++k)
                    worst = std::max(worst, count_[chan_[k]]);
                bw = 1.0 / worst;
            } else {
                ++r.undelivered;
            }
            sum_ += bw;
            r.min_bandwidth = r.flows == 1 ? bw : std::min(r.min_bandwidth, bw);
        }
        for (std::uint32_t c : chan_) count_[c] = 0;
        chan_.clear();
        starts_.clear();
        delivered_.clear();
        r.mean_bandwidth = r.flows ? sum_ / static_cast<double>(r.flows) : 0.0;
    }

  private:
    const Fabric &f_;
    const RoutingTables &t_;
    std::vector<std::uint32_t> count_;
    std::vector<std::size_t> chan_;
    std::vector<std::uint32_t> starts_;
    std::vector<char> delivered_;
    double sum_ = 0;
};

}  // namespace

LinkLoad routes_per_link(const Fabric &f, const RoutingTables &t,
                         const std::function<void(std::size_t, std::size_t)> &progress) {
    LinkLoad l;
    l.routes = load(f, t, false, progress);
    l.all = stats(f, l.routes, false);
    l.switch_links = stats(f, l.routes, true);
    return l;
}

std::vector<LidOwner> host_ports(const Fabric &f) {
    std::vector<LidOwner> h;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (is_host_port(f, n, p)) h.push_back({n, p});
    return h;
}

PatternResult effective_bisection_bandwidth(const Fabric &f, const RoutingTables &t, unsigned runs,
                                            std::uint64_t seed,
                                            const std::function<void(std::size_t, std::size_t)> &progress) {
    std::vector<VmEndpoint> hosts;
    for (const LidOwner &h : host_ports(f)) hosts.push_back({h, f.port(h.node, h.port).lid});
    return effective_bisection_bandwidth(f, t, std::move(hosts), runs, seed, progress);
}

PatternResult effective_bisection_bandwidth(const Fabric &f, const RoutingTables &t,
                                            std::vector<VmEndpoint> ends, unsigned runs, std::uint64_t seed,
                                            const std::function<void(std::size_t, std::size_t)> &progress) {
    PatternResult r;
    if (ends.size() < 2 || runs == 0) return r;
    SeededRng rng(seed);
    FlowSet flows(f, t);
    for (unsigned run = 0; run < runs; ++run) {
        if (progress) progress(run + 1, runs);
        // A random bisection with a random perfect matching across it: shuffle and pair.
        rng.shuffle(ends);
        for (std::size_t i = 0; i + 1 < ends.size(); i += 2) {
            const VmEndpoint a = ends[i], b = ends[i + 1];
            flows.add(a.port, b.lid);
            flows.add(b.port, a.lid);
        }
        flows.settle(r);
    }
    return r;
}

LinkLoad routes_per_link(const Fabric &f, const RoutingTables &t, const std::vector<VmEndpoint> &ends,
                         const std::function<void(std::size_t, std::size_t)> &progress) {
    LinkLoad l;
    l.routes = load(f, t, ends, progress);
    l.all = stats(f, l.routes, false);
    l.switch_links = stats(f, l.routes, true);
    return l;
}

PatternResult shift_pattern(const Fabric &f, const RoutingTables &t, std::vector<std::uint32_t> shifts) {
    PatternResult r;
    const auto hosts = host_ports(f);
    const std::size_t N = hosts.size();
    if (N < 2) return r;
    if (shifts.empty())
        for (std::uint32_t k = 1; k < N; ++k) shifts.push_back(k);
    FlowSet flows(f, t);
    for (std::uint32_t k : shifts) {
        if (k % N == 0) continue;
        for (std::size_t i = 0; i < N; ++i) {
            const LidOwner b = hosts[(i + k) % N];
            flows.add(hosts[i], f.port(b.node, b.port).lid);
        }
        flows.settle(r);
    }
    return r;
}

PatternResult all_to_all(const Fabric &f, const RoutingTables &t) {
    // Every host to every other host's base LID at once: link congestion is the route count;
    // a flow's share is 1 / the largest count on its path (its bottleneck), found per
    // destination tree from the destination outwards.
    PatternResult r;
    const auto routes = load(f, t, true, {});
    verify::DestWalker w(f, t);
    const std::size_t S = f.switch_count();
    std::vector<std::uint64_t> bott(S, 0);
    double sum = 0;
    bool first = true;
    const auto hosts = host_ports(f);
    std::vector<SwitchIdx> host_switch(hosts.size(), kNoSwitch);  // flat copies for the N^2 loop
    std::vector<std::uint64_t> host_up(hosts.size(), 0);
    for (std::size_t k = 0; k < hosts.size(); ++k) {
        const Port &sp = f.port(hosts[k].node, hosts[k].port);
        if (f.node(sp.peer).is_switch()) host_switch[k] = f.node(sp.peer).sw;
        host_up[k] = routes[f.node(hosts[k].node).port_base + hosts[k].port];
    }
    for (const LidOwner &dst : hosts) {
        const Lid d = f.port(dst.node, dst.port).lid;
        if (!w.walk(d) || w.owner_switch == kNoSwitch) continue;
        const auto &order = w.sources_first();
        for (std::size_t i = order.size(); i-- > 0;) {  // destination outwards
            const SwitchIdx s = order[i];
            const std::uint64_t here = routes[f.node(f.switch_node(s)).port_base + w.out[s]];
            bott[s] = std::max(here, w.next[s] != kNoSwitch ? bott[w.next[s]] : 0);
        }
        for (std::size_t k = 0; k < hosts.size(); ++k) {
            if (hosts[k].node == dst.node && hosts[k].port == dst.port) continue;
            ++r.flows;
            const SwitchIdx s = host_switch[k];
            const double bw =
                s != kNoSwitch && w.dist[s] >= 0
                    ? 1.0 / static_cast<double>(std::max<std::uint64_t>({1, host_up[k], bott[s]}))
                    : 0.0;
            if (bw == 0) ++r.undelivered;
            sum += bw;
            r.min_bandwidth = first ? bw : std::min(r.min_bandwidth, bw);
            first = false;
        }
    }
    r.mean_bandwidth = r.flows ? sum / static_cast<double>(r.flows) : 0.0;
    return r;
}

}  // namespace weft::routing
