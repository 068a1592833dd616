// The FPM decoder: frame headers, each route and nexthop form zebra sends (gateway, interface,
// multipath with weights, group id, blackhole, replace, IPv6), and malformed input refused by
// reason without reading past the frame.
#include <gtest/gtest.h>

#include "fpm_codec.hpp"
#include "fpm_messages.hpp"

namespace weft::control::fpm {
namespace {

namespace dp = weft::dataplane;
using test::NlMsg;

std::vector<Decoded> decode(const std::vector<std::vector<std::uint8_t>> &msgs) {
    std::vector<std::uint8_t> payload;
    for (const auto &m : msgs) payload.insert(payload.end(), m.begin(), m.end());
    std::vector<Decoded> out;
    decode_netlink(payload, out);
    return out;
}

template <typename T>
const T &as(const Decoded &d) {
    const T *p = std::get_if<T>(&d.what);
    if (p == nullptr) throw std::runtime_error("not the expected alternative");
    return *p;
}

dp::IpAddr ip(const char *s) {
    return *dp::IpAddr::parse(s);
}

TEST(FpmCodec, FrameHeader) {
    const auto f =
        test::frame({NlMsg::route(true, AF_INET, 8).addr(RTA_DST, "10.0.0.0").u32(RTA_OIF, 3).bytes()});
    const auto h = read_frame_header(f);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->length, f.size());
    EXPECT_FALSE(check_frame_header(*h));
    EXPECT_FALSE(read_frame_header(std::span(f).first(3)));
    EXPECT_EQ(check_frame_header({2, 1, 40}), Error::BadVersion);
    EXPECT_EQ(check_frame_header({1, 2, 40}), Error::BadFrameType);
    EXPECT_EQ(check_frame_header({1, 1, 3}), Error::BadFrameLength);
}

TEST(FpmCodec, RouteWithGatewayAndInterface) {
    const auto d = decode({NlMsg::route(true, AF_INET, 24)
                               .addr(RTA_DST, "10.1.2.0")
                               .addr(RTA_GATEWAY, "10.0.0.2")
                               .u32(RTA_OIF, 7)
                               .u32(RTA_PRIORITY, 20)
                               .bytes()});
    ASSERT_EQ(d.size(), 1u);
    const auto &r = as<RouteMsg>(d[0]);
    EXPECT_TRUE(r.add);
    EXPECT_FALSE(r.replace);
    EXPECT_EQ(r.prefix, *dp::IpPrefix::parse("10.1.2.0/24"));
    ASSERT_EQ(r.hops.size(), 1u);
    EXPECT_EQ(r.hops[0].gateway, ip("10.0.0.2"));
    EXPECT_EQ(r.hops[0].ifindex, 7u);
    EXPECT_FALSE(r.nh_id);
}

TEST(FpmCodec, MultipathWeightsAndIpv6) {
    const auto d = decode({NlMsg::route(true, AF_INET6, 64, RTN_UNICAST, NLM_F_REQUEST | NLM_F_REPLACE)
                               .addr(RTA_DST, "2001:db8:1::")
                               .multipath({{"fe80::1", 3, 1}, {"fe80::2", 4, 3}, {"", 5, 256}})
                               .bytes()});
    const auto &r = as<RouteMsg>(d.at(0));
    EXPECT_TRUE(r.replace);
    EXPECT_EQ(r.prefix, *dp::IpPrefix::parse("2001:db8:1::/64"));
    ASSERT_EQ(r.hops.size(), 3u);
    EXPECT_EQ(r.hops[0], (NlNextHop{ip("fe80::1"), 3, 1}));
    EXPECT_EQ(r.hops[1], (NlNextHop{ip("fe80::2"), 4, 3}));
    EXPECT_EQ(r.hops[2], (NlNextHop{std::nullopt, 5, 256}));
}

TEST(FpmCodec, RouteToGroupIdBlackholeAndDefault) {
    const auto d =
        decode({NlMsg::route(true, AF_INET, 16).addr(RTA_DST, "10.2.0.0").u32(RTA_NH_ID, 42).bytes(),
                NlMsg::route(true, AF_INET, 8, RTN_BLACKHOLE).addr(RTA_DST, "10.0.0.0").bytes(),
                NlMsg::route(true, AF_INET, 0).addr(RTA_GATEWAY, "10.0.0.1").bytes()});
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(as<RouteMsg>(d[0]).nh_id, 42u);
    EXPECT_TRUE(as<RouteMsg>(d[1]).blackhole);
    EXPECT_EQ(as<RouteMsg>(d[2]).prefix, *dp::IpPrefix::parse("0.0.0.0/0"));
}

TEST(FpmCodec, UpdateIsADeleteAndAnAddInOneFrame) {
    const auto d =
        decode({NlMsg::route(false, AF_INET, 24).addr(RTA_DST, "10.3.0.0").bytes(),
                NlMsg::route(true, AF_INET, 24).addr(RTA_DST, "10.3.0.0").u32(RTA_NH_ID, 5).bytes()});
    ASSERT_EQ(d.size(), 2u);
    EXPECT_FALSE(as<RouteMsg>(d[0]).add);
    EXPECT_TRUE(as<RouteMsg>(d[1]).add);
}

TEST(FpmCodec, IgnoredRoutes) {
    const auto d =
        decode({NlMsg::route(true, AF_INET, 24)
                    .addr(RTA_DST, "10.4.0.0")
                    .u32(RTA_TABLE, 100)
                    .u32(RTA_OIF, 2)
                    .bytes(),
                NlMsg::route(true, AF_INET, 32, RTN_LOCAL).addr(RTA_DST, "10.4.0.1").u32(RTA_OIF, 2).bytes(),
                NlMsg::route(true, AF_INET, 24)
                    .addr(RTA_DST, "10.5.0.0")
                    .u32(RTA_OIF, 2)
                    .raw(RTA_ENCAP_TYPE, {1, 0})
                    .bytes(),
                NlMsg(RTM_NEWNEIGH).bytes()});
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(as<RouteMsg>(d[0]).table, 100u);  // decoded: the server decides which tables it takes
    EXPECT_EQ(as<Ignored>(d[1]), Ignored::RouteType);
    EXPECT_EQ(as<Ignored>(d[2]), Ignored::Encap);
    EXPECT_EQ(as<Ignored>(d[3]), Ignored::MessageType);
    EXPECT_EQ(msg_kind(d[3].nl_type), MsgKind::Other);
}

TEST(FpmCodec, Nexthops) {
    const auto d =
        decode({NlMsg::nexthop(true, AF_INET, 1).addr(NHA_GATEWAY, "10.0.0.2").u32(NHA_OIF, 3).bytes(),
                NlMsg::nexthop(true, AF_INET6, 2).u32(NHA_OIF, 4).bytes(),
                NlMsg::nexthop(true, AF_UNSPEC, 3).group({{1, 1}, {2, 5}}).bytes(),
                NlMsg::nexthop(true, AF_INET, 4).flag(NHA_BLACKHOLE).bytes(),
                NlMsg::nexthop(false, AF_UNSPEC, 3).bytes()});
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(as<NexthopMsg>(d[0]).gateway, ip("10.0.0.2"));
    EXPECT_EQ(as<NexthopMsg>(d[0]).ifindex, 3u);
    EXPECT_EQ(as<NexthopMsg>(d[1]).ifindex, 4u);
    EXPECT_EQ(as<NexthopMsg>(d[2]).group, (std::vector<GroupMember>{{1, 1}, {2, 5}}));
    EXPECT_TRUE(as<NexthopMsg>(d[3]).blackhole);
    EXPECT_FALSE(as<NexthopMsg>(d[4]).add);
    EXPECT_EQ(as<NexthopMsg>(d[4]).id, 3u);
}

TEST(FpmCodec, MalformedMessagesAreRefusedByReason) {
    auto err = [](const std::vector<std::uint8_t> &m) {
        const auto d = decode({m});
        return d.size() == 1 && std::holds_alternative<Error>(d[0].what) ? std::get<Error>(d[0].what)
                                                                         : Error::kCount;
    };
    EXPECT_EQ(err(NlMsg(RTM_NEWROUTE).bytes()), Error::ShortHeader);
    EXPECT_EQ(err(NlMsg::route(true, AF_BRIDGE, 8).bytes()), Error::BadFamily);
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 33).bytes()), Error::BadPrefixLength);
    // A 16-byte destination in an IPv4 route; a gateway of 3 bytes; an RTA_OIF of 2.
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 8).addr(RTA_DST, "2001:db8::").bytes()), Error::BadAttribute);
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 8).raw(RTA_GATEWAY, {1, 2, 3}).bytes()), Error::BadAttribute);
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 8).raw(RTA_OIF, {1, 2}).bytes()), Error::BadAttribute);
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 8).u32(RTA_OIF, 1).u32(RTA_OIF, 2).bytes()),
              Error::BadAttribute);
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 8).raw(RTA_MULTIPATH, {200, 0, 0, 0, 1, 0, 0, 0}).bytes()),
              Error::BadMultipath);
    EXPECT_EQ(err(NlMsg::route(true, AF_INET, 8).addr(RTA_DST, "10.0.0.0").bytes()), Error::MissingNextHop);
    EXPECT_EQ(err(NlMsg(RTM_NEWNEXTHOP).bytes()), Error::ShortHeader);
    EXPECT_EQ(err(NlMsg::nexthop(true, AF_UNSPEC, 0).u32(NHA_OIF, 1).bytes()), Error::MissingId);
    EXPECT_EQ(err(NlMsg::nexthop(true, AF_UNSPEC, 9).raw(NHA_GROUP, {1, 0, 0, 0, 0}).bytes()),
              Error::BadGroup);
    EXPECT_EQ(err(NlMsg::nexthop(true, AF_UNSPEC, 9).group({{9, 1}}).bytes()), Error::BadGroup);  // itself
    EXPECT_EQ(err(NlMsg::nexthop(true, AF_UNSPEC, 9).addr(NHA_GATEWAY, "10.0.0.1").bytes()),
              Error::BadFamily);
    // An attribute whose length runs past the message.
    auto m = NlMsg::route(true, AF_INET, 8).u32(RTA_OIF, 1).bytes();
    m[m.size() - 8] = 40;
    EXPECT_EQ(err(m), Error::BadAttribute);
}

TEST(FpmCodec, ANetlinkLengthPastTheFrameStopsTheFrame) {
    auto good = NlMsg::route(true, AF_INET, 8).addr(RTA_DST, "10.0.0.0").u32(RTA_OIF, 1).bytes();
    auto bad = good;
    bad[0] = 0xff;  // nlmsg_len 255: past the end
    const auto d = decode({good, bad});
    ASSERT_EQ(d.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<RouteMsg>(d[0].what));
    EXPECT_EQ(as<Error>(d[1]), Error::NetlinkTruncated);
    // A length of 2^31 and more (an int comparison, as libmnl's mnl_nlmsg_ok makes, takes it).
    auto huge = good;
    huge[3] = 0x80;
    const auto h = decode({good, huge});
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(as<Error>(h[1]), Error::NetlinkTruncated);
    std::vector<Decoded> out;
    decode_netlink(std::span(good).first(10), out);  // shorter than a netlink header
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(as<Error>(out[0]), Error::NetlinkTruncated);
}

}  // namespace
}  // namespace weft::control::fpm
