// The kernel's address and neighbour news (rtnetlink RTM_NEWADDR/DELADDR, RTM_NEWNEIGH/DELNEIGH)
// as the Linux control-plane mirror takes them. A pure function over the bytes of one or more
// netlink messages (a socket read or a dump reply): it checks every length it follows, so a
// malformed message is counted by reason and skipped, and never read past.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "weft/dataplane/ip_addr.hpp"

namespace weft::control::lcp {

// An interface address was added or removed.
struct AddrEvent {
    bool add = true;
    std::uint32_t ifindex = 0;
    dataplane::IpAddr addr;  // IFA_LOCAL, else IFA_ADDRESS
    std::uint8_t prefix_len = 0;
};

// A neighbour the kernel knows with a link-layer address (add), or one it no longer knows or
// could not resolve (remove: deleted, FAILED or INCOMPLETE).
struct NeighEvent {
    bool add = true;
    std::uint32_t ifindex = 0;
    dataplane::IpAddr ip;
    std::array<std::uint8_t, 6> mac{};  // add only
    std::uint16_t state = 0;            // NUD_* as the kernel gave it
};

enum class NetlinkError : std::uint8_t {
    Truncated = 0,     // a header or body shorter than its type needs, or a length past the bytes
    BadAttribute,      // an attribute whose length runs past its message or is wrong for its type
    MissingAttribute,  // no address in an address message, no destination in a neighbour one
    BadFamily,         // neither AF_INET nor AF_INET6
    BadPrefixLength,   // longer than the family's width
    KernelError,       // an NLMSG_ERROR carrying a failure
    Count
};
inline constexpr std::size_t kNetlinkErrorCount = static_cast<std::size_t>(NetlinkError::Count);
const char *netlink_error_name(NetlinkError e) noexcept;

struct NetlinkParse {
    std::vector<AddrEvent> addrs;
    std::vector<NeighEvent> neighs;
    std::array<std::uint64_t, kNetlinkErrorCount> errors{};  // messages skipped, by reason
    std::uint64_t messages = 0;                              // messages seen (good or not)
    std::uint64_t ignored = 0;  // well-formed messages of other types (links, routes, NOOP)
    bool done = false;          // an NLMSG_DONE closed a dump
};

// Appends what `bytes` says to `out`. Messages of other types are counted and passed over; a
// header whose length is impossible ends the walk (nothing after it can be found).
void parse_netlink(std::span<const std::uint8_t> bytes, NetlinkParse &out);

}  // namespace weft::control::lcp
