#include "weft/sm/linear_forwarding_table.hpp"

#include <algorithm>

namespace weft::sm {

namespace {

constexpr const char *kBlocks = "0..767 (pLIDs) or 1024..4095 (vLIDs)";

std::optional<SmpError> check(const LftBlock &b, std::optional<PortNum> num_ports) {
    if (!is_lft_block(b.block)) return SmpError{"LinearForwardingTable.block", b.block, kBlocks};
    if (!num_ports) return std::nullopt;
    for (const PortNum p : b.ports)
        if (p > *num_ports && p != kNoPort)
            return SmpError{"LinearForwardingTable.port", p, "a port of the switch (0..NumPorts) or 255"};
    return std::nullopt;
}

}  // namespace

Result<LftBlock> decode_lft_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod,
                                  std::optional<PortNum> num_ports) {
    if (data.size() != kSmpDataSize) return SmpError{"LinearForwardingTable.size", data.size(), "64 bytes"};
    if (!is_lft_block(attr_mod)) return SmpError{"LinearForwardingTable.block", attr_mod, kBlocks};
    LftBlock b;
    b.block = static_cast<std::uint16_t>(attr_mod);
    std::copy(data.begin(), data.end(), b.ports.begin());
    if (auto err = check(b, num_ports)) return *err;
    return b;
}

Result<LftBlock> decode_lft_block(const Smp &smp, std::optional<PortNum> num_ports) {
    if (auto err = check_attribute(smp, LftBlock::kAttributeId)) return *err;
    return decode_lft_block(smp.data, smp.attr_mod, num_ports);
}

Result<SmpData> encode_lft_block(const LftBlock &block, std::optional<PortNum> num_ports) {
    if (auto err = check(block, num_ports)) return *err;
    SmpData data{};
    std::copy(block.ports.begin(), block.ports.end(), data.begin());
    return data;
}

}  // namespace weft::sm
