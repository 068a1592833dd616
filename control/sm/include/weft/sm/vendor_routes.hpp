// WeftRoutes (vendor attribute 0xFFC3, Get/Set): a block of three routes, each an IP prefix and
// the next-hop group it forwards to; the attribute modifier is the block (routes block*3 ..
// block*3+2 of the table). Sets go to the staging table (vendor_fib_state.hpp says when they take
// effect); how many routes the table holds is WeftFibState's, so an entry is either a route or
// empty (all zero).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_attributes.hpp"
#include "weft/sm/vendor_prefix.hpp"

namespace weft::sm {

inline constexpr unsigned kRoutesPerBlock = 3;
inline constexpr std::uint32_t kMaxRoutesBlock = 0xFFFF;
inline constexpr std::uint32_t kMaxRoutes = (kMaxRoutesBlock + 1) * kRoutesPerBlock;

struct EthernetRoute {
    IpPrefix prefix;
    std::uint16_t group = 0;  // a WeftNextHopGroup id, 1..65535; 0 only in an empty entry
    auto operator<=>(const EthernetRoute &) const = default;
};

struct RoutesBlock {
    static constexpr std::uint16_t kAttributeId = attr::kWeftRoutes;

    std::uint16_t block = 0;
    std::array<EthernetRoute, kRoutesPerBlock> entries{};

    std::uint32_t attr_mod() const { return block; }
    friend bool operator==(const RoutesBlock &, const RoutesBlock &) = default;
};

// Checked: block <= 65535, each entry empty (all zero) or a valid prefix with a group 1..65535.
Result<RoutesBlock> decode_routes_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod);
Result<RoutesBlock> decode_routes_block(const Smp &smp);
Result<SmpData> encode_routes_block(const RoutesBlock &block);

}  // namespace weft::sm
