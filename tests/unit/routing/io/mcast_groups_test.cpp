// Multicast group files: the format's forms, located errors, and members found in a fabric
// (linked ports only, unknown GUIDs left out with a warning).
#include <gtest/gtest.h>

#include "weft/routing/generators.hpp"
#include "weft/routing/mcast_groups.hpp"

namespace weft::routing {
namespace {

TEST(McastGroups, ReadsEveryForm) {
    const auto g = read_mcast_groups(
        "# groups\n"
        "0xC000 all\n"
        "\n"
        "0xc001 switches 0x10 # a comment\n"
        "49154 0x20 0x21#tight\n",
        "g.txt");
    ASSERT_EQ(g.size(), 3u);
    EXPECT_EQ(g[0].mlid, 0xC000);
    EXPECT_TRUE(g[0].all_end_ports);
    EXPECT_FALSE(g[0].all_switches);
    EXPECT_EQ(g[0].line, 2u);
    EXPECT_TRUE(g[1].all_switches);
    EXPECT_EQ(g[1].port_guids, std::vector<Guid>{0x10});
    EXPECT_EQ(g[2].mlid, 0xC002);
    EXPECT_EQ(g[2].port_guids, (std::vector<Guid>{0x20, 0x21}));
}

std::string error_of(std::string_view text) {
    try {
        read_mcast_groups(text, "g.txt");
    } catch (const ParseError &e) {
        return e.what();
    }
    return "no error";
}

TEST(McastGroups, LocatedErrors) {
    EXPECT_NE(error_of("0x0001 all\n").find("g.txt:1:1"), std::string::npos) << error_of("0x0001 all\n");
    EXPECT_NE(error_of("0x0001 all\n").find("multicast LID"), std::string::npos);
    EXPECT_NE(error_of("0xFFFF all\n").find("0xC000..0xFFFE"), std::string::npos);
    EXPECT_NE(error_of("0xC000 all\n0xC000 switches\n").find("g.txt:2:1"), std::string::npos);
    EXPECT_NE(error_of("0xC000\n").find("at least one member"), std::string::npos);
    EXPECT_NE(error_of("0xC000 everyone\n").find("g.txt:1:8"), std::string::npos)
        << error_of("0xC000 everyone\n");
    EXPECT_NE(error_of("0xC000 0x10,0x11\n").find("a blank between members"), std::string::npos);
}

TEST(McastGroups, ResolvesMembersInAFabric) {
    Fabric f = make_kary_ntree(2, 2);  // 4 switches, 4 hosts
    std::vector<NodeIdx> hosts, switches;
    for (NodeIdx n = 0; n < f.node_count(); ++n) (f.node(n).is_switch() ? switches : hosts).push_back(n);
    ASSERT_EQ(hosts.size(), 4u);
    const Guid host1_port = f.port(hosts[1], 1).guid;
    const Guid sw0 = f.node(switches[0]).guid;
    const auto specs =
        read_mcast_groups("0xC000 all\n0xC001 switches\n0xC002 " + std::to_string(host1_port) + " " +
                              std::to_string(sw0) + " 0x1234567 " + std::to_string(host1_port) + "\n",
                          "g");
    const ResolvedMcastGroups r = resolve_mcast_groups(specs, f);
    ASSERT_EQ(r.groups.size(), 3u);
    EXPECT_EQ(r.groups[0].members.size(), 4u);
    for (const LidOwner &m : r.groups[0].members) EXPECT_EQ(m.port, 1);
    EXPECT_EQ(r.groups[1].members.size(), switches.size());
    for (const LidOwner &m : r.groups[1].members) EXPECT_EQ(m.port, 0);
    ASSERT_EQ(r.groups[2].members.size(), 2u);  // the host once, the switch as port 0
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0],
              "group 0xc002 (line 3): port GUID 0x0000000001234567 is not in the fabric; left out");
}

}  // namespace
}  // namespace weft::routing
