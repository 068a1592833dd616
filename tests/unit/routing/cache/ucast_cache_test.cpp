#include <gtest/gtest.h>

#include <set>

#include "test_fabrics.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/ucast_cache.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

// The fabric an SM would discover once the named nodes are gone: same GUIDs and LIDs, node
// indices shifted.
Fabric without(const Fabric &f, const std::set<std::string> &gone) {
    Fabric out;
    std::vector<NodeIdx> map(f.node_count(), kNoNode);
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (gone.count(x.desc)) continue;
        map[n] = out.add_node(x.type, x.guid, x.num_ports, x.desc, x.sys_guid);
        for (PortNum p = 1; p <= x.num_ports; ++p)
            if (f.port(n, p).guid) out.set_port_guid(map[n], p, f.port(n, p).guid);
    }
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (map[n] == kNoNode) continue;
        for (PortNum p = 0; p <= f.node(n).num_ports; ++p) {
            const Port &x = f.port(n, p);
            if (x.lid) out.set_lid(map[n], p, x.lid, x.lmc);
            if (p == 0 || x.peer == kNoNode || map[x.peer] == kNoNode) continue;
            if (x.peer < n || (x.peer == n && x.peer_port < p)) continue;
            out.connect(map[n], p, map[x.peer], x.peer_port, x.width, x.speed, x.state);
        }
    }
    return out;
}

NodeIdx named(const Fabric &f, const std::string &desc) {
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        if (f.node(n).desc == desc) return n;
    ADD_FAILURE() << "no node " << desc;
    return 0;
}

RoutingOptions cached() {
    RoutingOptions o;
    o.ucast_cache = true;
    return o;
}

RoutingTables full(const std::string &engine, const Fabric &f) {
    RoutingTables t;
    EXPECT_TRUE(run_chain(engine, f, {}, t).ok);
    return t;
}

TEST(UcastCache, NothingChangedIsAHit) {
    const Fabric f = test::two_level(4, 2, 2);
    UcastCache cache;
    RoutingTables t1, t2;
    auto r = cache.route("minhop", f, cached(), t1);
    EXPECT_TRUE(r.recomputed);
    EXPECT_EQ(r.cache.reason, "no cached routing");
    ASSERT_TRUE(cache.valid());
    r = cache.route("minhop", f, cached(), t2);
    EXPECT_FALSE(r.recomputed);
    EXPECT_TRUE(r.cache.hit);
    EXPECT_EQ(r.cache.reason, "no change");
    EXPECT_EQ(r.chain.engine, "minhop");
    EXPECT_EQ(t2.lft, t1.lft);
    EXPECT_EQ(t2.hops, t1.hops);
    EXPECT_EQ(t2.engine, "minhop");
}

// A hit hands back the SL2VL the routing came with, nue's one map for every port pair included
// (a hit that dropped it would leave nue's layers on VL 0 and their credit loops open).
TEST(UcastCache, HitKeepsTheSlToVlMap) {
    const Fabric f = test::two_level(4, 2, 2);
    RoutingOptions o = cached();
    o.qos = true;
    o.nue_max_num_vls = 2;
    UcastCache cache;
    RoutingTables t1, t2;
    ASSERT_TRUE(cache.route("nue", f, o, t1).chain.ok);
    ASSERT_TRUE(t1.sl2vl_all.has_value());
    const auto r = cache.route("nue", f, o, t2);
    EXPECT_TRUE(r.cache.hit);
    ASSERT_TRUE(t2.sl2vl_all.has_value());
    EXPECT_EQ(*t2.sl2vl_all, *t1.sl2vl_all);
    EXPECT_EQ(t2.path_sl, t1.path_sl);
    EXPECT_EQ(t2.vls_used, t1.vls_used);
}

class HostReboot : public ::testing::TestWithParam<const char *> {};

TEST_P(HostReboot, TwoHitsAndTheSameTablesAsARecomputation) {
    const std::string engine = GetParam();
    const Fabric f = test::two_level(4, 2, 2);
    const Lid h3 = f.port(named(f, "h3"), 1).lid;
    UcastCache cache;
    RoutingTables base, down, back;
    ASSERT_TRUE(cache.route(engine, f, cached(), base).recomputed);

    // The host goes down: its LIDs unrouted, every other entry as cached.
    const Fabric f1 = without(f, {"h3"});
    auto r = cache.route(engine, f1, cached(), down);
    ASSERT_TRUE(r.cache.hit) << r.cache.reason;
    EXPECT_EQ(r.cache.reason, "1 end port down: 'h3' port 1 (LID " + std::to_string(h3) + ")");
    EXPECT_EQ(r.cache.end_ports_down, 1u);
    EXPECT_EQ(r.cache.unrouted_lids, 1u);
    EXPECT_EQ(down.engine, engine);
    for (SwitchIdx s = 0; s < f.switch_count(); ++s)
        for (Lid l = 1; l <= f.max_lid(); ++l)
            EXPECT_EQ(down.lft[s][l], l == h3 ? kNoPort : base.lft[s][l]) << s << " " << l;
    const PathReport pr = trace_paths(f1, down);
    EXPECT_TRUE(pr.ok());

    // It comes back: a hit again, and the tables are what a full recomputation gives.
    r = cache.route(engine, f, cached(), back);
    ASSERT_TRUE(r.cache.hit) << r.cache.reason;
    EXPECT_EQ(r.cache.reason, "1 end port back: 'h3' port 1");
    EXPECT_EQ(r.cache.end_ports_back, 1u);
    const RoutingTables again = full(engine, f);
    EXPECT_EQ(back.lft, again.lft);
    EXPECT_EQ(back.hops, again.hops);
    EXPECT_EQ(back.path_sl, again.path_sl);
    EXPECT_EQ(back.vls_used, again.vls_used);
}

INSTANTIATE_TEST_SUITE_P(Engines, HostReboot,
                         ::testing::Values("minhop", "updn", "dnup", "ftree", "sssp", "dfsssp"));

TEST(UcastCache, DisconnectedHostCountsAsGone) {
    // A topology that still lists the host, cable down.
    const Fabric f = test::two_level(4, 2, 2);
    Fabric f1 = f;
    f1.disconnect(named(f1, "h5"), 1);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", f, cached(), t);
    const auto r = cache.route("minhop", f1, cached(), t);
    ASSERT_TRUE(r.cache.hit) << r.cache.reason;
    EXPECT_EQ(r.cache.end_ports_down, 1u);
    EXPECT_EQ(t.lft[0][f.port(named(f, "h5"), 1).lid], kNoPort);
    EXPECT_TRUE(trace_paths(f1, t).ok());
}

TEST(UcastCache, LeafSwitchDownAndBack) {
    const Fabric f = test::two_level(4, 2, 2);
    UcastCache cache;
    RoutingTables base, down, back;
    cache.route("minhop", f, cached(), base);
    const Fabric f1 = without(f, {"sw0", "h0", "h1"});
    auto r = cache.route("minhop", f1, cached(), down);
    ASSERT_TRUE(r.cache.hit) << r.cache.reason;
    EXPECT_EQ(r.cache.leaf_switches_down, 1u);
    EXPECT_EQ(r.cache.end_ports_down, 2u);
    EXPECT_EQ(r.cache.unrouted_lids, 3u);  // sw0's own LID and its two hosts
    EXPECT_NE(r.cache.reason.find("1 leaf switch down: 'sw0'"), std::string::npos) << r.cache.reason;
    // Every CA still reaches every CA; the spines' routes to each other crossed sw0 and are
    // kept, as OpenSM keeps them.
    const PathReport pr = trace_paths(f1, down);
    EXPECT_TRUE(pr.ok()) << (pr.examples.empty() ? "" : pr.examples[0].what);
    EXPECT_GT(r.cache.stale_switch_entries, 0u);
    EXPECT_GT(pr.switch_unreachable, 0u);
    // Rows follow the switches by GUID (f1's switch 0 is f's sw1).
    EXPECT_EQ(down.lft[0][f.port(named(f, "h7"), 1).lid], base.lft[1][f.port(named(f, "h7"), 1).lid]);

    r = cache.route("minhop", f, cached(), back);
    ASSERT_TRUE(r.cache.hit) << r.cache.reason;
    EXPECT_EQ(r.cache.leaf_switches_back, 1u);
    EXPECT_EQ(r.cache.end_ports_back, 2u);
    EXPECT_EQ(back.lft, full("minhop", f).lft);
}

TEST(UcastCache, SpineLinkDownRecomputes) {
    const Fabric f = test::two_level(4, 2, 2);
    Fabric f1 = f;
    f1.disconnect(f1.switch_node(0), 3);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", f, cached(), t);
    const auto r = cache.route("minhop", f1, cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_TRUE(r.recomputed);
    EXPECT_EQ(r.cache.reason.rfind("switch-to-switch link down: 'sw0'", 0), 0u) << r.cache.reason;
    EXPECT_EQ(t.lft, full("minhop", f1).lft);
    // The recomputation is cached in turn.
    EXPECT_TRUE(cache.route("minhop", f1, cached(), t).cache.hit);
}

TEST(UcastCache, SpineGoneRecomputes) {
    const Fabric f = test::two_level(4, 2, 2);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", f, cached(), t);
    const auto r = cache.route("minhop", without(f, {"sw5"}), cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_EQ(r.cache.reason, "non-leaf switch 'sw5' (0x0000000000001005) is gone");
}

TEST(UcastCache, NewOrMovedHostOrNewLidRecomputes) {
    const Fabric f = test::two_level(4, 2, 2);
    Fabric f_less = f;  // h1 unplugged: port 2 of sw0 free
    f_less.disconnect(named(f_less, "h1"), 1);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", f_less, cached(), t);
    // h0 re-cabled to that free port: a link that was not there.
    Fabric moved = f_less;
    moved.disconnect(named(moved, "h0"), 1);
    moved.connect(named(moved, "h0"), 1, moved.switch_node(0), 2);
    auto r = cache.route("minhop", moved, cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_EQ(r.cache.reason, "new link: switch 'sw0' (0x0000000000001000) port 2 -> end port 'h0' port 1")
        << r.cache.reason;
    // A host never seen before.
    cache.route("minhop", f_less, cached(), t);
    Fabric more = f_less;
    const NodeIdx h = more.add_node(NodeType::Ca, 0x777000, 1, "newhost");
    more.set_port_guid(h, 1, 0x777001);
    more.connect(h, 1, more.switch_node(0), 2);
    more.set_lid(h, 1, more.max_lid() + 1, 0);
    r = cache.route("minhop", more, cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_NE(r.cache.reason.find("new end port 'newhost' port 1"), std::string::npos) << r.cache.reason;
    // A host whose LID changed.
    cache.route("minhop", f, cached(), t);
    Fabric relid = f;
    relid.set_lid(named(relid, "h0"), 1, relid.max_lid() + 1, 0);
    r = cache.route("minhop", relid, cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_NE(r.cache.reason.find("LID of 'h0' port 1 changed"), std::string::npos) << r.cache.reason;
}

TEST(UcastCache, LeafNextToLeafRecomputes) {
    // On a ring every switch has a host: routes between hosts cross other leaves.
    const Fabric f = test::ring(5, 1);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", f, cached(), t);
    const auto r = cache.route("minhop", without(f, {"sw2", "h2"}), cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_NE(r.cache.reason.find("was cabled to leaf switch"), std::string::npos) << r.cache.reason;
}

TEST(UcastCache, RouteThroughAMissingLeafRecomputes) {
    // Spines S0, S1 without hosts; leaf A on S0 only, C on S1 only, B on both: A's routes to C
    // cross leaf B. B going away passes OpenSM's leaf rules but breaks A -> C.
    test::Builder b;
    const NodeIdx s0 = b.sw(4), s1 = b.sw(4), la = b.sw(4), lb = b.sw(4), lc = b.sw(4);
    b.f.connect(la, 2, s0, 1);
    b.f.connect(lb, 2, s0, 2);
    b.f.connect(lb, 3, s1, 1);
    b.f.connect(lc, 2, s1, 2);
    b.host(la, 1);
    b.host(lb, 1);
    b.host(lc, 1);
    test::assign_lids(b.f);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", b.f, cached(), t);
    const auto r = cache.route("minhop", without(b.f, {"sw3", "h1"}), cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_NE(r.cache.reason.find("which is down now"), std::string::npos) << r.cache.reason;
}

TEST(UcastCache, OptionsOrChainChangedOrCacheOff) {
    const Fabric f = test::two_level(4, 2, 2);
    UcastCache cache;
    RoutingTables t;
    cache.route("minhop", f, cached(), t);
    auto r = cache.route("updn", f, cached(), t);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_EQ(r.cache.reason, "engine chain changed ('minhop' -> 'updn')");
    RoutingOptions o = cached();
    o.max_vls = 4;
    r = cache.route("updn", f, o, t);
    EXPECT_EQ(r.cache.reason, "routing options changed");
    r = cache.route("updn", f, {}, t);
    EXPECT_EQ(r.cache.reason, "cache off");
    EXPECT_TRUE(r.recomputed);
}

// A VM that moved takes its LID to another port: the cached routes to it are wrong, so the
// cache recomputes and says why.
TEST(UcastCache, AMigratedVmIsAMiss) {
    Fabric f = generate("kary:k=2,n=2/vms:vfs=2,count=2");
    assign_lids(f, {});
    UcastCache cache;
    RoutingTables t1, t2;
    ASSERT_TRUE(cache.route("vswitch-ftree", f, cached(), t1).recomputed);
    f.move_vm(0, f.vms()[1].hypervisor, 1);
    const auto r = cache.route("vswitch-ftree", f, cached(), t2);
    EXPECT_FALSE(r.cache.hit);
    EXPECT_NE(r.cache.reason.find("VF LIDs of 'h00001' port 1 changed"), std::string::npos) << r.cache.reason;
    EXPECT_TRUE(trace_paths(f, t2).ok());
}

}  // namespace
}  // namespace weft::routing
