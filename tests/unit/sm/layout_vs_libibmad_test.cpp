// Our field layout against libibmad's (mad_get_field/mad_set_field over its field tables, what
// infiniband-diags print with): random attribute contents are read by both and must agree field
// by field, and what we encode libibmad reads back as the same values.
#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <algorithm>
#include <random>
#include <vector>

#include "weft/sm/node_info.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/port_info.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/switch_info.hpp"

namespace weft::sm {
namespace {

struct Field {
    enum MAD_FIELDS id;
    std::uint64_t ours;
};

std::uint64_t theirs(const void *buf, enum MAD_FIELDS id) {
    // libibmad reads its 64-bit fields only through the 64-bit call.
    switch (id) {
        case IB_PORT_MKEY_F:
        case IB_PORT_GID_PREFIX_F:
        case IB_NODE_SYSTEM_GUID_F:
        case IB_NODE_GUID_F:
        case IB_NODE_PORT_GUID_F:
        case IB_MAD_TRID_F:
        case IB_MAD_MKEY_F:
            return mad_get_field64(const_cast<void *>(buf), 0, id);
        default:
            return mad_get_field(const_cast<void *>(buf), 0, id);
    }
}

void expect_same(const void *buf, std::initializer_list<Field> fields) {
    for (const Field &f : fields) EXPECT_EQ(f.ours, theirs(buf, f.id)) << "field " << mad_field_name(f.id);
}

SmpData random_data(std::mt19937_64 &rng) {
    SmpData d;
    for (auto &b : d) b = static_cast<std::uint8_t>(rng());
    return d;
}

void check_port_info(const SmpData &d) {
    const auto r = decode_port_info(d, PortKind::kSwitchExternal);
    ASSERT_TRUE(r.ok()) << r.error().message();
    const PortInfo &p = r.value();
    expect_same(d.data(), {{IB_PORT_MKEY_F, p.m_key},
                           {IB_PORT_GID_PREFIX_F, p.gid_prefix},
                           {IB_PORT_LID_F, p.lid},
                           {IB_PORT_SMLID_F, p.master_sm_lid},
                           {IB_PORT_CAPMASK_F, p.capability_mask},
                           {IB_PORT_DIAG_F, p.diag_code},
                           {IB_PORT_MKEY_LEASE_F, p.m_key_lease_period},
                           {IB_PORT_LOCAL_PORT_F, p.local_port_num},
                           {IB_PORT_LINK_WIDTH_ENABLED_F, p.link_width_enabled},
                           {IB_PORT_LINK_WIDTH_SUPPORTED_F, p.link_width_supported},
                           {IB_PORT_LINK_WIDTH_ACTIVE_F, p.link_width_active},
                           {IB_PORT_LINK_SPEED_SUPPORTED_F, p.link_speed_supported},
                           {IB_PORT_STATE_F, static_cast<std::uint64_t>(p.port_state)},
                           {IB_PORT_PHYS_STATE_F, static_cast<std::uint64_t>(p.phys_state)},
                           {IB_PORT_LINK_DOWN_DEF_F, p.link_down_default_state},
                           {IB_PORT_MKEY_PROT_BITS_F, p.m_key_protect_bits},
                           {IB_PORT_LMC_F, p.lmc},
                           {IB_PORT_LINK_SPEED_ACTIVE_F, p.link_speed_active},
                           {IB_PORT_LINK_SPEED_ENABLED_F, p.link_speed_enabled},
                           {IB_PORT_NEIGHBOR_MTU_F, p.neighbor_mtu},
                           {IB_PORT_SMSL_F, p.master_sm_sl},
                           {IB_PORT_VL_CAP_F, p.vl_cap},
                           {IB_PORT_INIT_TYPE_F, p.init_type},
                           {IB_PORT_VL_HIGH_LIMIT_F, p.vl_high_limit},
                           {IB_PORT_VL_ARBITRATION_HIGH_CAP_F, p.vl_arbitration_high_cap},
                           {IB_PORT_VL_ARBITRATION_LOW_CAP_F, p.vl_arbitration_low_cap},
                           {IB_PORT_INIT_TYPE_REPLY_F, p.init_type_reply},
                           {IB_PORT_MTU_CAP_F, p.mtu_cap},
                           {IB_PORT_VL_STALL_COUNT_F, p.vl_stall_count},
                           {IB_PORT_HOQ_LIFE_F, p.hoq_life},
                           {IB_PORT_OPER_VLS_F, p.operational_vls},
                           {IB_PORT_PART_EN_INB_F, p.partition_enforcement_inbound},
                           {IB_PORT_PART_EN_OUTB_F, p.partition_enforcement_outbound},
                           {IB_PORT_FILTER_RAW_INB_F, p.filter_raw_inbound},
                           {IB_PORT_FILTER_RAW_OUTB_F, p.filter_raw_outbound},
                           {IB_PORT_MKEY_VIOL_F, p.m_key_violations},
                           {IB_PORT_PKEY_VIOL_F, p.p_key_violations},
                           {IB_PORT_QKEY_VIOL_F, p.q_key_violations},
                           {IB_PORT_GUID_CAP_F, p.guid_cap},
                           {IB_PORT_CLIENT_REREG_F, p.client_reregister},
                           {IB_PORT_MCAST_PKEY_SUPR_ENAB_F, p.multicast_pkey_trap_suppression},
                           {IB_PORT_SUBN_TIMEOUT_F, p.subnet_timeout},
                           {IB_PORT_RESP_TIME_VAL_F, p.resp_time_value},
                           {IB_PORT_LOCAL_PHYS_ERR_F, p.local_phy_errors},
                           {IB_PORT_OVERRUN_ERR_F, p.overrun_errors},
                           {IB_PORT_MAX_CREDIT_HINT_F, p.max_credit_hint},
                           {IB_PORT_LINK_ROUND_TRIP_F, p.link_round_trip_latency},
                           {IB_PORT_CAPMASK2_F, p.capability_mask2},
                           {IB_PORT_LINK_SPEED_EXT_ACTIVE_F, p.link_speed_ext_active},
                           {IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, p.link_speed_ext_supported},
                           {IB_PORT_LINK_SPEED_EXT_ENABLED_F, p.link_speed_ext_enabled}});
    // And back: what we encode, libibmad reads as the same fields (reserved bits cleared).
    const auto e = encode_port_info(p, PortKind::kSwitchExternal);
    ASSERT_TRUE(e.ok()) << e.error().message();
    EXPECT_EQ(decode_port_info(e.value(), PortKind::kSwitchExternal).value(), p);
    EXPECT_EQ(theirs(e.value().data(), IB_PORT_LMC_F), p.lmc);
    EXPECT_EQ(theirs(e.value().data(), IB_PORT_LINK_ROUND_TRIP_F), p.link_round_trip_latency);
}

TEST(LayoutVsLibibmad, PortInfo) {
    std::mt19937_64 rng(28);
    for (int i = 0; i < 2000; ++i) {
        SmpData d = random_data(rng);
        // Values our decoder would refuse: bring them into range through libibmad's own setter.
        mad_set_field(d.data(), 0, IB_PORT_STATE_F, static_cast<std::uint32_t>(rng() % 6));
        mad_set_field(d.data(), 0, IB_PORT_PHYS_STATE_F, static_cast<std::uint32_t>(rng() % 8));
        for (auto f : {IB_PORT_NEIGHBOR_MTU_F, IB_PORT_MTU_CAP_F, IB_PORT_VL_CAP_F, IB_PORT_OPER_VLS_F})
            mad_set_field(d.data(), 0, f, static_cast<std::uint32_t>(rng() % 6));
        d[28] = static_cast<std::uint8_t>(rng() % 255);  // local port
        check_port_info(d);
    }
}

TEST(LayoutVsLibibmad, NodeInfo) {
    std::mt19937_64 rng(29);
    for (int i = 0; i < 2000; ++i) {
        SmpData d = random_data(rng);
        mad_set_field(d.data(), 0, IB_NODE_BASE_VERS_F, 1);
        mad_set_field(d.data(), 0, IB_NODE_CLASS_VERS_F, 1);
        mad_set_field(d.data(), 0, IB_NODE_TYPE_F, 2);
        mad_set_field(d.data(), 0, IB_NODE_NPORTS_F, static_cast<std::uint32_t>(1 + rng() % 254));
        mad_set_field(d.data(), 0, IB_NODE_LOCAL_PORT_F,
                      static_cast<std::uint32_t>(rng() % (mad_get_field(d.data(), 0, IB_NODE_NPORTS_F) + 1)));
        const auto r = decode_node_info(d);
        ASSERT_TRUE(r.ok()) << r.error().message();
        const NodeInfo &n = r.value();
        expect_same(d.data(), {{IB_NODE_BASE_VERS_F, n.base_version},
                               {IB_NODE_CLASS_VERS_F, n.class_version},
                               {IB_NODE_TYPE_F, static_cast<std::uint64_t>(n.node_type)},
                               {IB_NODE_NPORTS_F, n.num_ports},
                               {IB_NODE_SYSTEM_GUID_F, n.system_image_guid},
                               {IB_NODE_GUID_F, n.node_guid},
                               {IB_NODE_PORT_GUID_F, n.port_guid},
                               {IB_NODE_PARTITION_CAP_F, n.partition_cap},
                               {IB_NODE_DEVID_F, n.device_id},
                               {IB_NODE_REVISION_F, n.revision},
                               {IB_NODE_LOCAL_PORT_F, n.local_port_num},
                               {IB_NODE_VENDORID_F, n.vendor_id}});
        // NodeInfo fills 40 bytes without reserved bits; the SMP's other 24 are reserved.
        const SmpData e = encode_node_info(n).value();
        EXPECT_TRUE(std::equal(e.begin(), e.begin() + 40, d.begin()));
    }
}

TEST(LayoutVsLibibmad, SwitchInfo) {
    std::mt19937_64 rng(30);
    for (int i = 0; i < 2000; ++i) {
        SmpData d = random_data(rng);
        mad_set_field(d.data(), 0, IB_SW_LINEAR_FDB_CAP_F, static_cast<std::uint32_t>(rng() % 0xC001));
        mad_set_field(d.data(), 0, IB_SW_MCAST_FDB_CAP_F, static_cast<std::uint32_t>(rng() % 0x4001));
        mad_set_field(d.data(), 0, IB_SW_LINEAR_FDB_TOP_F, static_cast<std::uint32_t>(rng() % 0xC000));
        const auto r = decode_switch_info(d);
        ASSERT_TRUE(r.ok()) << r.error().message();
        const SwitchInfo &s = r.value();
        expect_same(d.data(), {{IB_SW_LINEAR_FDB_CAP_F, s.linear_fdb_cap},
                               {IB_SW_RANDOM_FDB_CAP_F, s.random_fdb_cap},
                               {IB_SW_MCAST_FDB_CAP_F, s.multicast_fdb_cap},
                               {IB_SW_LINEAR_FDB_TOP_F, s.linear_fdb_top},
                               {IB_SW_DEF_PORT_F, s.default_port},
                               {IB_SW_DEF_MCAST_PRIM_F, s.default_multicast_primary_port},
                               {IB_SW_DEF_MCAST_NOT_PRIM_F, s.default_multicast_not_primary_port},
                               {IB_SW_LIFE_TIME_F, s.life_time_value},
                               {IB_SW_STATE_CHANGE_F, s.port_state_change},
                               {IB_SW_OPT_SLTOVL_MAPPING_F, s.optimized_sl_to_vl_programming},
                               {IB_SW_LIDS_PER_PORT_F, s.lids_per_port},
                               {IB_SW_PARTITION_ENFORCE_CAP_F, s.partition_enforcement_cap},
                               {IB_SW_PARTITION_ENF_INB_F, s.inbound_enforcement_cap},
                               {IB_SW_PARTITION_ENF_OUTB_F, s.outbound_enforcement_cap},
                               {IB_SW_FILTER_RAW_INB_F, s.filter_raw_inbound_cap},
                               {IB_SW_FILTER_RAW_OUTB_F, s.filter_raw_outbound_cap},
                               {IB_SW_ENHANCED_PORT0_F, s.enhanced_port0},
                               {IB_SW_MCAST_FDB_TOP_F, s.multicast_fdb_top}});
    }
}

TEST(LayoutVsLibibmad, Notice) {
    std::mt19937_64 rng(31);
    for (int i = 0; i < 2000; ++i) {
        SmpData d = random_data(rng);
        mad_set_field(d.data(), 0, IB_NOTICE_ISSUER_LID_F, static_cast<std::uint32_t>(1 + rng() % 0xBFFF));
        const auto r = decode_notice(d);
        ASSERT_TRUE(r.ok()) << r.error().message();
        const Notice &n = r.value();
        expect_same(d.data(), {{IB_NOTICE_IS_GENERIC_F, n.is_generic},
                               {IB_NOTICE_TYPE_F, n.type},
                               {IB_NOTICE_PRODUCER_F, n.producer_type},
                               {IB_NOTICE_TRAP_NUMBER_F, n.trap_number},
                               {IB_NOTICE_ISSUER_LID_F, n.issuer_lid},
                               {IB_NOTICE_TOGGLE_F, n.toggle},
                               {IB_NOTICE_COUNT_F, n.count},
                               {IB_NOTICE_DATA_LID_F,
                                static_cast<std::uint64_t>(n.data_details[0] << 8 | n.data_details[1])}});
        EXPECT_EQ(encode_notice(n).value(), d);
    }
}

TEST(LayoutVsLibibmad, DirectedRouteHeader) {
    std::mt19937_64 rng(32);
    for (int i = 0; i < 500; ++i) {
        std::vector<std::uint8_t> path(rng() % 64);
        for (auto &p : path) p = static_cast<std::uint8_t>(rng() % 255);
        Smp s = make_dr_smp(rng() % 2 ? Method::kGet : Method::kSet, static_cast<std::uint16_t>(rng()),
                            static_cast<std::uint32_t>(rng()), path, rng());
        s.direction = rng() % 2;
        s.status = static_cast<std::uint16_t>(rng() & 0x7FFF);
        s.hop_pointer = static_cast<std::uint8_t>(rng() % (s.hop_count + 2u));
        s.m_key = rng();
        s.dr_slid = static_cast<Lid>(rng() % 0xC000);
        s.dr_dlid = static_cast<Lid>(rng() % 0xC000);
        const auto e = encode_smp(s);
        ASSERT_TRUE(e.ok()) << e.error().message();
        const std::uint8_t *b = e.value().data();
        expect_same(b, {{IB_MAD_BASEVER_F, 1},
                        {IB_MAD_CLASSVER_F, 1},
                        {IB_MAD_MGMTCLASS_F, 0x81},
                        {IB_MAD_METHOD_F, static_cast<std::uint64_t>(s.method) & 0x7F},
                        {IB_MAD_RESPONSE_F, 0},
                        {IB_DRSMP_HOPCNT_F, s.hop_count},
                        {IB_DRSMP_HOPPTR_F, s.hop_pointer},
                        {IB_DRSMP_STATUS_F, s.status},
                        {IB_DRSMP_DIRECTION_F, s.direction},
                        {IB_MAD_TRID_F, s.tid},
                        {IB_MAD_ATTRID_F, s.attr_id},
                        {IB_MAD_ATTRMOD_F, s.attr_mod},
                        {IB_MAD_MKEY_F, s.m_key},
                        {IB_DRSMP_DRSLID_F, s.dr_slid},
                        {IB_DRSMP_DRDLID_F, s.dr_dlid}});
        std::uint8_t their_path[64];
        mad_get_array(const_cast<std::uint8_t *>(b), 0, IB_DRSMP_PATH_F, their_path);
        EXPECT_TRUE(std::equal(s.initial_path.begin(), s.initial_path.end(), their_path));
    }
}

}  // namespace
}  // namespace weft::sm
