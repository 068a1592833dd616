// LinearForwardingTable (IBA 14.2.5.10): one block of 64 LIDs' output ports; the attribute
// modifier is the block number (LIDs block*64 .. block*64+63). Port 255 means "no route".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

inline constexpr unsigned kLftBlockSize = 64;
inline constexpr std::uint32_t kMaxLftBlock = kMaxUnicastLid / kLftBlockSize;  // 767

struct LftBlock {
    static constexpr std::uint16_t kAttributeId = attr::kLinearForwardingTable;

    std::uint16_t block = 0;
    std::array<PortNum, kLftBlockSize> ports{};

    Lid first_lid() const { return static_cast<Lid>(block * kLftBlockSize); }
    std::uint32_t attr_mod() const { return block; }
    friend bool operator==(const LftBlock &, const LftBlock &) = default;
};

// `attr_mod` is the block (<= 767). With `num_ports` (the switch's NodeInfo.NumPorts) every
// entry must be a port of the switch (0..num_ports) or 255.
Result<LftBlock> decode_lft_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod,
                                  std::optional<PortNum> num_ports = std::nullopt);
Result<LftBlock> decode_lft_block(const Smp &smp, std::optional<PortNum> num_ports = std::nullopt);
Result<SmpData> encode_lft_block(const LftBlock &block, std::optional<PortNum> num_ports = std::nullopt);

}  // namespace weft::sm
