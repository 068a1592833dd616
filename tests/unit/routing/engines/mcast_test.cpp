// The default multicast tree (OpenSM's mcast manager) and the tree check.
#include <gtest/gtest.h>

#include "test_fabrics.hpp"
#include "weft/routing/engine.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {
namespace {

McastGroup group(const Fabric &f, std::initializer_list<const char *> hosts) {
    McastGroup g;
    g.mlid = 0xC001;
    for (const char *h : hosts)
        for (NodeIdx n = 0; n < f.node_count(); ++n)
            if (f.node(n).desc == h) g.members.push_back({n, 1});
    return g;
}

std::string problems(const McastTreeReport &r) {
    std::string s;
    for (const auto &p : r.problems) s += p + "\n";
    return s;
}

// 4 leaves (sw0..sw3: hosts on ports 1-2, spine0 on 3, spine1 on 4), spines sw4/sw5 (leaf i
// on port i+1). Hosts h0,h1 on sw0, h2,h3 on sw1, ..., h6,h7 on sw3.
TEST(McastTree, TwoLevelFatTreeByHand) {
    const Fabric f = test::two_level(4, 2, 2);
    ChainResult r;
    RoutingTables t;
    r = run_chain("minhop", f, {}, t);
    ASSERT_TRUE(r.ok);
    const McastGroup g = group(f, {"h0", "h2", "h7"});
    McastTree tree;
    ASSERT_TRUE(build_mcast_tree(r, f, {}, t, g, tree).ok);
    // Root: a spine (every member's switch 1 hop away, +1 for the CA = 2; a leaf has 3); of
    // the two, the lower GUID (sw4). Members split over the leaves' ports; each leaf sends up
    // its spine port 3 and down to its member.
    EXPECT_EQ(tree.mlid, 0xC001u);
    EXPECT_EQ(tree.ports[4], (std::vector<PortNum>{1, 2, 4}));
    EXPECT_EQ(tree.ports[0], (std::vector<PortNum>{1, 3}));
    EXPECT_EQ(tree.ports[1], (std::vector<PortNum>{1, 3}));
    EXPECT_EQ(tree.ports[3], (std::vector<PortNum>{2, 3}));
    EXPECT_TRUE(tree.ports[2].empty());
    EXPECT_TRUE(tree.ports[5].empty());
    const McastTreeReport rep = verify_mcast_tree(f, g, tree);
    EXPECT_TRUE(rep.ok()) << problems(rep);
    EXPECT_EQ(rep.switches, 4u);
    EXPECT_EQ(rep.links, 3u);
}

TEST(McastTree, MembersOnOneLeafStayOnIt) {
    const Fabric f = test::two_level(4, 2, 2);
    RoutingTables t;
    const ChainResult r = run_chain("minhop", f, {}, t);
    const McastGroup g = group(f, {"h4", "h5"});
    McastTree tree;
    ASSERT_TRUE(build_mcast_tree(r, f, {}, t, g, tree).ok);
    EXPECT_EQ(tree.ports[2], (std::vector<PortNum>{1, 2}));
    for (SwitchIdx s : {0u, 1u, 3u, 4u, 5u}) EXPECT_TRUE(tree.ports[s].empty()) << s;
    EXPECT_TRUE(verify_mcast_tree(f, g, tree).ok());
}

TEST(McastTree, SwitchMemberGetsPortZero) {
    const Fabric f = test::two_level(4, 2, 2);
    RoutingTables t;
    const ChainResult r = run_chain("minhop", f, {}, t);
    McastGroup g = group(f, {"h0", "h7"});
    g.members.push_back({f.switch_node(5), 0});
    McastTree tree;
    ASSERT_TRUE(build_mcast_tree(r, f, {}, t, g, tree).ok);
    // Both spines reach every member within 2 hops: the root is sw4 (lower GUID), and sw5 hangs
    // off leaf sw0 (sw4's first min-hop port toward it).
    EXPECT_EQ(tree.ports[4], (std::vector<PortNum>{1, 4}));
    EXPECT_EQ(tree.ports[0], (std::vector<PortNum>{1, 3, 4}));
    EXPECT_EQ(tree.ports[5], (std::vector<PortNum>{0, 1}));
    const McastTreeReport rep = verify_mcast_tree(f, g, tree);
    EXPECT_TRUE(rep.ok()) << problems(rep);
}

TEST(McastTree, OneMemberIsLeftUnconfigured) {
    const Fabric f = test::two_level(2, 1, 2);
    RoutingTables t;
    const ChainResult r = run_chain("minhop", f, {}, t);
    const McastGroup g = group(f, {"h0"});
    McastTree tree;
    ASSERT_TRUE(build_mcast_tree(r, f, {}, t, g, tree).ok);
    for (const auto &p : tree.ports) EXPECT_TRUE(p.empty());
    EXPECT_TRUE(verify_mcast_tree(f, g, tree).ok());
}

TEST(McastTree, TreesOnRingsAndToriAreTrees) {
    for (const Fabric &f : {test::ring(7, 1), test::torus2d(4, 4), test::kary_ntree(2, 3)}) {
        for (const char *engine : {"minhop", "sssp"}) {
            RoutingTables t;
            const ChainResult r = run_chain(engine, f, {}, t);
            ASSERT_TRUE(r.ok);
            McastGroup g;
            g.mlid = 0xC000;
            for (NodeIdx n = 0; n < f.node_count(); n += 2)
                if (!f.node(n).is_switch()) g.members.push_back({n, 1});
            McastTree tree;
            const HookResult h = build_mcast_tree(r, f, {}, t, g, tree);
            ASSERT_TRUE(h.ok) << h.error;
            const McastTreeReport rep = verify_mcast_tree(f, g, tree);
            EXPECT_TRUE(rep.ok()) << engine << "\n" << problems(rep);
            EXPECT_EQ(rep.links + 1, rep.switches);
        }
    }
}

TEST(McastTree, UnreachableMemberIsNamed) {
    Fabric f = test::two_level(2, 1, 2);
    RoutingTables t;
    const ChainResult r = run_chain("minhop", f, {}, t);
    const McastGroup g = group(f, {"h0", "h3"});
    f.disconnect(g.members[1].node, 1);
    McastTree tree;
    const HookResult h = build_mcast_tree(r, f, {}, t, g, tree);
    EXPECT_FALSE(h.ok);
    EXPECT_NE(h.error.find("'h3' port 1"), std::string::npos) << h.error;
}

TEST(McastTreeCheck, FindsLoopsOneSidedLinksMissingAndStrayMembers) {
    const Fabric f = test::two_level(4, 2, 2);
    RoutingTables t;
    const ChainResult r = run_chain("minhop", f, {}, t);
    const McastGroup g = group(f, {"h0", "h2", "h7"});
    McastTree good;
    ASSERT_TRUE(build_mcast_tree(r, f, {}, t, g, good).ok);

    McastTree loop = good;  // sw0 and sw1 also joined through spine sw5: a cycle
    loop.ports[0] = {1, 3, 4};
    loop.ports[1] = {1, 3, 4};
    loop.ports[5] = {1, 2};
    auto rep = verify_mcast_tree(f, g, loop);
    ASSERT_FALSE(rep.ok());
    EXPECT_NE(problems(rep).find("closes a cycle"), std::string::npos) << problems(rep);

    McastTree one_sided = good;
    one_sided.ports[5] = {1};
    rep = verify_mcast_tree(f, g, one_sided);
    EXPECT_NE(problems(rep).find("listed on one side only"), std::string::npos) << problems(rep);

    McastTree missing = good;
    missing.ports[3] = {3};
    rep = verify_mcast_tree(f, g, missing);
    EXPECT_NE(problems(rep).find("member 'h7' port 1 is not reached"), std::string::npos) << problems(rep);

    McastTree stray = good;
    stray.ports[0] = {1, 2, 3};
    rep = verify_mcast_tree(f, g, stray);
    EXPECT_NE(problems(rep).find("'h1', which is not a member"), std::string::npos) << problems(rep);

    McastTree split = good;  // sw3 cut off from the rest
    split.ports[4] = {1, 2};
    split.ports[3] = {2};
    rep = verify_mcast_tree(f, g, split);
    EXPECT_NE(problems(rep).find("not connected"), std::string::npos) << problems(rep);
}

}  // namespace
}  // namespace weft::routing
