// The kernel mirror's rtnetlink reader on any bytes: never a read past them (ASan), and every
// event it keeps is sane (a known family's width, a prefix length within it).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "weft/control/lcp/netlink_events.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    weft::control::lcp::NetlinkParse p;
    weft::control::lcp::parse_netlink(std::span(data, size), p);
    std::uint64_t errors = 0;
    for (auto e : p.errors) errors += e;
    // Each message is one event, one error, ignored, or the end of a dump.
    if (p.addrs.size() + p.neighs.size() + errors + p.ignored > p.messages) std::abort();
    if (p.messages > size / 16 + 1) std::abort();  // a message is at least a 16-byte header
    for (const auto &a : p.addrs)
        if (a.prefix_len > (a.addr.v6 ? 128 : 32)) std::abort();
    for (const auto &n : p.neighs)
        if (!n.add && n.mac != std::array<std::uint8_t, 6>{}) std::abort();
    return 0;
}
