// IP addresses and prefixes as the CLI reads them (route, neigh and nhg member arguments): any
// bytes are refused (a prefix with a reason) or give a value that prints back to itself, with
// no host bits set and a length within the family's width.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "weft/dataplane/ip_addr.hpp"

using weft::dataplane::IpAddr;
using weft::dataplane::IpPrefix;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (const auto a = IpAddr::parse(text)) {
        if (text.find('\0') != std::string_view::npos) std::abort();
        if (a->v6 != (text.find(':') != std::string_view::npos)) std::abort();
        if (!a->v6)
            for (std::size_t i = 4; i < 16; ++i)
                if (a->bytes[i] != 0) std::abort();
        const auto again = IpAddr::parse(a->to_string());
        if (!again || *again != *a) std::abort();
    }
    std::string why;
    if (const auto p = IpPrefix::parse(text, &why)) {
        if (p->len > (p->addr.v6 ? 128 : 32)) std::abort();
        if (IpPrefix::make(p->addr, p->len)->addr != p->addr) std::abort();  // host bits clear
        const auto again = IpPrefix::parse(p->to_string());
        if (!again || *again != *p) std::abort();
    } else if (why.empty()) {
        std::abort();
    }
    return 0;
}
