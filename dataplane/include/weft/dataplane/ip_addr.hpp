// IPv4/IPv6 addresses and prefixes as the control side names them (network byte order).
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace weft::dataplane {

struct IpAddr {
    bool v6 = false;
    std::array<std::uint8_t, 16> bytes{};  // IPv4 uses the first 4 bytes

    static IpAddr v4(std::uint32_t host_order);
    // "192.0.2.1", "2001:db8::1" (inet_pton's forms); nullopt for anything else, a NUL byte
    // included (inet_pton would stop there and take what came before).
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
    // "10.0.0.0/8", "2001:db8::/32"; a bare address is a host route. The length is decimal
    // without leading zeros. Host bits must be zero, as iproute2 and the kernel require:
    // "10.1.2.3/8" is refused rather than taken as 10.0.0.0/8. On refusal `why` (if given)
    // says what is wrong.
    static std::optional<IpPrefix> parse(std::string_view text, std::string *why = nullptr);
    std::string to_string() const;
    auto operator<=>(const IpPrefix &) const = default;
};

// For hash tables of prefixes (the FIB builder's routes).
struct IpPrefixHash {
    std::size_t operator()(const IpPrefix &p) const noexcept;
};

}  // namespace weft::dataplane
