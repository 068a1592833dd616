#include "weft/sm/vendor_prefix.hpp"

#include <algorithm>
#include <cstdio>

namespace weft::sm {

namespace {

IpPrefix masked(IpPrefix p, unsigned len) {
    p.len = static_cast<std::uint8_t>(std::min(len, p.max_len()));
    for (unsigned bit = p.len; bit < 128; ++bit)
        p.addr[bit / 8] = static_cast<std::uint8_t>(p.addr[bit / 8] & ~(0x80u >> (bit % 8)));
    return p;
}

}  // namespace

IpPrefix IpPrefix::v4(std::uint32_t address, unsigned len) {
    IpPrefix p;
    p.family = IpFamily::kIpv4;
    for (unsigned i = 0; i < 4; ++i) p.addr[i] = static_cast<std::uint8_t>(address >> (24 - 8 * i));
    return masked(p, len);
}

IpPrefix IpPrefix::v6(const std::array<std::uint8_t, 16> &address, unsigned len) {
    IpPrefix p;
    p.family = IpFamily::kIpv6;
    p.addr = address;
    return masked(p, len);
}

std::string IpPrefix::to_string() const {
    char buf[64];
    if (family == IpFamily::kIpv4) {
        std::snprintf(buf, sizeof buf, "%u.%u.%u.%u/%u", addr[0], addr[1], addr[2], addr[3], len);
        return buf;
    }
    if (family != IpFamily::kIpv6) return "-";
    std::string s;
    for (unsigned g = 0; g < 8; ++g) {
        std::snprintf(buf, sizeof buf, g ? ":%x" : "%x", unsigned{addr[2 * g]} << 8 | addr[2 * g + 1]);
        s += buf;
    }
    return s + "/" + std::to_string(len);
}

}  // namespace weft::sm
