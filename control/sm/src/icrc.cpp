#include "weft/sm/icrc.hpp"

#include <array>
#include <cstddef>

namespace weft::sm {

namespace {

constexpr std::size_t kLrh = 8;
constexpr std::size_t kGrh = 40;

// The reflected CRC-32 table (polynomial 0x04C11DB7, bit-reversed 0xEDB88320), as Ethernet's.
constexpr std::array<std::uint32_t, 256> make_table() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t[i] = c;
    }
    return t;
}
constexpr std::array<std::uint32_t, 256> kTable = make_table();

// The mask (ones where the ICRC reads 1s instead of the byte) for byte `i` of the packet.
std::uint8_t variant_mask(std::size_t i, bool grh) {
    if (i == 0) return 0xF0;  // LRH: VL
    if (grh && i >= kLrh && i < kLrh + 8) {
        // GRH: IPVer(4) TClass(8) FlowLabel(20) | PayLen(16) NxtHdr(8) HopLmt(8).
        static constexpr std::uint8_t m[8] = {0x0F, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0xFF};
        return m[i - kLrh];
    }
    const std::size_t bth = grh ? kLrh + kGrh : kLrh;
    if (i == bth + 4) return 0xFF;  // BTH: resv8a
    return 0;
}

}  // namespace

std::uint32_t iba_icrc(std::span<const std::uint8_t> packet) {
    const bool grh = packet.size() > 1 && (packet[1] & 0x03) == 3;
    const std::size_t masked_end = (grh ? kLrh + kGrh : kLrh) + 5;
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < packet.size(); ++i) {
        const std::uint8_t b = i < masked_end ? packet[i] | variant_mask(i, grh) : packet[i];
        crc = kTable[(crc ^ b) & 0xFFu] ^ (crc >> 8);
    }
    return ~crc;
}

}  // namespace weft::sm
