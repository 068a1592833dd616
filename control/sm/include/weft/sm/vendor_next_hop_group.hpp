// WeftNextHopGroup (vendor attribute 0xFFC2, Get/Set): one block of a next-hop group of an
// Ethernet/RoCE weft switch. A group is what the SM compiled for one destination leaf: its ARS
// object and mode, the FIXED member (the routing engine's own port, used when ARS is off or its
// mode is fixed), and members with their roles — primary (minimal paths, the fixed one among
// them) and alternate (detours that keep the fabric free of credit loops). Every block repeats
// the group's header and holds 28 members; the attribute modifier is the group id (bits 0-15)
// and the block (bits 16-23). A group with no members does not exist: writing block 0 so
// deletes the group from the staging table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_attributes.hpp"

namespace weft::sm {

inline constexpr unsigned kGroupMembersPerBlock = 28;
inline constexpr unsigned kMaxGroupMembers = kMaxPortNum;  // each port at most once
inline constexpr unsigned kMaxGroupBlock = (kMaxGroupMembers - 1) / kGroupMembersPerBlock;  // 9

// The numbers of weft::ars::Mode (SAI's order), which the switch takes them as.
enum class EthernetArsMode : std::uint8_t {
    kFlowletQuality = 0,
    kFlowletRandom = 1,
    kPerPacketQuality = 2,
    kPerPacketRandom = 3,
    kFixed = 4,
};
inline constexpr std::uint16_t kNoEthernetArsObject = 0xFFFF;  // plain ECMP over the primaries

enum class MemberRole : std::uint8_t { kNone = 0, kPrimary = 1, kAlternate = 2 };

struct GroupMemberSlot {
    PortNum port = 0;
    MemberRole role = MemberRole::kNone;  // kNone only in a slot past the group's members
    friend bool operator==(const GroupMemberSlot &, const GroupMemberSlot &) = default;
};

struct NextHopGroupBlock {
    static constexpr std::uint16_t kAttributeId = attr::kWeftNextHopGroup;

    std::uint16_t group = 0;  // 1..65535
    std::uint8_t block = 0;
    std::uint16_t members = 0;  // in the whole group; 0: no such group (then all below is zero)
    PortNum fixed = 0;
    EthernetArsMode mode = EthernetArsMode::kFlowletQuality;
    std::uint16_t ars_object = 0;
    std::array<GroupMemberSlot, kGroupMembersPerBlock> slots{};  // member block*28+i

    std::uint32_t attr_mod() const { return std::uint32_t{block} << 16 | group; }
    static std::uint32_t attr_mod_of(std::uint16_t group, unsigned block) {
        return std::uint32_t{block} << 16 | group;
    }
    static unsigned blocks_for(unsigned members) {
        return members ? (members + kGroupMembersPerBlock - 1) / kGroupMembersPerBlock : 1;
    }
    friend bool operator==(const NextHopGroupBlock &, const NextHopGroupBlock &) = default;
};

// Checked: a group id 1..65535 and a block within the group (bits 24-31 zero), at most 254
// members, a mode 0..4, the fixed port and the members' ports 1..254 (and with `num_ports` ports
// of the switch), members' roles primary or alternate, slots past the members zero. Whether the
// fixed port is a primary, and ports once each, is checked when the blocks are put together.
Result<NextHopGroupBlock> decode_next_hop_group_block(std::span<const std::uint8_t> data,
                                                      std::uint32_t attr_mod,
                                                      std::optional<PortNum> num_ports = std::nullopt);
Result<NextHopGroupBlock> decode_next_hop_group_block(const Smp &smp,
                                                      std::optional<PortNum> num_ports = std::nullopt);
Result<SmpData> encode_next_hop_group_block(const NextHopGroupBlock &block,
                                            std::optional<PortNum> num_ports = std::nullopt);

}  // namespace weft::sm
