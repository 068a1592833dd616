// The attribute codecs: exact round trips, and the located rejection of values outside input
// must not carry.
#include <gtest/gtest.h>

#include "codec_checks.hpp"

#include "weft/sm/linear_forwarding_table.hpp"
#include "weft/sm/multicast_forwarding_table.hpp"
#include "weft/sm/node_description.hpp"
#include "weft/sm/node_info.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/sl_to_vl_table.hpp"
#include "weft/sm/switch_info.hpp"
#include "weft/sm/vendor_extended_lids.hpp"

namespace weft::sm {
namespace {

using test::ByteCase;
using test::expect_rejected;
using test::must;

NodeInfo switch_node() {
    NodeInfo n;
    n.node_type = NodeType::kSwitch;
    n.num_ports = 36;
    n.system_image_guid = 0x0002c90000000001ull;
    n.node_guid = 0x0002c90000000002ull;
    n.port_guid = 0x0002c90000000002ull;
    n.partition_cap = 8;
    n.device_id = 0xc738;
    n.revision = 0xa1;
    n.local_port_num = 7;
    n.vendor_id = 0x0002c9;
    return n;
}

TEST(NodeInfoCodec, RoundTripAndPlacement) {
    const NodeInfo n = switch_node();
    const SmpData d = must(encode_node_info(n));
    EXPECT_EQ(d[2], 2);   // node type
    EXPECT_EQ(d[3], 36);  // ports
    EXPECT_EQ(d[19], 2);  // last byte of the node GUID
    EXPECT_EQ(d[36], 7);  // local port
    EXPECT_EQ(d[37], 0x00);
    EXPECT_EQ(d[39], 0xc9);  // vendor ID, 24 bits
    EXPECT_EQ(must(decode_node_info(d)), n);
}

TEST(NodeInfoCodec, RejectsImpossibleNodes) {
    const SmpData good = must(encode_node_info(switch_node()));
    expect_rejected(good,
                    {{0, 2, "NodeInfo.BaseVersion"},
                     {1, 0, "NodeInfo.ClassVersion"},
                     {2, 0, "NodeInfo.NodeType"},
                     {2, 4, "NodeInfo.NodeType"},
                     {3, 0, "NodeInfo.NumPorts"},
                     {3, 255, "NodeInfo.NumPorts"},
                     {36, 37, "NodeInfo.LocalPortNum"}},
                    [](const SmpData &d) { return decode_node_info(d); });
    NodeInfo ca = switch_node();
    ca.node_type = NodeType::kCa;
    ca.num_ports = 2;
    ca.local_port_num = 0;  // only a switch answers on port 0
    EXPECT_EQ(encode_node_info(ca).error().field, "NodeInfo.LocalPortNum");
    ca.local_port_num = 1;
    ca.node_guid = 0;
    EXPECT_EQ(encode_node_info(ca).error().field, "NodeInfo.NodeGUID");
    EXPECT_EQ(decode_node_info(std::span(good.data(), 40)).error().field, "NodeInfo.size");
}

TEST(NodeInfoCodec, FromAnSmpChecksAttributeAndStatus) {
    const std::uint8_t path[] = {1};
    Smp req = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, path, 9);
    Smp resp = make_response(req, must(encode_node_info(switch_node())));
    EXPECT_EQ(must(decode_node_info(resp)).node_guid, 0x0002c90000000002ull);
    resp.status = status::kInvalidField;
    EXPECT_EQ(decode_node_info(resp).error().field, "SMP.status");
    resp.status = 0;
    resp.attr_id = attr::kPortInfo;
    EXPECT_EQ(decode_node_info(resp).error().field, "SMP.attr_id");
}

PortInfo active_port() {
    PortInfo p;
    p.m_key = 0x1122334455667788ull;
    p.gid_prefix = 0xfe80000000000000ull;
    p.lid = 0x0123;
    p.master_sm_lid = 1;
    p.capability_mask = 0x02510868;
    p.local_port_num = 3;
    p.link_width_enabled = 3;
    p.link_width_supported = 3;
    p.link_width_active = 2;
    p.link_speed_supported = 7;
    p.port_state = PortState::kActive;
    p.phys_state = PhysState::kLinkUp;
    p.link_down_default_state = 2;
    p.lmc = 2;
    p.link_speed_active = 4;
    p.link_speed_enabled = 7;
    p.neighbor_mtu = 5;
    p.master_sm_sl = 3;
    p.vl_cap = 4;
    p.vl_high_limit = 4;
    p.vl_arbitration_high_cap = 8;
    p.vl_arbitration_low_cap = 8;
    p.mtu_cap = 5;
    p.vl_stall_count = 7;
    p.hoq_life = 19;
    p.operational_vls = 4;
    p.partition_enforcement_inbound = true;
    p.filter_raw_outbound = true;
    p.guid_cap = 32;
    p.client_reregister = true;
    p.subnet_timeout = 18;
    p.resp_time_value = 17;
    p.local_phy_errors = 8;
    p.overrun_errors = 9;
    p.link_round_trip_latency = 0xABCDEF;
    p.capability_mask2 = 0x0200;
    p.link_speed_ext_active = 1;
    p.link_speed_ext_supported = 3;
    p.link_speed_ext_enabled = 0x1E;
    return p;
}

TEST(PortInfoCodec, RoundTripAndPlacement) {
    const PortInfo p = active_port();
    const SmpData d = must(encode_port_info(p));
    EXPECT_EQ(d[16], 0x01);  // LID
    EXPECT_EQ(d[17], 0x23);
    EXPECT_EQ(d[28], 3);     // local port
    EXPECT_EQ(d[32], 0x74);  // speed supported 7 | state Active
    EXPECT_EQ(d[33], 0x52);  // LinkUp | down default Polling
    EXPECT_EQ(d[34], 0x02);  // LMC in the low 3 bits
    EXPECT_EQ(d[36], 0x53);  // neighbor MTU 4096 | SM SL 3
    EXPECT_EQ(d[43], 0x49);  // OperationalVLs 4 | inbound enforcement | filter raw outbound
    EXPECT_EQ(must(decode_port_info(d)), p);
}

TEST(PortInfoCodec, RejectsStatesAndLidsOutOfRange) {
    const SmpData good = must(encode_port_info(active_port()));
    expect_rejected(good,
                    {{32, 0x76, "PortInfo.PortState"},
                     {33, 0x82, "PortInfo.PortPhysicalState"},
                     {36, 0x63, "PortInfo.NeighborMTU"},
                     {37, 0x60, "PortInfo.VLCap"},
                     {41, 0x06, "PortInfo.MTUCap"},
                     {43, 0x78, "PortInfo.OperationalVLs"},
                     {28, 255, "PortInfo.LocalPortNum"},
                     {16, 0xC0, "PortInfo.LID"},
                     {18, 0xFF, "PortInfo.MasterSMLID"}},
                    [](const SmpData &d) { return decode_port_info(d); });
    // A switch's external port carries no LID of its own: whatever is there is not checked.
    SmpData ext = good;
    ext[16] = 0xFF;
    ext[17] = 0xFF;
    EXPECT_EQ(must(decode_port_info(ext, PortKind::kSwitchExternal)).lid, 0xFFFF);
}

TEST(PortInfoCodec, EncodeRefusesValuesWiderThanTheirField) {
    PortInfo p = active_port();
    p.lmc = 8;
    const auto r = encode_port_info(p);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "PortInfo.LMC");
    EXPECT_EQ(r.error().value, 8u);
}

TEST(SwitchInfoCodec, RoundTripAndChecks) {
    SwitchInfo s;
    s.linear_fdb_cap = 49152;
    s.multicast_fdb_cap = 1024;
    s.linear_fdb_top = 0x0040;
    s.default_port = 1;
    s.default_multicast_primary_port = 0xFF;
    s.life_time_value = 18;
    s.port_state_change = true;
    s.optimized_sl_to_vl_programming = 2;
    s.lids_per_port = 1;
    s.partition_enforcement_cap = 32;
    s.outbound_enforcement_cap = true;
    s.enhanced_port0 = true;
    s.multicast_fdb_top = 0xC010;
    const SmpData d = must(encode_switch_info(s));
    EXPECT_EQ(d[0], 0xC0);
    EXPECT_EQ(d[11], 18 << 3 | 1 << 2 | 2);
    EXPECT_EQ(d[16], 0x48);  // outbound cap | enhanced port 0
    EXPECT_EQ(must(decode_switch_info(d)), s);
    expect_rejected(d,
                    {{0, 0xC1, "SwitchInfo.LinearFDBCap"},
                     {6, 0xC0, "SwitchInfo.LinearFDBTop"},
                     {4, 0x41, "SwitchInfo.MulticastFDBCap"}},
                    [](const SmpData &b) { return decode_switch_info(b); });
}

TEST(NodeDescriptionCodec, TextUpToTheFirstNul) {
    const NodeDescription n{"weft-switch-1 HCA-1"};
    const SmpData d = must(encode_node_description(n));
    EXPECT_EQ(must(decode_node_description(d)), n);
    SmpData full;
    full.fill('x');
    EXPECT_EQ(must(decode_node_description(full)).text.size(), 64u);
    EXPECT_EQ(encode_node_description({std::string(65, 'x')}).error().field, "NodeDescription.text");
    EXPECT_EQ(encode_node_description({std::string("a\0b", 3)}).error().field, "NodeDescription.text");
}

TEST(NodeDescriptionCodec, PrintableKeepsUtf8AndBlanksTheRest) {
    EXPECT_EQ(printable_node_description("weft L1 HCA-1"), "weft L1 HCA-1");
    EXPECT_EQ(printable_node_description("r\u00e9seau \u2192 \U0001F600"), "r\u00e9seau \u2192 \U0001F600");
    EXPECT_EQ(printable_node_description("a\nb\x1b[2Jc\x7f"), "a b [2Jc ");
    EXPECT_EQ(printable_node_description("\xff\xc0\xafx"), "   x") << "invalid and overlong bytes";
    EXPECT_EQ(printable_node_description("\xed\xa0\x80"), "   ") << "a surrogate";
    EXPECT_EQ(printable_node_description("\xe2\x82"), "  ") << "a sequence cut short";
}

TEST(LftCodec, BlocksAndPortBounds) {
    LftBlock b;
    b.block = 767;
    for (unsigned i = 0; i < kLftBlockSize; ++i) b.ports[i] = static_cast<PortNum>(i % 37);
    b.ports[5] = kNoPort;
    const SmpData d = must(encode_lft_block(b, PortNum{36}));
    EXPECT_EQ(d[5], 255);
    EXPECT_EQ(must(decode_lft_block(d, 767, PortNum{36})), b);
    EXPECT_EQ(b.first_lid(), 767 * 64);
    EXPECT_EQ(decode_lft_block(d, 768).error().field, "LinearForwardingTable.block");
    const auto r = decode_lft_block(d, 3, PortNum{35});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "LinearForwardingTable.port");
    EXPECT_EQ(r.error().value, 36u);
    EXPECT_TRUE(decode_lft_block(d, 3).ok());  // without a port count, any byte is a port
    // vLID blocks (seed 002): 1024..4095 carry 0x10000..0x3FFFF; 768..1023 and 4096.. are none.
    EXPECT_EQ(must(decode_lft_block(d, 1024)).first_lid(), 0x10000u);
    EXPECT_EQ(must(decode_lft_block(d, 4095)).first_lid(), 0x3FFC0u);
    for (std::uint32_t bad : {1023u, 4096u, 0x10000u})
        EXPECT_EQ(decode_lft_block(d, bad).error().field, "LinearForwardingTable.block") << bad;
}

TEST(ExtendedLidsCodec, FieldsAndChecks) {
    ExtendedLids e;
    e.vlid_cap = kMaxVlidCap;
    e.vlft_top = kMaxVlid;
    const SmpData d = must(encode_extended_lids(e));
    EXPECT_EQ(d[0], 'w');
    EXPECT_EQ(d[4], 1);
    EXPECT_EQ(d[9], 0x03);  // 196608 = 0x00030000, bytes 8-11
    EXPECT_EQ(d[13], 0x03);
    EXPECT_EQ(must(decode_extended_lids(d)), e);
    EXPECT_EQ(decode_extended_lids(d, 1).error().field, "WeftExtendedLids.attr_mod");
    e.vlid_cap = 100;  // not whole blocks
    EXPECT_EQ(encode_extended_lids(e).error().field, "WeftExtendedLids.vlid_cap");
    e.vlid_cap = 64;
    EXPECT_EQ(encode_extended_lids(e).error().field, "WeftExtendedLids.vlft_top");  // past the capacity
    e.vlft_top = 0x3F;                                                              // a pLID
    EXPECT_EQ(encode_extended_lids(e).error().field, "WeftExtendedLids.vlft_top");
    SmpData other = d;
    other[0] = 'x';
    EXPECT_EQ(decode_extended_lids(other).error().field, "WeftExtendedLids.magic");
}

TEST(MftCodec, BlockPositionAndPortBounds) {
    MftBlock b;
    b.block = 511;
    b.position = 1;
    b.port_masks[0] = 0x0003;   // ports 16, 17
    b.port_masks[31] = 0x8000;  // port 31
    EXPECT_EQ(b.attr_mod(), 0x100001FFu);
    EXPECT_EQ(b.first_mlid(), 0xC000 + 511 * 32);
    const SmpData d = must(encode_mft_block(b, PortNum{36}));
    EXPECT_EQ(d[1], 0x03);
    EXPECT_EQ(d[62], 0x80);
    EXPECT_EQ(must(decode_mft_block(d, b.attr_mod(), PortNum{36})), b);
    EXPECT_EQ(decode_mft_block(d, b.attr_mod(), PortNum{30}).error().field, "MulticastForwardingTable.port");
    EXPECT_EQ(decode_mft_block(d, 0x00000200u).error().field, "MulticastForwardingTable.attr_mod");
    b.position = 16;
    EXPECT_EQ(encode_mft_block(b).error().field, "MulticastForwardingTable.position");
}

TEST(SlToVlCodec, NibblesInSlOrder) {
    SlToVlTable t;
    for (unsigned sl = 0; sl < 16; ++sl) t.vl[sl] = static_cast<std::uint8_t>(sl % 8);
    t.vl[15] = 15;
    const SmpData d = must(encode_sl_to_vl_table(t));
    EXPECT_EQ(d[0], 0x01);
    EXPECT_EQ(d[7], 0x6F);
    EXPECT_EQ(must(decode_sl_to_vl_table(d)), t);
    Smp s = make_response(make_lid_smp(Method::kGet, attr::kSlToVlTable, sl_to_vl_attr_mod(255, 1), 1), d);
    EXPECT_EQ(decode_sl_to_vl_table(s).error().field, "SLtoVLMappingTable.input_port");
    t.vl[0] = 16;
    EXPECT_EQ(encode_sl_to_vl_table(t).error().field, "SLtoVLMappingTable.vl");
}

TEST(NoticeCodec, PortStateChangeTrap) {
    Notice n = make_port_state_change_notice(0x0042);
    n.toggle = true;
    n.count = 0x7FFF;
    const SmpData d = must(encode_notice(n));
    EXPECT_EQ(d[0], 0x81);   // generic, urgent
    EXPECT_EQ(d[3], 2);      // producer: switch
    EXPECT_EQ(d[5], 128);    // trap number
    EXPECT_EQ(d[11], 0x42);  // LIDAddr in the details
    Smp trap = make_lid_smp(Method::kTrap, attr::kNotice, 0, 77);
    trap.data = d;
    const Notice back = must(decode_notice(trap));
    EXPECT_EQ(back, n);
    EXPECT_EQ(must(decode_port_state_change(back)).lid, 0x0042);
    const Smp repress = make_trap_repress(trap);
    EXPECT_EQ(repress.method, Method::kTrapRepress);
    EXPECT_EQ(repress.tid, 77u);
    EXPECT_TRUE(encode_smp(repress).ok());

    Notice other = n;
    other.trap_number = 129;
    EXPECT_EQ(decode_port_state_change(other).error().field, "Notice.TrapNumber");
    other = n;
    other.data_details[0] = 0xC0;
    EXPECT_EQ(decode_port_state_change(other).error().field, "Notice.DataDetails.LIDAddr");
    SmpData bad = d;
    bad[6] = 0;
    bad[7] = 0;
    EXPECT_EQ(decode_notice(bad).error().field, "Notice.IssuerLID");
    trap.method = Method::kGetResp;
    EXPECT_EQ(decode_notice(trap).error().field, "SMP.method");
}

}  // namespace
}  // namespace weft::sm
