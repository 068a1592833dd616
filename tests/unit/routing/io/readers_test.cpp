#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

const std::string kDir = WEFT_IO_FIXTURES;

std::string fixture(const std::string &name) {
    std::ifstream in(kDir + "/" + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

NodeIdx by_guid(const Fabric &f, Guid g) {
    auto n = f.find_guid(g);
    EXPECT_TRUE(n.has_value()) << std::hex << g;
    return n.value_or(0);
}

TEST(FormatDetection, ByContent) {
    EXPECT_EQ(detect_topology_format(fixture("ibnetdiscover-ibsim.topo")), TopologyFormat::Ibnetdiscover);
    EXPECT_EQ(detect_topology_format(fixture("ibnetdiscover-mixed.topo")), TopologyFormat::Ibnetdiscover);
    EXPECT_EQ(detect_topology_format(fixture("ibsim-2sw2path4hca.net")), TopologyFormat::IbsimNet);
    EXPECT_EQ(detect_topology_format(fixture("ibsim-options.net")), TopologyFormat::IbsimNet);
    EXPECT_EQ(detect_topology_format(fixture("opensm-subnet.lst")), TopologyFormat::SubnetLst);
    EXPECT_EQ(detect_topology_format("  {\n \"weft_topology\": 1}"), TopologyFormat::Json);
    EXPECT_FALSE(detect_topology_format("hello world\n").has_value());
    EXPECT_THROW(read_topology_string("hello world\n", "x"), ParseError);
}

// Real output of ibnetdiscover against ibsim running net.2sw2path4hca.
TEST(Ibnetdiscover, ReadsRealOutput) {
    const Fabric f = read_topology(kDir + "/ibnetdiscover-ibsim.topo");
    EXPECT_EQ(f.node_count(), 6u);
    EXPECT_EQ(f.switch_count(), 2u);
    const NodeIdx s1 = by_guid(f, 0x200000), s2 = by_guid(f, 0x200001), h4 = by_guid(f, 0x100009);
    EXPECT_EQ(f.node(s1).desc, "Switch1");
    EXPECT_EQ(f.node(s1).num_ports, 8);
    EXPECT_EQ(f.port(s1, 3).peer, s2);
    EXPECT_EQ(f.port(s1, 5).peer_port, 5);
    EXPECT_EQ(f.port(h4, 1).peer, s2);
    EXPECT_EQ(f.port(h4, 1).peer_port, 2);
    EXPECT_EQ(f.port(h4, 1).guid, 0x10000aull);
    EXPECT_EQ(f.port(h4, 1).speed, LinkSpeed::Sdr);
    EXPECT_EQ(f.port(h4, 1).width, LinkWidth::X4);
    EXPECT_EQ(f.max_lid(), 0u);  // discovered before an SM ran: all LIDs 0
}

TEST(Ibnetdiscover, EveryWidthSpeedAndRecordKind) {
    const Fabric f = read_topology(kDir + "/ibnetdiscover-mixed.topo");
    ASSERT_EQ(f.node_count(), 5u);
    const NodeIdx leaf = by_guid(f, 0x248a0703005b1230), spine = by_guid(f, 0x248a0703005b9990);
    const NodeIdx h1 = by_guid(f, 0x2c90300001234), h2 = by_guid(f, 0x2c90300005678),
                  rt = by_guid(f, 0x2c90300009990);
    EXPECT_EQ(f.node(leaf).desc, "MF0;leaf1:MQM8700/U1");
    EXPECT_EQ(f.node(leaf).sys_guid, 0x248a0703005b1234ull);
    EXPECT_EQ(f.node(rt).type, NodeType::Router);
    EXPECT_EQ(f.port(leaf, 0).lid, 3u);
    EXPECT_EQ(f.port(spine, 0).lid, 4u);
    EXPECT_EQ(f.port(leaf, 1).speed, LinkSpeed::Hdr);
    EXPECT_EQ(f.port(leaf, 2).speed, LinkSpeed::Ndr);
    EXPECT_EQ(f.port(leaf, 3).width, LinkWidth::X2);
    EXPECT_EQ(f.port(leaf, 3).speed, LinkSpeed::Xdr);
    EXPECT_EQ(f.port(leaf, 4).width, LinkWidth::X12);
    EXPECT_EQ(f.port(leaf, 4).speed, LinkSpeed::Edr);
    EXPECT_EQ(f.port(leaf, 5).width, LinkWidth::X8);
    EXPECT_EQ(f.port(leaf, 5).speed, LinkSpeed::Fdr);
    EXPECT_EQ(f.port(leaf, 6).width, LinkWidth::X1);
    EXPECT_EQ(f.port(leaf, 6).speed, LinkSpeed::Fdr10);
    EXPECT_EQ(f.port(spine, 21).speed, LinkSpeed::Ddr);
    EXPECT_EQ(f.port(rt, 1).speed, LinkSpeed::Qdr);
    EXPECT_EQ(f.port(spine, 17).peer, leaf);
    EXPECT_EQ(f.port(spine, 17).peer_port, 3);
    // CA ports: GUIDs from the file, LIDs with LMC.
    EXPECT_EQ(f.port(h2, 2).guid, 0x2c9030000567aull);
    EXPECT_EQ(f.port(h2, 1).lid, 8u);
    EXPECT_EQ(f.port(h2, 1).lmc, 1);
    ASSERT_TRUE(f.lid_owner(9).has_value());
    EXPECT_EQ(f.lid_owner(9)->node, h2);
    EXPECT_EQ(f.port(h2, 2).lid, 10u);
    EXPECT_EQ(f.port(h1, 1).lid, 7u);
    EXPECT_EQ(f.port(rt, 1).lid, 12u);
}

// Expected values checked against ibsim 0.10 itself (ibnetdiscover over ibsim -s on this file).
TEST(IbsimNet, FollowsIbsimSemantics) {
    const Fabric f = read_topology(kDir + "/ibsim-options.net");
    ASSERT_EQ(f.node_count(), 5u);
    const NodeIdx a = by_guid(f, 0x10000), b = by_guid(f, 0x10001), c = by_guid(f, 0x10002);
    const NodeIdx h1 = by_guid(f, 0x20000), h2 = by_guid(f, 0x20003);
    EXPECT_EQ(f.node(a).desc, "leaf A");
    EXPECT_EQ(f.node(h1).desc, "host one");
    EXPECT_EQ(f.node(h2).desc, "host-2");
    EXPECT_EQ(f.node(c).desc, "sw-c");  // from the included file
    EXPECT_EQ(f.port(h1, 1).guid, 0x20001ull);
    EXPECT_EQ(f.port(a, 0).lid, 1u);
    EXPECT_EQ(f.port(h1, 1).lid, 5u);
    EXPECT_EQ(f.port(a, 1).width, LinkWidth::X12);  // w=8 & w=12
    EXPECT_EQ(f.port(a, 1).speed, LinkSpeed::Qdr);  // s=4 & s=7
    EXPECT_EQ(f.port(b, 3).speed, LinkSpeed::Ddr);  // s=2 & s=6
    EXPECT_EQ(f.port(b, 4).width, LinkWidth::X1);   // width=3 default & w=1
    EXPECT_EQ(f.port(a, 2).speed, LinkSpeed::Edr);  // "# weft-link 4xEDR"
    EXPECT_EQ(f.port(c, 1).peer, a);
    EXPECT_EQ(f.port(a, 5).peer_port, 1);
}

TEST(IbsimNet, ExampleNetAndDefaults) {
    const Fabric f = read_topology(kDir + "/ibsim-2sw2path4hca.net");
    EXPECT_EQ(f.node_count(), 6u);
    // ibsim's GUID plan: switches from 0x200000, CAs from 0x100000 stepping ports + 1.
    EXPECT_TRUE(f.find_guid(0x200001).has_value());
    EXPECT_TRUE(f.find_guid(0x100009).has_value());
    EXPECT_EQ(f.port(*f.find_guid(0x100009), 1).guid, 0x10000aull);
    EXPECT_EQ(f.port(*f.find_guid(0x200000), 3).speed, LinkSpeed::Sdr);
    EXPECT_EQ(f.port(*f.find_guid(0x200000), 3).width, LinkWidth::X4);
}

TEST(IbsimNet, ModulePrefixAndRelativeGuidBase) {
    const Fabric f = read_ibsim_net(
        "switchguid=0x500\nmodule=\"pod\"\nSwitch 4 \"a\"\n[1] \"b\"[2]\n\nswitchguid+0x10\nSwitch 4 "
        "\"b\"\n[2] "
        "\"pod#a\"[1]\n",
        "mem");
    ASSERT_EQ(f.node_count(), 2u);
    EXPECT_EQ(f.node(0).desc, "pod#a");
    EXPECT_EQ(f.node(1).guid, 0x510u);
    EXPECT_EQ(f.port(0, 1).peer, 1u);
}

TEST(SubnetLst, ReadsOpenSmDump) {
    const Fabric f = read_topology(kDir + "/opensm-subnet.lst");
    EXPECT_EQ(f.node_count(), 6u);
    const NodeIdx s1 = by_guid(f, 0x200000), h1 = by_guid(f, 0x100000);
    EXPECT_EQ(f.node(s1).desc, "Switch1");
    EXPECT_EQ(f.port(s1, 0).lid, 1u);
    EXPECT_EQ(f.port(h1, 1).lid, 2u);
    EXPECT_EQ(f.port(h1, 1).guid, 0x100001ull);
    EXPECT_EQ(f.port(s1, 3).peer, by_guid(f, 0x200001));
    EXPECT_EQ(f.port(s1, 3).speed, LinkSpeed::Sdr);
}

TEST(Json, ReadsSchema) {
    const Fabric f = read_topology_json(R"({"weft_topology": 1,
      "nodes": [{"type": "switch", "guid": "0x10", "ports": 4, "desc": "sw", "lid": 1},
                {"type": "ca", "guid": "0x20", "ports": 2, "desc": "h\"1",
                 "port_info": [{"port": 1, "guid": "0x99", "lid": 4, "lmc": 1}]}],
      "links": [{"a": "0x10", "pa": 2, "b": "0x20", "pb": 1, "width": "12x", "speed": "NDR"}]})",
                                        "mem.json");
    ASSERT_EQ(f.node_count(), 2u);
    EXPECT_EQ(f.node(1).desc, "h\"1");
    EXPECT_EQ(f.port(1, 1).guid, 0x99u);
    EXPECT_EQ(f.port(1, 2).guid, 0x22u);  // default: node GUID + port
    EXPECT_EQ(f.port(1, 1).lmc, 1);
    EXPECT_EQ(f.port(0, 2).width, LinkWidth::X12);
    EXPECT_EQ(f.port(0, 2).speed, LinkSpeed::Ndr);
    EXPECT_EQ(f.port(0, 0).lid, 1u);
}

}  // namespace
}  // namespace weft::routing
