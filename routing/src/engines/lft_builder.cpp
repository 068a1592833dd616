#include "engines/lft_builder.hpp"

#include <algorithm>
#include <numeric>

#include "engines/hot_sort.hpp"
#include "engines/osm_guid_order.hpp"

namespace weft::routing::engines {

namespace {

// The default order with the entries of the listed port GUIDs moved to the front, in list order.
std::vector<RouteOrderEntry> listed_first(const Fabric &f, std::vector<RouteOrderEntry> order,
                                          const std::vector<Guid> &first) {
    std::vector<RouteOrderEntry> out;
    std::vector<bool> moved(order.size(), false);
    for (Guid guid : first) {
        const auto owner = f.find_port_guid(guid);
        if (!owner) continue;  // OpenSM skips GUIDs not in the fabric
        const Lid base = f.port(owner->node, owner->port).lid;
        for (std::size_t k = 0; k < order.size(); ++k)
            if (!moved[k] && order[k].base == base) {
                moved[k] = true;
                out.push_back(order[k]);
                break;
            }
    }
    for (std::size_t k = 0; k < order.size(); ++k)
        if (!moved[k]) out.push_back(order[k]);
    return out;
}

}  // namespace

[[gnu::hot]] std::vector<RouteOrderEntry> route_order(const Fabric &f, const SwitchGraph &g,
                                                      const std::vector<Guid> &first) {
    // OpenSM: end ports of the switches with the most end ports first (switches in its switch
    // table's order within equal counts: a stable sort), each switch's ports in port order; then
    // every other LID owner in its port table's order. Both tables are GUID maps walked in
    // osm_table_key order.
    const std::size_t n = g.size();
    struct Key {
        std::uint32_t end_ports;
        std::uint64_t guid;  // osm_table_key of the switch GUID
        SwitchIdx s;
    };
    std::vector<Key> keys(n);
    for (SwitchIdx s = 0; s < n; ++s)
        keys[s] = {g.end_ports(s), osm_table_key(f.node(f.switch_node(s)).guid), s};
    // The index as the last key: the stable order from a plain sort.
    sort_total(keys, [](const Key &a, const Key &b) {
        if (a.end_ports != b.end_ports) return a.end_ports > b.end_ports;
        if (a.guid != b.guid) return a.guid < b.guid;
        return a.s < b.s;
    });
    std::vector<RouteOrderEntry> order;
    order.reserve(g.max_lid());
    std::vector<std::uint8_t> taken(std::size_t{g.max_lid()} + 1, 0);
    for (const Key &k : keys) {
        if (k.end_ports == 0) break;  // sorted: no end ports on this switch or the rest
        const auto ports = f.ports(f.switch_node(k.s));
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &x = ports[p];
            if (!x.linked() || f.node(x.peer).is_switch()) continue;
            const Port &ca = f.port(x.peer, x.peer_port);
            if (ca.lid == 0 || ca.lid > g.max_lid() || taken[ca.lid]) continue;
            taken[ca.lid] = 1;
            order.push_back({ca.lid, 1u << ca.lmc});
        }
    }
    struct Rest {
        std::uint64_t guid;  // osm_table_key of the port GUID
        RouteOrderEntry e;
    };
    std::vector<Rest> rest;
    rest.reserve(g.max_lid() + std::size_t{1} - order.size());
    for (Lid l = 1; l <= g.max_lid(); ++l) {
        const LidTarget &t = g.target(l);
        if (t.node == kNoNode || taken[l]) continue;
        const Port &x = f.port(t.node, t.node_port);
        if (x.lid != l) continue;  // only base LIDs start an entry
        const Guid guid = t.is_switch ? f.node(t.node).guid : x.guid;
        rest.push_back({osm_table_key(guid), {l, 1u << x.lmc}});
    }
    // Entries were added by LID, so the base LID is the stable tie-break.
    sort_total(rest, [](const Rest &a, const Rest &b) {
        return a.guid != b.guid ? a.guid < b.guid : a.e.base < b.e.base;
    });
    for (const Rest &r : rest) order.push_back(r.e);
    return first.empty() ? order : listed_first(f, std::move(order), first);
}

[[gnu::hot]] SwitchHops switch_hops_from_lids(const SwitchGraph &g, const RoutingTables &t) {
    SwitchHops h;
    const std::size_t n = g.size();
    h.n = n;
    h.stride = (n + 15) / 16 * 16;
    std::vector<Lid> rep(n, 0);
    for (Lid l = g.max_lid(); l >= 1; --l)
        if (const SwitchIdx d = g.target(l).sw; d != kNoSwitch) rep[d] = l;
    h.v.assign(n * h.stride, kInfHops);
    for (SwitchIdx x = 0; x < n; ++x) {
        const std::uint8_t *const lids = t.hops[x].data();
        std::uint8_t *const row = h.v.data() + std::size_t{x} * h.stride;
        for (SwitchIdx d = 0; d < n; ++d)
            if (rep[d]) row[d] = lids[rep[d]];
    }
    return h;
}

std::vector<std::uint8_t> port_search_rank(const Fabric &f, const RoutingOptions &o, SwitchIdx s) {
    const NodeIdx node = f.switch_node(s);
    const Guid guid = f.node(node).guid;
    for (const PortOrder &po : o.port_search_order) {
        if (po.sw != guid) continue;
        const unsigned radix = f.node(node).num_ports;
        std::vector<std::uint8_t> rank(std::size_t{radix} + 1, 0xFF);
        unsigned next = 0;
        for (PortNum p : po.ports)
            if (p <= radix && rank[p] == 0xFF) rank[p] = static_cast<std::uint8_t>(next++);
        for (PortNum p = 1; p <= radix; ++p)
            if (rank[p] == 0xFF) rank[p] = static_cast<std::uint8_t>(next++);
        return rank;
    }
    return {};
}

std::vector<bool> ignored_ports(const Fabric &f, const RoutingOptions &o, SwitchIdx s) {
    const NodeIdx node = f.switch_node(s);
    const auto ports = f.ports(node);
    std::vector<bool> out(ports.size(), false);
    const Guid guid = f.node(node).guid;
    for (const auto &[g, p] : o.ignore_ports)
        if (g == guid && p > 0 && p < ports.size()) out[p] = true;
    if (!o.ignore_guids.empty()) {
        for (PortNum p = 1; p < ports.size(); ++p) {
            const Port &x = ports[p];
            if (!x.linked() || f.node(x.peer).is_switch()) continue;
            const Guid pg = f.port(x.peer, x.peer_port).guid;
            if (std::find(o.ignore_guids.begin(), o.ignore_guids.end(), pg) != o.ignore_guids.end())
                out[p] = true;
        }
    }
    return out;
}

namespace detail {

PortNum pick_port(const Fabric &f, SwitchIdx s, const PortNum *cand, unsigned n, unsigned start_from,
                  const std::vector<std::uint32_t> &load, std::vector<RemoteUse> *remote) {
    // Candidates are in port order; OpenSM scans ports cyclically from start_from.
    const unsigned radix = static_cast<unsigned>(load.size());
    start_from %= radix;
    unsigned first = 0;
    while (first < n && cand[first] < start_from) ++first;
    if (first == n) first = 0;

    constexpr std::uint32_t kMax = 0xFFFFFFFFu;
    std::uint32_t least = kMax, least_other_sys = kMax, least_other_node = kMax, least_fwd = kMax;
    PortNum best = 0, best_other_sys = 0, best_other_node = 0;
    const NodeIdx self = f.switch_node(s);
    for (unsigned k = 0; k < n; ++k) {
        const PortNum port = cand[(first + k) % n];
        const std::uint32_t count = load[port];
        const RemoteUse *used = nullptr;
        if (remote) {
            // Rule b: a system not yet used by this LID group; rule c: a node not yet used.
            const Node &peer = f.node(f.port(self, port).peer);
            const bool sys_used = std::any_of(remote->begin(), remote->end(),
                                              [&](const RemoteUse &r) { return r.sys == peer.sys_guid; });
            if (!sys_used) {
                if (count < least_other_sys) least_other_sys = count, best_other_sys = port, least_fwd = 0;
            } else {
                for (const RemoteUse &r : *remote)
                    if (r.node == peer.guid) used = &r;
                if (!used && count < least_other_node)
                    least_other_node = count, best_other_node = port, least_fwd = 0;
            }
        }
        if (count < least) {
            best = port;
            least = count;
            if (used && used->forwarded_to < least_fwd) least_fwd = used->forwarded_to;
        } else if (used && count == least && used->forwarded_to < least_fwd) {
            // Rule d: among equally loaded ports, the node this group used least.
            least_fwd = used->forwarded_to;
            best = port;
        }
    }
    if (remote && best) {
        if (best_other_sys) return best_other_sys;
        if (best_other_node) return best_other_node;
    }
    return best;
}

void note_remote(const Fabric &f, SwitchIdx s, PortNum port, std::vector<RemoteUse> &remote) {
    const Node &peer = f.node(f.port(f.switch_node(s), port).peer);
    for (RemoteUse &r : remote)
        if (r.node == peer.guid) {
            ++r.forwarded_to;
            return;
        }
    remote.push_back({peer.sys_guid, peer.guid, 1});
}

}  // namespace detail
}  // namespace weft::routing::engines
