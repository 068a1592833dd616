#include <gtest/gtest.h>

#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"

namespace weft::routing {
namespace {

TEST(LidAssignment, DeterministicAndLmcAligned) {
    Fabric f = generate("kary:k=2,n=2");  // 4 switches, 4 hosts
    LidOptions o;
    o.lmc = 2;
    const LidReport r = assign_lids(f, o);
    EXPECT_EQ(r.assigned, 8u);
    EXPECT_TRUE(r.conflicts.empty());
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Port &p = f.port(n, f.node(n).is_switch() ? 0 : 1);
        ASSERT_NE(p.lid, 0u);
        if (f.node(n).is_switch()) {
            EXPECT_EQ(p.lmc, 0);
        } else {
            EXPECT_EQ(p.lmc, 2);
            EXPECT_EQ(p.lid % 4, 0u) << "LMC 2 blocks are aligned to 4";
            for (Lid l = p.lid; l < p.lid + 4; ++l) EXPECT_EQ(f.lid_owner(l)->node, n);
        }
    }
    Fabric g = generate("kary:k=2,n=2");
    assign_lids(g, o);
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        EXPECT_EQ(f.port(n, f.node(n).is_switch() ? 0 : 1).lid, g.port(n, g.node(n).is_switch() ? 0 : 1).lid);
}

TEST(LidAssignment, AnExhaustedLidSpaceNamesThePortAndTheShortfall) {
    Fabric f = generate("ft36:hosts=648");  // 54 switches, 648 hosts: 82998 LIDs with LMC 7
    LidOptions o;
    o.lmc = 7;
    try {
        assign_lids(f, o);
        ADD_FAILURE() << "82998 LIDs assigned";
    } catch (const std::runtime_error &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("exhausted at port 1 of 'h00"), std::string::npos) << what;
        EXPECT_NE(what.find("which needs 128 LIDs"), std::string::npos) << what;
        EXPECT_NE(what.find("702 switches and end ports need 82998 (LMC 7)"), std::string::npos) << what;
    }
}

TEST(LidAssignment, HonoursGuid2LidAndReportsConflicts) {
    Fabric f = generate("kary:k=2,n=2");
    const Guid h0 = f.port(4, 1).guid, h1 = f.port(5, 1).guid, h2 = f.port(6, 1).guid, sw = f.node(0).guid;
    const std::string text = "0x" + [](Guid g) {
        char b[20];
        std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(g));
        return std::string(b);
    }(h0) + " 0x0040 0x0041\n";
    auto g2l = read_guid2lid(text, "g2l");
    ASSERT_EQ(g2l.size(), 1u);
    g2l.push_back({h1, 0x40, 0x41, 2});    // overlaps h0's block
    g2l.push_back({h2, 0x43, 0x44, 3});    // misaligned for LMC 1
    g2l.push_back({sw, 0x7, 0x7, 4});      // a switch: one LID
    g2l.push_back({0xdeadbeef, 9, 9, 5});  // no such port
    LidOptions o;
    o.lmc = 1;
    o.guid2lid = g2l;
    const LidReport r = assign_lids(f, o);
    EXPECT_EQ(f.port(4, 1).lid, 0x40u);
    EXPECT_EQ(f.port(0, 0).lid, 7u);
    EXPECT_NE(f.port(5, 1).lid, 0x40u);
    EXPECT_EQ(f.port(5, 1).lid % 2, 0u);
    EXPECT_EQ(f.port(6, 1).lid % 2, 0u);
    EXPECT_EQ(r.from_file, 2u);
    EXPECT_EQ(r.unknown_guids, 1u);
    ASSERT_EQ(r.conflicts.size(), 2u);
    EXPECT_NE(r.conflicts[0].find("overlaps"), std::string::npos) << r.conflicts[0];
    EXPECT_NE(r.conflicts[1].find("not aligned"), std::string::npos) << r.conflicts[1];
    // What we assigned reads back as the same guid2lid.
    auto again = read_guid2lid(write_guid2lid(f), "out");
    EXPECT_EQ(again.size(), 8u);
}

TEST(LidAssignment, KeepsExistingLidsFromTheTopology) {
    Fabric f = generate("kary:k=2,n=1");
    f.set_lid(1, 1, 9, 0);
    const LidReport r = assign_lids(f, {});
    EXPECT_EQ(r.kept, 1u);
    EXPECT_EQ(f.port(1, 1).lid, 9u);
    EXPECT_EQ(f.port(0, 0).lid, 1u);
    EXPECT_EQ(f.port(2, 1).lid, 2u);
}

}  // namespace
}  // namespace weft::routing
