// WeftHostSubnets (vendor attribute 0xFFC0, Get only): the IP prefixes configured on a switch's
// host ports (`port 3 ip 10.0.3.1/24` gives port 3, 10.0.3.0/24), three to a block; the
// attribute modifier is the block. Every block repeats the total and a version the switch changes
// whenever its subnets change, so the SM reading several blocks sees whether they belong together.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"
#include "weft/sm/vendor_attributes.hpp"
#include "weft/sm/vendor_prefix.hpp"

namespace weft::sm {

inline constexpr unsigned kHostSubnetsPerBlock = 3;
inline constexpr std::uint32_t kMaxHostSubnetsBlock = 0xFFFF / kHostSubnetsPerBlock;

struct HostSubnet {
    PortNum port = 0;  // the host port it is configured on
    IpPrefix prefix;
    auto operator<=>(const HostSubnet &) const = default;
};

struct HostSubnetsBlock {
    static constexpr std::uint16_t kAttributeId = attr::kWeftHostSubnets;

    std::uint16_t block = 0;
    std::uint16_t total = 0;                                 // subnets of the switch in all
    std::uint16_t version = 0;                               // changes whenever the subnets do
    std::array<HostSubnet, kHostSubnetsPerBlock> entries{};  // subnet block*3+i; past `total`: empty

    std::uint32_t attr_mod() const { return block; }
    static std::uint32_t blocks_for(std::uint16_t total) {
        return total ? (total + kHostSubnetsPerBlock - 1) / kHostSubnetsPerBlock : 1;
    }
    friend bool operator==(const HostSubnetsBlock &, const HostSubnetsBlock &) = default;
};

// Checked: a block that holds subnet block*3 (block 0 always), entries before `total` a port
// 1..254 and a valid prefix, those after it all zero.
Result<HostSubnetsBlock> decode_host_subnets_block(std::span<const std::uint8_t> data,
                                                   std::uint32_t attr_mod);
Result<HostSubnetsBlock> decode_host_subnets_block(const Smp &smp);
Result<SmpData> encode_host_subnets_block(const HostSubnetsBlock &block);

}  // namespace weft::sm
