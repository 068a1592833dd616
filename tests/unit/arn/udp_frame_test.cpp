// ARN in UDP datagrams (udp_frame.hpp): IPv4 and IPv6 to the link's all-nodes address, TTL 255,
// DSCP CS6, checksums; and the refusals, each at its byte.
#include <gtest/gtest.h>

#include <vector>

#include "weft/arn/udp_frame.hpp"

namespace weft::arn {
namespace {

ArnMessage message() {
    ArnMessage m;
    m.type = ArnType::kCongestionDetected;
    m.metric = 5;
    m.reporter = 0x0102030405060708;
    m.port = 3;
    m.peer_group = 7;
    m.sequence = 99;
    m.hold_ms = 30;
    return m;
}

ArnUdpHeaders headers(bool ipv6) {
    ArnUdpHeaders h;
    h.ipv6 = ipv6;
    h.src_mac = {0x02, 0, 0, 0, 0, 1};
    if (!ipv6) h.src_ip = {169, 254, 0, 1};
    return h;
}

constexpr std::size_t kIp = 14;  // the IP header after an untagged Ethernet header

TEST(ArnUdpFrame, Ipv4ToTheLinksBroadcastWithTtl255AndCs6) {
    const auto f = encode_arn_udp_frame(headers(false), message());
    ASSERT_EQ(f.size(), 14u + 20 + 8 + arn_size(message()));
    EXPECT_EQ(std::vector<std::uint8_t>(f.begin(), f.begin() + 6), std::vector<std::uint8_t>(6, 0xFF));
    EXPECT_EQ(f[12], 0x08);
    EXPECT_EQ(f[kIp], 0x45);
    EXPECT_EQ(f[kIp + 1], 0xC0);  // CS6
    EXPECT_EQ(f[kIp + 8], 255);
    EXPECT_EQ(f[kIp + 9], 17);
    EXPECT_EQ(f[kIp + 12], 169);
    EXPECT_EQ(f[kIp + 16], 255);
    EXPECT_EQ(f[kIp + 22], 49400 >> 8);  // destination port
    EXPECT_EQ(f[kIp + 23], 49400 & 0xFF);
    const ArnFrameDecode d = decode_arn_udp_frame(f);
    ASSERT_TRUE(d) << d.error->message();
    EXPECT_EQ(d.message, message());
    EXPECT_EQ(d.arn_offset, kIp + 28);
    EXPECT_EQ(d.headers.src_mac, headers(false).src_mac);
}

TEST(ArnUdpFrame, Ipv6ToAllNodesFromALinkLocalAddress) {
    const auto f = encode_arn_udp_frame(headers(true), message());
    EXPECT_EQ(f[0], 0x33);
    EXPECT_EQ(f[5], 0x01);
    EXPECT_EQ(f[12], 0x86);
    EXPECT_EQ(f[kIp] >> 4, 6);
    EXPECT_EQ(((f[kIp] & 0x0F) << 2) | (f[kIp + 1] >> 6), 48);  // CS6 in the traffic class
    EXPECT_EQ(f[kIp + 6], 17);
    EXPECT_EQ(f[kIp + 7], 255);
    EXPECT_EQ(f[kIp + 8], 0xFE);  // fe80::0000:00ff:fe00:0001 from 02:00:00:00:00:01
    EXPECT_EQ(f[kIp + 9], 0x80);
    EXPECT_EQ(f[kIp + 16], 0x00);
    EXPECT_EQ(f[kIp + 19], 0xFF);
    EXPECT_EQ(f[kIp + 20], 0xFE);
    EXPECT_EQ(f[kIp + 23], 0x01);
    EXPECT_EQ(f[kIp + 24], 0xFF);  // ff02::1
    EXPECT_EQ(f[kIp + 39], 0x01);
    const ArnFrameDecode d = decode_arn_udp_frame(f);
    ASSERT_TRUE(d) << d.error->message();
    EXPECT_EQ(d.message, message());
    EXPECT_EQ(d.arn_offset, kIp + 48);
}

TEST(ArnUdpFrame, AShortMessageIsPaddedAndThePaddingIsNotTheDatagrams) {
    ArnMessage m;
    m.type = ArnType::kCongestionEliminated;
    m.metric = 0;
    m.reporter = 1;
    m.port = 2;
    const auto f = encode_arn_udp_frame(headers(false), m);
    ASSERT_EQ(f.size(), kArnMinFrameSize);  // 14 + 20 + 8 + 14 = 56, padded
    auto g = f;
    g.back() = 0x55;  // the padding is past the IP length: any bytes
    EXPECT_TRUE(decode_arn_udp_frame(g));
}

struct Case {
    std::size_t at;
    std::uint8_t value;
    ArnDrop reason;
};

void expect_refused(const std::vector<std::uint8_t> &good, std::initializer_list<Case> cases,
                    const char *what) {
    for (const Case &c : cases) {
        auto f = good;
        f[c.at] = c.value;
        const ArnFrameDecode d = decode_arn_udp_frame(f);
        ASSERT_FALSE(d) << what << " byte " << c.at;
        EXPECT_EQ(d.error->reason, c.reason) << what << " byte " << c.at << ": " << d.error->message();
    }
}

TEST(ArnUdpFrame, RefusesWhatIsNotANeighboursArnDatagram) {
    const auto v4 = encode_arn_udp_frame(headers(false), message());
    expect_refused(v4,
                   {{12, 0x09, ArnDrop::kNotArn},               // not IP
                    {kIp, 0x55, ArnDrop::kBadIpHeader},         // version 5
                    {kIp, 0x44, ArnDrop::kBadIpHeader},         // IHL 4
                    {kIp + 6, 0x60, ArnDrop::kBadIpHeader},     // MF: a fragment
                    {kIp + 8, 254, ArnDrop::kBadTtl},           // came through a router
                    {kIp + 9, 6, ArnDrop::kNotArnUdp},          // TCP
                    {kIp + 12, 170, ArnDrop::kBadChecksum},     // the header no longer sums
                    {kIp + 23, 0x79, ArnDrop::kNotArnUdp},      // another port
                    {kIp + 25, 0xFF, ArnDrop::kBadUdpLength}},  // UDP length
                   "IPv4");
    auto bad_sum = v4;
    bad_sum[kIp + 27] ^= 0x01;
    EXPECT_EQ(decode_arn_udp_frame(bad_sum).error->reason, ArnDrop::kBadChecksum);
    const auto v6 = encode_arn_udp_frame(headers(true), message());
    expect_refused(v6,
                   {{kIp, 0x40, ArnDrop::kBadIpHeader},
                    {kIp + 6, 0, ArnDrop::kNotArnUdp},  // an extension header first
                    {kIp + 7, 1, ArnDrop::kBadTtl},
                    {kIp + 5, 0xFF, ArnDrop::kIpTruncated},  // a payload length past the frame
                    {kIp + 30, 0x11, ArnDrop::kBadChecksum}},
                   "IPv6");
    // IPv6 requires the UDP checksum; IPv4 may leave it out.
    auto no_sum = v6;
    no_sum[kIp + 46] = no_sum[kIp + 47] = 0;
    EXPECT_EQ(decode_arn_udp_frame(no_sum).error->reason, ArnDrop::kBadChecksum);
    no_sum = v4;
    no_sum[kIp + 26] = no_sum[kIp + 27] = 0;
    EXPECT_TRUE(decode_arn_udp_frame(no_sum));
    // Then the message's own refusals, at its bytes.
    no_sum[kIp + 28] = 9;
    const ArnFrameDecode unknown = decode_arn_udp_frame(no_sum);
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error->reason, ArnDrop::kUnknownType);
    EXPECT_EQ(unknown.error->offset, kIp + 28);
    // Cut short: every length the headers need.
    for (std::size_t n : {std::size_t{10}, kIp + 10, kIp + 30})
        EXPECT_TRUE(!decode_arn_udp_frame(std::span(v4.data(), n))) << n;
    EXPECT_EQ(decode_arn_udp_frame(std::span(v4.data(), kIp + 10)).error->reason, ArnDrop::kIpTruncated);
    // A configured port.
    EXPECT_EQ(decode_arn_udp_frame(v4, ArnUdpConfig{4000}).error->reason, ArnDrop::kNotArnUdp);
    const auto other = encode_arn_udp_frame(headers(false), message(), ArnUdpConfig{4000});
    EXPECT_TRUE(decode_arn_udp_frame(other, ArnUdpConfig{4000}));
    EXPECT_STREQ(arn_drop_name(ArnDrop::kBadTtl), "bad_ttl");
}

}  // namespace
}  // namespace weft::arn
