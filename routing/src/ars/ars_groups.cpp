// The ARS group compiler: candidates from the engine's tables, kept only while the union of all
// choices stays free of credit loops.
#include "weft/routing/ars_groups.hpp"

#include <algorithm>
#include <numeric>

#include "acyclic_cdg.hpp"
#include "ars_distance.hpp"
#include "verify/ars_union.hpp"
#include "verify/dest_walk.hpp"

namespace weft::routing {
namespace {

struct Alternate {
    unsigned extra;        // hops over the cheapest route
    std::uint32_t dearer;  // what the detour costs over it (Engine: 0, the hops say it all)
    PortNum port;
};

// The candidate members of switch s for destination d.
struct Candidates {
    PortNum fixed = kNoPort;
    std::vector<PortNum> primary;      // port order, fixed included
    std::vector<Alternate> alternate;  // shortest first, then cheapest, then port order
    std::vector<PortNum> too_long;
};

bool to_switch(const Fabric &f, NodeIdx n, PortNum p) {
    return p >= 1 && p <= f.node(n).num_ports && f.port(n, p).linked() &&
           f.node(f.port(n, p).peer).is_switch();
}

// The engine's port from s towards d when it leads to a switch, else kNoPort (no group).
PortNum fixed_member(const Fabric &f, const RoutingTables &t, const ArsDestination &d, SwitchIdx s) {
    if (s == d.sw) return kNoPort;
    const PortNum q = d.lid < t.lft[s].size() ? t.lft[s][d.lid] : kNoPort;
    return to_switch(f, f.switch_node(s), q) ? q : kNoPort;
}

// What the candidates of every switch for one destination are judged on: each switch's cheapest
// route by the basis, and whether the engine routes from it to d at all.
struct Distances {
    std::vector<ars::Reach> reach;
    std::vector<bool> routed;
};

// Primaries are the ports on a cheapest route towards switches plus the fixed member, found in
// the same pass over the ports as the detours. A detour leads to a switch the engine routes from.
void candidates(const Fabric &f, const RoutingTables &t, const ArsOptions &o, const ars::DistanceBasis &b,
                const ArsDestination &d, const Distances &dist, SwitchIdx s, Candidates &c) {
    c.primary.clear();
    c.alternate.clear();
    c.too_long.clear();
    c.fixed = fixed_member(f, t, d, s);
    if (c.fixed == kNoPort) return;
    const NodeIdx n = f.switch_node(s);
    const ars::Reach here = dist.reach[s];
    const bool minimal = here.reached() && here.hops != 0;
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
        if (!to_switch(f, n, p)) continue;
        const SwitchIdx peer = f.node(f.port(n, p).peer).sw;
        const bool onward = dist.routed[peer];
        const ars::Reach via = ars::DistanceBasis::through(dist.reach[peer], b.cost(s, p));
        if ((minimal && onward && via == here) || p == c.fixed) {
            c.primary.push_back(p);
            continue;
        }
        if (!here.reached() || !onward || !via.reached()) continue;  // the engine does not route onward
        const unsigned extra = std::max(1, int{via.hops} - int{here.hops});
        const std::uint32_t dearer =
            b.kind() == ArsDistance::Engine || via.cost < here.cost ? 0 : via.cost - here.cost;
        if (extra > o.max_extra_hops)
            c.too_long.push_back(p);
        else
            c.alternate.push_back({extra, dearer, p});
    }
    std::stable_sort(c.alternate.begin(), c.alternate.end(), [](const Alternate &x, const Alternate &y) {
        return x.extra != y.extra ? x.extra < y.extra : x.dearer < y.dearer;
    });
}

// Every switch's candidates for d (this runs twice per destination).
void candidates(const Fabric &f, const RoutingTables &t, const ArsOptions &o, const ars::DistanceBasis &b,
                const ArsDestination &d, Distances &dist, std::vector<Candidates> &cand) {
    const std::size_t S = f.switch_count();
    cand.resize(S);
    b.reach(t, d, dist.reach);
    dist.routed.resize(S);
    for (SwitchIdx s = 0; s < S; ++s) dist.routed[s] = t.hops[s][d.lid] != kInfHops;
    for (SwitchIdx s = 0; s < S; ++s) candidates(f, t, o, b, d, dist, s, cand[s]);
}

void left(ArsCompileReport &r, ArsLeftOut why, std::size_t d, SwitchIdx s, PortNum p, std::uint64_t n = 1) {
    ArsLeftOutCount &c = r.left_out[static_cast<std::size_t>(why)];
    if (n && c.count == 0) c.example = {d, s, p};
    c.count += n;
}

ArsGroups empty_groups(const Fabric &f) {
    ArsGroups g;
    g.switches = f.switch_count();
    g.destinations = ars_destinations(f);
    const std::size_t n = g.destinations.size() * g.switches;
    g.fixed.assign(n, kNoPort);
    g.primary_begin.reserve(n + 1);
    g.alternate_begin.reserve(n + 1);
    g.primary_begin.push_back(0);
    g.alternate_begin.push_back(0);
    return g;
}

template <class Range>
void close_group(std::vector<std::uint32_t> &begin, std::vector<PortNum> &ports, const Range &members) {
    ports.insert(ports.end(), members.begin(), members.end());
    begin.push_back(static_cast<std::uint32_t>(ports.size()));
}

}  // namespace

const char *ars_distance_name(ArsDistance d) {
    switch (d) {
        case ArsDistance::Auto:
            return "auto";
        case ArsDistance::Engine:
            return "engine";
        case ArsDistance::Weighted:
            return "weighted";
        case ArsDistance::Dragonfly:
            return "dragonfly";
    }
    return "?";
}

const char *ars_left_out_name(ArsLeftOut why) {
    switch (why) {
        case ArsLeftOut::PrimaryCreditLoop:
            return "primary-credit-loop";
        case ArsLeftOut::AlternateCreditLoop:
            return "alternate-credit-loop";
        case ArsLeftOut::AlternateTooLong:
            return "alternate-too-long";
        case ArsLeftOut::GroupFull:
            return "group-full";
        case ArsLeftOut::EngineCreditLoop:
            return "engine-credit-loop";
    }
    return "?";
}

std::uint64_t ArsCompileReport::left_out_total() const {
    std::uint64_t n = 0;
    for (const auto &c : left_out) n += c.count;
    return n;
}

std::string ArsCompileReport::describe(const Fabric &f, const ArsGroups &g) const {
    std::string s;
    for (std::size_t i = 0; i < kArsLeftOutReasons; ++i) {
        const ArsLeftOutCount &c = left_out[i];
        if (!c.count) continue;
        s += std::string(ars_left_out_name(static_cast<ArsLeftOut>(i))) + ": " + std::to_string(c.count) +
             " (e.g. " + verify::node_label(f, f.switch_node(c.example.sw)) + " port " +
             std::to_string(c.example.port) + " to " +
             verify::node_label(f, f.switch_node(g.destinations[c.example.dest].sw)) + ")\n";
    }
    return s;
}

std::vector<ArsDestination> ars_destinations(const Fabric &f) {
    std::vector<ArsDestination> out;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const NodeIdx n = f.switch_node(s);
        Lid best = 0;
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (!x.linked() || f.node(x.peer).is_switch()) continue;
            const Lid l = f.port(x.peer, x.peer_port).lid;
            if (l && (!best || l < best)) best = l;
        }
        if (best) out.push_back({s, best});
    }
    std::sort(out.begin(), out.end(), [&f](const ArsDestination &a, const ArsDestination &b) {
        return f.node(f.switch_node(a.sw)).guid < f.node(f.switch_node(b.sw)).guid;
    });
    return out;
}

ArsGroups naive_ars_groups(const Fabric &f, const RoutingTables &t, const ArsOptions &o) {
    ArsGroups g = empty_groups(f);
    const ars::DistanceBasis basis(f, o);
    std::vector<Candidates> cand;
    Distances dist;
    std::vector<PortNum> alt;
    for (std::size_t d = 0; d < g.destinations.size(); ++d) {
        candidates(f, t, o, basis, g.destinations[d], dist, cand);
        for (SwitchIdx s = 0; s < g.switches; ++s) {
            const Candidates &c = cand[s];
            g.fixed[d * g.switches + s] = c.fixed;
            alt.clear();
            for (const Alternate &a : c.alternate)
                if (!o.max_alternates || alt.size() < o.max_alternates) alt.push_back(a.port);
            close_group(g.primary_begin, g.primary_ports, c.primary);
            close_group(g.alternate_begin, g.alternate_ports, alt);
        }
    }
    return g;
}

ArsGroups compile_ars_groups(const Fabric &f, const RoutingTables &t, const ArsOptions &o,
                             ArsCompileReport *report, const ProgressFn &progress) {
    ArsCompileReport local;
    ArsCompileReport &r = report ? *report : local;
    r = {};
    ArsGroups g = empty_groups(f);
    const std::size_t D = g.destinations.size(), S = g.switches;
    const unsigned vls = verify::vls_in_play(t);
    const verify::ChannelMap m(f);
    ars::AcyclicCdg cdg(f, m, vls);
    verify::UnionWalk w(f, t, m, vls);
    auto sink = [&cdg](std::uint32_t from, unsigned vi, unsigned vo, PortNum out) {
        return cdg.add(from, vi, vo, out);
    };
    // A candidate's dependencies are staged as the walk finds them and judged together at its end:
    // one known to close a cycle ends the walk before any order repair is spent on the others.
    auto stage = [&cdg](std::uint32_t from, unsigned vi, unsigned vo, PortNum out) {
        return cdg.stage(from, vi, vo, out);
    };
    auto commit = [&cdg] { return cdg.commit(); };
    auto try_member = [&](SwitchIdx s, PortNum p) {
        cdg.begin();
        return w.add(s, p, stage, commit);
    };
    const ars::DistanceBasis basis(f, o);
    r.distance = basis.kind();
    std::vector<Candidates> cand(S);
    Distances dist;
    // Without SL2VL tables a packet keeps its VL, so a member whose far switch already sends the
    // destination straight back is a 2-channel loop as soon as packets reach s: refused without
    // walking (on a fat tree every detour is one).
    auto bounces = [&](SwitchIdx s, PortNum q) {
        if (t.has_sl2vl() || !w.reached(s)) return false;
        const NodeIdx sn = f.switch_node(s);
        const Port &x = f.port(sn, q);
        for (PortNum back : w.members(f.node(x.peer).sw))
            if (f.port(x.peer, back).peer == sn) return true;
        return false;
    };
    auto tick = [&](std::size_t phase, std::size_t d) {
        if (progress) progress(phase * D + d + 1, 3 * D);
    };

    // The engine's own routes: always kept, so their dependencies go in at once and one
    // topological sort orders them. If they already close a loop nothing can be added.
    auto keep = [&cdg](std::uint32_t from, unsigned vi, unsigned vo, PortNum out) {
        cdg.add_unordered(from, vi, vo, out);
        return true;
    };
    for (std::size_t d = 0; d < D; ++d) {
        tick(0, d);
        w.start(g.destinations[d].sw, g.destinations[d].lid);
        for (SwitchIdx s = 0; s < S; ++s) {
            const PortNum q = g.fixed[d * S + s] = fixed_member(f, t, g.destinations[d], s);
            if (q != kNoPort) w.add(s, q, keep);
        }
    }
    const bool engine_ok = cdg.sort();
    if (!engine_ok) {
        ArsGroups fixed_only = empty_groups(f);
        for (std::size_t d = 0; d < D; ++d) {
            candidates(f, t, o, basis, g.destinations[d], dist, cand);
            for (SwitchIdx s = 0; s < S; ++s) {
                const PortNum q = cand[s].fixed;
                fixed_only.fixed[d * S + s] = q;
                if (q != kNoPort) {
                    ++r.groups;
                    ++r.primaries;
                    for (PortNum p : cand[s].primary)
                        if (p != q) left(r, ArsLeftOut::EngineCreditLoop, d, s, p);
                    for (const Alternate &a : cand[s].alternate)
                        left(r, ArsLeftOut::EngineCreditLoop, d, s, a.port);
                } else if (s != g.destinations[d].sw) {
                    ++r.unrouted;
                }
                close_group(fixed_only.primary_begin, fixed_only.primary_ports,
                            q == kNoPort ? std::vector<PortNum>{} : std::vector<PortNum>{q});
                close_group(fixed_only.alternate_begin, fixed_only.alternate_ports, std::vector<PortNum>{});
            }
        }
        r.engine_cycle = check_ars_credit_loops(f, t, fixed_only);
        return fixed_only;
    }

    auto replay = [&](std::size_t d, bool with_primaries) {
        w.start(g.destinations[d].sw, g.destinations[d].lid);
        for (SwitchIdx s = 0; s < S; ++s) {
            const std::size_t i = d * S + s;
            if (g.fixed[i] == kNoPort) continue;
            w.add(s, g.fixed[i], sink);
            if (with_primaries)
                for (std::uint32_t k = g.primary_begin[i]; k < g.primary_begin[i + 1]; ++k)
                    if (g.primary_ports[k] != g.fixed[i]) w.add(s, g.primary_ports[k], sink);
        }
    };

    // Switches by GUID: what is tried first wins, so the groups do not depend on the order the
    // fabric's nodes were found in (an SM's discovery, a topology file).
    std::vector<SwitchIdx> by_guid(S);
    std::iota(by_guid.begin(), by_guid.end(), SwitchIdx{0});
    std::sort(by_guid.begin(), by_guid.end(), [&f](SwitchIdx a, SwitchIdx b) {
        return f.node(f.switch_node(a)).guid < f.node(f.switch_node(b)).guid;
    });

    // Minimal ports: all of them, as far as the union allows.
    std::vector<std::vector<PortNum>> prim(S);
    for (std::size_t d = 0; d < D; ++d) {
        tick(1, d);
        replay(d, false);
        candidates(f, t, o, basis, g.destinations[d], dist, cand);
        for (SwitchIdx s : by_guid) {
            const PortNum q = cand[s].fixed;
            std::vector<PortNum> &kept = prim[s];
            kept.clear();
            if (q != kNoPort) {
                ++r.groups;
                for (PortNum p : cand[s].primary) {
                    if (p == q) {
                        kept.push_back(p);
                        continue;
                    }
                    if (try_member(s, p))
                        kept.push_back(p);
                    else
                        left(r, ArsLeftOut::PrimaryCreditLoop, d, s, p);
                }
                r.primaries += kept.size();
            } else if (s != g.destinations[d].sw) {
                ++r.unrouted;
            }
        }
        for (SwitchIdx s = 0; s < S; ++s) close_group(g.primary_begin, g.primary_ports, prim[s]);
    }

    // Detours: cheapest first over all switches, then longer ones.
    std::vector<std::vector<PortNum>> alt(S);
    for (std::size_t d = 0; d < D; ++d) {
        tick(2, d);
        replay(d, true);
        candidates(f, t, o, basis, g.destinations[d], dist, cand);
        for (SwitchIdx s = 0; s < S; ++s) {
            alt[s].clear();
            for (PortNum p : cand[s].too_long) left(r, ArsLeftOut::AlternateTooLong, d, s, p);
        }
        for (unsigned extra = 1; extra <= o.max_extra_hops; ++extra)
            for (SwitchIdx s : by_guid)
                for (const Alternate &a : cand[s].alternate) {
                    if (a.extra != extra) continue;
                    if (o.max_alternates && alt[s].size() >= o.max_alternates) {
                        left(r, ArsLeftOut::GroupFull, d, s, a.port);
                        continue;
                    }
                    if (!bounces(s, a.port) && try_member(s, a.port))
                        alt[s].push_back(a.port);
                    else
                        left(r, ArsLeftOut::AlternateCreditLoop, d, s, a.port);
                }
        for (SwitchIdx s = 0; s < S; ++s) {
            r.alternates += alt[s].size();
            close_group(g.alternate_begin, g.alternate_ports, alt[s]);
        }
    }
    return g;
}

}  // namespace weft::routing
