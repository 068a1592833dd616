#include "weft/sm/vendor_next_hop_group.hpp"

#include <algorithm>

#include "attribute_codec.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class B>
void fields(Io &io, B &b) {
    io(BitField{"WeftNextHopGroup.members", 0, 16}, b.members);
    io(BitField{"WeftNextHopGroup.fixed", 16, 8}, b.fixed);
    io(BitField{"WeftNextHopGroup.mode", 24, 8}, b.mode);
    io(BitField{"WeftNextHopGroup.ars_object", 32, 16}, b.ars_object);
    for (unsigned i = 0; i < kGroupMembersPerBlock; ++i) {
        io(BitField{"WeftNextHopGroup.port", 64 + i * 16, 8}, b.slots[i].port);
        io(BitField{"WeftNextHopGroup.role", 72 + i * 16, 8}, b.slots[i].role);
    }
}

std::optional<SmpError> check(const NextHopGroupBlock &b, std::optional<PortNum> num_ports) {
    const PortNum last = num_ports ? std::min(*num_ports, kMaxPortNum) : kMaxPortNum;
    if (b.group == 0) return SmpError{"WeftNextHopGroup.group", 0, "1..65535"};
    if (b.members > kMaxGroupMembers) return SmpError{"WeftNextHopGroup.members", b.members, "0..254"};
    if (b.block >= NextHopGroupBlock::blocks_for(b.members))
        return SmpError{"WeftNextHopGroup.block", b.block, "a block holding one of the group's members"};
    if (b.members == 0) {
        if (b.fixed || b.mode != EthernetArsMode::kFlowletQuality || b.ars_object)
            return SmpError{"WeftNextHopGroup.members", 0, "a group with members (all zero: no group)"};
    } else {
        if (b.fixed < 1 || b.fixed > last)
            return SmpError{"WeftNextHopGroup.fixed", b.fixed, "a port of the switch (1..NumPorts)"};
        const auto mode = static_cast<std::uint8_t>(b.mode);
        if (mode > 4) return SmpError{"WeftNextHopGroup.mode", mode, "0..4 (flowlet-quality .. fixed)"};
    }
    for (unsigned i = 0; i < kGroupMembersPerBlock; ++i) {
        const GroupMemberSlot &s = b.slots[i];
        if (b.block * kGroupMembersPerBlock + i >= b.members) {
            if (s.port || s.role != MemberRole::kNone)
                return SmpError{"WeftNextHopGroup.port", s.port, "0 in a slot past the group's members"};
            continue;
        }
        if (s.port < 1 || s.port > last)
            return SmpError{"WeftNextHopGroup.port", s.port, "a port of the switch (1..NumPorts)"};
        if (s.role != MemberRole::kPrimary && s.role != MemberRole::kAlternate)
            return SmpError{"WeftNextHopGroup.role", static_cast<std::uint8_t>(s.role),
                            "1 (primary) or 2 (alternate)"};
    }
    return std::nullopt;
}

}  // namespace

Result<NextHopGroupBlock> decode_next_hop_group_block(std::span<const std::uint8_t> data,
                                                      std::uint32_t attr_mod,
                                                      std::optional<PortNum> num_ports) {
    if (attr_mod >> 24 || (attr_mod >> 16) > kMaxGroupBlock)
        return SmpError{"WeftNextHopGroup.block", attr_mod >> 16, "0..9 (bits 24-31 zero)"};
    return detail::decode_attribute<NextHopGroupBlock>(
        data, "WeftNextHopGroup.size",
        [attr_mod](auto &io, NextHopGroupBlock &b) {
            b.group = static_cast<std::uint16_t>(attr_mod);
            b.block = static_cast<std::uint8_t>(attr_mod >> 16);
            fields(io, b);
        },
        [num_ports](const NextHopGroupBlock &b) { return check(b, num_ports); });
}

Result<NextHopGroupBlock> decode_next_hop_group_block(const Smp &smp, std::optional<PortNum> num_ports) {
    if (auto err = check_attribute(smp, NextHopGroupBlock::kAttributeId)) return *err;
    return decode_next_hop_group_block(smp.data, smp.attr_mod, num_ports);
}

Result<SmpData> encode_next_hop_group_block(const NextHopGroupBlock &block,
                                            std::optional<PortNum> num_ports) {
    return detail::encode_attribute(
        block, [](auto &io, const NextHopGroupBlock &b) { fields(io, b); },
        [num_ports](const NextHopGroupBlock &b) { return check(b, num_ports); });
}

}  // namespace weft::sm
