// LinearForwardingTable (IBA 14.2.5.10): one block of 64 LIDs' output ports; the attribute
// modifier is the block number (LIDs block*64 .. block*64+63). Port 255 means "no route".
// Blocks 1024..4095 are weft's extension for seed 002's vLIDs (0x10000..0x3FFFF, the secondary
// LFT): only a switch whose WeftExtendedLids says so takes them (VENDOR_ATTRIBUTES.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

inline constexpr unsigned kLftBlockSize = 64;
// Seed 002's vLIDs: 18-bit LIDs past the 16-bit space, forwarded by a switch's secondary LFT. A
// LID that may be one is a std::uint32_t.
inline constexpr std::uint32_t kFirstVlid = 0x10000;
inline constexpr std::uint32_t kMaxVlid = 0x3FFFF;
inline constexpr std::uint32_t kMaxLftBlock = kMaxUnicastLid / kLftBlockSize;    // 767
inline constexpr std::uint32_t kFirstVlidLftBlock = kFirstVlid / kLftBlockSize;  // 1024
inline constexpr std::uint32_t kMaxVlidLftBlock = kMaxVlid / kLftBlockSize;      // 4095
constexpr bool is_lft_block(std::uint32_t block) {
    return block <= kMaxLftBlock || (block >= kFirstVlidLftBlock && block <= kMaxVlidLftBlock);
}

struct LftBlock {
    static constexpr std::uint16_t kAttributeId = attr::kLinearForwardingTable;

    std::uint16_t block = 0;
    std::array<PortNum, kLftBlockSize> ports{};

    std::uint32_t first_lid() const { return std::uint32_t{block} * kLftBlockSize; }
    std::uint32_t attr_mod() const { return block; }
    friend bool operator==(const LftBlock &, const LftBlock &) = default;
};

// `attr_mod` is the block (0..767, or a vLID block 1024..4095). With `num_ports` (the switch's
// NodeInfo.NumPorts) every entry must be a port of the switch (0..num_ports) or 255.
Result<LftBlock> decode_lft_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod,
                                  std::optional<PortNum> num_ports = std::nullopt);
Result<LftBlock> decode_lft_block(const Smp &smp, std::optional<PortNum> num_ports = std::nullopt);
Result<SmpData> encode_lft_block(const LftBlock &block, std::optional<PortNum> num_ports = std::nullopt);

}  // namespace weft::sm
