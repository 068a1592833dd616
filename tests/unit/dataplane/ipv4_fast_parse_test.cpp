// The worker's IPv4 fast path against the full parser: whatever the fast path accepts, the full
// parser forwards with the same kind, L3 offset, TTL, destination and flow hash; the common
// frames (RoCEv2 among them) are accepted; and everything else (options, fragments, tags, every
// malformed header) is declined so the full parser decides it. Frames are built byte by byte, then
// mutated at random (seeded) to reach the edges of every check.
#include <gtest/gtest.h>

#include <random>

#include "frame_builder.hpp"
#include "ipv4_fast_parse.hpp"
#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {
namespace {

using test::Bytes;
using test::operator+;

constexpr std::uint32_t kSrc = 0x0A000001;
constexpr std::uint32_t kDst = 0xC6120305;

bool fast(const Bytes &b, FastParsed &f, bool verify = true) {
    return parse_ipv4_fast(b.data(), b.size(), verify, f);
}

// Fails the test when the fast path accepts `b` with a result the full parser does not give.
void expect_agrees(const Bytes &b, bool verify) {
    FastParsed f{};
    if (!fast(b, f, verify)) return;
    ParserConfig cfg;
    cfg.verify_ipv4_checksum = verify;
    ParsedPacket p;
    ASSERT_EQ(parse_frame(std::span<const std::uint8_t>(b.data(), b.size()), cfg, p), DropReason::None);
    EXPECT_EQ(p.kind, PacketKind::Ipv4);
    EXPECT_EQ(p.l3_offset, kFastL3Offset);
    EXPECT_EQ(p.ttl, f.ttl);
    EXPECT_EQ(p.hash, f.hash);
    const std::uint32_t dst = (std::uint32_t{p.key.dst[0]} << 24) | (std::uint32_t{p.key.dst[1]} << 16) |
                              (std::uint32_t{p.key.dst[2]} << 8) | p.key.dst[3];
    EXPECT_EQ(dst, f.dst4);
}

Bytes udp4(std::uint16_t sport, std::uint16_t dport, std::size_t payload = 18) {
    return test::eth(0x0800) + test::ipv4(17, kSrc, kDst, 8 + payload) + test::udp(sport, dport, payload) +
           test::zeros(payload);
}

Bytes tcp4(std::uint16_t sport, std::uint16_t dport) {
    return test::eth(0x0800) + test::ipv4(6, kSrc, kDst, 20) + test::tcp(sport, dport);
}

TEST(Ipv4FastParse, AcceptsCommonFramesWithTheFullParsersResult) {
    for (const Bytes &b : {udp4(1234, 80), udp4(1, 65535, 0), tcp4(443, 50000),
                           test::eth(0x0800) + test::ipv4(47, kSrc, kDst, 24) + test::zeros(24),
                           udp4(7, 9) + test::zeros(10)}) {  // Ethernet padding
        FastParsed f{};
        EXPECT_TRUE(fast(b, f));
        expect_agrees(b, true);
        expect_agrees(b, false);
    }
}

Bytes roce4(std::uint32_t qp, std::uint16_t sport = 49152) {
    return test::eth(0x0800) + test::ipv4(17, kSrc, kDst, 8 + 28) + test::udp(sport, kRoceV2UdpPort, 28) +
           test::bth(qp) + test::zeros(16);
}

TEST(Ipv4FastParse, RoceV2FramesHashWithTheirDestinationQp) {
    FastParsed a{}, b{}, c{};
    ASSERT_TRUE(fast(roce4(0x123456), a));
    ASSERT_TRUE(fast(roce4(0x123457), b));
    ASSERT_TRUE(fast(roce4(0x123456), c));
    EXPECT_NE(a.hash, b.hash);  // one flow per queue pair
    EXPECT_EQ(a.hash, c.hash);
    expect_agrees(roce4(0x123456), true);
    expect_agrees(roce4(0xFFFFFF, 1), true);
    // A UDP length too short for the BTH: declined, and the full parser drops it.
    Bytes short_bth = test::eth(0x0800) + test::ipv4(17, kSrc, kDst, 8 + 11) +
                      test::udp(49152, kRoceV2UdpPort, 11) + test::zeros(11 + 20);
    EXPECT_FALSE(fast(short_bth, a));
    ParsedPacket p;
    EXPECT_EQ(
        parse_frame(std::span<const std::uint8_t>(short_bth.data(), short_bth.size()), ParserConfig{}, p),
        DropReason::BthTruncated);
}

TEST(Ipv4FastParse, DeclinesWhatTheFullParserHandlesOtherwise) {
    FastParsed f{};
    EXPECT_FALSE(fast(test::eth(0x0800) + test::ipv4(17, kSrc, kDst, 26, 64, test::zeros(4)) +
                          test::udp(1, 2, 18) + test::zeros(18),
                      f));  // options
    EXPECT_FALSE(fast(test::eth(0x0800) + test::ipv4(17, kSrc, kDst, 26, 64, {}, 0x2000) +
                          test::udp(1, 2, 18) + test::zeros(18),
                      f));  // MF
    EXPECT_FALSE(fast(test::eth(0x0800) + test::ipv4(17, kSrc, kDst, 26, 64, {}, 0x0001) + test::zeros(26),
                      f));  // offset
    EXPECT_FALSE(fast(
        test::eth(0x0800, {100}) + test::ipv4(17, kSrc, kDst, 26) + test::udp(1, 2, 18) + test::zeros(18),
        f));  // VLAN
    Bytes bad = udp4(1, 2);
    bad[14 + 10] ^= 0x01;  // checksum
    EXPECT_FALSE(fast(bad, f, true));
    EXPECT_TRUE(fast(bad, f, false));
    expect_agrees(bad, false);
}

// Random single- and multi-byte corruptions of IPv4 TCP/UDP frames: wherever the fast path still
// accepts, the full parser must agree with it.
TEST(Ipv4FastParse, MutatedFramesAgreeWithTheFullParser) {
    std::mt19937 rng(20261122);
    const std::vector<Bytes> seeds = {udp4(1234, 80), tcp4(22, 1022), udp4(5, kRoceV2UdpPort - 1, 40),
                                      roce4(0xABCDEF),
                                      test::eth(0x0800) + test::ipv4(1, kSrc, kDst, 8) + test::zeros(8)};
    unsigned accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        Bytes b = seeds[rng() % seeds.size()];
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            // Mostly the headers (the first 54 bytes), where the checks are.
            const std::size_t at = rng() % std::min<std::size_t>(b.size(), 54);
            b[at] = static_cast<std::uint8_t>(rng());
        }
        if (rng() % 8 == 0) b.resize(rng() % (b.size() + 1));
        const bool verify = rng() % 2 == 0;
        FastParsed f{};
        accepted += fast(b, f, verify) ? 1 : 0;
        expect_agrees(b, verify);
        if (HasFailure()) return;
    }
    EXPECT_GT(accepted, 100u);  // the mutations reach the accepting side too
}

}  // namespace
}  // namespace weft::dataplane
