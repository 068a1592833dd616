// The worker's IPv6 fast path against the full parser: whatever the fast path accepts, the full
// parser forwards with the same kind, TTL (hop limit), destination and flow hash; TCP, UDP and
// RoCEv2 frames without extension headers are accepted; extension headers, fragments, tags,
// other next headers and every malformed header are declined so the full parser decides them.
// Frames are built byte by byte, then mutated at random (seeded) to reach the edges of every check.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "frame_builder.hpp"
#include "ipv6_fast_parse.hpp"
#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {
namespace {

using test::Bytes;
using test::Ip6;
using test::operator+;

constexpr Ip6 kSrc = {0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34};
constexpr Ip6 kDst = {0x20, 0x01, 0x0d, 0xb8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0xab, 0xcd, 0xef};

bool fast(const Bytes &b, FastParsed6 &f) {
    return parse_ipv6_fast(b.data(), b.size(), f);
}

// Fails the test when the fast path accepts `b` with a result the full parser does not give.
void expect_agrees(const Bytes &b) {
    FastParsed6 f{};
    if (!fast(b, f)) return;
    ParsedPacket p;
    ASSERT_EQ(parse_frame(std::span<const std::uint8_t>(b.data(), b.size()), ParserConfig{}, p),
              DropReason::None);
    EXPECT_EQ(p.kind, PacketKind::Ipv6);
    EXPECT_EQ(p.l3_offset, kFastL3Offset);
    EXPECT_EQ(p.ttl, f.hop_limit);
    EXPECT_EQ(p.hash, f.hash);
    EXPECT_EQ(std::memcmp(p.key.dst, f.dst, 16), 0);
    EXPECT_EQ(f.dst, b.data() + 14 + 24);
}

Bytes udp6(std::uint16_t sport, std::uint16_t dport, std::size_t payload = 18, std::uint8_t hop = 64) {
    return test::eth(0x86DD) + test::ipv6(17, kSrc, kDst, 8 + payload, hop) +
           test::udp(sport, dport, payload) + test::zeros(payload);
}

Bytes tcp6(std::uint16_t sport, std::uint16_t dport) {
    return test::eth(0x86DD) + test::ipv6(6, kSrc, kDst, 20) + test::tcp(sport, dport);
}

Bytes roce6(std::uint32_t qp) {
    return test::eth(0x86DD) + test::ipv6(17, kSrc, kDst, 8 + 28) + test::udp(49152, kRoceV2UdpPort, 28) +
           test::bth(qp) + test::zeros(16);
}

TEST(Ipv6FastParse, AcceptsCommonFramesWithTheFullParsersResult) {
    for (const Bytes &b : {udp6(1234, 80), udp6(1, 65535, 0), tcp6(443, 50000), roce6(0x123456),
                           udp6(7, 9, 18, 1),  // hop limit 1: accepted; the forwarding stage expires it
                           udp6(7, 9) + test::zeros(10)}) {  // trailing bytes past the payload
        FastParsed6 f{};
        EXPECT_TRUE(fast(b, f));
        expect_agrees(b);
    }
    FastParsed6 a{}, b{};
    ASSERT_TRUE(fast(roce6(1), a));
    ASSERT_TRUE(fast(roce6(2), b));
    EXPECT_NE(a.hash, b.hash);  // the QP joins the key
}

TEST(Ipv6FastParse, DeclinesWhatTheFullParserHandlesOtherwise) {
    FastParsed6 f{};
    // A hop-by-hop header before UDP, a fragment, ICMPv6, no next header, a VLAN tag.
    EXPECT_FALSE(fast(test::eth(0x86DD) + test::ipv6(0, kSrc, kDst, 8 + 8 + 18) + test::ipv6_ext(17, 8) +
                          test::udp(1, 2, 18) + test::zeros(18),
                      f));
    EXPECT_FALSE(fast(test::eth(0x86DD) + test::ipv6(44, kSrc, kDst, 8 + 8 + 18) +
                          test::ipv6_frag(17, 0, true) + test::udp(1, 2, 18) + test::zeros(18),
                      f));
    EXPECT_FALSE(fast(test::eth(0x86DD) + test::ipv6(58, kSrc, kDst, 24) + test::zeros(24), f));
    EXPECT_FALSE(fast(test::eth(0x86DD) + test::ipv6(59, kSrc, kDst, 24) + test::zeros(24), f));
    EXPECT_FALSE(fast(
        test::eth(0x86DD, {100}) + test::ipv6(17, kSrc, kDst, 26) + test::udp(1, 2, 18) + test::zeros(18),
        f));
    // Malformed: payload length past the frame, UDP length past the payload, a short BTH,
    // version 4 under the IPv6 EtherType.
    Bytes past = udp6(1, 2);
    test::put16(past, 14 + 4, 200);
    EXPECT_FALSE(fast(past, f));
    Bytes udp_long = udp6(1, 2);
    test::put16(udp_long, 14 + 40 + 4, 27);
    EXPECT_FALSE(fast(udp_long, f));
    Bytes short_bth = udp6(1, kRoceV2UdpPort, 11);
    EXPECT_FALSE(fast(short_bth, f));
    Bytes v4 = udp6(1, 2);
    v4[14] = 0x45;
    EXPECT_FALSE(fast(v4, f));
}

// Random corruptions of IPv6 TCP/UDP/RoCEv2 frames: wherever the fast path still accepts, the
// full parser must agree with it.
TEST(Ipv6FastParse, MutatedFramesAgreeWithTheFullParser) {
    std::mt19937 rng(20261126);
    const std::vector<Bytes> seeds = {udp6(1234, 80), tcp6(22, 1022), roce6(0xABCDEF),
                                      udp6(5, kRoceV2UdpPort - 1, 40)};
    unsigned accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        Bytes b = seeds[rng() % seeds.size()];
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            // Mostly the headers (the first 74 bytes), where the checks are.
            const std::size_t at = rng() % std::min<std::size_t>(b.size(), 74);
            b[at] = static_cast<std::uint8_t>(rng());
        }
        if (rng() % 8 == 0) b.resize(rng() % (b.size() + 1));
        FastParsed6 f{};
        accepted += fast(b, f) ? 1 : 0;
        expect_agrees(b);
        if (HasFailure()) return;
    }
    EXPECT_GT(accepted, 100u);  // the mutations reach the accepting side too
}

}  // namespace
}  // namespace weft::dataplane
