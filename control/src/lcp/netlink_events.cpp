// rtnetlink address and neighbour messages walked with libmnl; every length checked before use.
#include "weft/control/lcp/netlink_events.hpp"

#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstring>

namespace weft::control::lcp {

namespace {

// The attributes of one message this parser reads, each checked for its length.
struct Attrs {
    const nlattr *by_type[32]{};
};

// Walks the attributes after `header_len` bytes of payload; false when one is malformed or bytes
// are left over that do not make an attribute.
bool collect(const nlmsghdr *nlh, std::size_t header_len, Attrs &a) {
    const auto *tail = static_cast<const char *>(mnl_nlmsg_get_payload_tail(nlh));
    const auto *attr = static_cast<const nlattr *>(mnl_nlmsg_get_payload_offset(nlh, header_len));
    // libmnl's own loop macro does not compile as C++ (it assigns a void pointer).
    while (mnl_attr_ok(attr, static_cast<int>(tail - reinterpret_cast<const char *>(attr)))) {
        const std::uint16_t type = mnl_attr_get_type(attr);
        if (type < std::size(a.by_type)) a.by_type[type] = attr;
        attr = mnl_attr_next(attr);
    }
    // What is left is the last attribute's padding or nothing; anything more is not an attribute.
    return reinterpret_cast<const char *>(attr) >= tail;
}

// An address attribute of the family's width, or nothing (and `bad`) when it has another.
std::optional<dataplane::IpAddr> address(const nlattr *attr, bool v6, bool &bad) {
    if (attr == nullptr) return std::nullopt;
    const std::size_t want = v6 ? 16 : 4;
    if (mnl_attr_get_payload_len(attr) != want) {
        bad = true;
        return std::nullopt;
    }
    dataplane::IpAddr ip;
    ip.v6 = v6;
    std::memcpy(ip.bytes.data(), mnl_attr_get_payload(attr), want);
    return ip;
}

void count(NetlinkParse &out, NetlinkError e) {
    ++out.errors[static_cast<std::size_t>(e)];
}

// The family byte both message types start with: v6, or nothing for another family.
std::optional<bool> family_v6(std::uint8_t family) {
    if (family == AF_INET) return false;
    if (family == AF_INET6) return true;
    return std::nullopt;
}

void parse_addr(const nlmsghdr *nlh, NetlinkParse &out) {
    if (mnl_nlmsg_get_payload_len(nlh) < sizeof(ifaddrmsg)) return count(out, NetlinkError::Truncated);
    ifaddrmsg ifa;
    std::memcpy(&ifa, mnl_nlmsg_get_payload(nlh), sizeof ifa);
    const std::optional<bool> v6 = family_v6(ifa.ifa_family);
    if (!v6) return count(out, NetlinkError::BadFamily);
    if (ifa.ifa_prefixlen > (*v6 ? 128 : 32)) return count(out, NetlinkError::BadPrefixLength);
    Attrs a;
    if (!collect(nlh, sizeof ifa, a)) return count(out, NetlinkError::BadAttribute);
    bool bad = false;
    // IFA_LOCAL is the interface's own address (IFA_ADDRESS is the peer's on point-to-point
    // links); IPv6 gives IFA_ADDRESS alone.
    std::optional<dataplane::IpAddr> ip = address(a.by_type[IFA_LOCAL], *v6, bad);
    if (!ip && !bad) ip = address(a.by_type[IFA_ADDRESS], *v6, bad);
    if (bad) return count(out, NetlinkError::BadAttribute);
    if (!ip) return count(out, NetlinkError::MissingAttribute);
    out.addrs.push_back(AddrEvent{nlh->nlmsg_type == RTM_NEWADDR, ifa.ifa_index, *ip, ifa.ifa_prefixlen});
}

void parse_neigh(const nlmsghdr *nlh, NetlinkParse &out) {
    if (mnl_nlmsg_get_payload_len(nlh) < sizeof(ndmsg)) return count(out, NetlinkError::Truncated);
    ndmsg nd;
    std::memcpy(&nd, mnl_nlmsg_get_payload(nlh), sizeof nd);
    const std::optional<bool> v6 = family_v6(nd.ndm_family);
    if (!v6) return count(out, NetlinkError::BadFamily);
    Attrs a;
    if (!collect(nlh, sizeof nd, a)) return count(out, NetlinkError::BadAttribute);
    bool bad = false;
    const std::optional<dataplane::IpAddr> ip = address(a.by_type[NDA_DST], *v6, bad);
    if (bad) return count(out, NetlinkError::BadAttribute);
    if (!ip) return count(out, NetlinkError::MissingAttribute);
    NeighEvent e;
    e.ifindex = static_cast<std::uint32_t>(nd.ndm_ifindex);
    e.ip = *ip;
    e.state = nd.ndm_state;
    constexpr std::uint16_t kUnresolved = NUD_FAILED | NUD_INCOMPLETE;
    e.add = nlh->nlmsg_type == RTM_NEWNEIGH && nd.ndm_state != NUD_NONE && (nd.ndm_state & kUnresolved) == 0;
    if (e.add) {
        const nlattr *ll = a.by_type[NDA_LLADDR];
        if (ll == nullptr) return count(out, NetlinkError::MissingAttribute);
        if (mnl_attr_get_payload_len(ll) != e.mac.size()) return count(out, NetlinkError::BadAttribute);
        std::memcpy(e.mac.data(), mnl_attr_get_payload(ll), e.mac.size());
    }
    out.neighs.push_back(e);
}

}  // namespace

const char *netlink_error_name(NetlinkError e) noexcept {
    switch (e) {
        case NetlinkError::Truncated:
            return "truncated";
        case NetlinkError::BadAttribute:
            return "bad_attribute";
        case NetlinkError::MissingAttribute:
            return "missing_attribute";
        case NetlinkError::BadFamily:
            return "bad_family";
        case NetlinkError::BadPrefixLength:
            return "bad_prefix_length";
        case NetlinkError::KernelError:
            return "kernel_error";
        case NetlinkError::Count:
            break;
    }
    return "unknown";
}

void parse_netlink(std::span<const std::uint8_t> bytes, NetlinkParse &out) {
    // libmnl reads the headers in place: copy into aligned storage when the caller's bytes are not.
    std::vector<std::uint32_t> aligned;
    const void *base = bytes.data();
    if (reinterpret_cast<std::uintptr_t>(base) % alignof(nlmsghdr) != 0) {
        aligned.resize((bytes.size() + 3) / 4);
        std::memcpy(aligned.data(), bytes.data(), bytes.size());
        base = aligned.data();
    }
    int len = static_cast<int>(std::min<std::size_t>(bytes.size(), INT32_MAX));
    const auto *nlh = static_cast<const nlmsghdr *>(base);
    while (len > 0) {
        // libmnl's mnl_nlmsg_ok compares the length as an int, so a header claiming 4 GB passes
        // it as a negative number: the length is checked here, unsigned.
        if (static_cast<std::size_t>(len) < sizeof(nlmsghdr) || nlh->nlmsg_len < sizeof(nlmsghdr) ||
            nlh->nlmsg_len > static_cast<std::uint32_t>(len)) {
            ++out.messages;
            count(out, NetlinkError::Truncated);
            return;
        }
        ++out.messages;
        switch (nlh->nlmsg_type) {
            case RTM_NEWADDR:
            case RTM_DELADDR:
                parse_addr(nlh, out);
                break;
            case RTM_NEWNEIGH:
            case RTM_DELNEIGH:
                parse_neigh(nlh, out);
                break;
            case NLMSG_DONE:
                out.done = true;
                break;
            case NLMSG_ERROR: {
                nlmsgerr err;
                if (mnl_nlmsg_get_payload_len(nlh) < sizeof err) {
                    count(out, NetlinkError::Truncated);
                    break;
                }
                std::memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof err);
                if (err.error != 0)
                    count(out, NetlinkError::KernelError);
                else
                    ++out.ignored;  // an acknowledgement
                break;
            }
            default:
                ++out.ignored;
        }
        nlh = mnl_nlmsg_next(nlh, &len);
    }
}

}  // namespace weft::control::lcp
