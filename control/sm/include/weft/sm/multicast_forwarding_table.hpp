// MulticastForwardingTable (IBA 14.2.5.11): for one block of 32 MLIDs, the 16-bit port masks of
// one position (ports position*16 .. position*16+15). Attribute modifier: position in bits
// 31..28, block (0..511, MLIDs 0xC000 + block*32 ...) in bits 8..0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

inline constexpr unsigned kMftBlockSize = 32;
inline constexpr std::uint32_t kMaxMftBlock = 511;
inline constexpr std::uint32_t kMaxMftPosition = 15;

struct MftBlock {
    static constexpr std::uint16_t kAttributeId = attr::kMulticastForwardingTable;

    std::uint16_t block = 0;
    std::uint8_t position = 0;
    std::array<std::uint16_t, kMftBlockSize> port_masks{};  // bit i: port position*16 + i

    Lid first_mlid() const { return static_cast<Lid>(kFirstMulticastLid + block * kMftBlockSize); }
    std::uint32_t attr_mod() const { return (std::uint32_t{position} << 28) | block; }
    friend bool operator==(const MftBlock &, const MftBlock &) = default;
};

// Checked: block <= 511, position <= 15, the modifier's other bits zero; with `num_ports`, no
// bit for a port the switch does not have.
Result<MftBlock> decode_mft_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod,
                                  std::optional<PortNum> num_ports = std::nullopt);
Result<MftBlock> decode_mft_block(const Smp &smp, std::optional<PortNum> num_ports = std::nullopt);
Result<SmpData> encode_mft_block(const MftBlock &block, std::optional<PortNum> num_ports = std::nullopt);

}  // namespace weft::sm
