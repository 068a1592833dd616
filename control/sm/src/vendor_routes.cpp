#include "weft/sm/vendor_routes.hpp"

#include "attribute_codec.hpp"
#include "vendor_fields.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

constexpr detail::PrefixFieldNames kNames{"WeftRoutes.family", "WeftRoutes.prefix_length",
                                          "WeftRoutes.address"};

// Bytes 0-3 are reserved: entries of 20 bytes fill the rest exactly.
template <class Io, class B>
void fields(Io &io, B &b) {
    for (unsigned i = 0; i < kRoutesPerBlock; ++i) {
        const unsigned at = 32 + i * 160;
        detail::prefix_fields(io, b.entries[i].prefix, at, kNames);
        io(BitField{"WeftRoutes.group", at + 16, 16}, b.entries[i].group);
    }
}

std::optional<SmpError> check(const RoutesBlock &b) {
    for (const EthernetRoute &e : b.entries) {
        if (auto err = detail::check_prefix(e.prefix, kNames)) return err;
        if (e.prefix.empty() != (e.group == 0))
            return SmpError{"WeftRoutes.group", e.group, "1..65535 in a route, 0 in an empty entry"};
    }
    return std::nullopt;
}

}  // namespace

Result<RoutesBlock> decode_routes_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod) {
    if (attr_mod > kMaxRoutesBlock) return SmpError{"WeftRoutes.block", attr_mod, "0..65535"};
    return detail::decode_attribute<RoutesBlock>(
        data, "WeftRoutes.size",
        [attr_mod](auto &io, RoutesBlock &b) {
            b.block = static_cast<std::uint16_t>(attr_mod);
            fields(io, b);
        },
        check);
}

Result<RoutesBlock> decode_routes_block(const Smp &smp) {
    if (auto err = check_attribute(smp, RoutesBlock::kAttributeId)) return *err;
    return decode_routes_block(smp.data, smp.attr_mod);
}

Result<SmpData> encode_routes_block(const RoutesBlock &block) {
    return detail::encode_attribute(
        block, [](auto &io, const RoutesBlock &b) { fields(io, b); }, check);
}

}  // namespace weft::sm
