// trace_paths and check_credit_loops against a reference that follows every (source, LID) pair
// hop by hop and collects the channel dependencies of every CA-to-CA path in a std::set: on
// generated fabrics routed by several engines, intact and with LFT entries broken at random
// (missing entries, dead or wrong ports, loops), with LMC, VLs and vLIDs. Every count, the
// hop histogram, the examples, the dependency count and the cycle's validity must agree, on
// one thread and on several.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

constexpr std::int32_t kDrop = -1, kLoop = -2;
constexpr std::int32_t kFar = 0x3fffffff;

struct Fate {
    std::int32_t hops = 0;  // switch-to-switch hops, or kDrop / kLoop
    SwitchIdx last = kNoSwitch;
    PortNum port = kNoPort;  // the LFT port at `last` (where it dropped)
};

std::string label(const Fabric &f, NodeIdx n) {
    return "'" + f.node(n).desc + "' (" + guid_text(f.node(n).guid) + ")";
}

// Follows the LFTs one hop at a time from switch s to LID d (owner o).
Fate follow(const Fabric &f, const RoutingTables &t, SwitchIdx s, Lid d, const LidOwner &o) {
    for (std::int32_t steps = 0;; ++steps) {
        if (steps > static_cast<std::int32_t>(f.switch_count())) return {kLoop, s, 0};
        const NodeIdx n = f.switch_node(s);
        if (n == o.node) return {steps, s, 0};
        const PortNum q = d < t.lft[s].size() ? t.lft[s][d] : kNoPort;
        if (q == 0 || q > f.node(n).num_ports || !f.port(n, q).linked()) return {kDrop, s, q};
        const Port &p = f.port(n, q);
        if (!f.node(p.peer).is_switch()) {
            if (p.peer == o.node && p.peer_port == o.port) return {steps, s, q};
            return {kDrop, s, q};
        }
        s = f.node(p.peer).sw;
    }
}

std::vector<std::int32_t> bfs(const Fabric &f, SwitchIdx root) {
    std::vector<std::int32_t> d(f.switch_count(), kFar);
    std::vector<SwitchIdx> q{root};
    d[root] = 0;
    for (std::size_t h = 0; h < q.size(); ++h) {
        const NodeIdx n = f.switch_node(q[h]);
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (!x.linked() || !f.node(x.peer).is_switch()) continue;
            const SwitchIdx ns = f.node(x.peer).sw;
            if (d[ns] == kFar) {
                d[ns] = d[q[h]] + 1;
                q.push_back(ns);
            }
        }
    }
    return d;
}

// The CA/router ports cabled to switch s (as the trace counts its sources).
std::vector<LidOwner> ca_ports_at(const Fabric &f, SwitchIdx s) {
    std::vector<LidOwner> r;
    const NodeIdx n = f.switch_node(s);
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
        const Port &x = f.port(n, p);
        if (x.peer == kNoNode || f.node(x.peer).is_switch()) continue;
        if (f.port(x.peer, x.peer_port).linked()) r.push_back({x.peer, x.peer_port});
    }
    return r;
}

// The owner's switch, or kNoSwitch when there is nothing to route to.
SwitchIdx owner_switch(const Fabric &f, const LidOwner &o) {
    if (f.node(o.node).is_switch()) return f.node(o.node).sw;
    const Port &p = f.port(o.node, o.port);
    if (!p.linked() || !f.node(p.peer).is_switch()) return kNoSwitch;
    return f.node(p.peer).sw;
}

PathReport reference_trace(const Fabric &f, const RoutingTables &t) {
    PathReport r;
    // Examples in the order (owner switch, LID, source switch), the first five of each kind.
    std::map<std::tuple<SwitchIdx, Lid, SwitchIdx>, PathIssue> found[3];
    std::uint64_t hop_sum = 0;
    for (Lid d = 1; d <= f.max_lid(); ++d) {
        const auto o = f.lid_owner(d);
        if (!o) continue;
        const SwitchIdx osw = owner_switch(f, *o);
        if (osw == kNoSwitch) continue;
        const bool to_switch = f.node(o->node).is_switch();
        const auto dmin = bfs(f, osw);
        for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
            const NodeIdx sn = f.switch_node(s);
            const Fate fate = follow(f, t, s, d, *o);
            auto issue = [&](int kind, std::string what) {
                auto &m = found[kind];
                m.emplace(std::tuple{osw, d, s}, PathIssue{sn, 0, d, std::move(what)});
                if (m.size() > 5) m.erase(std::prev(m.end()));
            };
            bool any = false;
            auto source = [&](bool is_switch) {
                ++r.pairs;
                if (dmin[s] == kFar) {
                    ++r.unreachable_in_fabric;
                    return;
                }
                any = true;
                if (fate.hops == kDrop) {
                    ++(is_switch ? r.switch_unreachable : r.unreachable);
                } else if (fate.hops == kLoop) {
                    ++r.loops;
                } else {
                    if (fate.hops > dmin[s]) ++r.non_minimal;
                    const unsigned links = static_cast<unsigned>(fate.hops) + !to_switch + !is_switch;
                    if (r.hop_histogram.size() <= links) r.hop_histogram.resize(links + 1, 0);
                    ++r.hop_histogram[links];
                    r.max_hops = std::max(r.max_hops, links);
                    hop_sum += links;
                }
            };
            if (!(to_switch && sn == o->node)) source(true);
            for (const LidOwner &c : ca_ports_at(f, s))
                if (!(c.node == o->node && c.port == o->port)) source(false);
            if (!any) continue;
            const std::string ds = std::to_string(d);
            if (fate.hops == kDrop)
                issue(0, "unreachable: LID " + ds + " dropped at " + label(f, f.switch_node(fate.last)) +
                             (fate.port == kNoPort ? " (no LFT entry)"
                                                   : " (port " + std::to_string(fate.port) + ")"));
            else if (fate.hops == kLoop)
                issue(1, "loop: LID " + ds + " from " + label(f, sn));
            else if (fate.hops > dmin[s])
                issue(2, "non-minimal: LID " + ds + " from " + label(f, sn) + " takes " +
                             std::to_string(fate.hops) + " switch hops, shortest is " +
                             std::to_string(dmin[s]));
        }
    }
    std::map<std::tuple<SwitchIdx, Lid, SwitchIdx>, PathIssue> all;
    for (auto &m : found) all.insert(m.begin(), m.end());
    for (auto &[k, v] : all) r.examples.push_back(v);
    std::uint64_t delivered = 0;
    for (auto c : r.hop_histogram) delivered += c;
    r.mean_hops = delivered ? static_cast<double>(hop_sum) / static_cast<double>(delivered) : 0.0;
    return r;
}

// A dependency: (channel as global port, VL) -> (channel, VL).
using Dep = std::tuple<std::uint32_t, unsigned, std::uint32_t, unsigned>;

unsigned vl_at(const Fabric &f, const RoutingTables &t, unsigned vls, SwitchIdx s, PortNum in, PortNum out,
               unsigned sl) {
    if (!t.has_sl2vl() || in == 0) return std::min(sl, vls - 1);
    if (t.sl2vl_all) return std::min<unsigned>((*t.sl2vl_all)[sl & 15], vls - 1);
    const std::size_t i = std::size_t{in} * (f.node(f.switch_node(s)).num_ports + 1u) + out;
    if (i >= t.sl2vl[s].size()) return std::min(sl, vls - 1);
    return std::min<unsigned>(t.sl2vl[s][i][sl & 15], vls - 1);
}

std::set<Dep> reference_deps(const Fabric &f, const RoutingTables &t, unsigned vls) {
    std::set<Dep> deps;
    auto chan = [&](SwitchIdx s, PortNum p) { return f.node(f.switch_node(s)).port_base + p; };
    for (Lid d = 1; d <= f.max_lid(); ++d) {
        const auto o = f.lid_owner(d);
        if (!o || f.node(o->node).is_switch()) continue;
        if (owner_switch(f, *o) == kNoSwitch) continue;
        for (SwitchIdx s0 = 0; s0 < f.switch_count(); ++s0) {
            if (follow(f, t, s0, d, *o).hops < 0) continue;
            const unsigned sl = t.sl(s0, d) & 15u;
            for (const LidOwner &c : ca_ports_at(f, s0)) {
                if (c.node == o->node && c.port == o->port) continue;
                SwitchIdx s = s0;
                PortNum in = t.has_sl2vl() ? f.port(c.node, c.port).peer_port : 0;
                PortNum q = t.lft[s][d];
                unsigned vl = vl_at(f, t, vls, s, in, q, sl);
                while (f.node(f.port(f.switch_node(s), q).peer).is_switch()) {
                    const Port &p = f.port(f.switch_node(s), q);
                    const SwitchIdx ns = f.node(p.peer).sw;
                    const PortNum nq = t.lft[ns][d];
                    const unsigned nvl = vl_at(f, t, vls, ns, p.peer_port, nq, sl);
                    deps.insert({chan(s, q), vl, chan(ns, nq), nvl});
                    s = ns, q = nq, vl = nvl;
                }
            }
        }
    }
    return deps;
}

struct Case {
    const char *spec;
    const char *engine;
    double broken;  // share of LFT entries replaced by random ports or removed
    std::uint8_t lmc = 0;
};

void PrintTo(const Case &c, std::ostream *os) {
    *os << c.spec << " " << c.engine << " broken " << c.broken;
}

class VerifyReference : public ::testing::TestWithParam<Case> {};

TEST_P(VerifyReference, SameAsHopByHop) {
    const Case &c = GetParam();
    Fabric f = generate(c.spec);
    LidOptions lo;
    lo.lmc = c.lmc;
    assign_lids(f, lo);
    RoutingOptions o;
    o.lmc = c.lmc;
    RoutingTables t;
    ASSERT_TRUE(run_chain(c.engine, f, o, t).ok);
    std::mt19937 rng(7);
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const unsigned radix = f.node(f.switch_node(s)).num_ports;
        for (auto &e : t.lft[s]) {
            if (rng() % 100000 >= static_cast<unsigned>(c.broken * 100000)) continue;
            const unsigned r = rng() % (radix + 3);
            e = r > radix ? kNoPort : static_cast<PortNum>(r);
        }
    }
    const PathReport ref = reference_trace(f, t);
    for (unsigned threads : {1u, 3u}) {
        SCOPED_TRACE(threads);
        const PathReport p = trace_paths(f, t, {}, threads);
        // The one-pass form gives both reports unchanged.
        const RoutingCheck both = check_routing(f, t, {}, threads);
        EXPECT_EQ(both.paths.pairs, p.pairs);
        EXPECT_EQ(both.paths.hop_histogram, p.hop_histogram);
        EXPECT_EQ(both.paths.examples.size(), p.examples.size());
        EXPECT_EQ(both.credit_loops.dependencies, check_credit_loops(f, t, {}, threads).dependencies);
        EXPECT_EQ(p.pairs, ref.pairs);
        EXPECT_EQ(p.unreachable, ref.unreachable);
        EXPECT_EQ(p.switch_unreachable, ref.switch_unreachable);
        EXPECT_EQ(p.loops, ref.loops);
        EXPECT_EQ(p.non_minimal, ref.non_minimal);
        EXPECT_EQ(p.unreachable_in_fabric, ref.unreachable_in_fabric);
        EXPECT_EQ(p.max_hops, ref.max_hops);
        EXPECT_DOUBLE_EQ(p.mean_hops, ref.mean_hops);
        EXPECT_EQ(p.hop_histogram, ref.hop_histogram);
        ASSERT_EQ(p.examples.size(), ref.examples.size());
        for (std::size_t i = 0; i < p.examples.size(); ++i) {
            EXPECT_EQ(p.examples[i].what, ref.examples[i].what) << i;
            EXPECT_EQ(p.examples[i].src, ref.examples[i].src) << i;
            EXPECT_EQ(p.examples[i].dst, ref.examples[i].dst) << i;
        }
        if (c.broken > 0) {
            EXPECT_GT(ref.unreachable + ref.loops, 0u) << "the breakage must show";
        }
        const CreditLoopReport cl = check_credit_loops(f, t, {}, threads);
        const std::set<Dep> deps = reference_deps(f, t, cl.vls);
        EXPECT_EQ(cl.dependencies, deps.size());
        // A cycle found is one of the reference's; none found means the reference has none.
        if (cl.has_cycle) {
            for (std::size_t i = 0; i < cl.cycle.size(); ++i) {
                const Channel &a = cl.cycle[i], &b = cl.cycle[(i + 1) % cl.cycle.size()];
                EXPECT_TRUE(deps.count(
                    {f.node(a.node).port_base + a.port, a.vl, f.node(b.node).port_base + b.port, b.vl}))
                    << i;
            }
        } else {
            // Kahn's algorithm over the reference edges: all nodes removed = no cycle.
            std::map<std::pair<std::uint32_t, unsigned>, unsigned> indeg;
            std::multimap<std::pair<std::uint32_t, unsigned>, std::pair<std::uint32_t, unsigned>> out;
            for (auto [a, va, b, vb] : deps) {
                indeg[{a, va}];
                ++indeg[{b, vb}];
                out.emplace(std::pair{a, va}, std::pair{b, vb});
            }
            std::vector<std::pair<std::uint32_t, unsigned>> ready;
            for (auto &[n, k] : indeg)
                if (!k) ready.push_back(n);
            std::size_t removed = 0;
            while (!ready.empty()) {
                const auto n = ready.back();
                ready.pop_back();
                ++removed;
                for (auto [it, end] = out.equal_range(n); it != end; ++it)
                    if (!--indeg[it->second]) ready.push_back(it->second);
            }
            EXPECT_EQ(removed, indeg.size()) << "the reference has a cycle the check missed";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Fabrics, VerifyReference,
    ::testing::Values(
        Case{"ftree:k=4,n=3", "ftree", 0}, Case{"ftree:k=4,n=3", "ftree", 0.03},
        Case{"ftree:k=4,n=3/fail-links=6,seed=3", "updn", 0.01}, Case{"kary:k=3,n=3", "minhop", 0.02, 1},
        Case{"torus:4x4,hosts=2", "minhop", 0}, Case{"torus:4x4,hosts=2", "dor", 0.02},
        Case{"torus:4x4x3,hosts=1", "lash", 0.01}, Case{"torus:4x4,hosts=2", "torus-2QoS", 0.02},
        Case{"mesh:5x5", "dfsssp", 0.01}, Case{"random:switches=40,degree=5,hosts=3,seed=4", "minhop", 0.01},
        Case{"random:switches=40,degree=5,hosts=3,seed=4/fail-links=30,fail-switches=2,seed=1", "minhop", 0},
        Case{"dragonfly:a=4,p=2,h=2", "nue", 0.01},
        Case{"pgft:h=2;m=6,4;w=1,4;radix=12/vms:vfs=3,load=100,vlids=extended", "vswitch-ftree", 0},
        Case{"pgft:h=2;m=6,4;w=1,4;radix=12/vms:vfs=3,load=67,dist=random,vlids=extended", "vswitch-ftree",
             0.02},
        Case{"pgft:h=3;m=4,4,3;w=1,4,4;radix=8/vms:vfs=2,load=100", "ftree", 0.01}));

}  // namespace
}  // namespace weft::routing
