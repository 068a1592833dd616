// Write -> read gives the same fabric, for every writer with a reader.
#include <gtest/gtest.h>

#include "fabric_compare.hpp"
#include "weft/routing/generators.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {
namespace {

using testing::same_fabric;

Fabric sample(const std::string &spec, std::uint8_t lmc) {
    Fabric f = generate(spec);
    LidOptions o;
    o.lmc = lmc;
    assign_lids(f, o);
    return f;
}

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, Json) {
    const Fabric f = sample(GetParam(), 1);
    EXPECT_TRUE(same_fabric(f, read_topology_string(write_topology_json(f), "rt.json")));
}

TEST_P(RoundTrip, Ibnetdiscover) {
    const Fabric f = sample(GetParam(), 1);
    const std::string text = write_ibnetdiscover(f);
    EXPECT_EQ(detect_topology_format(text), TopologyFormat::Ibnetdiscover);
    EXPECT_TRUE(same_fabric(f, read_topology_string(text, "rt.topo")));
}

TEST_P(RoundTrip, IbsimNet) {
    const Fabric f = sample(GetParam(), 0);
    const std::string text = write_ibsim_net(f);
    EXPECT_EQ(detect_topology_format(text), TopologyFormat::IbsimNet);
    EXPECT_TRUE(same_fabric(f, read_topology_string(text, "rt.net")));
}

INSTANTIATE_TEST_SUITE_P(Fabrics, RoundTrip,
                         ::testing::Values("kary:k=2,n=3", "pgft:h=2;m=4,4;w=2,2;p=1,2", "torus:3x3,hosts=2",
                                           "dragonfly:a=3,p=1,h=1",
                                           "random:switches=10,degree=3,hosts=1,seed=3"));

TEST(RoundTripLinks, MixedWidthsAndSpeedsSurviveEveryFormat) {
    Fabric f;
    const NodeIdx a = f.add_node(NodeType::Switch, 0x10, 8, "sw a");
    const NodeIdx b = f.add_node(NodeType::Switch, 0x11, 8, "sw-b");
    const NodeIdx h = f.add_node(NodeType::Ca, 0x20, 2, "host 1");
    const NodeIdx r = f.add_node(NodeType::Router, 0x30, 1, "rtr");
    f.set_port_guid(h, 1, 0x21);
    f.set_port_guid(h, 2, 0x22);
    f.set_port_guid(r, 1, 0x31);
    f.connect(a, 1, b, 1, LinkWidth::X12, LinkSpeed::Hdr);
    f.connect(a, 2, b, 2, LinkWidth::X1, LinkSpeed::Ddr);
    f.connect(a, 3, b, 3, LinkWidth::X2, LinkSpeed::Xdr);
    f.connect(a, 4, h, 1, LinkWidth::X8, LinkSpeed::Qdr);
    f.connect(b, 4, h, 2, LinkWidth::X4, LinkSpeed::Fdr10);
    f.connect(b, 5, r, 1, LinkWidth::X4, LinkSpeed::Ndr);
    assign_lids(f, {});
    EXPECT_TRUE(same_fabric(f, read_topology_json(write_topology_json(f), "m.json")));
    EXPECT_TRUE(same_fabric(f, read_ibnetdiscover(write_ibnetdiscover(f), "m.topo")));
    EXPECT_TRUE(same_fabric(f, read_ibsim_net(write_ibsim_net(f), "m.net")));
}

TEST(Dot, ColoursLoadedLinks) {
    const Fabric f = generate("kary:k=2,n=2");
    std::vector<std::uint64_t> load(200, 0);
    load[f.node(0).port_base + 1] = 10;
    const std::string dot = write_dot(f, load);
    EXPECT_NE(dot.find("graph fabric"), std::string::npos);
    EXPECT_NE(dot.find("color=\"#ff0000\""), std::string::npos);  // the busiest link is red
    EXPECT_NE(dot.find("label=\"10/0\""), std::string::npos);
}

}  // namespace
}  // namespace weft::routing
