// PortInfo (IBA 14.2.5.6): a port's LID, LMC, SM LID, logical and physical state, link width and
// speed (enabled, supported, active), MTU, VLs. The attribute modifier names the port (on a
// switch; a CA answers for the port the SMP came in on).
#pragma once

#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

// Logical port state; in a Set, kNoChange leaves it as it is.
enum class PortState : std::uint8_t {
    kNoChange = 0,
    kDown = 1,
    kInit = 2,
    kArmed = 3,
    kActive = 4,
    kActiveDefer = 5
};

// Physical port state; in a Set, kNoChange leaves it as it is.
enum class PhysState : std::uint8_t {
    kNoChange = 0,
    kSleep = 1,
    kPolling = 2,
    kDisabled = 3,
    kPortConfigurationTraining = 4,
    kLinkUp = 5,
    kLinkErrorRecovery = 6,
    kPhyTest = 7,
};

// Which PortInfo fields mean something: a switch's external ports carry no LID, LMC, SM LID or
// M_Key of their own (IBA: reserved there), so they are not checked on those.
enum class PortKind : std::uint8_t { kEndPort, kSwitchExternal };

struct PortInfo {
    static constexpr std::uint16_t kAttributeId = attr::kPortInfo;

    std::uint64_t m_key = 0;
    std::uint64_t gid_prefix = 0;
    Lid lid = 0;
    Lid master_sm_lid = 0;
    std::uint32_t capability_mask = 0;
    std::uint16_t diag_code = 0;
    std::uint16_t m_key_lease_period = 0;
    PortNum local_port_num = 0;
    std::uint8_t link_width_enabled = 0;  // bit mask: 1 1x, 2 4x, 4 8x, 8 12x, 16 2x; 0 no change
    std::uint8_t link_width_supported = 0;
    std::uint8_t link_width_active = 0;
    std::uint8_t link_speed_supported = 0;  // bit mask: 1 SDR, 2 DDR, 4 QDR
    PortState port_state = PortState::kNoChange;
    PhysState phys_state = PhysState::kNoChange;
    std::uint8_t link_down_default_state = 0;
    std::uint8_t m_key_protect_bits = 0;
    std::uint8_t lmc = 0;
    std::uint8_t link_speed_active = 0;
    std::uint8_t link_speed_enabled = 0;
    std::uint8_t neighbor_mtu = 0;  // 1 256, 2 512, 3 1024, 4 2048, 5 4096
    std::uint8_t master_sm_sl = 0;
    std::uint8_t vl_cap = 0;  // 1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14
    std::uint8_t init_type = 0;
    std::uint8_t vl_high_limit = 0;
    std::uint8_t vl_arbitration_high_cap = 0;
    std::uint8_t vl_arbitration_low_cap = 0;
    std::uint8_t init_type_reply = 0;
    std::uint8_t mtu_cap = 0;
    std::uint8_t vl_stall_count = 0;
    std::uint8_t hoq_life = 0;
    std::uint8_t operational_vls = 0;  // as vl_cap; 0 in a Set: no change
    bool partition_enforcement_inbound = false;
    bool partition_enforcement_outbound = false;
    bool filter_raw_inbound = false;
    bool filter_raw_outbound = false;
    std::uint16_t m_key_violations = 0;
    std::uint16_t p_key_violations = 0;
    std::uint16_t q_key_violations = 0;
    std::uint8_t guid_cap = 0;
    bool client_reregister = false;
    std::uint8_t multicast_pkey_trap_suppression = 0;
    std::uint8_t subnet_timeout = 0;
    std::uint8_t resp_time_value = 0;
    std::uint8_t local_phy_errors = 0;
    std::uint8_t overrun_errors = 0;
    std::uint16_t max_credit_hint = 0;
    std::uint32_t link_round_trip_latency = 0;  // 24 bits
    std::uint16_t capability_mask2 = 0;
    std::uint8_t link_speed_ext_active = 0;
    std::uint8_t link_speed_ext_supported = 0;
    std::uint8_t link_speed_ext_enabled = 0;  // 5 bits

    friend bool operator==(const PortInfo &, const PortInfo &) = default;
};

// Checked: the local port <= 254, known logical and physical states, MTUs and VL counts in
// their ranges (0 allowed: a down port reports it), and on end ports (CA, router, switch port 0)
// LID and SM LID neither multicast nor permissive.
Result<PortInfo> decode_port_info(std::span<const std::uint8_t> data, PortKind kind = PortKind::kEndPort);
Result<PortInfo> decode_port_info(const Smp &smp, PortKind kind = PortKind::kEndPort);
Result<SmpData> encode_port_info(const PortInfo &info, PortKind kind = PortKind::kEndPort);

}  // namespace weft::sm
