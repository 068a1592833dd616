#include "weft/dataplane/ip_addr.hpp"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace weft::dataplane {

IpAddr IpAddr::v4(std::uint32_t host_order) {
    IpAddr a;
    a.bytes[0] = static_cast<std::uint8_t>(host_order >> 24);
    a.bytes[1] = static_cast<std::uint8_t>(host_order >> 16);
    a.bytes[2] = static_cast<std::uint8_t>(host_order >> 8);
    a.bytes[3] = static_cast<std::uint8_t>(host_order);
    return a;
}

std::optional<IpAddr> IpAddr::parse(std::string_view text) {
    if (text.empty() || text.size() >= INET6_ADDRSTRLEN || text.find('\0') != std::string_view::npos)
        return std::nullopt;
    const std::string s(text);
    IpAddr a;
    if (s.find(':') != std::string::npos) {
        if (inet_pton(AF_INET6, s.c_str(), a.bytes.data()) != 1) return std::nullopt;
        a.v6 = true;
    } else if (inet_pton(AF_INET, s.c_str(), a.bytes.data()) != 1) {
        return std::nullopt;
    }
    return a;
}

std::uint32_t IpAddr::v4_host_order() const noexcept {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
           (std::uint32_t{bytes[2]} << 8) | bytes[3];
}

std::string IpAddr::to_string() const {
    char buf[INET6_ADDRSTRLEN] = {};
    inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf);
    return buf;
}

std::optional<IpPrefix> IpPrefix::make(const IpAddr &addr, unsigned len) {
    const unsigned width = addr.v6 ? 128 : 32;
    if (len > width) return std::nullopt;
    IpPrefix p;
    p.addr = addr;
    p.len = static_cast<std::uint8_t>(len);
    for (unsigned bit = len; bit < width; ++bit)
        p.addr.bytes[bit / 8] = static_cast<std::uint8_t>(p.addr.bytes[bit / 8] & ~(0x80u >> (bit % 8)));
    return p;
}

std::optional<IpPrefix> IpPrefix::parse(std::string_view text, std::string *why) {
    auto refuse = [why](std::string reason) -> std::optional<IpPrefix> {
        if (why != nullptr) *why = std::move(reason);
        return std::nullopt;
    };
    const auto slash = text.find('/');
    const auto addr = IpAddr::parse(text.substr(0, slash));
    if (!addr) return refuse("not an IPv4 or IPv6 address");
    const unsigned width = addr->v6 ? 128 : 32;
    unsigned len = width;
    if (slash != std::string_view::npos) {
        const std::string_view num = text.substr(slash + 1);
        const auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), len);
        if (num.empty() || ec != std::errc() || end != num.data() + num.size() ||
            (num.size() > 1 && num[0] == '0') || len > width)
            return refuse("the prefix length is not a decimal number 0.." + std::to_string(width));
    }
    const IpPrefix p = *make(*addr, len);
    if (p.addr != *addr) return refuse("host bits are set (the prefix would be " + p.to_string() + ")");
    return p;
}

std::size_t IpPrefixHash::operator()(const IpPrefix &p) const noexcept {
    // The address's two halves mixed with the length and family (a multiply-xorshift finaliser).
    std::uint64_t hi, lo;
    std::memcpy(&hi, p.addr.bytes.data(), 8);
    std::memcpy(&lo, p.addr.bytes.data() + 8, 8);
    std::uint64_t h = hi ^ (lo * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t{p.len} << 1 | p.addr.v6);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return static_cast<std::size_t>(h);
}

std::string IpPrefix::to_string() const {
    return addr.to_string() + "/" + std::to_string(len);
}

}  // namespace weft::dataplane
