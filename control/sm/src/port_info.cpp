#include "weft/sm/port_info.hpp"

#include "attribute_codec.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class P>
void fields(Io &io, P &p) {
    io(BitField{"PortInfo.M_Key", 0, 64}, p.m_key);
    io(BitField{"PortInfo.GidPrefix", 64, 64}, p.gid_prefix);
    io(BitField{"PortInfo.LID", 128, 16}, p.lid);
    io(BitField{"PortInfo.MasterSMLID", 144, 16}, p.master_sm_lid);
    io(BitField{"PortInfo.CapabilityMask", 160, 32}, p.capability_mask);
    io(BitField{"PortInfo.DiagCode", 192, 16}, p.diag_code);
    io(BitField{"PortInfo.M_KeyLeasePeriod", 208, 16}, p.m_key_lease_period);
    io(BitField{"PortInfo.LocalPortNum", 224, 8}, p.local_port_num);
    io(BitField{"PortInfo.LinkWidthEnabled", 232, 8}, p.link_width_enabled);
    io(BitField{"PortInfo.LinkWidthSupported", 240, 8}, p.link_width_supported);
    io(BitField{"PortInfo.LinkWidthActive", 248, 8}, p.link_width_active);
    io(BitField{"PortInfo.LinkSpeedSupported", 256, 4}, p.link_speed_supported);
    io(BitField{"PortInfo.PortState", 260, 4}, p.port_state);
    io(BitField{"PortInfo.PortPhysicalState", 264, 4}, p.phys_state);
    io(BitField{"PortInfo.LinkDownDefaultState", 268, 4}, p.link_down_default_state);
    io(BitField{"PortInfo.M_KeyProtectBits", 272, 2}, p.m_key_protect_bits);
    io(BitField{"PortInfo.LMC", 277, 3}, p.lmc);
    io(BitField{"PortInfo.LinkSpeedActive", 280, 4}, p.link_speed_active);
    io(BitField{"PortInfo.LinkSpeedEnabled", 284, 4}, p.link_speed_enabled);
    io(BitField{"PortInfo.NeighborMTU", 288, 4}, p.neighbor_mtu);
    io(BitField{"PortInfo.MasterSMSL", 292, 4}, p.master_sm_sl);
    io(BitField{"PortInfo.VLCap", 296, 4}, p.vl_cap);
    io(BitField{"PortInfo.InitType", 300, 4}, p.init_type);
    io(BitField{"PortInfo.VLHighLimit", 304, 8}, p.vl_high_limit);
    io(BitField{"PortInfo.VLArbitrationHighCap", 312, 8}, p.vl_arbitration_high_cap);
    io(BitField{"PortInfo.VLArbitrationLowCap", 320, 8}, p.vl_arbitration_low_cap);
    io(BitField{"PortInfo.InitTypeReply", 328, 4}, p.init_type_reply);
    io(BitField{"PortInfo.MTUCap", 332, 4}, p.mtu_cap);
    io(BitField{"PortInfo.VLStallCount", 336, 3}, p.vl_stall_count);
    io(BitField{"PortInfo.HOQLife", 339, 5}, p.hoq_life);
    io(BitField{"PortInfo.OperationalVLs", 344, 4}, p.operational_vls);
    io(BitField{"PortInfo.PartitionEnforcementInbound", 348, 1}, p.partition_enforcement_inbound);
    io(BitField{"PortInfo.PartitionEnforcementOutbound", 349, 1}, p.partition_enforcement_outbound);
    io(BitField{"PortInfo.FilterRawInbound", 350, 1}, p.filter_raw_inbound);
    io(BitField{"PortInfo.FilterRawOutbound", 351, 1}, p.filter_raw_outbound);
    io(BitField{"PortInfo.M_KeyViolations", 352, 16}, p.m_key_violations);
    io(BitField{"PortInfo.P_KeyViolations", 368, 16}, p.p_key_violations);
    io(BitField{"PortInfo.Q_KeyViolations", 384, 16}, p.q_key_violations);
    io(BitField{"PortInfo.GUIDCap", 400, 8}, p.guid_cap);
    io(BitField{"PortInfo.ClientReregister", 408, 1}, p.client_reregister);
    io(BitField{"PortInfo.MulticastPKeyTrapSuppression", 409, 2}, p.multicast_pkey_trap_suppression);
    io(BitField{"PortInfo.SubnetTimeOut", 411, 5}, p.subnet_timeout);
    io(BitField{"PortInfo.RespTimeValue", 419, 5}, p.resp_time_value);
    io(BitField{"PortInfo.LocalPhyErrors", 424, 4}, p.local_phy_errors);
    io(BitField{"PortInfo.OverrunErrors", 428, 4}, p.overrun_errors);
    io(BitField{"PortInfo.MaxCreditHint", 432, 16}, p.max_credit_hint);
    io(BitField{"PortInfo.LinkRoundTripLatency", 456, 24}, p.link_round_trip_latency);
    io(BitField{"PortInfo.CapabilityMask2", 480, 16}, p.capability_mask2);
    io(BitField{"PortInfo.LinkSpeedExtActive", 496, 4}, p.link_speed_ext_active);
    io(BitField{"PortInfo.LinkSpeedExtSupported", 500, 4}, p.link_speed_ext_supported);
    io(BitField{"PortInfo.LinkSpeedExtEnabled", 507, 5}, p.link_speed_ext_enabled);
}

std::optional<SmpError> check(const PortInfo &p, PortKind kind) {
    if (p.local_port_num > kMaxPortNum) return SmpError{"PortInfo.LocalPortNum", p.local_port_num, "0..254"};
    const auto state = static_cast<std::uint8_t>(p.port_state);
    if (state > 5)
        return SmpError{"PortInfo.PortState", state, "0..5 (no change, Down, Init, Armed, Active, ActDefer)"};
    const auto phys = static_cast<std::uint8_t>(p.phys_state);
    if (phys > 7) return SmpError{"PortInfo.PortPhysicalState", phys, "0..7"};
    if (p.neighbor_mtu > 5) return SmpError{"PortInfo.NeighborMTU", p.neighbor_mtu, "0..5 (256..4096 bytes)"};
    if (p.mtu_cap > 5) return SmpError{"PortInfo.MTUCap", p.mtu_cap, "0..5 (256..4096 bytes)"};
    if (p.vl_cap > 5) return SmpError{"PortInfo.VLCap", p.vl_cap, "0..5 (VL0..VL0-14)"};
    if (p.operational_vls > 5)
        return SmpError{"PortInfo.OperationalVLs", p.operational_vls, "0..5 (VL0..VL0-14)"};
    if (kind == PortKind::kEndPort) {
        if (p.lid > kMaxUnicastLid)
            return SmpError{"PortInfo.LID", p.lid, "0 or a unicast LID 0x0001..0xBFFF"};
        if (p.master_sm_lid > kMaxUnicastLid)
            return SmpError{"PortInfo.MasterSMLID", p.master_sm_lid, "0 or a unicast LID 0x0001..0xBFFF"};
    }
    return std::nullopt;
}

}  // namespace

Result<PortInfo> decode_port_info(std::span<const std::uint8_t> data, PortKind kind) {
    return detail::decode_attribute<PortInfo>(
        data, "PortInfo.size", [](auto &io, PortInfo &p) { fields(io, p); },
        [kind](const PortInfo &p) { return check(p, kind); });
}

Result<PortInfo> decode_port_info(const Smp &smp, PortKind kind) {
    if (auto err = check_attribute(smp, PortInfo::kAttributeId)) return *err;
    return decode_port_info(smp.data, kind);
}

Result<SmpData> encode_port_info(const PortInfo &info, PortKind kind) {
    return detail::encode_attribute(
        info, [](auto &io, const PortInfo &p) { fields(io, p); },
        [kind](const PortInfo &p) { return check(p, kind); });
}

}  // namespace weft::sm
