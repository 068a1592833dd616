// A management datagram in an IB-over-Ethernet frame: one 256-byte MAD for the SMI (QP0, on VL15:
// the SMPs) or the GSI (QP1, with the GSI's well-known Q_Key). The rules IBA gives QP0 and VL15
// are checked both ways: only QP0 travels on VL15, and QP0 travels on nothing else.
//
// An SMP frame always goes to the node at the other end of the link, which takes it in (its SMA
// forwards an SMP, if at all, as a new frame): its destination MAC is kSmpGroupMac, 802.1Q's
// "nearest bridge" group address, so the sender needs no neighbour's MAC (a directed-route SMP
// goes out before anything is known about the far end), every kind of bridge between two ports
// filters it instead of forwarding it, and its EtherType keeps it apart from LLDP, the other user
// of that address. Receivers accept an SMP frame whatever its destination MAC.
#pragma once

#include <cstdint>
#include <span>

#include "weft/sm/iboe_frame.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

inline constexpr std::uint8_t kSmpVl = 15;
inline constexpr std::uint32_t kSmiQp = 0;
inline constexpr std::uint32_t kGsiQp = 1;
inline constexpr std::uint32_t kGsiQKey = 0x8001'0000;
inline constexpr MacAddr kSmpGroupMac{0x01, 0x80, 0xC2, 0x00, 0x00, 0x0E};

// The headers of an SMP frame leaving a port with MAC `src_mac`: to kSmpGroupMac, VL15, SL 0,
// LNH 2, P_Key 0xFFFF, QP0 to QP0, Q_Key 0 (QP0 checks neither key: IBA 10.9.3, 9.6.1.1).
IboeHeaders smp_frame_headers(const MacAddr &src_mac, Lid slid, Lid dlid, std::uint32_t psn);

// Size of an SMP frame (no VLAN tag).
inline constexpr std::size_t kSmpFrameSize =
    kEthHeaderSize + kLrhSize + kBthSize + kDethSize + kSmpSize + kIcrcSize;

// decode_iboe_frame, then: the payload is exactly one MAD (kMadBadLength), the QP is 0 or 1
// (kNotManagementQp), and VL15 goes with QP0 (kVl15NotQp0, kQp0NotVl15). A data frame (any other
// QP) on VL0-14 is refused as kNotManagementQp: a caller that takes both decodes the frame itself.
IboeDecode decode_mad_frame(std::span<const std::uint8_t> frame, const IboeFrameConfig &config = {});

}  // namespace weft::sm
