#include "weft/sm/multicast_forwarding_table.hpp"

#include "bit_fields.hpp"

namespace weft::sm {

namespace {

std::optional<SmpError> check(const MftBlock &b, std::optional<PortNum> num_ports) {
    if (b.block > kMaxMftBlock) return SmpError{"MulticastForwardingTable.block", b.block, "0..511"};
    if (b.position > kMaxMftPosition)
        return SmpError{"MulticastForwardingTable.position", b.position, "0..15"};
    if (!num_ports) return std::nullopt;
    for (const std::uint16_t mask : b.port_masks) {
        for (unsigned bit = 0; bit < 16; ++bit) {
            const unsigned port = b.position * 16u + bit;
            if ((mask >> bit & 1u) && port > *num_ports)
                return SmpError{"MulticastForwardingTable.port", port, "a port of the switch (0..NumPorts)"};
        }
    }
    return std::nullopt;
}

}  // namespace

Result<MftBlock> decode_mft_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod,
                                  std::optional<PortNum> num_ports) {
    if (data.size() != kSmpDataSize)
        return SmpError{"MulticastForwardingTable.size", data.size(), "64 bytes"};
    if ((attr_mod & 0x0FFFFE00u) != 0)
        return SmpError{"MulticastForwardingTable.attr_mod", attr_mod,
                        "position in bits 31..28, block in 8..0"};
    MftBlock b;
    b.block = static_cast<std::uint16_t>(attr_mod & 0x1FFu);
    b.position = static_cast<std::uint8_t>(attr_mod >> 28);
    for (unsigned i = 0; i < kMftBlockSize; ++i)
        b.port_masks[i] = static_cast<std::uint16_t>(detail::get_bits(data, i * 16, 16));
    if (auto err = check(b, num_ports)) return *err;
    return b;
}

Result<MftBlock> decode_mft_block(const Smp &smp, std::optional<PortNum> num_ports) {
    if (auto err = check_attribute(smp, MftBlock::kAttributeId)) return *err;
    return decode_mft_block(smp.data, smp.attr_mod, num_ports);
}

Result<SmpData> encode_mft_block(const MftBlock &block, std::optional<PortNum> num_ports) {
    if (auto err = check(block, num_ports)) return *err;
    SmpData data{};
    for (unsigned i = 0; i < kMftBlockSize; ++i) detail::set_bits(data, i * 16, 16, block.port_masks[i]);
    return data;
}

}  // namespace weft::sm
