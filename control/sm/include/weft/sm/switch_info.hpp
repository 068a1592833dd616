// SwitchInfo (IBA 14.2.5.4): forwarding-table capacities and tops, default ports, the
// port-state-change flag and the switch's enforcement capabilities.
#pragma once

#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

inline constexpr std::uint32_t kMaxLinearFdbCap = 0xC000;     // LIDs 0..0xBFFF
inline constexpr std::uint32_t kMaxMulticastFdbCap = 0x4000;  // MLIDs 0xC000..0xFFFF

struct SwitchInfo {
    static constexpr std::uint16_t kAttributeId = attr::kSwitchInfo;

    std::uint16_t linear_fdb_cap = 0;
    std::uint16_t random_fdb_cap = 0;
    std::uint16_t multicast_fdb_cap = 0;
    Lid linear_fdb_top = 0;  // the highest LID the linear table holds
    PortNum default_port = 0;
    PortNum default_multicast_primary_port = 0;
    PortNum default_multicast_not_primary_port = 0;
    std::uint8_t life_time_value = 0;                 // 5 bits
    bool port_state_change = false;                   // set by the switch, cleared by writing 1
    std::uint8_t optimized_sl_to_vl_programming = 0;  // 2 bits
    std::uint16_t lids_per_port = 0;
    std::uint16_t partition_enforcement_cap = 0;
    bool inbound_enforcement_cap = false;
    bool outbound_enforcement_cap = false;
    bool filter_raw_inbound_cap = false;
    bool filter_raw_outbound_cap = false;
    bool enhanced_port0 = false;
    Lid multicast_fdb_top = 0;

    friend bool operator==(const SwitchInfo &, const SwitchInfo &) = default;
};

// Checked: LinearFDBCap <= 49152, MulticastFDBCap <= 16384, LinearFDBTop unicast or 0.
Result<SwitchInfo> decode_switch_info(std::span<const std::uint8_t> data);
Result<SwitchInfo> decode_switch_info(const Smp &smp);
Result<SmpData> encode_switch_info(const SwitchInfo &info);

}  // namespace weft::sm
