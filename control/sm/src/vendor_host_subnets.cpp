#include "weft/sm/vendor_host_subnets.hpp"

#include "attribute_codec.hpp"
#include "vendor_fields.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

constexpr detail::PrefixFieldNames kNames{"WeftHostSubnets.family", "WeftHostSubnets.prefix_length",
                                          "WeftHostSubnets.address"};

template <class Io, class B>
void fields(Io &io, B &b) {
    io(BitField{"WeftHostSubnets.total", 0, 16}, b.total);
    io(BitField{"WeftHostSubnets.version", 16, 16}, b.version);
    for (unsigned i = 0; i < kHostSubnetsPerBlock; ++i) {
        const unsigned at = 32 + i * 160;
        detail::prefix_fields(io, b.entries[i].prefix, at, kNames);
        io(BitField{"WeftHostSubnets.port", at + 16, 8}, b.entries[i].port);
    }
}

std::optional<SmpError> check(const HostSubnetsBlock &b) {
    if (b.block > kMaxHostSubnetsBlock) return SmpError{"WeftHostSubnets.block", b.block, "0..21845"};
    if (b.block >= HostSubnetsBlock::blocks_for(b.total))
        return SmpError{"WeftHostSubnets.block", b.block, "a block holding one of the switch's subnets"};
    for (unsigned i = 0; i < kHostSubnetsPerBlock; ++i) {
        const HostSubnet &e = b.entries[i];
        if (auto err = detail::check_prefix(e.prefix, kNames)) return err;
        const bool used = b.block * kHostSubnetsPerBlock + i < b.total;
        if (used && e.prefix.empty())
            return SmpError{"WeftHostSubnets.family", 0, "4 or 6 in an entry before the total"};
        if (!used && !e.prefix.empty())
            return SmpError{"WeftHostSubnets.family", static_cast<std::uint8_t>(e.prefix.family),
                            "0 in an entry past the total"};
        if (used ? e.port < 1 || e.port > kMaxPortNum : e.port != 0)
            return SmpError{"WeftHostSubnets.port", e.port, used ? "1..254" : "0 in an entry past the total"};
    }
    return std::nullopt;
}

}  // namespace

Result<HostSubnetsBlock> decode_host_subnets_block(std::span<const std::uint8_t> data,
                                                   std::uint32_t attr_mod) {
    if (attr_mod > kMaxHostSubnetsBlock) return SmpError{"WeftHostSubnets.block", attr_mod, "0..21845"};
    return detail::decode_attribute<HostSubnetsBlock>(
        data, "WeftHostSubnets.size",
        [attr_mod](auto &io, HostSubnetsBlock &b) {
            b.block = static_cast<std::uint16_t>(attr_mod);
            fields(io, b);
        },
        check);
}

Result<HostSubnetsBlock> decode_host_subnets_block(const Smp &smp) {
    if (auto err = check_attribute(smp, HostSubnetsBlock::kAttributeId)) return *err;
    return decode_host_subnets_block(smp.data, smp.attr_mod);
}

Result<SmpData> encode_host_subnets_block(const HostSubnetsBlock &block) {
    return detail::encode_attribute(
        block, [](auto &io, const HostSubnetsBlock &b) { fields(io, b); }, check);
}

}  // namespace weft::sm
