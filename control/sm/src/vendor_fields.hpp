// The fields weft's vendor attributes share: an IP prefix entry (family, length, 16 address
// bytes) listed once for decoding and encoding, and its check. Each attribute names the fields
// in its own errors ("WeftRoutes.address").
#pragma once

#include <optional>
#include <string_view>

#include "bit_fields.hpp"
#include "weft/sm/vendor_prefix.hpp"

namespace weft::sm::detail {

struct PrefixFieldNames {
    std::string_view family, len, addr;
};

// A prefix entry at bit `offset`: family (8 bits), length (8), 16 bits the attribute uses for
// itself, the address (128).
template <class Io, class P>
void prefix_fields(Io &io, P &p, unsigned offset, const PrefixFieldNames &names) {
    io(BitField{names.family, offset, 8}, p.family);
    io(BitField{names.len, offset + 8, 8}, p.len);
    for (unsigned i = 0; i < 16; ++i) io(BitField{names.addr, offset + 32 + 8 * i, 8}, p.addr[i]);
}

// A known family, a length within it, no host bits; an empty entry (family 0) all zero.
inline std::optional<SmpError> check_prefix(const IpPrefix &p, const PrefixFieldNames &names) {
    const auto family = static_cast<std::uint8_t>(p.family);
    if (family != 0 && family != 4 && family != 6)
        return SmpError{names.family, family, "0 (empty), 4 (IPv4) or 6 (IPv6)"};
    if (p.len > p.max_len())
        return SmpError{names.len, p.len,
                        p.empty() ? "0 in an empty entry" : "up to 32 (IPv4) or 128 (IPv6)"};
    for (unsigned bit = p.len; bit < 128; ++bit)
        if (p.addr[bit / 8] & (0x80u >> (bit % 8)))
            return SmpError{names.addr, bit, "no address bit set past the prefix length (value: the bit)"};
    return std::nullopt;
}

}  // namespace weft::sm::detail
