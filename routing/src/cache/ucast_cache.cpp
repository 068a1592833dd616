// The unicast cache: a snapshot of the topology by GUID (what each switch port is cabled to,
// every LID) next to the tables computed on it, and the comparison of a new fabric with it
// (see ucast_cache.hpp for the rules, which are OpenSM's osm_ucast_cache validation).
#include "weft/routing/ucast_cache.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace weft::routing {
namespace {

enum class Kind : std::uint8_t { None, Switch, End };

struct SnapPort {
    Kind kind = Kind::None;
    Guid remote = 0;  // switch node GUID, or end port GUID
    PortNum remote_port = 0;
};

struct SnapSwitch {
    Guid guid = 0;
    std::string name;
    Lid lid = 0;
    PortNum radix = 0;
    bool leaf = false;            // has an end port cabled to it
    std::vector<SnapPort> ports;  // by port number, [0] unused
};

struct SnapEnd {
    Guid guid = 0;
    std::string name;
    Lid lid = 0;
    std::uint8_t lmc = 0;
    std::vector<Lid> vf_lids;  // a vSwitch's VF LIDs, in VF order (they move with VMs)
};

// The routing-relevant topology: switches that are cabled to anything, and the end ports
// (CA/router ports with a LID) cabled to those switches.
struct Snapshot {
    std::vector<SnapSwitch> sws;
    std::unordered_map<Guid, std::size_t> sw_at;
    std::vector<SnapEnd> ends;
    std::unordered_map<Guid, std::size_t> end_at;
    std::string ca_to_ca;  // first CA-to-CA link seen, if any

    const SnapSwitch *sw(Guid g) const {
        auto it = sw_at.find(g);
        return it == sw_at.end() ? nullptr : &sws[it->second];
    }
    const SnapEnd *end(Guid g) const {
        auto it = end_at.find(g);
        return it == end_at.end() ? nullptr : &ends[it->second];
    }
};

Guid end_guid(const Fabric &f, NodeIdx n, PortNum p) {
    const Guid g = f.port(n, p).guid;
    return g ? g : f.node(n).guid + p;  // the key LID assignment uses for a port without a GUID
}

std::string port_name(const Fabric &f, NodeIdx n, PortNum p) {
    return "'" + f.node(n).desc + "' port " + std::to_string(p);
}

bool switch_present(const Fabric &f, NodeIdx n) {
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
        if (f.port(n, p).linked()) return true;
    return false;
}

Snapshot snapshot(const Fabric &f) {
    Snapshot s;
    for (NodeIdx n : f.switches()) {
        if (!switch_present(f, n)) continue;
        const Node &node = f.node(n);
        SnapSwitch x;
        x.guid = node.guid;
        x.name = "'" + node.desc + "' (" + guid_text(node.guid) + ")";
        x.lid = f.port(n, 0).lid;
        x.radix = node.num_ports;
        x.ports.resize(std::size_t{node.num_ports} + 1);
        for (PortNum p = 1; p <= node.num_ports; ++p) {
            const Port &pt = f.port(n, p);
            if (!pt.linked()) continue;
            SnapPort &sp = x.ports[p];
            sp.remote_port = pt.peer_port;
            if (f.node(pt.peer).is_switch()) {
                sp.kind = Kind::Switch;
                sp.remote = f.node(pt.peer).guid;
                continue;
            }
            sp.kind = Kind::End;
            sp.remote = end_guid(f, pt.peer, pt.peer_port);
            x.leaf = true;
            const Port &ep = f.port(pt.peer, pt.peer_port);
            s.end_at[sp.remote] = s.ends.size();
            s.ends.push_back({sp.remote, port_name(f, pt.peer, pt.peer_port), ep.lid, ep.lmc, {}});
            if (f.node(pt.peer).vswitch && pt.peer_port == kVswitchPort)
                for (const VirtualFunction &v : f.vfs(pt.peer)) s.ends.back().vf_lids.push_back(v.lid);
        }
        s.sw_at[x.guid] = s.sws.size();
        s.sws.push_back(std::move(x));
    }
    for (NodeIdx n = 0; n < f.node_count() && s.ca_to_ca.empty(); ++n) {
        if (f.node(n).is_switch()) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &pt = f.port(n, p);
            if (pt.linked() && !f.node(pt.peer).is_switch()) {
                s.ca_to_ca = port_name(f, n, p) + " - " + port_name(f, pt.peer, pt.peer_port);
                break;
            }
        }
    }
    return s;
}

std::string lid_text(Lid base, std::uint8_t lmc) {
    return lmc ? std::to_string(base) + "-" + std::to_string(base + (Lid{1} << lmc) - 1)
               : std::to_string(base);
}

// Up to three names, then "and N more".
std::string some(const std::vector<std::string> &names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > 3) out += " and " + std::to_string(names.size() - 3) + " more";
    return out;
}

std::string count(std::size_t n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

struct UcastCache::State {
    std::string chain;
    RoutingOptions options;
    Snapshot topo;
    ChainResult routed;
    std::string engine;
    unsigned vls_used = 1;
    // Tables by switch GUID (rows of the fabric they were computed on).
    struct Rows {
        std::vector<PortNum> lft;
        std::vector<std::uint8_t> hops, path_sl;
        std::vector<Sl2Vl> sl2vl;
    };
    std::unordered_map<Guid, Rows> rows;
    bool has_path_sl = false, has_sl2vl = false;
    std::optional<Sl2Vl> sl2vl_all;
    // What the previous lookup found missing, to report what came back.
    std::unordered_set<Guid> missing_ends, missing_sws;
};

UcastCache::UcastCache() = default;
UcastCache::~UcastCache() = default;
UcastCache::UcastCache(UcastCache &&) noexcept = default;
UcastCache &UcastCache::operator=(UcastCache &&) noexcept = default;

bool UcastCache::valid() const {
    return state_ != nullptr;
}

void UcastCache::invalidate() {
    state_.reset();
}

void UcastCache::store(const Fabric &f, std::string_view chain, const RoutingOptions &o,
                       const RoutingTables &t, ChainResult routed) {
    auto s = std::make_unique<State>();
    s->chain = std::string(chain);
    s->options = o;
    s->topo = snapshot(f);
    s->routed = std::move(routed);
    s->engine = t.engine;
    s->vls_used = t.vls_used;
    s->has_path_sl = !t.path_sl.empty();
    s->has_sl2vl = !t.sl2vl.empty();
    s->sl2vl_all = t.sl2vl_all;
    for (SwitchIdx i = 0; i < f.switch_count(); ++i) {
        const Guid g = f.node(f.switch_node(i)).guid;
        if (!s->topo.sw(g)) continue;
        State::Rows &r = s->rows[g];
        r.lft = t.lft[i];
        r.hops = t.hops[i];
        if (s->has_path_sl) r.path_sl = t.path_sl[i];
        if (s->has_sl2vl) r.sl2vl = t.sl2vl[i];
    }
    state_ = std::move(s);
}

CacheDecision UcastCache::lookup(const Fabric &f, std::string_view chain, const RoutingOptions &o,
                                 RoutingTables &out) {
    CacheDecision d;
    auto miss = [&](std::string why) {
        d.hit = false;
        d.reason = std::move(why);
        return d;
    };
    if (!state_) return miss("no cached routing");
    State &st = *state_;
    if (chain != st.chain)
        return miss("engine chain changed ('" + st.chain + "' -> '" + std::string(chain) + "')");
    if (!(o == st.options)) return miss("routing options changed");
    const Snapshot now = snapshot(f);
    const Snapshot &was = st.topo;
    if (now.sws.empty()) return miss("no switch is cabled");
    if (!now.ca_to_ca.empty()) return miss("CA-to-CA link: " + now.ca_to_ca);

    auto describe = [](const Snapshot &s, const SnapPort &p) -> std::string {
        if (p.kind == Kind::None) return "nothing";
        if (p.kind == Kind::Switch) {
            const SnapSwitch *y = s.sw(p.remote);
            return "switch " + (y ? y->name : guid_text(p.remote)) + " port " + std::to_string(p.remote_port);
        }
        const SnapEnd *e = s.end(p.remote);
        return "end port " + (e ? e->name : guid_text(p.remote));
    };
    // Every cabled port of the new fabric must be cabled as it was.
    for (const SnapSwitch &x : now.sws) {
        const SnapSwitch *old = was.sw(x.guid);
        if (!old) return miss("new switch " + x.name);
        if (old->lid != x.lid)
            return miss("LID of switch " + x.name + " changed (" + std::to_string(old->lid) + " -> " +
                        std::to_string(x.lid) + ")");
        if (old->radix != x.radix) return miss("port count of switch " + x.name + " changed");
        for (PortNum p = 1; p <= x.radix; ++p) {
            const SnapPort &a = old->ports[p], &b = x.ports[p];
            if (b.kind == Kind::None) continue;
            if (a.kind != b.kind || a.remote != b.remote || a.remote_port != b.remote_port) {
                const std::string at = "switch " + x.name + " port " + std::to_string(p);
                if (a.kind == Kind::None) {
                    if (b.kind == Kind::End && !was.end(b.remote))
                        return miss("new end port " + now.end(b.remote)->name + " on " + at);
                    return miss("new link: " + at + " -> " + describe(now, b));
                }
                return miss("link moved: " + at + " now leads to " + describe(now, b) + ", was " +
                            describe(was, a));
            }
            if (b.kind == Kind::End) {
                const SnapEnd &e = *now.end(b.remote), &e0 = *was.end(b.remote);
                if (e.lid != e0.lid || e.lmc != e0.lmc)
                    return miss("LID of " + e.name + " changed (" + lid_text(e0.lid, e0.lmc) + " -> " +
                                lid_text(e.lid, e.lmc) + ")");
                if (e.vf_lids != e0.vf_lids)
                    return miss("VF LIDs of " + e.name + " changed (a VM started, stopped or migrated)");
            }
        }
    }
    // What is missing must be end ports and leaf switches that no route to a present CA needs.
    std::vector<std::string> leaves_gone, leaves_back, ends_gone, ends_back;
    std::unordered_set<Guid> missing_sws, missing_ends;
    for (const SnapSwitch &x : was.sws) {
        const SnapSwitch *cur = now.sw(x.guid);
        if (!cur) {
            if (!x.leaf) return miss("non-leaf switch " + x.name + " is gone");
            for (PortNum p = 1; p <= x.radix; ++p) {
                const SnapPort &sp = x.ports[p];
                if (sp.kind != Kind::Switch) continue;
                const SnapSwitch *y = was.sw(sp.remote);
                if (y && y->leaf)
                    return miss("leaf switch " + x.name + " is gone and was cabled to leaf switch " +
                                y->name);
            }
            missing_sws.insert(x.guid);
            if (!st.missing_sws.count(x.guid)) leaves_gone.push_back(x.name);
            continue;
        }
        for (PortNum p = 1; p <= x.radix; ++p) {
            const SnapPort &sp = x.ports[p];
            if (sp.kind != Kind::Switch || cur->ports[p].kind != Kind::None) continue;
            if (now.sw(sp.remote))
                return miss("switch-to-switch link down: " + x.name + " port " + std::to_string(p) + " - " +
                            describe(was, sp));
        }
    }
    for (const SnapSwitch &x : was.sws)  // in the cached order, so reports are stable
        if (st.missing_sws.count(x.guid) && now.sw(x.guid)) leaves_back.push_back(x.name);
    for (const SnapEnd &e : was.ends) {
        if (now.end(e.guid)) continue;
        missing_ends.insert(e.guid);
        if (!st.missing_ends.count(e.guid))
            ends_gone.push_back(e.name + " (LID " + lid_text(e.lid, e.lmc) + ")");
    }
    for (const SnapEnd &e : was.ends)
        if (st.missing_ends.count(e.guid) && now.end(e.guid)) ends_back.push_back(e.name);

    // The cached tables, row by row, for the new fabric; LIDs whose owner is gone unrouted.
    out.reset(f);
    out.engine = st.engine;
    out.vls_used = st.vls_used;
    const std::size_t width = std::size_t{f.max_lid()} + 1;
    if (st.has_path_sl) out.path_sl.assign(f.switch_count(), std::vector<std::uint8_t>(width, 0));
    if (st.has_sl2vl) out.sl2vl.assign(f.switch_count(), {});
    out.sl2vl_all = st.sl2vl_all;
    for (SwitchIdx i = 0; i < f.switch_count(); ++i) {
        auto it = st.rows.find(f.node(f.switch_node(i)).guid);
        if (it == st.rows.end() || !now.sw(it->first)) continue;
        const State::Rows &r = it->second;
        const std::size_t n = std::min(width, r.lft.size());
        std::copy_n(r.lft.begin(), n, out.lft[i].begin());
        std::copy_n(r.hops.begin(), n, out.hops[i].begin());
        if (st.has_path_sl)
            std::copy_n(r.path_sl.begin(), std::min(n, r.path_sl.size()), out.path_sl[i].begin());
        if (st.has_sl2vl) out.sl2vl[i] = r.sl2vl;
    }
    std::vector<std::uint8_t> kind(width, 0);  // 0 gone, 1 switch LID, 2 end port LID
    for (Lid l = 1; l < width; ++l) {
        const auto owner = f.lid_owner(l);
        if (owner) {
            const Node &n = f.node(owner->node);
            if (n.is_switch() ? now.sw(n.guid) != nullptr
                              : now.end(end_guid(f, owner->node, owner->port)) != nullptr)
                kind[l] = n.is_switch() ? 1 : 2;
        }
        if (kind[l]) continue;
        bool routed = false;
        for (SwitchIdx i = 0; i < f.switch_count(); ++i) {
            routed |= out.lft[i][l] != kNoPort;
            out.lft[i][l] = kNoPort;
            out.hops[i][l] = kInfHops;
        }
        d.unrouted_lids += routed;
    }
    // A cached entry toward a present LID must still leave through a cabled port.
    for (SwitchIdx i = 0; i < f.switch_count(); ++i) {
        const NodeIdx node = f.switch_node(i);
        if (!now.sw(f.node(node).guid)) continue;
        const auto &row = out.lft[i];
        for (Lid l = 1; l < width; ++l) {
            const PortNum p = row[l];
            if (!kind[l] || p == kNoPort || p == 0) continue;
            if (p <= f.node(node).num_ports && f.port(node, p).linked()) continue;
            if (kind[l] == 1) {
                ++d.stale_switch_entries;
                continue;
            }
            out.reset(f);
            return miss("cached route of switch '" + f.node(node).desc + "' to LID " + std::to_string(l) +
                        " leaves through port " + std::to_string(p) + ", which is down now");
        }
    }

    st.missing_ends = std::move(missing_ends);
    st.missing_sws = std::move(missing_sws);
    d.hit = true;
    d.end_ports_down = ends_gone.size();
    d.end_ports_back = ends_back.size();
    d.leaf_switches_down = leaves_gone.size();
    d.leaf_switches_back = leaves_back.size();
    d.end_ports_missing = st.missing_ends.size();
    d.leaf_switches_missing = st.missing_sws.size();
    std::vector<std::string> parts;
    if (!leaves_gone.empty())
        parts.push_back(count(leaves_gone.size(), "leaf switch") + " down: " + some(leaves_gone));
    if (!ends_gone.empty())
        parts.push_back(count(ends_gone.size(), "end port") + " down: " + some(ends_gone));
    if (!leaves_back.empty())
        parts.push_back(count(leaves_back.size(), "leaf switch") + " back: " + some(leaves_back));
    if (!ends_back.empty())
        parts.push_back(count(ends_back.size(), "end port") + " back: " + some(ends_back));
    if (parts.empty()) parts.push_back("no change");
    d.reason.clear();
    for (std::size_t i = 0; i < parts.size(); ++i) d.reason += (i ? "; " : "") + parts[i];
    if ((d.end_ports_missing || d.leaf_switches_missing) && (leaves_gone.empty() && ends_gone.empty()))
        d.reason += " (still missing: " + std::to_string(d.end_ports_missing) + " end ports, " +
                    std::to_string(d.leaf_switches_missing) + " leaf switches)";
    return d;
}

CachedRouting UcastCache::route(std::string_view chain, const Fabric &f, const RoutingOptions &o,
                                RoutingTables &out, std::function<void(std::size_t, std::size_t)> progress) {
    CachedRouting r;
    if (!o.ucast_cache) {
        r.cache.reason = "cache off";
        r.chain = run_chain(chain, f, o, out, std::move(progress));
        r.recomputed = true;
        return r;
    }
    r.cache = lookup(f, chain, o, out);
    if (r.cache.hit) {
        r.chain = state_->routed;
        return r;
    }
    r.chain = run_chain(chain, f, o, out, std::move(progress));
    r.recomputed = true;
    if (r.chain.ok)
        store(f, chain, o, out, r.chain);
    else
        invalidate();
    return r;
}

}  // namespace weft::routing
