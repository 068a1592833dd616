// Notice (IBA 13.4.8.2) as an SMA sends it in a Trap SMP (LID-routed, method Trap, attribute
// 0x0002): generic or vendor, trap number, issuer LID, toggle and count, 54 bytes of details.
// The SMP's 64 data bytes end before the Notice's IssuerGID, which SMPs do not carry.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

inline constexpr std::uint16_t kTrapPortStateChange = 128;  // IBA: "link state changed"

// Notice types (IBA 13.4.8.2).
enum class NoticeType : std::uint8_t {
    kFatal = 0,
    kUrgent = 1,
    kSecurity = 2,
    kSubnetManagement = 3,
    kInfo = 4
};

struct Notice {
    static constexpr std::uint16_t kAttributeId = attr::kNotice;

    bool is_generic = true;
    std::uint8_t type = 0;            // 7 bits: NoticeType for generic notices
    std::uint32_t producer_type = 0;  // 24 bits: node type of the issuer (or a vendor ID)
    std::uint16_t trap_number = 0;    // generic; the device ID in vendor notices
    Lid issuer_lid = 0;
    bool toggle = false;
    std::uint16_t count = 0;  // 15 bits
    std::array<std::uint8_t, 54> data_details{};

    friend bool operator==(const Notice &, const Notice &) = default;
};

// Checked: the issuer LID unicast (an SMA sends traps from its own LID).
Result<Notice> decode_notice(std::span<const std::uint8_t> data);
// Also checks the SMP is a Trap (or TrapRepress) of the Notice attribute.
Result<Notice> decode_notice(const Smp &smp);
Result<SmpData> encode_notice(const Notice &notice);

// Trap 128: a switch saw a port change state; its details carry the switch's LID. The SM
// answers it with a TrapRepress and sweeps.
struct PortStateChangeTrap {
    Lid lid = 0;  // the switch whose port changed
};

// A generic subnet-management notice with trap number 128 and a unicast LID in its details.
Result<PortStateChangeTrap> decode_port_state_change(const Notice &notice);
Notice make_port_state_change_notice(Lid switch_lid, std::uint32_t producer_type = 2);

// The TrapRepress the SM sends back for `trap` (same TID and Notice), so the SMA stops
// repeating it.
Smp make_trap_repress(const Smp &trap);

}  // namespace weft::sm
