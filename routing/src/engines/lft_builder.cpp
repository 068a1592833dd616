#include "engines/lft_builder.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <span>

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

std::vector<RouteOrderEntry> route_order(const Fabric &f, const SwitchGraph &g,
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
    std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
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
    std::sort(rest.begin(), rest.end(), [](const Rest &a, const Rest &b) {
        return a.guid != b.guid ? a.guid < b.guid : a.e.base < b.e.base;
    });
    for (const Rest &r : rest) order.push_back(r.e);
    return first.empty() ? order : listed_first(f, std::move(order), first);
}

HopMatrix switch_hops_from_lids(const SwitchGraph &g, const RoutingTables &t) {
    const std::size_t n = g.size();
    HopMatrix h;
    h.assign(n);
    std::vector<Lid> rep(n, 0);
    for (Lid l = g.max_lid(); l >= 1; --l)
        if (const SwitchIdx d = g.target(l).sw; d != kNoSwitch) rep[d] = l;
    for (SwitchIdx x = 0; x < n; ++x)
        for (SwitchIdx d = 0; d < n; ++d)
            if (rep[d]) h.at(x, d) = t.hops[x][rep[d]];
    return h;
}

void min_hop_row(const std::uint8_t *here, const std::uint8_t *there, std::uint8_t *ok, std::size_t n,
                 unsigned step) {
    // 16 destinations a step: every switch pair of every link is tested, n^2 x links per
    // fabric, and GCC's -O2 leaves the plain loop scalar.
    using detail::Bytes16;
    std::size_t d = 0;
    for (; step == 1 && d + 16 <= n; d += 16) {  // (-w's steps could wrap a byte)
        Bytes16 x, h;
        std::memcpy(&x, there + d, 16);
        std::memcpy(&h, here + d, 16);
        const Bytes16 r = reinterpret_cast<Bytes16>((x != kInfHops) & (x + 1 == h)) & 1;
        std::memcpy(ok + d, &r, 16);
    }
    for (; d < n; ++d) ok[d] = there[d] != kInfHops && there[d] + step == here[d];
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

namespace {

// What the LIDs of one end port have gone through at the switch being built (LMC > 0): per far
// end (PortPolicy::Lmc::systems: the peer node, with its system; far_ports: the far switch and
// port), how many of the end port's LIDs were forwarded there.
struct FarUse {
    std::uint64_t sys = 0, end = 0;
    std::uint32_t forwarded_to = 0;
};

struct FarEnd {
    std::uint64_t sys, end;
};

FarEnd far_end(const Fabric &f, NodeIdx self, PortNum port, PortPolicy::Lmc lmc) {
    const Port &x = f.port(self, port);
    const Node &peer = f.node(x.peer);
    if (lmc == PortPolicy::Lmc::far_ports) return {0, std::uint64_t{peer.sw} << 8 | x.peer_port};
    return {peer.sys_guid, peer.guid};
}

const FarUse *find_use(const std::vector<FarUse> &used, std::uint64_t end) {
    for (const FarUse &u : used)
        if (u.end == end) return &u;
    return nullptr;
}

void note_use(std::vector<FarUse> &used, FarEnd e) {
    for (FarUse &u : used)
        if (u.end == e.end) {
            ++u.forwarded_to;
            return;
        }
    used.push_back({e.sys, e.end, 1});
}

// Where the last pick toward one destination switch found the first least-loaded candidate.
// Loads only grow, so every candidate still carries at least `least` and those before `at`
// more: the next pick resumes at `at` instead of scanning every candidate again.
struct Resume {
    std::uint32_t least = 0xFFFFFFFFu;
    unsigned at = 0;
};

// The port for one LID among the candidates cand[0..n), scanned cyclically from cand[first].
// Without `used` (one LID per end port, the scan from the first candidate): the first
// least-loaded, resuming from r. With it, the LMC rules of policy.lmc over what the end port's
// earlier LIDs used.
PortNum pick_port(const Fabric &f, NodeIdx self, const PortNum *cand, unsigned n, unsigned first,
                  const std::uint32_t *load, const PortPolicy &policy, const std::vector<FarUse> *used,
                  Resume &r) {
    if (!policy.equalize) return cand[first];
    constexpr std::uint32_t kMax = 0xFFFFFFFFu;
    std::uint32_t least = kMax;
    PortNum best = 0;
    if (!used) {
        // From r.at on, the first that still carries r.least; if none does, the least of all,
        // the earlier one on a tie (those before r.at carried more).
        std::uint32_t tail_least = kMax;
        unsigned tail_at = r.at;
        for (unsigned k = r.at; k < n; ++k) {
            if (load[cand[k]] == r.least) {
                r.at = k;
                return cand[k];
            }
            if (load[cand[k]] < tail_least) tail_least = load[cand[k]], tail_at = k;
        }
        std::uint32_t head_least = kMax;
        unsigned head_at = 0;
        for (unsigned k = 0; k < r.at; ++k)
            if (load[cand[k]] < head_least) head_least = load[cand[k]], head_at = k;
        if (head_least <= tail_least)
            r.least = head_least, r.at = head_at;
        else
            r.least = tail_least, r.at = tail_at;
        return cand[r.at];
    }
    // The k-th candidate of the cyclic scan.
    auto at = [&](unsigned k) { return cand[first + k < n ? first + k : first + k - n]; };
    std::uint32_t least_fwd = kMax;
    if (policy.lmc == PortPolicy::Lmc::far_ports) {
        for (unsigned k = 0; k < n; ++k) {
            const PortNum port = at(k);
            const FarUse *u = find_use(*used, far_end(f, self, port, policy.lmc).end);
            const std::uint32_t fwd = u ? u->forwarded_to : 0;
            if (load[port] < least) {
                least = load[port], best = port;
                least_fwd = std::min(least_fwd, fwd);  // as OpenSM's dor: lowered, not reset
            } else if (load[port] == least && fwd < least_fwd) {
                least_fwd = fwd, best = port;
            }
        }
        return best;
    }
    // Rule b: a system the group has not used yet; rule c: a node not used yet; rule d: among
    // equally loaded ports, the node the group used least.
    std::uint32_t least_other_sys = kMax, least_other_node = kMax;
    PortNum best_other_sys = 0, best_other_node = 0;
    for (unsigned k = 0; k < n; ++k) {
        const PortNum port = at(k);
        const std::uint32_t count = load[port];
        const FarEnd e = far_end(f, self, port, policy.lmc);
        const FarUse *u = nullptr;
        const bool sys_used =
            std::any_of(used->begin(), used->end(), [&](const FarUse &x) { return x.sys == e.sys; });
        if (!sys_used) {
            if (count < least_other_sys) least_other_sys = count, best_other_sys = port, least_fwd = 0;
        } else {
            u = find_use(*used, e.end);
            if (!u && count < least_other_node)
                least_other_node = count, best_other_node = port, least_fwd = 0;
        }
        if (count < least) {
            best = port;
            least = count;
            if (u && u->forwarded_to < least_fwd) least_fwd = u->forwarded_to;
        } else if (u && count == least && u->forwarded_to < least_fwd) {
            least_fwd = u->forwarded_to;
            best = port;
        }
    }
    if (best) {
        if (best_other_sys) return best_other_sys;
        if (best_other_node) return best_other_node;
    }
    return best;
}

}  // namespace

void build_lfts(const Fabric &f, const SwitchGraph &g, const RoutingOptions &o, RoutingTables &t,
                const std::vector<RouteOrderEntry> &order, const PortPolicy &policy, const OkRow &ok_row) {
    const std::size_t n = g.size();
    std::uint32_t max_count = 1;
    for (const RouteOrderEntry &e : order) max_count = std::max(max_count, e.count);
    const bool lmc = o.lmc > 0;
    std::vector<std::vector<FarUse>> used(lmc ? order.size() : 0);  // by route order entry
    std::vector<std::uint8_t> ok;                                   // per link, its ok row
    std::vector<unsigned> search;                                   // link indices in search order
    std::vector<PortNum> cand;  // per destination switch, its candidates in search order
    std::vector<std::uint8_t> cand_len;
    std::vector<std::uint32_t> load;
    std::vector<Resume> resume;  // per destination switch
    for (SwitchIdx s = 0; s < n; ++s) {
        const NodeIdx self = f.switch_node(s);
        const auto links = g.links(s);
        const std::size_t nl = links.size();
        ok.resize(nl * n);
        for (std::size_t k = 0; k < nl; ++k) ok_row(s, links[k], ok.data() + k * n);
        const std::vector<std::uint8_t> rank = port_search_rank(f, o, s);
        search.resize(nl);
        std::iota(search.begin(), search.end(), 0u);
        if (!rank.empty())
            std::stable_sort(search.begin(), search.end(), [&](unsigned a, unsigned b) {
                return rank[links[a].port] < rank[links[b].port];
            });
        // Each destination switch's candidates: the allowed links in search order (with
        // first_neighbour_only, those to the first one's neighbour). Without branches (whether a
        // link is a candidate is data): each port is written at the row's end and kept only
        // where allowed.
        cand.resize(n * nl + 1);  // + 1: the last row's last write
        cand_len.resize(n);
        for (SwitchIdx d = 0; d < n; ++d) {
            PortNum *const row = cand.data() + d * nl;
            unsigned len = 0;
            SwitchIdx via = kNoSwitch;
            for (const unsigned k : search) {
                unsigned keep = ok[k * n + d];
                if (policy.first_neighbour_only) {
                    via = keep && via == kNoSwitch ? links[k].peer : via;
                    keep &= via == links[k].peer;
                }
                row[len] = links[k].port;
                len += keep;
            }
            cand_len[d] = static_cast<std::uint8_t>(len);
        }
        const std::vector<bool> ignored = ignored_ports(f, o, s);
        const unsigned radix = f.node(self).num_ports + 1u;
        load.assign(radix, 0);
        for (auto &u : used) u.clear();
        resume.assign(n, Resume{});
        PortNum *const lft = t.lft[s].data();
        const std::uint8_t *const hops = t.hops[s].data();
        const std::vector<PortNum> *held = nullptr;  // what this switch holds from before
        if (o.existing.lfts) {
            const auto it = o.existing.lfts->by_switch.find(f.node(self).guid);
            if (it != o.existing.lfts->by_switch.end()) held = &it->second;
        }
        for (std::uint32_t i = 0; i < max_count; ++i) {
            for (std::size_t k = 0; k < order.size(); ++k) {
                const RouteOrderEntry &e = order[k];
                if (i >= e.count) continue;
                const Lid lid = e.base + i;
                const LidTarget &tg = g.target(lid);
                if (tg.sw == kNoSwitch) continue;
                PortNum port;
                if (tg.sw == s) {
                    port = tg.port;  // own LID (port 0) or a CA cabled right here
                } else {
                    if (hops[lid] == kInfHops) continue;
                    const unsigned len = cand_len[tg.sw];
                    if (len == 0) continue;
                    const PortNum *const c = cand.data() + std::size_t{tg.sw} * nl;
                    unsigned first = 0;
                    if (lmc && policy.lmc == PortPolicy::Lmc::systems && i > 0 && lft[lid - 1] != kNoPort) {
                        // OpenSM resumes after the previous LID's port, counted as a position in
                        // the search order where -O gives one (position 0 is port 0, so a port of
                        // rank r sits at r + 1): the first candidate at or after it.
                        const unsigned start = (lft[lid - 1] + 1u) % radix;
                        while (first < len && (rank.empty() ? c[first] : rank[c[first]] + 1u) < start)
                            ++first;
                        if (first == len) first = 0;
                    }
                    // An entry the switch already holds stays while it is still a candidate.
                    const PortNum before = held && lid < held->size() ? (*held)[lid] : kNoPort;
                    if (before != kNoPort && before != 0 && std::find(c, c + len, before) != c + len)
                        port = before;
                    else
                        port = pick_port(f, self, c, len, first, load.data(), policy,
                                         lmc ? &used[k] : nullptr, resume[tg.sw]);
                }
                lft[lid] = port;
                if (port == 0 || ignored[port] || (tg.is_switch && !o.port_profile_switch_nodes)) continue;
                ++load[port];
                if (lmc && tg.sw != s) note_use(used[k], far_end(f, self, port, policy.lmc));
            }
        }
    }
}

}  // namespace weft::routing::engines
