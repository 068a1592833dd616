#include "weft/sm/vendor_arn_group.hpp"

#include "attribute_codec.hpp"

namespace weft::sm {

namespace {

using detail::BitField;

// Bytes 0-3 are reserved; entries of 20 bytes fill the rest. The fields an entry's kind does not
// use are zero: a destination's next-hop group and group take bytes 4-7, where a link's first
// GUID is; a global link's group takes bytes 12-13, where a local link's second GUID is.
template <class Io, class B>
void fields(Io &io, B &b) {
    for (unsigned i = 0; i < kArnEntriesPerBlock; ++i) {
        auto &e = b.entries[i];
        const unsigned at = 32 + i * 160;
        io(BitField{"WeftArnGroup.kind", at, 8}, e.kind);
        io(BitField{"WeftArnGroup.port_a", at + 8, 8}, e.port_a);
        io(BitField{"WeftArnGroup.port_b", at + 16, 8}, e.port_b);
        if (e.kind == ArnEntryKind::kDestination) {
            io(BitField{"WeftArnGroup.nhg", at + 32, 16}, e.nhg);
            io(BitField{"WeftArnGroup.group", at + 48, 16}, e.group);
            continue;
        }
        io(BitField{"WeftArnGroup.a", at + 32, 64}, e.a);
        if (e.kind == ArnEntryKind::kGlobalLink)
            io(BitField{"WeftArnGroup.group", at + 96, 16}, e.group);
        else
            io(BitField{"WeftArnGroup.b", at + 96, 64}, e.b);
    }
}

bool port_ok(PortNum p) {
    return p >= 1 && p <= kMaxPortNum;
}

std::optional<SmpError> check_entry(const ArnGroupEntry &e) {
    const auto kind = static_cast<std::uint8_t>(e.kind);
    switch (e.kind) {
        case ArnEntryKind::kEmpty:
            if (e != ArnGroupEntry{}) return SmpError{"WeftArnGroup.kind", kind, "an empty entry all zero"};
            return std::nullopt;
        case ArnEntryKind::kLocalLink:
            if (e.a == 0 || e.b == 0 || e.a == e.b)
                return SmpError{"WeftArnGroup.b", e.b, "a local link joins two switches (GUIDs not 0)"};
            if (!port_ok(e.port_a)) return SmpError{"WeftArnGroup.port_a", e.port_a, "1..254"};
            if (!port_ok(e.port_b)) return SmpError{"WeftArnGroup.port_b", e.port_b, "1..254"};
            if (e.group || e.nhg) return SmpError{"WeftArnGroup.group", e.group, "0 in a local link"};
            return std::nullopt;
        case ArnEntryKind::kGlobalLink:
            if (e.a == 0) return SmpError{"WeftArnGroup.a", e.a, "the owner's GUID, not 0"};
            if (!port_ok(e.port_a)) return SmpError{"WeftArnGroup.port_a", e.port_a, "1..254"};
            if (e.b || e.port_b || e.nhg)
                return SmpError{"WeftArnGroup.port_b", e.port_b, "0 in a global link"};
            return std::nullopt;
        case ArnEntryKind::kDestination:
            if (e.nhg == 0) return SmpError{"WeftArnGroup.nhg", e.nhg, "1..65535"};
            if (e.a || e.b || e.port_a || e.port_b)
                return SmpError{"WeftArnGroup.port_a", e.port_a, "0 in a destination"};
            return std::nullopt;
    }
    return SmpError{"WeftArnGroup.kind", kind, "0 (empty), 1 (local link), 2 (global link), 3 (destination)"};
}

std::optional<SmpError> check(const ArnGroupBlock &b) {
    for (const ArnGroupEntry &e : b.entries)
        if (auto err = check_entry(e)) return err;
    return std::nullopt;
}

}  // namespace

Result<ArnGroupBlock> decode_arn_group_block(std::span<const std::uint8_t> data, std::uint32_t attr_mod) {
    if (attr_mod > kMaxArnBlock) return SmpError{"WeftArnGroup.block", attr_mod, "0..21844"};
    return detail::decode_attribute<ArnGroupBlock>(
        data, "WeftArnGroup.size",
        [attr_mod](auto &io, ArnGroupBlock &b) {
            b.block = static_cast<std::uint16_t>(attr_mod);
            fields(io, b);
        },
        check);
}

Result<ArnGroupBlock> decode_arn_group_block(const Smp &smp) {
    if (auto err = check_attribute(smp, ArnGroupBlock::kAttributeId)) return *err;
    return decode_arn_group_block(smp.data, smp.attr_mod);
}

Result<SmpData> encode_arn_group_block(const ArnGroupBlock &block) {
    return detail::encode_attribute(
        block, [](auto &io, const ArnGroupBlock &b) { fields(io, b); }, check);
}

}  // namespace weft::sm
