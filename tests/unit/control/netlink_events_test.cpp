// The kernel mirror's rtnetlink reader: address and neighbour news as the kernel writes them,
// and each kind of malformed message counted and skipped without losing the messages after it.
#include "weft/control/lcp/netlink_events.hpp"

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstring>
#include <vector>

namespace {

using weft::control::lcp::NetlinkError;
using weft::control::lcp::NetlinkParse;
using weft::control::lcp::parse_netlink;
using weft::dataplane::IpAddr;

// A buffer of netlink messages built with libmnl, as the kernel lays them out.
class Messages {
  public:
    nlmsghdr *begin(std::uint16_t type) {
        const std::size_t at = buf_.size();
        buf_.resize(at + 512, 0);
        auto *nlh = mnl_nlmsg_put_header(buf_.data() + at);
        nlh->nlmsg_type = type;
        open_ = at;
        return nlh;
    }
    nlmsghdr *current() { return reinterpret_cast<nlmsghdr *>(buf_.data() + open_); }
    void end() { buf_.resize(open_ + current()->nlmsg_len); }
    std::vector<std::uint8_t> bytes() const { return {buf_.begin(), buf_.end()}; }
    void truncate_by(std::size_t n) { buf_.resize(buf_.size() - n); }

  private:
    std::vector<std::uint8_t> buf_;
    std::size_t open_ = 0;
};

void addr(Messages &m, std::uint16_t type, std::uint8_t family, std::uint8_t len, std::uint32_t ifindex,
          const char *local, const char *address) {
    auto *nlh = m.begin(type);
    auto *ifa = static_cast<ifaddrmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifaddrmsg)));
    ifa->ifa_family = family;
    ifa->ifa_prefixlen = len;
    ifa->ifa_index = ifindex;
    const std::size_t w = family == AF_INET6 ? 16 : 4;
    if (local != nullptr) mnl_attr_put(nlh, IFA_LOCAL, w, IpAddr::parse(local)->bytes.data());
    if (address != nullptr) mnl_attr_put(nlh, IFA_ADDRESS, w, IpAddr::parse(address)->bytes.data());
    m.end();
}

void neigh(Messages &m, std::uint16_t type, std::uint8_t family, std::uint16_t state, int ifindex,
           const char *ip, const std::vector<std::uint8_t> &mac) {
    auto *nlh = m.begin(type);
    auto *nd = static_cast<ndmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(ndmsg)));
    nd->ndm_family = family;
    nd->ndm_state = state;
    nd->ndm_ifindex = ifindex;
    if (ip != nullptr)
        mnl_attr_put(nlh, NDA_DST, family == AF_INET6 ? 16 : 4, IpAddr::parse(ip)->bytes.data());
    if (!mac.empty()) mnl_attr_put(nlh, NDA_LLADDR, mac.size(), mac.data());
    m.end();
}

NetlinkParse parse(const Messages &m) {
    NetlinkParse p;
    const auto b = m.bytes();
    parse_netlink(b, p);
    return p;
}

std::uint64_t errors(const NetlinkParse &p, NetlinkError e) {
    return p.errors[static_cast<std::size_t>(e)];
}

std::uint64_t all_errors(const NetlinkParse &p) {
    std::uint64_t n = 0;
    for (auto e : p.errors) n += e;
    return n;
}

const std::vector<std::uint8_t> kMac{0x02, 0, 0, 0, 0, 0x07};

TEST(NetlinkEvents, Ipv4AddressTakesTheLocalAddress) {
    Messages m;
    // A point-to-point address: IFA_ADDRESS is the peer's, IFA_LOCAL the interface's own.
    addr(m, RTM_NEWADDR, AF_INET, 24, 7, "10.0.0.1", "10.0.0.9");
    const NetlinkParse p = parse(m);
    ASSERT_EQ(p.addrs.size(), 1u);
    EXPECT_TRUE(p.addrs[0].add);
    EXPECT_EQ(p.addrs[0].ifindex, 7u);
    EXPECT_EQ(p.addrs[0].addr, *IpAddr::parse("10.0.0.1"));
    EXPECT_EQ(p.addrs[0].prefix_len, 24);
    EXPECT_EQ(all_errors(p), 0u);
}

TEST(NetlinkEvents, Ipv6AddressAndDeletion) {
    Messages m;
    addr(m, RTM_NEWADDR, AF_INET6, 64, 3, nullptr, "2001:db8::1");
    addr(m, RTM_DELADDR, AF_INET6, 64, 3, nullptr, "2001:db8::1");
    const NetlinkParse p = parse(m);
    ASSERT_EQ(p.addrs.size(), 2u);
    EXPECT_TRUE(p.addrs[0].add);
    EXPECT_FALSE(p.addrs[1].add);
    EXPECT_EQ(p.addrs[1].addr, *IpAddr::parse("2001:db8::1"));
    EXPECT_EQ(p.messages, 2u);
}

TEST(NetlinkEvents, ResolvedNeighbourCarriesItsMac) {
    Messages m;
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_REACHABLE, 4, "10.0.0.2", kMac);
    neigh(m, RTM_NEWNEIGH, AF_INET6, NUD_STALE, 4, "fe80::1", kMac);
    const NetlinkParse p = parse(m);
    ASSERT_EQ(p.neighs.size(), 2u);
    EXPECT_TRUE(p.neighs[0].add);
    EXPECT_EQ(p.neighs[0].ifindex, 4u);
    EXPECT_EQ(p.neighs[0].ip, *IpAddr::parse("10.0.0.2"));
    EXPECT_EQ(p.neighs[0].mac[5], 0x07);
    EXPECT_EQ(p.neighs[0].state, NUD_REACHABLE);
    EXPECT_TRUE(p.neighs[1].add);  // stale still has a MAC worth using
    EXPECT_TRUE(p.neighs[1].ip.v6);
}

TEST(NetlinkEvents, FailedIncompleteAndDeletedNeighboursAreRemovals) {
    Messages m;
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_FAILED, 4, "10.0.0.2", {});
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_INCOMPLETE, 4, "10.0.0.3", {});
    neigh(m, RTM_DELNEIGH, AF_INET, NUD_REACHABLE, 4, "10.0.0.4", kMac);
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_NONE, 4, "10.0.0.5", {});
    const NetlinkParse p = parse(m);
    ASSERT_EQ(p.neighs.size(), 4u);
    for (const auto &e : p.neighs) EXPECT_FALSE(e.add) << e.ip.to_string();
    EXPECT_EQ(all_errors(p), 0u);
}

TEST(NetlinkEvents, MissingAttributesAreCounted) {
    Messages m;
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_REACHABLE, 4, "10.0.0.2", {});  // resolved, no MAC
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_REACHABLE, 4, nullptr, kMac);   // no destination
    addr(m, RTM_NEWADDR, AF_INET, 24, 7, nullptr, nullptr);             // no address
    const NetlinkParse p = parse(m);
    EXPECT_TRUE(p.neighs.empty());
    EXPECT_TRUE(p.addrs.empty());
    EXPECT_EQ(errors(p, NetlinkError::MissingAttribute), 3u);
}

TEST(NetlinkEvents, WrongWidthsFamiliesAndLengthsAreCounted) {
    Messages m;
    {  // an IPv4 address attribute of 16 bytes
        auto *nlh = m.begin(RTM_NEWADDR);
        auto *ifa = static_cast<ifaddrmsg *>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifaddrmsg)));
        ifa->ifa_family = AF_INET;
        mnl_attr_put(nlh, IFA_ADDRESS, 16, IpAddr::parse("2001:db8::1")->bytes.data());
        m.end();
    }
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_REACHABLE, 4, "10.0.0.2", {1, 2, 3});  // a 3-byte MAC
    addr(m, RTM_NEWADDR, AF_PACKET, 24, 7, "10.0.0.1", nullptr);
    addr(m, RTM_NEWADDR, AF_INET, 33, 7, "10.0.0.1", nullptr);
    addr(m, RTM_NEWADDR, AF_INET, 32, 7, "10.0.0.1", nullptr);  // good, after all of them
    const NetlinkParse p = parse(m);
    EXPECT_EQ(errors(p, NetlinkError::BadAttribute), 2u);
    EXPECT_EQ(errors(p, NetlinkError::BadFamily), 1u);
    EXPECT_EQ(errors(p, NetlinkError::BadPrefixLength), 1u);
    ASSERT_EQ(p.addrs.size(), 1u);
    EXPECT_EQ(p.addrs[0].prefix_len, 32);
}

TEST(NetlinkEvents, AnAttributeRunningPastItsMessageIsSkippedAndTheNextMessageRead) {
    Messages m;
    addr(m, RTM_NEWADDR, AF_INET, 24, 7, "10.0.0.1", nullptr);
    addr(m, RTM_NEWADDR, AF_INET, 24, 8, "10.0.1.1", nullptr);
    auto b = m.bytes();
    // The first message's attribute claims 64 bytes.
    auto *attr = reinterpret_cast<nlattr *>(b.data() + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifaddrmsg)));
    attr->nla_len = 64;
    NetlinkParse p;
    parse_netlink(b, p);
    EXPECT_EQ(errors(p, NetlinkError::BadAttribute), 1u);
    ASSERT_EQ(p.addrs.size(), 1u);
    EXPECT_EQ(p.addrs[0].ifindex, 8u);
}

TEST(NetlinkEvents, ShortBodiesAndHeadersAreTruncations) {
    Messages m;
    {
        auto *nlh = m.begin(RTM_NEWNEIGH);
        mnl_nlmsg_put_extra_header(nlh, 4);  // shorter than an ndmsg
        m.end();
    }
    addr(m, RTM_NEWADDR, AF_INET, 24, 7, "10.0.0.1", nullptr);
    m.truncate_by(4);  // the last header's length now runs past the bytes
    const NetlinkParse p = parse(m);
    EXPECT_EQ(errors(p, NetlinkError::Truncated), 2u);
    EXPECT_TRUE(p.addrs.empty());
    EXPECT_EQ(p.messages, 2u);
}

TEST(NetlinkEvents, AHeaderClaimingFourGigabytesEndsTheWalk) {
    Messages m;
    addr(m, RTM_NEWADDR, AF_INET, 24, 7, "10.0.0.1", nullptr);
    addr(m, RTM_NEWADDR, AF_INET, 24, 8, "10.0.1.1", nullptr);
    auto b = m.bytes();
    reinterpret_cast<nlmsghdr *>(b.data())->nlmsg_len = 0xFFFFFFF0u;  // negative as an int
    NetlinkParse p;
    parse_netlink(b, p);
    EXPECT_EQ(errors(p, NetlinkError::Truncated), 1u);
    EXPECT_TRUE(p.addrs.empty());
}

TEST(NetlinkEvents, DoneErrorsAcksAndOtherTypes) {
    Messages m;
    m.begin(RTM_NEWLINK);
    m.end();
    {
        auto *nlh = m.begin(NLMSG_ERROR);
        auto *err = static_cast<nlmsgerr *>(mnl_nlmsg_put_extra_header(nlh, sizeof(nlmsgerr)));
        err->error = -1;
        m.end();
    }
    {
        auto *nlh = m.begin(NLMSG_ERROR);
        mnl_nlmsg_put_extra_header(nlh, sizeof(nlmsgerr));  // error 0: an acknowledgement
        m.end();
    }
    m.begin(NLMSG_DONE);
    m.end();
    const NetlinkParse p = parse(m);
    EXPECT_EQ(p.ignored, 2u);
    EXPECT_EQ(errors(p, NetlinkError::KernelError), 1u);
    EXPECT_TRUE(p.done);
}

TEST(NetlinkEvents, UnalignedInputIsReadAsWell) {
    Messages m;
    neigh(m, RTM_NEWNEIGH, AF_INET, NUD_PERMANENT, 4, "10.0.0.2", kMac);
    const auto b = m.bytes();
    std::vector<std::uint8_t> shifted(b.size() + 1);
    std::memcpy(shifted.data() + 1, b.data(), b.size());
    NetlinkParse p;
    parse_netlink(std::span<const std::uint8_t>(shifted).subspan(1), p);
    ASSERT_EQ(p.neighs.size(), 1u);
    EXPECT_EQ(p.neighs[0].ip, *IpAddr::parse("10.0.0.2"));
}

}  // namespace
