// An IPv4 or IPv6 prefix as weft's vendor attributes carry it: family, length and 16 address
// bytes in network order (an IPv4 address in the first 4, the rest zero), host bits zero. Its
// own type, so the SM core stays free of the dataplane (whose IpPrefix the switch converts to).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <string>

namespace weft::sm {

enum class IpFamily : std::uint8_t { kNone = 0, kIpv4 = 4, kIpv6 = 6 };

struct IpPrefix {
    IpFamily family = IpFamily::kNone;
    std::uint8_t len = 0;
    std::array<std::uint8_t, 16> addr{};

    // Host bits are cleared; len is capped at the family's width.
    static IpPrefix v4(std::uint32_t address, unsigned len);
    static IpPrefix v6(const std::array<std::uint8_t, 16> &address, unsigned len);
    unsigned max_len() const { return family == IpFamily::kIpv4 ? 32 : family == IpFamily::kIpv6 ? 128 : 0; }
    bool empty() const { return family == IpFamily::kNone; }
    // "10.0.3.0/24", "2001:db8:0:0:0:0:0:0/32" (groups uncompressed); "-" when empty.
    std::string to_string() const;
    auto operator<=>(const IpPrefix &) const = default;
};

}  // namespace weft::sm
