// IPv4/IPv6 addresses and prefixes as the control side names them (network byte order).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace weft::dataplane {

struct IpAddr {
    bool v6 = false;
    std::array<std::uint8_t, 16> bytes{};  // IPv4 uses the first 4 bytes

    static IpAddr v4(std::uint32_t host_order);
    static std::optional<IpAddr> parse(std::string_view text);
    std::uint32_t v4_host_order() const noexcept;
    std::string to_string() const;
    auto operator<=>(const IpAddr &) const = default;
};

struct IpPrefix {
    IpAddr addr;  // host bits are zero
    std::uint8_t len = 0;

    // Builds a prefix, clearing host bits; nullopt when len exceeds the family's width.
    static std::optional<IpPrefix> make(const IpAddr &addr, unsigned len);
    // "10.0.0.0/8", "2001:db8::/32"; a bare address is a host route.
    static std::optional<IpPrefix> parse(std::string_view text);
    std::string to_string() const;
    auto operator<=>(const IpPrefix &) const = default;
};

}  // namespace weft::dataplane
