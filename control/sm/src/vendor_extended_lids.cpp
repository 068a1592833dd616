#include "weft/sm/vendor_extended_lids.hpp"

#include "attribute_codec.hpp"
#include "weft/sm/linear_forwarding_table.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

template <class Io, class E>
void fields(Io &io, E &e) {
    io(BitField{"WeftExtendedLids.magic", 0, 32}, e.magic);
    io(BitField{"WeftExtendedLids.version", 32, 8}, e.version);
    io(BitField{"WeftExtendedLids.vlid_cap", 64, 32}, e.vlid_cap);
    io(BitField{"WeftExtendedLids.vlft_top", 96, 32}, e.vlft_top);
}

std::optional<SmpError> check(const ExtendedLids &e) {
    if (e.magic != kWeftMagic) return SmpError{"WeftExtendedLids.magic", e.magic, "0x77656674 ('weft')"};
    if (e.version != kWeftFormatVersion) return SmpError{"WeftExtendedLids.version", e.version, "1"};
    if (e.vlid_cap > kMaxVlidCap || e.vlid_cap % kLftBlockSize != 0)
        return SmpError{"WeftExtendedLids.vlid_cap", e.vlid_cap, "0..196608, a multiple of 64"};
    if (e.vlft_top != 0 && (e.vlft_top < kFirstVlid || e.vlft_top >= e.vlid_end()))
        return SmpError{"WeftExtendedLids.vlft_top", e.vlft_top, "0 or a vLID the capacity holds"};
    return std::nullopt;
}

}  // namespace

Result<ExtendedLids> decode_extended_lids(std::span<const std::uint8_t> data, std::uint32_t attr_mod) {
    if (attr_mod != 0) return SmpError{"WeftExtendedLids.attr_mod", attr_mod, "0"};
    return detail::decode_attribute<ExtendedLids>(
        data, "WeftExtendedLids.size", [](auto &io, ExtendedLids &e) { fields(io, e); }, check);
}

Result<ExtendedLids> decode_extended_lids(const Smp &smp) {
    if (auto err = check_attribute(smp, ExtendedLids::kAttributeId)) return *err;
    return decode_extended_lids(smp.data, smp.attr_mod);
}

Result<SmpData> encode_extended_lids(const ExtendedLids &e) {
    return detail::encode_attribute(
        e, [](auto &io, const ExtendedLids &x) { fields(io, x); }, check);
}

}  // namespace weft::sm
