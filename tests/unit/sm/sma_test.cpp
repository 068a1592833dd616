// The SMA one node at a time: Get/Set of every attribute (round trips, refusals with the IBA's
// statuses, what the observer hears), the directed-route rules both ways, LID-routed SMPs, port
// state transitions, M_Key protection and lease, trap 128 and its repress, and drops by reason.
#include <gtest/gtest.h>

#include <vector>

#include "weft/sm/node_description.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/sma.hpp"
#include "weft/sm/vendor_extended_lids.hpp"

namespace weft::sm {
namespace {

using namespace std::chrono_literals;

struct Heard final : SmaObserver {
    std::vector<LftBlock> lft;
    std::vector<MftBlock> mft;
    std::vector<std::pair<PortNum, PortNum>> sl2vl;
    std::vector<std::pair<PortNum, PortInfo>> ports;
    std::vector<SwitchInfo> switch_infos;
    void lft_block_changed(const LftBlock &b) override { lft.push_back(b); }
    void mft_block_changed(const MftBlock &b) override { mft.push_back(b); }
    void sl_to_vl_changed(PortNum in, PortNum out, const SlToVlTable &) override {
        sl2vl.emplace_back(in, out);
    }
    void port_info_changed(PortNum p, const PortInfo &i) override { ports.emplace_back(p, i); }
    void switch_info_changed(const SwitchInfo &s) override { switch_infos.push_back(s); }
};

SmaConfig switch_config() {
    SmaConfig c;
    c.node_type = NodeType::kSwitch;
    c.node_guid = 0xabc0;
    c.num_ports = 8;
    c.description = "sw-under-test";
    c.device_id = 0x1234;
    c.vendor_id = 0x00aabb;
    c.linear_fdb_cap = 1024;
    c.multicast_fdb_cap = 64;
    return c;
}

SmpBytes bytes(const Smp &s) {
    return encode_smp(s).value();
}

Smp decoded(const SmaOutput &o) {
    return decode_smp(o.bytes).value();
}

struct SwitchSma : ::testing::Test {
    Heard heard;
    Sma sma{switch_config(), &heard};
    SmaTime now{0};

    SwitchSma() {
        for (PortNum p = 1; p <= 8; ++p) {
            sma.set_fabric_port(p, true);
            if (p != 8) sma.set_link(p, true, now);  // port 8: no cable
        }
        heard = {};
    }

    // The SM on this switch asks (hop count 0).
    Smp local(Method m, std::uint16_t attr_id, std::uint32_t mod, const SmpData &data = {},
              std::uint64_t key = 0) {
        Smp s = make_dr_smp(m, attr_id, mod, {}, 7);
        s.data = data;
        s.m_key = key;
        const SmaOutput o = sma.originate(0, bytes(s), now);
        EXPECT_EQ(o.action, SmaAction::kToSm) << (o.dropped() ? drop_name(o.drop) : "");
        return o.action == SmaAction::kToSm ? decoded(o) : Smp{};
    }
    // An SM one hop away, behind port `in`, asks.
    SmaOutput remote(Method m, std::uint16_t attr_id, std::uint32_t mod, PortNum in, const SmpData &data = {},
                     std::uint64_t key = 0) {
        const std::uint8_t path[] = {1};
        Smp s = make_dr_smp(m, attr_id, mod, path, 9);
        s.hop_pointer = 1;  // as the SM's node sent it
        s.data = data;
        s.m_key = key;
        return sma.handle(in, bytes(s), now);
    }
    PortInfo port_info(PortNum p) {
        return decode_port_info(local(Method::kGet, attr::kPortInfo, p),
                                p == 0 ? PortKind::kEndPort : PortKind::kSwitchExternal)
            .value();
    }
    Smp set_port(PortNum p, const PortInfo &want, std::uint64_t key = 0) {
        const PortKind kind = p == 0 ? PortKind::kEndPort : PortKind::kSwitchExternal;
        return local(Method::kSet, attr::kPortInfo, p, encode_port_info(want, kind).value(), key);
    }
};

TEST_F(SwitchSma, NodeInfoAndDescription) {
    const Smp r = local(Method::kGet, attr::kNodeInfo, 0);
    EXPECT_EQ(r.status, 0);
    EXPECT_TRUE(r.direction);
    EXPECT_EQ(r.hop_pointer, 0);
    const NodeInfo n = decode_node_info(r).value();
    EXPECT_EQ(n.node_type, NodeType::kSwitch);
    EXPECT_EQ(n.node_guid, 0xabc0u);
    EXPECT_EQ(n.port_guid, 0xabc0u);
    EXPECT_EQ(n.system_image_guid, 0xabc0u);
    EXPECT_EQ(n.num_ports, 8);
    EXPECT_EQ(n.local_port_num, 0);
    EXPECT_EQ(n.device_id, 0x1234);
    EXPECT_EQ(n.vendor_id, 0xaabbu);
    // From a port: LocalPortNum is that port.
    const SmaOutput o = remote(Method::kGet, attr::kNodeInfo, 0, 3);
    ASSERT_EQ(o.action, SmaAction::kSend);
    EXPECT_EQ(o.port, 3);
    EXPECT_EQ(decode_node_info(decoded(o)).value().local_port_num, 3);
    EXPECT_EQ(decode_node_description(local(Method::kGet, attr::kNodeDescription, 0)).value().text,
              "sw-under-test");
    // Neither is the SM's to set.
    EXPECT_EQ(local(Method::kSet, attr::kNodeInfo, 0).status, status::kUnsupportedMethodAttr);
    EXPECT_EQ(local(Method::kSet, attr::kNodeDescription, 0).status, status::kUnsupportedMethodAttr);
    EXPECT_EQ(sma.counters().unsupported, 2u);
}

TEST_F(SwitchSma, UnsupportedAttributeMethodAndVersion) {
    EXPECT_EQ(local(Method::kGet, attr::kSmInfo, 0).status, status::kUnsupportedMethodAttr);
    Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, {}, 3);
    SmpBytes b = bytes(s);
    b[3] = 0x03;  // Send: not a method of the SMP classes
    SmaOutput o = sma.originate(0, b, now);
    ASSERT_EQ(o.action, SmaAction::kToSm);
    EXPECT_EQ(decoded(o).status, status::kUnsupportedMethod);
    EXPECT_EQ(decoded(o).method, Method::kGetResp);
    b = bytes(s);
    b[2] = 2;  // class version 2
    o = sma.originate(0, b, now);
    ASSERT_EQ(o.action, SmaAction::kToSm);
    EXPECT_EQ(decoded(o).status, status::kBadVersion);
    EXPECT_EQ(sma.counters().unsupported, 2u);
    EXPECT_EQ(sma.counters().bad_version, 1u);
    // A response with an unknown method is not answered: dropped as malformed.
    b = bytes(s);
    b[3] = 0x93;
    EXPECT_EQ(sma.originate(0, b, now).drop, SmaDrop::kMalformed);
}

TEST_F(SwitchSma, LinearForwardingTableRoundTrip) {
    LftBlock want;
    want.block = 3;
    for (unsigned i = 0; i < kLftBlockSize; ++i) want.ports[i] = static_cast<PortNum>(i % 9);
    want.ports[5] = kNoPort;
    Smp r = local(Method::kSet, attr::kLinearForwardingTable, 3, encode_lft_block(want).value());
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(decode_lft_block(r).value(), want);
    EXPECT_EQ(decode_lft_block(local(Method::kGet, attr::kLinearForwardingTable, 3)).value(), want);
    ASSERT_EQ(heard.lft.size(), 1u);
    EXPECT_EQ(heard.lft[0], want);
    EXPECT_EQ(sma.lft(3 * 64 + 4), 4);
    // The same again changes nothing and is not heard.
    local(Method::kSet, attr::kLinearForwardingTable, 3, encode_lft_block(want).value());
    EXPECT_EQ(heard.lft.size(), 1u);
    // A port the switch does not have, a block past LinearFDBCap: invalid field, nothing changed.
    LftBlock bad = want;
    bad.ports[0] = 9;
    EXPECT_EQ(local(Method::kSet, attr::kLinearForwardingTable, 3, encode_lft_block(bad).value()).status,
              status::kInvalidField);
    EXPECT_EQ(local(Method::kGet, attr::kLinearForwardingTable, 16).status, status::kInvalidField);
    EXPECT_EQ(sma.lft(3 * 64), 0);
    EXPECT_EQ(sma.counters().invalid_field, 2u);
}

// Seed 002's vLIDs: a switch without a secondary LFT (this one) answers WeftExtendedLids
// "unsupported" and vLID blocks "invalid field", as an IBA switch does; one with a capacity takes
// blocks 1024.. for vLIDs 0x10000.., tells its capacity and top, and refuses blocks past them.
TEST_F(SwitchSma, VlidBlocksOnlyWithASecondaryLft) {
    LftBlock want;
    want.block = static_cast<std::uint16_t>(kFirstVlidLftBlock);
    want.ports.fill(kNoPort);
    want.ports[7] = 2;
    EXPECT_EQ(local(Method::kGet, attr::kWeftExtendedLids, 0).status, status::kUnsupportedMethodAttr);
    EXPECT_EQ(
        local(Method::kSet, attr::kLinearForwardingTable, kFirstVlidLftBlock, encode_lft_block(want).value())
            .status,
        status::kInvalidField);
    EXPECT_EQ(sma.lft(kFirstVlid + 7), kNoPort);

    SmaConfig c = switch_config();
    c.vlid_cap = 128;  // two blocks: 0x10000..0x1007F
    Heard h;
    Sma ext(c, &h);
    auto ask = [&](Method m, std::uint16_t attr_id, std::uint32_t mod, const SmpData &data = {}) {
        Smp s = make_dr_smp(m, attr_id, mod, {}, 7);
        s.data = data;
        return decoded(ext.originate(0, bytes(s), now));
    };
    ExtendedLids e = decode_extended_lids(ask(Method::kGet, attr::kWeftExtendedLids, 0)).value();
    EXPECT_EQ(e.vlid_cap, 128u);
    EXPECT_EQ(e.vlft_top, 0u);
    want.block = static_cast<std::uint16_t>(kFirstVlidLftBlock + 1);
    Smp r = ask(Method::kSet, attr::kLinearForwardingTable, kFirstVlidLftBlock + 1,
                encode_lft_block(want).value());
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(decode_lft_block(r).value(), want);
    ASSERT_EQ(h.lft.size(), 1u);
    EXPECT_EQ(h.lft[0].first_lid(), 0x10040u);
    EXPECT_EQ(ext.lft(0x10047), 2);
    EXPECT_EQ(ext.lft(0x0047), kNoPort);  // the pLID with the same low bits is another entry
    e = decode_extended_lids(ask(Method::kGet, attr::kWeftExtendedLids, 0)).value();
    EXPECT_EQ(e.vlft_top, 0x10047u);
    EXPECT_EQ(ask(Method::kGet, attr::kLinearForwardingTable, kFirstVlidLftBlock + 2).status,
              status::kInvalidField);
    EXPECT_EQ(ask(Method::kGet, attr::kLinearForwardingTable, 1000).status,
              status::kInvalidField);  // multicast
    EXPECT_EQ(ask(Method::kSet, attr::kWeftExtendedLids, 0, encode_extended_lids(e).value()).status,
              status::kUnsupportedMethodAttr);
}

TEST_F(SwitchSma, MulticastForwardingTableRoundTrip) {
    MftBlock want;
    want.block = 1;
    want.port_masks[0] = 0x01FE;  // ports 1..8
    want.port_masks[31] = 0x0006;
    const Smp r =
        local(Method::kSet, attr::kMulticastForwardingTable, want.attr_mod(), encode_mft_block(want).value());
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(decode_mft_block(local(Method::kGet, attr::kMulticastForwardingTable, want.attr_mod())).value(),
              want);
    EXPECT_EQ(sma.mft_mask(0xC000 + 32, 0), 0x01FE);
    ASSERT_EQ(heard.mft.size(), 1u);
    // Position 1 (ports 16..31) does not exist on an 8-port switch; block 2 is past the 64 MLIDs.
    MftBlock pos1 = want;
    pos1.position = 1;
    EXPECT_EQ(local(Method::kGet, attr::kMulticastForwardingTable, pos1.attr_mod()).status,
              status::kInvalidField);
    EXPECT_EQ(local(Method::kGet, attr::kMulticastForwardingTable, 2).status, status::kInvalidField);
    MftBlock bad = want;
    bad.port_masks[3] = 0x0200;  // port 9
    EXPECT_EQ(
        local(Method::kSet, attr::kMulticastForwardingTable, bad.attr_mod(), encode_mft_block(bad).value())
            .status,
        status::kInvalidField);
}

TEST_F(SwitchSma, SlToVlPerPortPair) {
    SlToVlTable t;
    for (unsigned sl = 0; sl < 16; ++sl) t.vl[sl] = static_cast<std::uint8_t>(sl % 4);
    EXPECT_EQ(
        local(Method::kSet, attr::kSlToVlTable, sl_to_vl_attr_mod(2, 5), encode_sl_to_vl_table(t).value())
            .status,
        0);
    EXPECT_EQ(decode_sl_to_vl_table(local(Method::kGet, attr::kSlToVlTable, sl_to_vl_attr_mod(2, 5))).value(),
              t);
    EXPECT_EQ(sma.sl_to_vl(2, 5), t);
    EXPECT_EQ(sma.sl_to_vl(5, 2), SlToVlTable{});
    ASSERT_EQ(heard.sl2vl.size(), 1u);
    EXPECT_EQ(heard.sl2vl[0], (std::pair<PortNum, PortNum>{2, 5}));
    EXPECT_EQ(local(Method::kGet, attr::kSlToVlTable, sl_to_vl_attr_mod(9, 1)).status, status::kInvalidField);
    EXPECT_EQ(local(Method::kGet, attr::kSlToVlTable, 0x10000 | sl_to_vl_attr_mod(1, 1)).status,
              status::kInvalidField);
}

TEST_F(SwitchSma, SwitchInfoTopsAndPortStateChange) {
    SwitchInfo si = decode_switch_info(local(Method::kGet, attr::kSwitchInfo, 0)).value();
    EXPECT_EQ(si.linear_fdb_cap, 1024);
    EXPECT_EQ(si.multicast_fdb_cap, 64);
    EXPECT_TRUE(si.port_state_change);  // the links came up
    si.linear_fdb_top = 40;
    si.port_state_change = true;  // written 1: cleared
    si.linear_fdb_cap = 7;        // read-only: ignored
    const SwitchInfo back =
        decode_switch_info(local(Method::kSet, attr::kSwitchInfo, 0, encode_switch_info(si).value())).value();
    EXPECT_EQ(back.linear_fdb_top, 40);
    EXPECT_FALSE(back.port_state_change);
    EXPECT_EQ(back.linear_fdb_cap, 1024);
    ASSERT_EQ(heard.switch_infos.size(), 1u);
    // Writing 0 leaves a set flag alone.
    sma.set_link(2, false, now);
    si = back;
    si.linear_fdb_top = 41;
    EXPECT_TRUE(decode_switch_info(local(Method::kSet, attr::kSwitchInfo, 0, encode_switch_info(si).value()))
                    .value()
                    .port_state_change);
    si.linear_fdb_top = 1024;  // past the capacity
    EXPECT_EQ(local(Method::kSet, attr::kSwitchInfo, 0, encode_switch_info(si).value()).status,
              status::kInvalidField);
    EXPECT_EQ(sma.switch_info().linear_fdb_top, 41);
}

TEST_F(SwitchSma, PortZeroLidLmcSmLid) {
    PortInfo p = port_info(0);
    EXPECT_EQ(p.port_state, PortState::kActive);
    p.lid = 0x20;
    p.lmc = 2;
    p.master_sm_lid = 1;
    p.port_state = PortState::kNoChange;
    p.phys_state = PhysState::kNoChange;
    const Smp r = set_port(0, p);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(sma.lid(), 0x20);
    EXPECT_EQ(port_info(0).lmc, 2);
    EXPECT_EQ(port_info(0).master_sm_lid, 1);
    ASSERT_EQ(heard.ports.size(), 1u);
    EXPECT_EQ(heard.ports[0].first, 0);
    EXPECT_EQ(heard.ports[0].second.lid, 0x20);
}

TEST_F(SwitchSma, PortStatesStepInitArmedActive) {
    PortInfo p = port_info(3);
    EXPECT_EQ(p.port_state, PortState::kInit);
    EXPECT_EQ(p.phys_state, PhysState::kLinkUp);
    EXPECT_EQ(p.local_port_num, 0);  // asked from port 0
    // INIT -> ACTIVE skips a step: refused, unchanged.
    p.port_state = PortState::kActive;
    p.phys_state = PhysState::kNoChange;
    EXPECT_EQ(set_port(3, p).status, status::kInvalidField);
    EXPECT_EQ(sma.port_info(3).port_state, PortState::kInit);
    p.port_state = PortState::kArmed;
    p.operational_vls = 3;
    Smp r = set_port(3, p);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(decode_port_info(r, PortKind::kSwitchExternal).value().port_state, PortState::kArmed);
    EXPECT_EQ(sma.port_info(3).operational_vls, 3);
    p.port_state = PortState::kActive;
    p.operational_vls = 0;
    EXPECT_EQ(set_port(3, p).status, 0);
    EXPECT_EQ(sma.port_info(3).port_state, PortState::kActive);
    EXPECT_EQ(sma.port_info(3).operational_vls, 3);
    // Port 8 has no cable: it cannot be armed.
    PortInfo q = port_info(8);
    EXPECT_EQ(q.port_state, PortState::kDown);
    q.port_state = PortState::kArmed;
    q.phys_state = PhysState::kNoChange;
    EXPECT_EQ(set_port(8, q).status, status::kInvalidField);
    // More VLs than VLCap, an MTU past MTUCap: refused.
    p = port_info(4);
    p.phys_state = PhysState::kNoChange;
    p.operational_vls = 5;
    EXPECT_EQ(set_port(4, p).status, status::kInvalidField);
    p.operational_vls = 0;
    p.link_width_enabled = 4;  // 8x: not supported
    EXPECT_EQ(set_port(4, p).status, status::kInvalidField);
    EXPECT_EQ(heard.ports.size(), 2u);  // ARMED, then ACTIVE
}

TEST_F(SwitchSma, DisableAndDownTakeTheLinkDown) {
    PortInfo p = port_info(4);
    p.port_state = PortState::kNoChange;
    p.phys_state = PhysState::kDisabled;
    EXPECT_EQ(set_port(4, p).status, 0);
    EXPECT_FALSE(sma.link_up(4));
    EXPECT_EQ(sma.port_info(4).port_state, PortState::kDown);
    EXPECT_EQ(sma.port_info(4).phys_state, PhysState::kDisabled);
    // Back to polling: the cable is still there, so the link comes up INIT.
    p.phys_state = PhysState::kPolling;
    EXPECT_EQ(set_port(4, p).status, 0);
    EXPECT_TRUE(sma.link_up(4));
    EXPECT_EQ(sma.port_info(4).port_state, PortState::kInit);
    EXPECT_TRUE(sma.switch_info().port_state_change);
}

// Directed route, outgoing: a hop on the way passes the SMP on by the path's next port, with the
// hop pointer moved and the port it came in by in the return path; nothing else changes.
TEST_F(SwitchSma, DirectedRouteOutgoingHop) {
    const std::uint8_t path[] = {1, 5, 2};
    Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, path, 11);
    s.hop_pointer = 1;
    const SmaOutput o = sma.handle(3, bytes(s), now);
    ASSERT_EQ(o.action, SmaAction::kSend) << drop_name(o.drop);
    EXPECT_EQ(o.port, 5);
    EXPECT_EQ(o.lrh.dlid, kPermissiveLid);
    Smp want = s;
    want.hop_pointer = 2;
    want.return_path[1] = 3;
    EXPECT_EQ(decoded(o), want);
    EXPECT_EQ(sma.counters().forwarded, 1u);
    EXPECT_EQ(sma.counters().gets, 0u);
}

// Directed route, returning: the reply goes back by the return path, hop pointer down by one.
TEST_F(SwitchSma, DirectedRouteReturningHop) {
    const std::uint8_t path[] = {1, 5, 2};
    Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, path, 11);
    Smp r = make_response(s, {});
    r.return_path[1] = 3;  // where this switch (hop 1) was entered
    r.return_path[2] = 6;
    r.return_path[3] = 1;
    r.hop_pointer = 2;  // as the node at hop 2 sent it back
    const SmaOutput o = sma.handle(5, bytes(r), now);
    ASSERT_EQ(o.action, SmaAction::kSend) << drop_name(o.drop);
    EXPECT_EQ(o.port, 3);
    EXPECT_EQ(decoded(o).hop_pointer, 1);
    // At the SM's own node (hop pointer 1, DrSLID permissive): for the SM.
    r.hop_pointer = 1;
    const SmaOutput mine = sma.handle(3, bytes(r), now);
    ASSERT_EQ(mine.action, SmaAction::kToSm);
    EXPECT_EQ(decoded(mine).hop_pointer, 0);
}

// The destination answers out of the port the request came in by, hop pointer = hop count.
TEST_F(SwitchSma, DirectedRouteDestinationReplies) {
    const std::uint8_t path[] = {1, 5};
    Smp s = make_dr_smp(Method::kGet, attr::kPortInfo, 6, path, 12);
    s.hop_pointer = 2;
    s.return_path[1] = 4;
    const SmaOutput o = sma.handle(7, bytes(s), now);
    ASSERT_EQ(o.action, SmaAction::kSend) << drop_name(o.drop);
    EXPECT_EQ(o.port, 7);
    const Smp r = decoded(o);
    EXPECT_TRUE(r.direction);
    EXPECT_EQ(r.method, Method::kGetResp);
    EXPECT_EQ(r.hop_pointer, 2);
    EXPECT_EQ(r.return_path[1], 4);
    EXPECT_EQ(r.return_path[2], 7);
    EXPECT_EQ(decode_port_info(r, PortKind::kSwitchExternal).value().local_port_num, 7);
}

// The SM on this switch sends out of the path's first port.
TEST_F(SwitchSma, LocalSmSendsOutOfThePath) {
    const std::uint8_t path[] = {6, 2};
    const Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, path, 13);
    const SmaOutput o = sma.originate(0, bytes(s), now);
    ASSERT_EQ(o.action, SmaAction::kSend);
    EXPECT_EQ(o.port, 6);
    EXPECT_EQ(decoded(o).hop_pointer, 1);
    EXPECT_EQ(sma.counters().from_sm, 1u);
}

TEST_F(SwitchSma, DirectedRouteDrops) {
    const std::uint8_t path[] = {1, 5, 2};
    Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, path, 11);
    s.hop_pointer = 0;  // the sender did not move it
    EXPECT_EQ(sma.handle(3, bytes(s), now).drop, SmaDrop::kBadHopPointer);
    s.hop_pointer = 1;
    s.initial_path[2] = 9;  // no port 9
    EXPECT_EQ(sma.handle(3, bytes(s), now).drop, SmaDrop::kBadPathPort);
    s.initial_path[2] = 0;
    EXPECT_EQ(sma.handle(3, bytes(s), now).drop, SmaDrop::kBadPathPort);
    s.initial_path[2] = 8;  // no cable
    EXPECT_EQ(sma.handle(3, bytes(s), now).drop, SmaDrop::kPortDown);
    s.initial_path[2] = 5;
    sma.set_fabric_port(5, false);
    EXPECT_EQ(sma.handle(3, bytes(s), now).drop, SmaDrop::kNotFabricPort);
    EXPECT_EQ(sma.handle(5, bytes(s), now).drop, SmaDrop::kNotFabricPort);
    EXPECT_EQ(sma.handle(8, bytes(s), now).drop, SmaDrop::kPortDown);
    EXPECT_EQ(sma.handle(0, bytes(s), now).drop, SmaDrop::kBadPort);
    const std::uint8_t garbage[100] = {};
    EXPECT_EQ(sma.handle(3, garbage, now).drop, SmaDrop::kMalformed);
    EXPECT_EQ(sma.counters().malformed_by_field.at("SMP.size"), 1u);
    EXPECT_EQ(sma.counters().dropped_total(), 9u);
    EXPECT_EQ(sma.counters().drops(SmaDrop::kNotFabricPort), 2u);
}

TEST(CaSma, DoesNotForwardAndAnswersForItsPort) {
    SmaConfig c;
    c.node_type = NodeType::kCa;
    c.node_guid = 0x500;
    c.num_ports = 2;
    c.description = "host";
    Sma ca(c);
    ca.set_fabric_port(1, true);
    ca.set_fabric_port(2, true);
    ca.set_link(1, true, SmaTime{0});
    ca.set_link(2, true, SmaTime{0});
    const std::uint8_t through[] = {1, 2};
    Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, through, 1);
    s.hop_pointer = 1;
    EXPECT_EQ(ca.handle(1, bytes(s), SmaTime{0}).drop, SmaDrop::kNotASwitch);
    const std::uint8_t to[] = {3};
    s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, to, 2);
    s.hop_pointer = 1;
    SmaOutput o = ca.handle(2, bytes(s), SmaTime{0});
    ASSERT_EQ(o.action, SmaAction::kSend);
    EXPECT_EQ(o.port, 2);
    const NodeInfo n = decode_node_info(decoded(o)).value();
    EXPECT_EQ(n.local_port_num, 2);
    EXPECT_EQ(n.port_guid, 0x502u);
    // PortInfo with modifier 0: the port it came in by.
    s = make_dr_smp(Method::kGet, attr::kPortInfo, 0, to, 3);
    s.hop_pointer = 1;
    o = ca.handle(2, bytes(s), SmaTime{0});
    EXPECT_EQ(decode_port_info(decoded(o)).value().port_state, PortState::kInit);
    // No SwitchInfo, no LFT on a CA.
    s = make_dr_smp(Method::kGet, attr::kSwitchInfo, 0, to, 4);
    s.hop_pointer = 1;
    EXPECT_EQ(decoded(ca.handle(2, bytes(s), SmaTime{0})).status, status::kUnsupportedMethodAttr);
    // A CA's link change sends no trap and has no PortStateChange.
    EXPECT_FALSE(ca.set_link(1, false, SmaTime{0}).has_value());
}

// A switch with LID 5 whose SM has LID 1 (reached by port 2).
struct Addressed : SwitchSma {
    Addressed() {
        PortInfo p = sma.port_info(0);
        p.lid = 5;
        p.master_sm_lid = 1;
        p.subnet_timeout = 18;  // 4.096 us * 2^18: about 1.07 s
        p.port_state = PortState::kNoChange;
        p.phys_state = PhysState::kNoChange;
        set_port(0, p);
        LftBlock b;
        b.ports.fill(kNoPort);
        b.ports[1] = 2;
        b.ports[5] = 0;
        b.ports[9] = 4;
        local(Method::kSet, attr::kLinearForwardingTable, 0, encode_lft_block(b).value());
        heard = {};
    }
};

TEST_F(Addressed, LidRoutedGetAnsweredByTheLft) {
    const Smp s = make_lid_smp(Method::kGet, attr::kNodeInfo, 0, 21);
    const SmaOutput o = sma.handle(3, bytes(s), now, {1, 5});
    ASSERT_EQ(o.action, SmaAction::kSend) << drop_name(o.drop);
    EXPECT_EQ(o.port, 2);  // LFT[1]
    EXPECT_EQ(o.lrh.slid, 5);
    EXPECT_EQ(o.lrh.dlid, 1);
    EXPECT_EQ(decoded(o).method, Method::kGetResp);
    // For LID 9: passed on by the LFT as it came.
    const SmaOutput on = sma.handle(3, bytes(s), now, {1, 9});
    ASSERT_EQ(on.action, SmaAction::kSend);
    EXPECT_EQ(on.port, 4);
    EXPECT_EQ(on.bytes, bytes(s));
    // For LID 10: no route.
    EXPECT_EQ(sma.handle(3, bytes(s), now, {1, 10}).drop, SmaDrop::kNoRoute);
    // From a source that cannot be answered.
    EXPECT_EQ(sma.handle(3, bytes(s), now, {kPermissiveLid, 5}).drop, SmaDrop::kNoReturnAddress);
}

TEST_F(Addressed, TrapOnLinkChangeRepeatedUntilRepressed) {
    const std::optional<SmaOutput> t = sma.set_link(3, false, now);
    ASSERT_TRUE(t.has_value());
    ASSERT_EQ(t->action, SmaAction::kSend);
    EXPECT_EQ(t->port, 2);
    EXPECT_EQ(t->lrh.slid, 5);
    EXPECT_EQ(t->lrh.dlid, 1);
    const Smp trap = decoded(*t);
    EXPECT_EQ(trap.method, Method::kTrap);
    const Notice n = decode_notice(trap).value();
    EXPECT_EQ(n.trap_number, kTrapPortStateChange);
    EXPECT_EQ(decode_port_state_change(n).value().lid, 5);
    EXPECT_TRUE(sma.switch_info().port_state_change);
    EXPECT_EQ(sma.port_info(3).port_state, PortState::kDown);
    EXPECT_EQ(sma.port_info(3).phys_state, PhysState::kPolling);
    // Not again before SubnetTimeOut has passed; then again, the same trap.
    EXPECT_FALSE(sma.poll(now + 1s).has_value());
    const std::optional<SmaOutput> again = sma.poll(now + 1100ms);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(decoded(*again), trap);
    EXPECT_EQ(sma.counters().trap_repeats, 1u);
    // The SM represses it (the same TID), LID-routed to this switch.
    Smp wrong = make_trap_repress(trap);
    wrong.tid ^= 1;
    EXPECT_EQ(sma.handle(2, bytes(wrong), now, {1, 5}).drop, SmaDrop::kUnexpected);
    const SmaOutput r = sma.handle(2, bytes(make_trap_repress(trap)), now, {1, 5});
    EXPECT_EQ(r.action, SmaAction::kConsumed);
    EXPECT_FALSE(sma.trap_outstanding());
    EXPECT_FALSE(sma.poll(now + 10s).has_value());
    EXPECT_EQ(sma.counters().traps_repressed, 1u);
}

TEST_F(Addressed, TrapAfterADownInsideASetGoesAtPoll) {
    PortInfo p = sma.port_info(4);
    p.port_state = PortState::kDown;
    p.phys_state = PhysState::kNoChange;
    EXPECT_EQ(set_port(4, p).status, 0);
    EXPECT_EQ(sma.next_deadline(), SmaTime{0});
    const std::optional<SmaOutput> t = sma.poll(now);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(decoded(*t).method, Method::kTrap);
}

TEST_F(Addressed, TrapToTheSmOnThisSwitch) {
    PortInfo p = sma.port_info(0);
    p.master_sm_lid = 5;
    p.port_state = PortState::kNoChange;
    p.phys_state = PhysState::kNoChange;
    set_port(0, p);
    const std::optional<SmaOutput> t = sma.set_link(3, false, now);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->action, SmaAction::kToSm);
}

// M_Key: with a key and protection, a wrong key is refused (Sets always, Gets from level 2),
// counted, and starts the lease; the right key passes and stops it.
TEST_F(SwitchSma, MKeyProtection) {
    constexpr std::uint64_t kKey = 0x1122334455667788;
    PortInfo p = port_info(0);
    p.m_key = kKey;
    p.m_key_protect_bits = 1;
    p.m_key_lease_period = 10;
    p.port_state = PortState::kNoChange;
    p.phys_state = PhysState::kNoChange;
    ASSERT_EQ(set_port(0, p).status, 0);
    // Level 1: a Get with the wrong key passes, but reads the key as 0.
    SmaOutput o = remote(Method::kGet, attr::kPortInfo, 0, 3, {}, 0x99);
    ASSERT_EQ(o.action, SmaAction::kSend);
    EXPECT_EQ(decode_port_info(decoded(o)).value().m_key, 0u);
    o = remote(Method::kGet, attr::kPortInfo, 0, 3, {}, kKey);
    EXPECT_EQ(decode_port_info(decoded(o)).value().m_key, kKey);
    // A Set with the wrong key: dropped, counted, the lease starts.
    LftBlock b;
    b.ports.fill(1);
    o = remote(Method::kSet, attr::kLinearForwardingTable, 0, 3, encode_lft_block(b).value(), 0x99);
    EXPECT_EQ(o.drop, SmaDrop::kMKey);
    EXPECT_EQ(sma.lft(1), kNoPort);
    EXPECT_EQ(sma.counters().m_key_violations, 1u);
    EXPECT_EQ(sma.port_info(0).m_key_violations, 1u);
    EXPECT_EQ(sma.next_deadline(), now + 10s);
    // The right key stops the lease.
    o = remote(Method::kSet, attr::kLinearForwardingTable, 0, 3, encode_lft_block(b).value(), kKey);
    EXPECT_EQ(decoded(o).status, 0);
    EXPECT_EQ(sma.lft(1), 1);
    EXPECT_FALSE(sma.next_deadline().has_value());
    // Level 2: Gets with the wrong key are refused too.
    p.m_key_protect_bits = 2;
    ASSERT_EQ(set_port(0, p, kKey).status, 0);
    EXPECT_EQ(remote(Method::kGet, attr::kNodeInfo, 0, 3, {}, 0x99).drop, SmaDrop::kMKey);
    EXPECT_EQ(remote(Method::kGet, attr::kNodeInfo, 0, 3, {}, kKey).action, SmaAction::kSend);
    // The lease runs out 10 s after a violation with no right key since: protection falls to 0,
    // so Gets pass again (Sets still need the key).
    EXPECT_EQ(remote(Method::kGet, attr::kNodeInfo, 0, 3, {}, 0x99).drop, SmaDrop::kMKey);
    now += 10s;
    EXPECT_FALSE(sma.poll(now).has_value());
    EXPECT_EQ(sma.port_info(0).m_key_protect_bits, 0);
    EXPECT_EQ(sma.counters().m_key_lease_expiries, 1u);
    o = remote(Method::kGet, attr::kPortInfo, 0, 3, {}, 0x99);
    EXPECT_EQ(decode_port_info(decoded(o)).value().m_key, kKey);  // level 0 shows the key
    EXPECT_EQ(
        remote(Method::kSet, attr::kLinearForwardingTable, 0, 3, encode_lft_block(b).value(), 0x99).drop,
        SmaDrop::kMKey);
    EXPECT_EQ(sma.counters().drops(SmaDrop::kMKey), 4u);
}

}  // namespace
}  // namespace weft::sm
