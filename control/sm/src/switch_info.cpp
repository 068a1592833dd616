#include "weft/sm/switch_info.hpp"

#include "attribute_codec.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class S>
void fields(Io &io, S &s) {
    io(BitField{"SwitchInfo.LinearFDBCap", 0, 16}, s.linear_fdb_cap);
    io(BitField{"SwitchInfo.RandomFDBCap", 16, 16}, s.random_fdb_cap);
    io(BitField{"SwitchInfo.MulticastFDBCap", 32, 16}, s.multicast_fdb_cap);
    io(BitField{"SwitchInfo.LinearFDBTop", 48, 16}, s.linear_fdb_top);
    io(BitField{"SwitchInfo.DefaultPort", 64, 8}, s.default_port);
    io(BitField{"SwitchInfo.DefaultMulticastPrimaryPort", 72, 8}, s.default_multicast_primary_port);
    io(BitField{"SwitchInfo.DefaultMulticastNotPrimaryPort", 80, 8}, s.default_multicast_not_primary_port);
    io(BitField{"SwitchInfo.LifeTimeValue", 88, 5}, s.life_time_value);
    io(BitField{"SwitchInfo.PortStateChange", 93, 1}, s.port_state_change);
    io(BitField{"SwitchInfo.OptimizedSLtoVLMappingProgramming", 94, 2}, s.optimized_sl_to_vl_programming);
    io(BitField{"SwitchInfo.LIDsPerPort", 96, 16}, s.lids_per_port);
    io(BitField{"SwitchInfo.PartitionEnforcementCap", 112, 16}, s.partition_enforcement_cap);
    io(BitField{"SwitchInfo.InboundEnforcementCap", 128, 1}, s.inbound_enforcement_cap);
    io(BitField{"SwitchInfo.OutboundEnforcementCap", 129, 1}, s.outbound_enforcement_cap);
    io(BitField{"SwitchInfo.FilterRawInboundCap", 130, 1}, s.filter_raw_inbound_cap);
    io(BitField{"SwitchInfo.FilterRawOutboundCap", 131, 1}, s.filter_raw_outbound_cap);
    io(BitField{"SwitchInfo.EnhancedPort0", 132, 1}, s.enhanced_port0);
    io(BitField{"SwitchInfo.MulticastFDBTop", 144, 16}, s.multicast_fdb_top);
}

std::optional<SmpError> check(const SwitchInfo &s) {
    if (s.linear_fdb_cap > kMaxLinearFdbCap)
        return SmpError{"SwitchInfo.LinearFDBCap", s.linear_fdb_cap, "0..49152 (0xC000)"};
    if (s.multicast_fdb_cap > kMaxMulticastFdbCap)
        return SmpError{"SwitchInfo.MulticastFDBCap", s.multicast_fdb_cap, "0..16384"};
    if (s.linear_fdb_top > kMaxUnicastLid)
        return SmpError{"SwitchInfo.LinearFDBTop", s.linear_fdb_top, "0 or a unicast LID 0x0001..0xBFFF"};
    return std::nullopt;
}

}  // namespace

Result<SwitchInfo> decode_switch_info(std::span<const std::uint8_t> data) {
    return detail::decode_attribute<SwitchInfo>(
        data, "SwitchInfo.size", [](auto &io, SwitchInfo &s) { fields(io, s); }, check);
}

Result<SwitchInfo> decode_switch_info(const Smp &smp) {
    if (auto err = check_attribute(smp, SwitchInfo::kAttributeId)) return *err;
    return decode_switch_info(smp.data);
}

Result<SmpData> encode_switch_info(const SwitchInfo &info) {
    return detail::encode_attribute(
        info, [](auto &io, const SwitchInfo &s) { fields(io, s); }, check);
}

}  // namespace weft::sm
