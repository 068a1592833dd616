// torus-2QoS: the routing document's failure examples hop by hop, hand-checked small tori,
// and reachability / loop / credit-loop properties on tori and meshes with failures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/torus_config.hpp"
#include "weft/routing/verification.hpp"

using namespace weft::routing;

namespace {

using C = std::array<int, 3>;

// A torus or mesh with switch (x,y,z) as GUID 0x1000 + x + X*(y + Y*z); port 2d+1 leads to +d,
// port 2d+2 to -d, hosts on ports 7...; some switches and links left out (failed).
struct Grid {
    Fabric f;
    std::array<unsigned, 3> dims{};
    std::map<C, NodeIdx> node;
    Guid guid(C c) const { return 0x1000 + c[0] + dims[0] * (c[1] + dims[1] * c[2]); }
    SwitchIdx sw(C c) const { return f.node(node.at(c)).sw; }
    Lid lid(C c) const { return f.port(node.at(c), 0).lid; }
};

Grid grid(std::array<unsigned, 3> dims, bool torus, std::set<C> failed_sw = {},
          std::vector<std::pair<C, unsigned>> failed_links = {}, unsigned hosts = 1) {
    Grid g;
    g.dims = dims;
    for (int z = 0; z < static_cast<int>(dims[2]); ++z)
        for (int y = 0; y < static_cast<int>(dims[1]); ++y)
            for (int x = 0; x < static_cast<int>(dims[0]); ++x) {
                const C c{x, y, z};
                if (failed_sw.count(c)) continue;
                g.node[c] = g.f.add_node(
                    NodeType::Switch, g.guid(c), static_cast<PortNum>(6 + hosts),
                    "sw" + std::to_string(x) + "-" + std::to_string(y) + "-" + std::to_string(z));
            }
    for (const auto &[c, n] : g.node)
        for (unsigned d = 0; d < 3; ++d) {
            C nb = c;
            nb[d] += 1;
            if (nb[d] == static_cast<int>(dims[d])) {
                if (!torus || dims[d] <= 2) continue;
                nb[d] = 0;
            }
            if (!g.node.count(nb)) continue;
            bool failed = false;
            for (const auto &[fc, fd] : failed_links)
                if (fc == c && fd == d) failed = true;
            if (!failed)
                g.f.connect(n, static_cast<PortNum>(2 * d + 1), g.node[nb], static_cast<PortNum>(2 * d + 2));
        }
    unsigned h = 0;
    for (const auto &[c, n] : g.node)
        for (unsigned k = 0; k < hosts; ++k, ++h) {
            const NodeIdx ca = g.f.add_node(NodeType::Ca, 0x100000 + 0x10 * h, 1, "h" + std::to_string(h));
            g.f.set_port_guid(ca, 1, 0x100000 + 0x10 * h + 1);
            g.f.connect(n, static_cast<PortNum>(7 + k), ca, 1);
        }
    test::assign_lids(g.f);
    return g;
}

// torus-2QoS.conf for the grid, seeded at `seed` with the dateline kept at coordinate 0.
std::string conf_for(const Grid &g, bool torus, C seed = {0, 0, 0}) {
    char buf[128];
    std::string s = torus ? "torus" : "mesh";
    for (unsigned d = 0; d < 3; ++d) s += " " + std::to_string(g.dims[d]);
    s += "\n";
    static const char *names[3][2] = {{"xm_link", "xp_link"}, {"ym_link", "yp_link"}, {"zm_link", "zp_link"}};
    for (unsigned d = 0; d < 3; ++d) {
        if (g.dims[d] < 2) continue;
        for (int sign : {1, -1}) {
            if (sign < 0 && !(torus && g.dims[d] == 4)) continue;
            C to = seed;
            to[d] = (to[d] + sign + static_cast<int>(g.dims[d])) % static_cast<int>(g.dims[d]);
            std::snprintf(buf, sizeof buf, "%s 0x%llx 0x%llx\n", names[d][sign > 0],
                          (unsigned long long)g.guid(seed), (unsigned long long)g.guid(to));
            s += buf;
        }
        s += std::string(1, static_cast<char>('x' + d)) + "_dateline " + std::to_string(-seed[d]) + "\n";
    }
    return s;
}

std::string write_conf(const std::string &text) {
    static int n = 0;
    const auto p = std::filesystem::temp_directory_path() /
                   ("weft-torus2qos-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".conf");
    std::ofstream(p) << text;
    return p.string();
}

struct Routed {
    ChainResult r;
    RoutingTables t;
};

Routed route(const Fabric &f, const std::string &conf, RoutingOptions o = {}) {
    o.qos = true;
    o.no_fallback = true;
    o.torus_config = write_conf(conf);
    Routed out;
    out.r = run_chain("torus-2QoS", f, o, out.t);
    std::filesystem::remove(o.torus_config);
    return out;
}

// Switch coordinates visited from `from` to the switch owning `to`'s LID.
std::vector<C> path(const Grid &g, const RoutingTables &t, C from, C to) {
    std::map<NodeIdx, C> coord;
    for (const auto &[c, n] : g.node) coord[n] = c;
    std::vector<C> out{from};
    NodeIdx n = g.node.at(from);
    const Lid lid = g.lid(to);
    for (int guard = 0; guard < 64 && coord[n] != to; ++guard) {
        const PortNum p = t.lft[g.f.node(n).sw][lid];
        if (p == kNoPort || p == 0) return out;
        n = g.f.port(n, p).peer;
        out.push_back(coord.at(n));
    }
    return out;
}

// VL of the hop leaving switch `at` towards `next`, for a packet that arrived from `prev`.
unsigned hop_vl(const Grid &g, const RoutingTables &t, C prev, C at, C next, unsigned sl) {
    const NodeIdx n = g.node.at(at);
    PortNum in = 0, out = 0;
    for (PortNum p = 1; p <= g.f.node(n).num_ports; ++p) {
        if (!g.f.port(n, p).linked()) continue;
        if (g.f.port(n, p).peer == g.node.at(prev)) in = p;
        if (g.f.port(n, p).peer == g.node.at(next)) out = p;
    }
    const unsigned radix = g.f.node(n).num_ports;
    return t.sl2vl[g.sw(at)][std::size_t{in} * (radix + 1) + out][sl];
}

std::string failures(const ChainResult &r) {
    std::string s = r.error;
    for (const auto &x : r.failures) s += " | " + x;
    return s;
}

void expect_sound(const Fabric &f, const RoutingTables &t) {
    const auto paths = trace_paths(f, t);
    EXPECT_TRUE(paths.ok()) << paths.unreachable << " unreachable, " << paths.loops << " loops";
    EXPECT_EQ(paths.switch_unreachable, 0u);
    const auto cl = check_credit_loops(f, t);
    EXPECT_FALSE(cl.has_cycle) << cl.describe(f);
}

const C kS{1, 1, 0}, kM{0, 1, 0}, kN{2, 1, 0}, kT{3, 1, 0}, kO{4, 1, 0}, kP{5, 1, 0}, kI{2, 2, 0},
    kR{3, 2, 0}, kD{3, 3, 0};

}  // namespace

// --- torus-2QoS.conf -------------------------------------------------------------------------

TEST(Torus2QoSConfig, ReadsTheManPageExample) {
    const auto c = read_torus_config(
        "# Look for a 2D (since x radix is one) 4x5 torus.\n"
        "torus 1 4 5\n\n"
        "yp_link 0x200000 0x200005  # sw @ y=0,z=0 -> sw @ y=1,z=0\n"
        "ym_link 0x200000 0x20000f  # sw @ y=0,z=0 -> sw @ y=3,z=0\n"
        "zp_link 0x200000 0x200001\n"
        "next_seed\n"
        "yp_link 0x20000b 0x200010\n"
        "ym_link 0x20000b 0x200006\n"
        "zp_link 0x20000b 0x20000c\n"
        "y_dateline -2\n"
        "z_dateline -1\n"
        "portgroup_max_ports 8\n"
        "port_order 7 3 7 1\n"
        "max_changes 5\n",
        "t.conf");
    EXPECT_EQ(c.radix, (std::array<unsigned, 3>{1, 4, 5}));
    EXPECT_EQ(c.mesh, (std::array<bool, 3>{false, false, false}));
    ASSERT_EQ(c.seeds.size(), 2u);
    EXPECT_EQ(c.seeds[0].origin(), 0x200000u);
    EXPECT_EQ(c.seeds[1].link[1][0]->second, 0x200006u);
    EXPECT_EQ(c.seeds[1].dateline, (std::array<int, 3>{0, -2, -1}));
    EXPECT_EQ(c.portgroup_max_ports, 8u);
    EXPECT_EQ(c.port_order, (std::vector<PortNum>{7, 3, 1}));
    EXPECT_EQ(c.max_changes, 5u);
    const auto mixed = read_torus_config("mesh 3T 4 5\nxp_link 1 2\nyp_link 1 3\nzp_link 1 4\n", "m.conf");
    EXPECT_EQ(mixed.mesh, (std::array<bool, 3>{false, true, true}));
}

TEST(Torus2QoSConfig, ErrorsNameFileLineAndExpectation) {
    auto error_of = [](const std::string &text) -> std::pair<std::size_t, std::string> {
        try {
            read_torus_config(text, "bad.conf");
        } catch (const ParseError &e) {
            EXPECT_EQ(e.file(), "bad.conf");
            return {e.line(), e.expected()};
        }
        return {0, "accepted"};
    };
    EXPECT_EQ(error_of("xp_link 1 2\n").first, 1u);
    EXPECT_NE(error_of("xp_link 1 2\n").second.find("'torus' or 'mesh'"), std::string::npos);
    EXPECT_EQ(error_of("torus 3 3 1\n# c\nxp_link 1 zz\n").first, 3u);
    EXPECT_EQ(error_of("torus 3 0 1\n").first, 1u);
    EXPECT_NE(error_of("torus 3 3 1\nxp_link 1 2\nyp_link 5 3\n").second.find("same 'from' switch"),
              std::string::npos);
    EXPECT_NE(error_of("torus 4 3 1\nxp_link 1 2\nyp_link 1 3\n").second.find("both xp_link and xm_link"),
              std::string::npos);
    EXPECT_NE(error_of("torus 3 3 1\nxp_link 1 2\n").second.find("yp_link or ym_link"), std::string::npos);
    EXPECT_EQ(error_of("torus 3 3 1\nxp_link 1 2\nyp_link 1 3\nfrobnicate 3\n").first, 4u);
    EXPECT_EQ(error_of("torus 3 3 1\nxp_link 1 2\nyp_link 1 3\nx_dateline one\n").first, 4u);
    EXPECT_EQ(error_of("torus 3 3 1\nxp_link 1 2\nyp_link 1 3\nport_order 0\n").first, 4u);
    EXPECT_EQ(error_of("torus 3 3 1\nxp_link 1 2\nyp_link 1 3\nportgroup_max_ports\n").first, 4u);
    // A seed of datelines only names no switch to start from (found by libFuzzer: a 1x1x1 torus
    // asks for no link per dimension, and such a seed was accepted).
    EXPECT_EQ(error_of("torus 1 1 1\nx_dateline -1\n"),
              (std::pair<std::size_t, std::string>{2,
                                                   "a [xyz]p_link or [xyz]m_link in this seed, "
                                                   "not only datelines"}));
    EXPECT_EQ(error_of("torus 3 3 1\nxp_link 1 2\nyp_link 1 3\nnext_seed\nz_dateline 1\n").first, 5u);
}

// --- the routing document's examples ---------------------------------------------------------

TEST(Torus2QoS, PristineTorusIsDimensionOrder) {
    const Grid g = grid({6, 5, 1}, true);
    const auto x = route(g.f, conf_for(g, true));
    ASSERT_TRUE(x.r.ok) << failures(x.r);
    EXPECT_EQ(x.r.engine, "torus-2QoS");
    EXPECT_EQ(path(g, x.t, kS, kD), (std::vector<C>{kS, kN, kT, kR, kD}));
    // SL bit d: the shorter way crosses dimension d's dateline (between 5 and 0 for x).
    EXPECT_EQ(x.t.sl(g.sw(kS), g.lid(kD)), 0);
    EXPECT_EQ(x.t.sl(g.sw(kM), g.lid(kP)), 1);                // 0 -> 5 the short way wraps in x
    EXPECT_EQ(x.t.sl(g.sw({0, 0, 0}), g.lid({5, 4, 0})), 3);  // wraps in x and y
    EXPECT_EQ(x.t.sl(g.sw({0, 0, 0}), g.lid({3, 2, 0})), 0);  // ties take the way without the dateline
    EXPECT_EQ(x.t.vls_used, 2u);
    expect_sound(g.f, x.t);
}

TEST(Torus2QoS, FailedLinkTakesTheLongWayAroundWithTheSameSl) {
    const Grid pristine = grid({6, 5, 1}, true);
    const auto before = route(pristine.f, conf_for(pristine, true));
    ASSERT_TRUE(before.r.ok) << failures(before.r);
    for (const auto &cut : {std::pair<C, unsigned>{kS, 0}, std::pair<C, unsigned>{kN, 0}}) {  // S-N, then N-T
        const Grid g = grid({6, 5, 1}, true, {}, {cut});
        const auto x = route(g.f, conf_for(g, true));
        ASSERT_TRUE(x.r.ok) << failures(x.r);
        EXPECT_EQ(path(g, x.t, kS, kD), (std::vector<C>{kS, kM, kP, kO, kT, kR, kD}));
        // Same nodes and LIDs as the pristine fabric: not one path SL changed.
        EXPECT_EQ(x.t.path_sl, before.t.path_sl);
        expect_sound(g.f, x.t);
    }
}

TEST(Torus2QoS, FailedSwitchTurnsEarlyAndFlagsTheIllegalTurn) {
    const Grid pristine = grid({6, 5, 1}, true);
    const auto before = route(pristine.f, conf_for(pristine, true));
    const Grid g = grid({6, 5, 1}, true, {kT});
    const auto x = route(g.f, conf_for(g, true));
    ASSERT_TRUE(x.r.ok) << failures(x.r);
    EXPECT_EQ(path(g, x.t, kS, kD), (std::vector<C>{kS, kN, kI, kR, kD}));
    const unsigned sl = x.t.sl(g.sw(kS), g.lid(kD));
    EXPECT_EQ(hop_vl(g, x.t, kN, kI, kR, sl) & 2u, 2u);  // y-x turn at I: VL bit 1
    EXPECT_EQ(hop_vl(g, x.t, kI, kR, kD, sl) & 2u, 0u);  // the hop after is back on the DOR VLs
    EXPECT_EQ(hop_vl(g, x.t, kS, kN, kI, sl) & 2u, 0u);  // the early x-y turn at N is legal
    // Path SLs between the remaining switches are the pristine ones.
    for (const auto &[a, an] : g.node)
        for (const auto &[b, bn] : g.node)
            ASSERT_EQ(x.t.sl(g.sw(a), g.lid(b)), before.t.sl(pristine.sw(a), pristine.lid(b)));
    EXPECT_EQ(x.t.vls_used, 4u);
    expect_sound(g.f, x.t);
}

TEST(Torus2QoS, TwoFailedSwitchesAdjacentInTheLastDimension) {
    const C q{2, 2, 0}, R{3, 2, 0}, I3{2, 3, 0}, u{3, 3, 0}, D4{3, 4, 0};
    const Grid g = grid({6, 6, 1}, true, {kT, R});
    const auto x = route(g.f, conf_for(g, true));
    ASSERT_TRUE(x.r.ok) << failures(x.r);
    EXPECT_EQ(path(g, x.t, kS, D4), (std::vector<C>{kS, kN, q, I3, u, D4}));
    const unsigned sl = x.t.sl(g.sw(kS), g.lid(D4));
    EXPECT_EQ(hop_vl(g, x.t, q, I3, u, sl) & 2u, 2u);
    expect_sound(g.f, x.t);
}

TEST(Torus2QoS, RefusesWhatItCannotRouteFreeOfCreditLoops) {
    // Failed switches O and T adjacent in x, not the last dimension (the document's last case).
    const Grid two = grid({6, 6, 1}, true, {{3, 1, 0}, {4, 1, 0}});
    const auto a = route(two.f, conf_for(two, true));
    EXPECT_FALSE(a.r.ok);
    EXPECT_NE(failures(a.r).find("not adjacent along the last routed dimension"), std::string::npos)
        << failures(a.r);
    // Links N-T and T-O failed: the y=1 ring falls into the disjoint pieces T and O-P-M-S-N.
    const Grid cut = grid({6, 5, 1}, true, {}, {{kN, 0}, {kT, 0}});
    const auto b = route(cut.f, conf_for(cut, true));
    EXPECT_FALSE(b.r.ok);
    EXPECT_NE(failures(b.r).find("disjoint"), std::string::npos) << failures(b.r);
    // Without QoS, or with too few VLs, it refuses too; the chain then falls back.
    const Grid g = grid({6, 5, 1}, true, {kT});
    RoutingOptions few;
    few.max_vls = 2;
    EXPECT_NE(failures(route(g.f, conf_for(g, true), few).r).find("needs 4 data VLs"), std::string::npos);
    RoutingOptions opts;
    opts.torus_config = write_conf(conf_for(g, true));
    RoutingTables t;
    const auto fb = run_chain("torus-2QoS", g.f, opts, t);
    EXPECT_TRUE(fb.ok);
    EXPECT_EQ(fb.engine, "minhop");
    ASSERT_FALSE(fb.failures.empty());
    EXPECT_NE(fb.failures[0].find("-Q"), std::string::npos);
    std::filesystem::remove(opts.torus_config);
}

// --- hand-checked small tori ------------------------------------------------------------------

TEST(Torus2QoS, SmallToriRouteMinimalInDimensionOrder) {
    for (const auto &dims : {std::array<unsigned, 3>{3, 3, 1}, {4, 4, 1}, {3, 3, 3}, {5, 4, 3}}) {
        const Grid g = grid(dims, true);
        // Seed away from the origin: the datelines put coordinate 0 back where it was.
        const auto x = route(g.f, conf_for(g, true, {1, 1, dims[2] > 1 ? 1 : 0}));
        ASSERT_TRUE(x.r.ok) << dims[0] << "x" << dims[1] << "x" << dims[2] << ": " << failures(x.r);
        const auto rep = trace_paths(g.f, x.t);
        EXPECT_EQ(rep.non_minimal, 0u);
        expect_sound(g.f, x.t);
        // (0,0,0) -> (2,1,*): x first, then y, then z.
        const C far{2, 1, dims[2] > 1 ? 2 : 0};
        const auto hops = path(g, x.t, {0, 0, 0}, far);
        ASSERT_GE(hops.size(), 3u);
        EXPECT_EQ(hops[1][1], 0);  // first hop moves in x
        EXPECT_EQ(hops[1][2], 0);
    }
    // 3x3: from 0 to 2 the short way wraps, so SL bit 0 is set.
    const Grid g = grid({3, 3, 1}, true);
    const auto x = route(g.f, conf_for(g, true));
    EXPECT_EQ(path(g, x.t, {0, 0, 0}, {2, 0, 0}), (std::vector<C>{{0, 0, 0}, {2, 0, 0}}));
    EXPECT_EQ(x.t.sl(g.sw({0, 0, 0}), g.lid({2, 0, 0})), 1);
    EXPECT_EQ(x.t.sl(g.sw({0, 0, 0}), g.lid({1, 2, 0})), 2);
}

TEST(Torus2QoS, MeshUsesOneVl) {
    const Grid g = grid({4, 3, 2}, false);
    const auto x = route(g.f, conf_for(g, false));
    ASSERT_TRUE(x.r.ok) << failures(x.r);
    EXPECT_EQ(x.t.vls_used, 1u);
    EXPECT_EQ(trace_paths(g.f, x.t).non_minimal, 0u);
    expect_sound(g.f, x.t);
}

TEST(Torus2QoS, MisconfiguredRadixIsRefusedWithTheSwitch) {
    const Grid g = grid({5, 5, 1}, true);
    std::string c = conf_for(g, true);
    c.replace(c.find("torus 5 5"), 9, "torus 6 5");
    const auto x = route(g.f, c);
    EXPECT_FALSE(x.r.ok);
    EXPECT_NE(failures(x.r).find("could not place switch"), std::string::npos) << failures(x.r);
}

TEST(Torus2QoS, NextSeedIsUsedWhenTheFirstSeedSwitchFailed) {
    const Grid g = grid({5, 5, 1}, true, {{0, 0, 0}});
    const Grid pristine = grid({5, 5, 1}, true);
    const auto x =
        route(g.f, conf_for(pristine, true) + "next_seed\n" + conf_for(pristine, true, {2, 3, 0}).substr(12));
    ASSERT_TRUE(x.r.ok) << failures(x.r);
    // Both seeds keep the dateline at coordinate 0: SLs as for the pristine torus.
    const auto before = route(pristine.f, conf_for(pristine, true));
    for (const auto &[a, an] : g.node)
        for (const auto &[b, bn] : g.node)
            ASSERT_EQ(x.t.sl(g.sw(a), g.lid(b)), before.t.sl(pristine.sw(a), pristine.lid(b)));
    expect_sound(g.f, x.t);
}

TEST(Torus2QoS, LmcRoutesEveryLidOfAPortAlike) {
    Grid g = grid({4, 4, 1}, true);
    test::assign_lids(g.f, 1);
    RoutingOptions opts;
    opts.lmc = 1;
    const auto x = route(g.f, conf_for(g, true), opts);
    ASSERT_TRUE(x.r.ok) << failures(x.r);
    for (const auto &row : x.t.lft)
        for (Lid l : test::ca_lids(g.f)) EXPECT_EQ(row[l], row[l + 1]);
    expect_sound(g.f, x.t);
}

// --- multicast master spanning tree -----------------------------------------------------------

namespace {

// Switches on the group tree and the links it uses, as coordinate pairs.
std::set<std::pair<C, C>> tree_links(const Grid &g, const McastTree &t) {
    std::map<NodeIdx, C> coord;
    for (const auto &[c, nd] : g.node) coord[nd] = c;
    std::set<std::pair<C, C>> out;
    for (const auto &[c, nd] : g.node)
        for (PortNum port : t.ports[g.sw(c)]) {
            if (port == 0 || !g.f.node(g.f.port(nd, port).peer).is_switch()) continue;
            const C o2 = coord.at(g.f.port(nd, port).peer);
            out.insert(std::min(c, o2) == c ? std::make_pair(c, o2) : std::make_pair(o2, c));
        }
    return out;
}

McastTree full_tree(const Grid &g, const std::string &conf, C &root) {
    RoutingOptions opts;
    opts.qos = true;
    opts.torus_config = write_conf(conf);
    const auto e = EngineRegistry::instance().make("torus-2QoS");
    RoutingContext ctx{g.f, opts, {}};
    RoutingTables t;
    McastTree tree;
    EXPECT_TRUE(e->provides_mcast_tree());
    t.reset(g.f);
    EXPECT_TRUE(e->build_lid_matrices(ctx, t).ok);
    const auto ok = e->build_fwd_tables(ctx, t);
    std::filesystem::remove(opts.torus_config);
    EXPECT_TRUE(ok.ok) << ok.error;
    McastGroup grp;
    grp.mlid = 0xC000;
    for (NodeIdx nd = 0; nd < g.f.node_count(); ++nd)
        if (!g.f.node(nd).is_switch()) grp.members.push_back({nd, 1});
    EXPECT_TRUE(e->build_mcast_tree(ctx, t, grp, tree).ok);
    // The root is the switch whose tree links all lead away from it: x links only, in its row.
    root = {-1, -1, -1};
    std::map<C, int> degree;
    for (const auto &[a, b] : tree_links(g, tree)) ++degree[a], ++degree[b];
    for (const auto &[a, b] : tree_links(g, tree))
        if (a[1] == b[1] && a[0] != b[0]) root[1] = a[1];
    return tree;
}

}  // namespace

TEST(Torus2QoS, MasterSpanningTreeFollowsTheDocument) {
    C row{};
    const Grid g = grid({6, 5, 1}, true);
    const auto t = full_tree(g, conf_for(g, true), row);
    auto links = tree_links(g, t);
    EXPECT_EQ(links.size(), 29u);  // a spanning tree of 30 switches
    // x branch along y=2 from the root (3,2), not across the x dateline; y branches elsewhere.
    for (int xx = 0; xx + 1 < 6; ++xx) EXPECT_TRUE(links.count({{xx, 2, 0}, {xx + 1, 2, 0}}));
    EXPECT_FALSE(links.count({{0, 2, 0}, {5, 2, 0}}));
    for (int xx = 0; xx < 6; ++xx) {
        for (int yy = 0; yy + 1 < 5; ++yy) EXPECT_TRUE(links.count({{xx, yy, 0}, {xx, yy + 1, 0}}));
        EXPECT_FALSE(links.count({{xx, 0, 0}, {xx, 4, 0}}));
    }
    // Link (2,2)-(3,2) failed: the branch goes the other way, across the x dateline.
    const Grid cut = grid({6, 5, 1}, true, {}, {{{2, 2, 0}, 0}});
    links = tree_links(cut, full_tree(cut, conf_for(cut, true), row));
    EXPECT_TRUE(links.count({{0, 2, 0}, {5, 2, 0}}));
    EXPECT_FALSE(links.count({{2, 2, 0}, {3, 2, 0}}));
    EXPECT_EQ(links.size(), 29u);
    // The root (3,2) failed: the root moves to (2,1); the x=3 column hangs off (3,1) and
    // crosses the y dateline.
    const Grid gone = grid({6, 5, 1}, true, {{3, 2, 0}});
    links = tree_links(gone, full_tree(gone, conf_for(gone, true), row));
    EXPECT_EQ(row[1], 1);
    EXPECT_EQ(links.size(), 28u);
    EXPECT_TRUE(links.count({{3, 0, 0}, {3, 4, 0}}));
    EXPECT_TRUE(links.count({{3, 3, 0}, {3, 4, 0}}));
    EXPECT_TRUE(links.count({{0, 1, 0}, {1, 1, 0}}));
}

// --- properties on generated tori and meshes -----------------------------------------------------

namespace {

// A torus-2QoS.conf for a fabric from weft's grid generator (switch i at x = i % X, ...;
// port 2d+1 leads to +d), seeded at switch 0 with further seeds for when it failed.
std::string conf_for_generated(const Fabric &f, std::array<unsigned, 3> dims, bool torus) {
    std::string s = torus ? "torus" : "mesh";
    for (unsigned d : dims) s += " " + std::to_string(d);
    s += "\n";
    std::map<std::string, Guid> by_desc;
    for (NodeIdx nd = 0; nd < f.node_count(); ++nd) by_desc[f.node(nd).desc] = f.node(nd).guid;
    auto guid = [&](C c) {
        const unsigned i = c[0] + dims[0] * (c[1] + dims[1] * c[2]);
        char b[16];
        std::snprintf(b, sizeof b, "sw%04u", i);
        return by_desc.count(b) ? by_desc[b] : Guid{0};
    };
    static const char *names[3][2] = {{"xm_link", "xp_link"}, {"ym_link", "yp_link"}, {"zm_link", "zp_link"}};
    bool first = true;
    for (C seed : {C{0, 0, 0}, C{1, 1, 1}, C{2, 2, 2}}) {
        if (!first) s += "next_seed\n";
        first = false;
        for (unsigned d = 0; d < 3; ++d) {
            for (int sign : {1, -1}) {
                if (sign < 0 && !(torus && dims[d] == 4)) continue;
                C to = seed;
                to[d] = (to[d] + sign + static_cast<int>(dims[d])) % static_cast<int>(dims[d]);
                char b[96];
                std::snprintf(b, sizeof b, "%s 0x%llx 0x%llx\n", names[d][sign > 0],
                              (unsigned long long)(guid(seed) ? guid(seed) : 1),
                              (unsigned long long)(guid(to) ? guid(to) : 2));
                s += b;
            }
            s += std::string(1, static_cast<char>('x' + d)) + "_dateline " + std::to_string(-seed[d]) + "\n";
        }
    }
    return s;
}

}  // namespace

TEST(Torus2QoS, GeneratedToriAndMeshesWithFailures) {
    struct Case {
        std::string spec;
        std::array<unsigned, 3> dims;
        bool torus;
        unsigned vls;
    };
    for (const Case &c :
         {Case{"torus:4x4x4,hosts=1", {4, 4, 4}, true, 2}, Case{"torus:5x5x5,hosts=2", {5, 5, 5}, true, 2},
          Case{"mesh:4x5x3,hosts=1", {4, 5, 3}, false, 1},
          Case{"torus:4x4x4,hosts=1/fail-links=1,seed=3", {4, 4, 4}, true, 2},
          Case{"torus:6x6x6,hosts=1/fail-links=1,seed=5", {6, 6, 6}, true, 2},
          Case{"torus:5x5x5,hosts=1/fail-switches=1,seed=2", {5, 5, 5}, true, 4},
          Case{"torus:6x6x6,hosts=1/fail-switches=1,seed=9", {6, 6, 6}, true, 4}}) {
        Fabric f = generate(c.spec);
        test::assign_lids(f);
        const auto x = route(f, conf_for_generated(f, c.dims, c.torus));
        ASSERT_TRUE(x.r.ok) << c.spec << ": " << failures(x.r);
        EXPECT_EQ(x.t.vls_used, c.vls) << c.spec;
        const auto rep = trace_paths(f, x.t);
        EXPECT_TRUE(rep.ok()) << c.spec;
        EXPECT_EQ(rep.switch_unreachable, 0u) << c.spec;
        const auto cl = check_credit_loops(f, x.t);
        EXPECT_FALSE(cl.has_cycle) << c.spec << "\n" << cl.describe(f);
        // The hop rows are the lengths of the routes the LFTs take.
        RoutingTables walked = x.t;
        hops_from_lfts(f, walked);
        EXPECT_EQ(walked.hops, x.t.hops) << c.spec;
    }
}

namespace {

// Routes f with one torus-2QoS engine instance kept across calls, as a resweeping subnet
// manager would; returns the warnings of this run.
std::vector<std::string> reroute(Engine &e, const Fabric &f, const std::string &conf_path) {
    RoutingOptions o;
    o.qos = true;
    o.torus_config = conf_path;
    RoutingContext ctx{f, o, {}};
    RoutingTables t;
    t.reset(f);
    EXPECT_TRUE(e.build_lid_matrices(ctx, t).ok);
    EXPECT_TRUE(e.build_fwd_tables(ctx, t).ok);
    return t.warnings;
}

}  // namespace

TEST(Torus2QoS, ReportsTorusChangesUpToMaxChanges) {
    const Grid pristine = grid({5, 5, 1}, true);
    const Grid one_link = grid({5, 5, 1}, true, {}, {{{1, 1, 0}, 0}});
    // The last switch in host numbering order, so that no host GUID changes with it.
    const Grid lost = grid({5, 5, 1}, true, {{4, 4, 0}});
    auto e = EngineRegistry::instance().make("torus-2QoS");
    ASSERT_TRUE(e);
    const std::string conf = write_conf(conf_for(pristine, true));
    // The first torus has nothing to compare with.
    EXPECT_TRUE(reroute(*e, pristine.f, conf).empty());
    // A failed link: both its ends lost their remote.
    const auto w = reroute(*e, one_link.f, conf);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_NE(w[0].find("torus switch 1,1,0 GUID 0x0000000000001006[1] remote now missing, was sw "
                        "0x0000000000001007[2]"),
              std::string::npos)
        << w[0];
    EXPECT_NE(w[1].find("torus switch 2,1,0 GUID 0x0000000000001007[2] remote now missing"),
              std::string::npos)
        << w[1];
    // Against the last torus routed (one link down): the link is back, a switch is lost, and
    // its four neighbours (two across the wrap) lost a remote each; y is the slower coordinate.
    const auto l = reroute(*e, lost.f, conf);
    ASSERT_EQ(l.size(), 2u + 1u + 4u);
    EXPECT_NE(l[0].find("torus switch 4,0,0 GUID 0x0000000000001004[4] remote now missing, was sw "
                        "0x0000000000001018[3]"),
              std::string::npos)
        << l[0];
    EXPECT_NE(l[1].find("1,1,0 GUID 0x0000000000001006[1] remote now sw 0x0000000000001007[2], was missing"),
              std::string::npos)
        << l[1];
    EXPECT_NE(l[6].find("lost torus switch 4,4,0 GUID 0x0000000000001018"), std::string::npos) << l[6];
    std::filesystem::remove(conf);

    // max_changes 2: the report stops after the switch whose changes pass the limit.
    auto e2 = EngineRegistry::instance().make("torus-2QoS");
    const std::string capped = write_conf(conf_for(pristine, true) + "max_changes 2\n");
    reroute(*e2, one_link.f, capped);
    const auto c = reroute(*e2, lost.f, capped);
    ASSERT_EQ(c.size(), 3u + 1u);  // (4,0,0), then the two ends of the link that came back
    EXPECT_NE(c[2].find("torus switch 2,1,0"), std::string::npos) << c[2];
    EXPECT_NE(c[3].find("too many torus changes; stopping reporting early"), std::string::npos) << c[3];
    std::filesystem::remove(capped);
}
