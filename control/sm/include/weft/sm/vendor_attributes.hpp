// weft's vendor-specific SM attributes: what an Ethernet/RoCE weft switch forwards by, carried by
// SMPs like the IBA's own tables. IBA 13.4.8.1 leaves attribute IDs 0xFF00-0xFFFF of the subnet
// management class to vendors; weft takes 0xFFC0-0xFFC5, clear of 0xFF90 (Mellanox's
// ExtendedPortInfo, which OpenSM sends to Mellanox nodes) and of the low end that other vendors'
// tools probe. A vendor ID means something only on that vendor's nodes, so the SM sends no Set of
// these before a Get of WeftFibState has come back with weft's magic: another vendor's switch
// answers "unsupported attribute" or something without the magic, and is left alone.
// The byte layouts are in control/sm/VENDOR_ATTRIBUTES.md.
#pragma once

#include <cstdint>

namespace weft::sm {

namespace attr {
inline constexpr std::uint16_t kWeftHostSubnets = 0xFFC0;   // Get: the prefixes of the host ports
inline constexpr std::uint16_t kWeftFibState = 0xFFC1;      // Get: generation, counts; Set: begin, commit
inline constexpr std::uint16_t kWeftNextHopGroup = 0xFFC2;  // Get/Set (staging): a block of a group
inline constexpr std::uint16_t kWeftRoutes = 0xFFC3;        // Get/Set (staging): a block of routes
inline constexpr std::uint16_t kWeftArnGroup = 0xFFC5;      // Get/Set (staging): ARN's dragonfly group
}  // namespace attr

// The attributes of the Ethernet table (WeftExtendedLids, 0xFFC4, is the LFT's).
constexpr bool is_weft_attribute(std::uint16_t attr_id) {
    return (attr_id >= attr::kWeftHostSubnets && attr_id <= attr::kWeftRoutes) ||
           attr_id == attr::kWeftArnGroup;
}

// "weft" in ASCII: the first four bytes of WeftFibState.
inline constexpr std::uint32_t kWeftMagic = 0x77656674;
inline constexpr std::uint8_t kWeftFormatVersion = 1;

}  // namespace weft::sm
