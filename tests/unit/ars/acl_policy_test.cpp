// ACL rules: field matching, precedence, and the three actions applied by the worker.
#include <gtest/gtest.h>

#include "rig.hpp"
#include "weft/ars/acl_policy.hpp"

namespace weft::ars {
namespace {

PacketFields udp(std::uint16_t dport, std::uint8_t dscp = 0) {
    return {0x0800, 4, 17, 1000, dport, dscp};
}
PacketFields tcp(std::uint16_t dport) {
    return {0x0800, 4, 6, 1000, dport, 0};
}

TEST(AclMatch, EachField) {
    AclMatch m;
    EXPECT_TRUE(matches(m, tcp(80)));  // empty match: everything
    m.ether_type = 0x86DD;
    EXPECT_FALSE(matches(m, tcp(80)));
    m = {};
    m.ip_version = 6;
    EXPECT_FALSE(matches(m, tcp(80)));
    m = {};
    m.ip_protocol = 17;
    EXPECT_TRUE(matches(m, udp(4791)));
    EXPECT_FALSE(matches(m, tcp(4791)));
    EXPECT_FALSE(matches(m, PacketFields{0x8915, 0, 17, 0, 0, 0}));  // non-IP has no protocol
    m = {};
    m.l4_dst_ports = PortRange{4791, 4792};
    EXPECT_TRUE(matches(m, udp(4791)));
    EXPECT_TRUE(matches(m, udp(4792)));
    EXPECT_FALSE(matches(m, udp(4790)));
    EXPECT_FALSE(matches(m, udp(4793)));
    m = {};
    m.l4_src_ports = PortRange{0, 999};
    EXPECT_FALSE(matches(m, udp(1)));
    m = {};
    m.dscp_set = std::uint64_t{1} << 26;
    EXPECT_TRUE(matches(m, udp(1, 26)));
    EXPECT_FALSE(matches(m, udp(1, 27)));
}

TEST(AclPolicy, HigherPriorityWinsAndEqualPrioritiesKeepOrder) {
    AclRule all_udp{10, {}, {}};
    all_udp.match.ip_protocol = 17;
    all_udp.action.disable_ars = true;
    AclRule roce{20, {}, {}};
    roce.match.ip_protocol = 17;
    roce.match.l4_dst_ports = PortRange{4791, 4791};
    roce.action.set_ars = 3;
    AclRule also_udp{10, {}, {}};
    also_udp.match.ip_protocol = 17;
    also_udp.action.set_monitoring = true;

    const AclPolicy policy({all_udp, also_udp, roce});
    const AclVerdict v_roce = policy.classify(udp(4791));
    EXPECT_TRUE(v_roce.overrides_ars());
    EXPECT_FALSE(v_roce.disables_ars());
    EXPECT_EQ(v_roce.ars_object, 3);
    const AclVerdict v_udp = policy.classify(udp(53));
    EXPECT_TRUE(v_udp.disables_ars());  // all_udp was inserted before also_udp
    EXPECT_EQ(v_udp.flags & AclVerdict::kMonitorOn, 0);
    EXPECT_EQ(policy.classify(tcp(80)).flags, 0);
}

// NHG 1 bound to object 0 (FLOWLET_QUALITY); object 1 is PER_PACKET_RANDOM with monitoring.
struct AclRig : test::Rig {
    AclRig() {
        auto b = test::builder();
        ArsObjectConfig spray = test::object(1, Mode::kPerPacketRandom);
        b.add_ars_object(spray);
        NhgConfig nhg;
        nhg.id = 1;
        nhg.ars_object = 0;
        nhg.members = {test::primary(1, 0), test::primary(2, 1), test::primary(3, 2), test::primary(4, 3)};
        b.add_nhg(nhg);
        NhgConfig plain = nhg;  // no ARS object: static hash unless an ACL sets one
        plain.id = 2;
        plain.ars_object = kNoArsObject;
        b.add_nhg(plain);
        AclRule tcp_off{5, {}, {}};
        tcp_off.match.ip_protocol = 6;
        tcp_off.action.disable_ars = true;
        AclRule udp_spray{5, {}, {}};
        udp_spray.match.ip_protocol = 17;
        udp_spray.action.set_ars = 1;
        b.set_acl({tcp_off, udp_spray});
        adopt(b);
    }
};

TEST(AclPolicy, DisableArsFallsBackToStaticHash) {
    AclRig rig;
    const AclVerdict v = rig.config->acl().classify(tcp(80));
    rig.board.publish_port_quality(0, 0);
    rig.board.publish_port_quality(1, 0);
    rig.board.publish_port_quality(2, 0);
    rig.board.publish_port_quality(3, 0);
    const PortId first = rig.worker.select_nhg(1, 0x1234, 0, v).port;
    for (PortId p = 0; p < 4; ++p) rig.board.publish_port_quality(p, p == first ? 0 : 7);
    EXPECT_EQ(rig.worker.select_nhg(1, 0x1234, test::us(100000), v).port, first);  // quality ignored
    EXPECT_EQ(rig.worker.nhg_counters(1).static_hash_decisions, 2u);
    EXPECT_EQ(rig.worker.nhg_counters(1).decisions[static_cast<int>(Mode::kFlowletQuality)], 0u);
}

TEST(AclPolicy, SetArsObjectOverridesTheGroupsObjectAndEnablesArsOnPlainGroups) {
    AclRig rig;
    const AclVerdict v = rig.config->acl().classify(udp(4791));
    ASSERT_TRUE(v.overrides_ars());
    rig.worker.select_nhg(1, 0x99, 0, v);
    rig.worker.select_nhg(2, 0x99, 0, v);
    rig.worker.select_nhg(2, 0x99, 0);  // no verdict: the plain group hashes statically
    EXPECT_EQ(rig.worker.nhg_counters(1).decisions[static_cast<int>(Mode::kPerPacketRandom)], 1u);
    EXPECT_EQ(rig.worker.nhg_counters(2).decisions[static_cast<int>(Mode::kPerPacketRandom)], 1u);
    EXPECT_EQ(rig.worker.nhg_counters(2).static_hash_decisions, 1u);
}

TEST(AclPolicy, OverrideHasItsOwnFlowStateSeparateFromTheGroupsOwn) {
    test::Rig rig;
    auto b = test::builder();
    b.add_ars_object(test::object(1, Mode::kFlowletQuality, 1000, 64));
    NhgConfig nhg;
    nhg.id = 1;
    nhg.ars_object = 0;
    nhg.members = {test::primary(1, 0), test::primary(2, 1)};
    b.add_nhg(nhg);
    AclRule r{1, {}, {}};
    r.match.dscp_set = std::uint64_t{1} << 46;
    r.action.set_ars = 1;
    b.set_acl({r});
    rig.adopt(b);
    ASSERT_NE(rig.worker.nhg_table(1, 0), nullptr);
    ASSERT_NE(rig.worker.nhg_table(1, 1), nullptr);
    EXPECT_EQ(rig.worker.nhg_table(1, 1)->size(), 64u);
}

}  // namespace
}  // namespace weft::ars
