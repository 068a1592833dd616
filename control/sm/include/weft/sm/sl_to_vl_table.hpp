// SLtoVLMappingTable (IBA 14.2.5.8): the VL each of the 16 SLs leaves by (4 bits each, SL0 in
// the high nibble of byte 0). On a switch the attribute modifier names the input port (bits
// 15..8) and the output port (bits 7..0); on a CA or router it is 0.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "weft/sm/lid.hpp"
#include "weft/sm/smp.hpp"

namespace weft::sm {

struct SlToVlTable {
    static constexpr std::uint16_t kAttributeId = attr::kSlToVlTable;

    std::array<std::uint8_t, 16> vl{};  // vl[sl]; 15 drops packets of that SL

    friend bool operator==(const SlToVlTable &, const SlToVlTable &) = default;
};

constexpr std::uint32_t sl_to_vl_attr_mod(PortNum in_port, PortNum out_port) {
    return (std::uint32_t{in_port} << 8) | out_port;
}

// Checked: the 56 bytes after the table are reserved, every VL fits 4 bits by construction; a
// switch's modifier must name ports <= 254 (checked by decode_sl_to_vl_table(Smp)).
Result<SlToVlTable> decode_sl_to_vl_table(std::span<const std::uint8_t> data);
Result<SlToVlTable> decode_sl_to_vl_table(const Smp &smp);
Result<SmpData> encode_sl_to_vl_table(const SlToVlTable &table);

}  // namespace weft::sm
