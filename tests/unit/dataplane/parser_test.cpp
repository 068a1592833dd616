// Parser tests: real frames built byte by byte, one test per accepted shape and one per reason a
// frame is refused.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <set>
#include <string>
#include <utility>

#include "frame_builder.hpp"
#include "weft/dataplane/parser.hpp"

namespace weft::dataplane {
namespace {

using test::Bytes;
using test::Ip6;
using test::operator+;

constexpr std::uint32_t kSrc4 = 0x0A000001;  // 10.0.0.1
constexpr std::uint32_t kDst4 = 0x0A010203;  // 10.1.2.3
const Ip6 kSrc6{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const Ip6 kDst6{0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};

DropReason parse(const Bytes &b, ParsedPacket &p, ParserConfig cfg = {}) {
    return parse_frame(std::span<const std::uint8_t>(b.data(), b.size()), cfg, p);
}

DropReason reason(const Bytes &b, ParserConfig cfg = {}) {
    ParsedPacket p;
    return parse(b, p, cfg);
}

Bytes udp4(std::uint16_t sport, std::uint16_t dport, std::size_t payload = 18) {
    return test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8 + payload) + test::udp(sport, dport, payload) +
           test::zeros(payload);
}

Bytes roce4(std::uint32_t qp, std::uint16_t sport = 49152) {
    const Bytes payload = test::bth(qp) + test::zeros(16);
    return test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8 + payload.size()) +
           test::udp(sport, kRoceV2UdpPort, payload.size()) + payload;
}

// LRH + BTH + payload, PktLen counting LRH..payload plus a 4-byte ICRC.
Bytes iboe_local(std::uint16_t dlid, std::uint16_t slid, std::uint32_t qp, std::uint8_t sl = 3) {
    const Bytes rest = test::bth(qp) + test::zeros(8) + test::zeros(4);
    const auto words = static_cast<std::uint16_t>((8 + rest.size()) / 4);
    return test::eth(kDefaultIboeEtherType) + test::lrh(0, sl, 2, dlid, slid, words) + rest;
}

std::uint32_t key_v4(const std::uint8_t *a) {
    return (std::uint32_t{a[0]} << 24) | (std::uint32_t{a[1]} << 16) | (std::uint32_t{a[2]} << 8) | a[3];
}

TEST(Parser, Ipv4Udp) {
    ParsedPacket p;
    ASSERT_EQ(parse(udp4(1234, 80), p), DropReason::None);
    EXPECT_EQ(p.kind, PacketKind::Ipv4);
    EXPECT_FALSE(p.has_vlan);
    EXPECT_FALSE(p.fragment);
    EXPECT_FALSE(p.roce);
    EXPECT_EQ(p.l3_offset, 14);
    EXPECT_EQ(p.l4_offset, 34);
    EXPECT_EQ(p.l4_protocol, 17);
    EXPECT_EQ(p.ttl, 64);
    EXPECT_EQ(key_v4(p.key.src), kSrc4);
    EXPECT_EQ(key_v4(p.key.dst), kDst4);
    EXPECT_EQ(p.key.src_port, 1234);
    EXPECT_EQ(p.key.dst_port, 80);
    EXPECT_EQ(p.hash, flow_hash(p.key));
}

TEST(Parser, HashSeparatesFlowsAndIsStable) {
    ParsedPacket a, b, c;
    ASSERT_EQ(parse(udp4(1234, 80), a), DropReason::None);
    ASSERT_EQ(parse(udp4(1234, 80, 100), b), DropReason::None);  // same flow, other length
    ASSERT_EQ(parse(udp4(1235, 80), c), DropReason::None);
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_NE(a.hash, c.hash);
}

TEST(Parser, Ipv4EthernetPaddingIsAccepted) {
    Bytes f = test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8) + test::udp(1, 2, 0);
    f.resize(60, 0);  // minimum Ethernet frame: trailing pad past IPv4 total length
    ParsedPacket p;
    EXPECT_EQ(parse(f, p), DropReason::None);
}

TEST(Parser, Ipv4OptionsMoveL4) {
    const Bytes opts{0x01, 0x01, 0x01, 0x00, 0x94, 0x04, 0x00, 0x00};  // NOP NOP NOP EOL, router alert
    const Bytes f = test::eth(0x0800) + test::ipv4(6, kSrc4, kDst4, 20, 9, opts) + test::tcp(5000, 443);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_EQ(p.l4_offset, 14 + 28);
    EXPECT_EQ(p.ttl, 9);
    EXPECT_EQ(p.key.src_port, 5000);
    EXPECT_EQ(p.key.dst_port, 443);
}

TEST(Parser, Ipv4FragmentsHashOnAddressesOnly) {
    // First fragment (MF set, offset 0) carries the UDP header; the second carries none.
    const Bytes first = test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 16, 64, {}, 0x2000) +
                        test::udp(7, 9, 100) + test::zeros(8);
    const Bytes second =
        test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 16, 64, {}, 0x0002) + test::zeros(16);
    ParsedPacket a, b, whole;
    ASSERT_EQ(parse(first, a), DropReason::None);
    ASSERT_EQ(parse(second, b), DropReason::None);
    ASSERT_EQ(parse(udp4(7, 9), whole), DropReason::None);
    EXPECT_TRUE(a.fragment);
    EXPECT_TRUE(b.fragment);
    EXPECT_EQ(a.key.src_port, 0);
    EXPECT_EQ(a.l4_offset, 0);
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_NE(a.hash, whole.hash);
}

TEST(Parser, Ipv4DontFragmentIsNotAFragment) {
    const Bytes f = test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8, 64, {}, 0x4000) + test::udp(1, 2, 0);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_FALSE(p.fragment);
    EXPECT_EQ(p.key.src_port, 1);
}

TEST(Parser, VlanTags) {
    const Bytes one = test::eth(0x0800, {0x2064}) + test::ipv4(17, kSrc4, kDst4, 8) + test::udp(1, 2, 0);
    const Bytes two =
        test::eth(0x0800, {0x0005, 0x2064}) + test::ipv4(17, kSrc4, kDst4, 8) + test::udp(1, 2, 0);
    ParsedPacket p;
    ASSERT_EQ(parse(one, p), DropReason::None);
    EXPECT_TRUE(p.has_vlan);
    EXPECT_EQ(p.vlan_tci, 0x2064);
    EXPECT_EQ(p.l3_offset, 18);
    ASSERT_EQ(parse(two, p), DropReason::None);
    EXPECT_EQ(p.vlan_tci, 0x0005);  // the outer tag
    EXPECT_EQ(p.l3_offset, 22);
    EXPECT_EQ(p.l4_offset, 42);
}

TEST(Parser, Ipv6Tcp) {
    const Bytes f = test::eth(0x86DD) + test::ipv6(6, kSrc6, kDst6, 20, 3) + test::tcp(40000, 22);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_EQ(p.kind, PacketKind::Ipv6);
    EXPECT_EQ(p.ttl, 3);
    EXPECT_EQ(p.l4_offset, 54);
    EXPECT_EQ(0, std::memcmp(p.key.src, kSrc6.data(), 16));
    EXPECT_EQ(0, std::memcmp(p.key.dst, kDst6.data(), 16));
    EXPECT_EQ(p.key.dst_port, 22);
}

TEST(Parser, Ipv6SkipsExtensionHeaders) {
    // hop-by-hop (8) -> routing (24) -> destination options (16) -> UDP
    const Bytes ext = test::ipv6_ext(43, 8) + test::ipv6_ext(60, 24) + test::ipv6_ext(17, 16);
    const Bytes f =
        test::eth(0x86DD) + test::ipv6(0, kSrc6, kDst6, ext.size() + 8) + ext + test::udp(11, 12, 0);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_EQ(p.l4_protocol, 17);
    EXPECT_EQ(p.l4_offset, 14 + 40 + 48);
    EXPECT_EQ(p.key.src_port, 11);
}

TEST(Parser, Ipv6AuthenticationHeaderLengthInWords) {
    Bytes ah = test::zeros(16);  // AH length field: (16 / 4) - 2 = 2
    ah[0] = 17;
    ah[1] = 2;
    const Bytes f = test::eth(0x86DD) + test::ipv6(51, kSrc6, kDst6, 24) + ah + test::udp(5, 6, 0);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_EQ(p.l4_offset, 14 + 40 + 16);
}

TEST(Parser, Ipv6FragmentHashesOnAddresses) {
    const Bytes first = test::eth(0x86DD) + test::ipv6(44, kSrc6, kDst6, 16) + test::ipv6_frag(17, 0, true) +
                        test::udp(5, 6, 100);
    const Bytes later =
        test::eth(0x86DD) + test::ipv6(44, kSrc6, kDst6, 16) + test::ipv6_frag(17, 2, false) + test::zeros(8);
    const Bytes atomic = test::eth(0x86DD) + test::ipv6(44, kSrc6, kDst6, 16) +
                         test::ipv6_frag(17, 0, false) + test::udp(5, 6, 0);
    ParsedPacket a, b, c;
    ASSERT_EQ(parse(first, a), DropReason::None);
    ASSERT_EQ(parse(later, b), DropReason::None);
    ASSERT_EQ(parse(atomic, c), DropReason::None);
    EXPECT_TRUE(a.fragment);
    EXPECT_TRUE(b.fragment);
    EXPECT_EQ(a.hash, b.hash);
    EXPECT_FALSE(c.fragment);  // offset 0 and no M flag: a whole datagram
    EXPECT_EQ(c.key.dst_port, 6);
}

TEST(Parser, Ipv6NoNextHeader) {
    const Bytes f = test::eth(0x86DD) + test::ipv6(59, kSrc6, kDst6, 0);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_EQ(p.l4_offset, 0);
}

TEST(Parser, RoceV2DestQpJoinsTheKey) {
    ParsedPacket a, b;
    ASSERT_EQ(parse(roce4(0x000123), a), DropReason::None);
    ASSERT_EQ(parse(roce4(0x000124), b), DropReason::None);
    EXPECT_TRUE(a.roce);
    EXPECT_TRUE(a.has_bth);
    EXPECT_EQ(a.key.dest_qp, 0x000123u);
    EXPECT_EQ(a.key.dst_port, kRoceV2UdpPort);
    EXPECT_EQ(a.l4_offset, 34);  // UDP header stays the L4 offset
    EXPECT_NE(a.hash, b.hash);
}

TEST(Parser, RoceV2OverIpv6) {
    const Bytes payload = test::bth(0xABCDEF) + test::zeros(4);
    const Bytes f = test::eth(0x86DD) + test::ipv6(17, kSrc6, kDst6, 8 + payload.size()) +
                    test::udp(50000, kRoceV2UdpPort, payload.size()) + payload;
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_TRUE(p.roce);
    EXPECT_EQ(p.key.dest_qp, 0xABCDEFu);
}

TEST(Parser, IboeLocal) {
    ParsedPacket p;
    ASSERT_EQ(parse(iboe_local(0x0012, 0x0034, 0x00BEEF, 5), p), DropReason::None);
    EXPECT_EQ(p.kind, PacketKind::Iboe);
    EXPECT_EQ(p.dlid, 0x12);
    EXPECT_EQ(p.slid, 0x34);
    EXPECT_EQ(p.sl, 5);
    EXPECT_EQ(p.lnh, 2);
    EXPECT_FALSE(p.has_grh);
    EXPECT_TRUE(p.has_bth);
    EXPECT_EQ(p.key.dest_qp, 0xBEEFu);
    EXPECT_EQ(p.l3_offset, 14);
    EXPECT_EQ(p.l4_offset, 22);
    EXPECT_EQ(p.key.dst_port, 0x12);
    ParsedPacket q;
    ASSERT_EQ(parse(iboe_local(0x0012, 0x0034, 0x00BEF0, 5), q), DropReason::None);
    EXPECT_NE(p.hash, q.hash);
}

// Seed 002's 18-bit LIDs: DLID bits 16-17 in LRH byte 1 bits 2-3, SLID bits 16-17 in byte 4 bits
// 6-7. A frame with them clear reads (and hashes) as before; with them set, its LIDs are vLIDs and
// its flow differs from the pLIDs' with the same low bits.
TEST(Parser, IboeExtendedLids) {
    const Bytes plain = iboe_local(0x0012, 0x0034, 0x00BEEF, 5);
    ParsedPacket p;
    ASSERT_EQ(parse(plain, p), DropReason::None);
    EXPECT_EQ(p.key.protocol, 2);  // LNH alone
    for (const auto &[dhi, shi] : {std::pair{1u, 0u}, std::pair{3u, 2u}, std::pair{0u, 3u}}) {
        Bytes f = plain;
        f[14 + 1] = static_cast<std::uint8_t>(f[14 + 1] | dhi << 2);
        f[14 + 4] = static_cast<std::uint8_t>(f[14 + 4] | shi << 6);
        ParsedPacket x;
        ASSERT_EQ(parse(f, x), DropReason::None);
        EXPECT_EQ(x.dlid, 0x0012u | dhi << 16);
        EXPECT_EQ(x.slid, 0x0034u | shi << 16);
        EXPECT_EQ(x.sl, 5);  // the bits beside them are SL, LNH and PktLen, unchanged
        EXPECT_EQ(x.lnh, 2);
        EXPECT_EQ(x.key.dest_qp, 0xBEEFu);
        EXPECT_EQ(x.key.dst_port, 0x12);
        EXPECT_EQ(x.key.protocol, 2 | dhi << 2 | shi << 4);
        EXPECT_NE(x.hash, p.hash);
    }
    // The last vLID, and the PktLen bits beside the SLID's: a length that does not fit still fails.
    Bytes f = plain;
    f[14 + 1] |= 0x0C;
    f[14 + 2] = 0xFF;
    f[14 + 3] = 0xFF;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_EQ(p.dlid, 0x3FFFFu);
    f[14 + 4] |= 0xC7;  // SLID bits and PktLen's top bits
    EXPECT_EQ(reason(f), DropReason::LrhPktLenPastBuffer);
}

TEST(Parser, IboeGlobalWithGrh) {
    const Bytes rest = test::bth(0x42) + test::zeros(4);
    const Bytes g = test::grh(kSrc6, kDst6, rest.size());
    const auto words = static_cast<std::uint16_t>((8 + g.size() + rest.size()) / 4);
    const Bytes f =
        test::eth(kDefaultIboeEtherType, {0x0007}) + test::lrh(1, 9, 3, 0xC001, 0x0002, words) + g + rest;
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_TRUE(p.has_grh);
    EXPECT_EQ(p.dlid, 0xC001);
    EXPECT_EQ(p.vl, 1);
    EXPECT_EQ(p.sl, 9);
    EXPECT_EQ(p.key.dest_qp, 0x42u);
    EXPECT_EQ(p.l4_offset, 18 + 8 + 40);
    EXPECT_EQ(0, std::memcmp(p.key.dst, kDst6.data(), 16));
}

TEST(Parser, IboeRawCarriesNoBth) {
    const Bytes f = test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 0, 7, 8, 4) + test::zeros(8);
    ParsedPacket p;
    ASSERT_EQ(parse(f, p), DropReason::None);
    EXPECT_FALSE(p.has_bth);
    EXPECT_EQ(p.dlid, 7);
}

TEST(Parser, IboeEtherTypeIsConfigurable) {
    const Bytes rest = test::bth(1) + test::zeros(4);
    const Bytes f = test::eth(0x8915) +
                    test::lrh(0, 0, 2, 9, 1, static_cast<std::uint16_t>((8 + rest.size()) / 4)) + rest;
    EXPECT_EQ(reason(f), DropReason::UnknownEtherType);
    ParserConfig cfg;
    cfg.iboe_ethertype = 0x8915;
    EXPECT_EQ(reason(f, cfg), DropReason::None);
    EXPECT_EQ(reason(iboe_local(1, 2, 3), cfg), DropReason::UnknownEtherType);
}

// ---- malformed frames: every reason the parser can give ----

TEST(ParserDrops, Layer2) {
    EXPECT_EQ(reason(test::zeros(0)), DropReason::EthTruncated);
    EXPECT_EQ(reason(test::zeros(13)), DropReason::EthTruncated);
    Bytes tag = test::eth(0x8100);  // TPID with no room for the tag
    EXPECT_EQ(reason(tag), DropReason::VlanTruncated);
    tag.push_back(0);
    tag.push_back(1);
    tag.push_back(0x08);
    EXPECT_EQ(reason(tag), DropReason::VlanTruncated);
    EXPECT_EQ(reason(test::eth(0x0806) + test::zeros(28)), DropReason::UnknownEtherType);  // ARP
    // Three stacked tags: the third TPID is read as the EtherType and is unknown.
    EXPECT_EQ(reason(test::eth(0x0800, {1, 2, 3}) + test::ipv4(17, kSrc4, kDst4, 8) + test::udp(1, 2, 0)),
              DropReason::UnknownEtherType);
}

TEST(ParserDrops, Ipv4Header) {
    const Bytes good = udp4(1, 2);
    EXPECT_EQ(reason(Bytes(good.begin(), good.begin() + 14 + 19)), DropReason::Ipv4Truncated);

    Bytes f = good;
    f[14] = 0x65;  // version 6 in an IPv4 EtherType
    EXPECT_EQ(reason(f), DropReason::Ipv4BadVersion);

    f = good;
    f[14] = 0x44;  // IHL 4
    EXPECT_EQ(reason(f), DropReason::Ipv4BadIhl);

    f = good;
    f[14] = 0x4F;  // IHL 15 = 60 bytes, frame has fewer after the EtherType
    f.resize(14 + 40);
    EXPECT_EQ(reason(f), DropReason::Ipv4HeaderPastBuffer);

    f = good;
    test::put16(f, 16, 19);  // total length shorter than the header
    test::put16(f, 24, 0);
    test::put16(f, 24, test::ipv4_checksum(f.data() + 14, 20));
    EXPECT_EQ(reason(f), DropReason::Ipv4BadTotalLength);

    f = good;
    test::put16(f, 16, 1500);  // total length past the frame
    test::put16(f, 24, 0);
    test::put16(f, 24, test::ipv4_checksum(f.data() + 14, 20));
    EXPECT_EQ(reason(f), DropReason::Ipv4TotalLengthPastBuffer);

    f = good;
    f[24] ^= 0x01;  // corrupt the checksum
    EXPECT_EQ(reason(f), DropReason::Ipv4BadChecksum);
    ParserConfig lax;
    lax.verify_ipv4_checksum = false;
    EXPECT_EQ(reason(f, lax), DropReason::None);
}

TEST(ParserDrops, Ipv6Header) {
    const Bytes good = test::eth(0x86DD) + test::ipv6(17, kSrc6, kDst6, 8) + test::udp(1, 2, 0);
    EXPECT_EQ(reason(Bytes(good.begin(), good.begin() + 14 + 39)), DropReason::Ipv6Truncated);
    Bytes f = good;
    f[14] = 0x40;
    EXPECT_EQ(reason(f), DropReason::Ipv6BadVersion);
    f = good;
    test::put16(f, 18, 9);  // payload one byte past the frame
    EXPECT_EQ(reason(f), DropReason::Ipv6PayloadPastBuffer);
}

TEST(ParserDrops, Ipv6ExtensionHeaders) {
    // Hop-by-hop claiming 16 bytes inside a 12-byte payload.
    Bytes ext = test::ipv6_ext(17, 16);
    ext.resize(12);
    EXPECT_EQ(reason(test::eth(0x86DD) + test::ipv6(0, kSrc6, kDst6, ext.size()) + ext),
              DropReason::Ipv6ExtHeaderTruncated);
    // Fewer than 8 bytes left for an extension header.
    EXPECT_EQ(reason(test::eth(0x86DD) + test::ipv6(60, kSrc6, kDst6, 4) + test::zeros(4)),
              DropReason::Ipv6ExtHeaderTruncated);
    // Fragment header cut short.
    EXPECT_EQ(reason(test::eth(0x86DD) + test::ipv6(44, kSrc6, kDst6, 6) + test::zeros(6)),
              DropReason::Ipv6ExtHeaderTruncated);
    // A chain of nine destination-options headers.
    Bytes chain;
    for (int i = 0; i < 9; ++i) chain = chain + test::ipv6_ext(60, 8);
    chain = chain + test::udp(1, 2, 0);
    EXPECT_EQ(reason(test::eth(0x86DD) + test::ipv6(60, kSrc6, kDst6, chain.size()) + chain),
              DropReason::Ipv6TooManyExtHeaders);
}

TEST(ParserDrops, Tcp) {
    EXPECT_EQ(reason(test::eth(0x0800) + test::ipv4(6, kSrc4, kDst4, 19) + test::zeros(19)),
              DropReason::TcpTruncated);
    Bytes t = test::tcp(1, 2);
    t[12] = 0x40;  // data offset 4 words
    EXPECT_EQ(reason(test::eth(0x0800) + test::ipv4(6, kSrc4, kDst4, 20) + t), DropReason::TcpBadDataOffset);
    t[12] = 0x60;  // 24 bytes claimed, 20 present
    EXPECT_EQ(reason(test::eth(0x0800) + test::ipv4(6, kSrc4, kDst4, 20) + t),
              DropReason::TcpHeaderPastBuffer);
}

TEST(ParserDrops, UdpAndBth) {
    EXPECT_EQ(reason(test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 7) + test::zeros(7)),
              DropReason::UdpTruncated);
    Bytes u = test::udp(1, 2, 0);
    test::put16(u, 4, 7);
    EXPECT_EQ(reason(test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8) + u), DropReason::UdpBadLength);
    // UDP length past the IPv4 payload even though the frame has bytes beyond (padding).
    EXPECT_EQ(
        reason(test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8) + test::udp(1, 2, 4) + test::zeros(20)),
        DropReason::UdpLengthPastBuffer);
    // RoCEv2 with an 11-byte BTH.
    const Bytes bth = test::bth(5);
    const Bytes cut(bth.begin(), bth.begin() + 11);
    EXPECT_EQ(reason(test::eth(0x0800) + test::ipv4(17, kSrc4, kDst4, 8 + cut.size()) +
                     test::udp(1, kRoceV2UdpPort, cut.size()) + cut),
              DropReason::BthTruncated);
}

TEST(ParserDrops, Iboe) {
    EXPECT_EQ(reason(test::eth(kDefaultIboeEtherType) + test::zeros(7)), DropReason::LrhTruncated);
    EXPECT_EQ(reason(test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 0, 1, 2, 4, 1) + test::zeros(8)),
              DropReason::LrhBadVersion);
    EXPECT_EQ(reason(test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 0, 1, 2, 1) + test::zeros(8)),
              DropReason::LrhBadPktLen);
    EXPECT_EQ(reason(test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 0, 1, 2, 5) + test::zeros(8)),
              DropReason::LrhPktLenPastBuffer);
    // LNH=3 but PktLen leaves 32 bytes for the GRH.
    EXPECT_EQ(
        reason(test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 3, 1, 2, 10) + test::grh(kSrc6, kDst6, 0)),
        DropReason::GrhTruncated);
    Bytes g = test::grh(kSrc6, kDst6, 16);
    g[0] = 0x40;
    EXPECT_EQ(reason(test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 3, 1, 2, 16) + g + test::bth(1) +
                     test::zeros(4)),
              DropReason::GrhBadVersion);
    // LNH=2 with PktLen covering only 8 bytes of BTH.
    EXPECT_EQ(reason(test::eth(kDefaultIboeEtherType) + test::lrh(0, 0, 2, 1, 2, 4) + test::bth(1)),
              DropReason::BthTruncated);
}

// Every prefix of every valid frame must be refused cleanly or accepted: never a read past it
// (the test binary runs under ASan in CI). Prefixes that cut into a header are refused.
TEST(ParserDrops, EveryTruncationIsHandled) {
    const Bytes frames[] = {
        udp4(1, 2), roce4(9), iboe_local(3, 4, 5),
        test::eth(0x86DD) + test::ipv6(0, kSrc6, kDst6, 16) + test::ipv6_ext(17, 8) + test::udp(1, 2, 0)};
    for (const Bytes &f : frames) {
        ASSERT_EQ(reason(f), DropReason::None);
        for (std::size_t n = 0; n < f.size(); ++n) {
            std::vector<std::uint8_t> cut(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n));
            EXPECT_NE(reason(cut), DropReason::None) << "prefix " << n << " of " << f.size();
        }
    }
}

TEST(DropReasons, AllHaveDistinctNames) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < kDropReasonCount; ++i) {
        const std::string n = drop_reason_name(static_cast<DropReason>(i));
        EXPECT_NE(n, "unknown");
        EXPECT_TRUE(names.insert(n).second) << n;
    }
}

}  // namespace
}  // namespace weft::dataplane

namespace weft::dataplane {
namespace {

// Flows that differ in structured ways (ports counting up, addresses counting up together)
// must spread evenly over a group's members and over ARS buckets: the hash is built from CRC
// chains, which are linear, and a careless combination cancels such patterns out.
TEST(FlowHash, StructuredFlowsSpreadEvenly) {
    auto key = [](std::uint32_t src, std::uint32_t dst, std::uint16_t sport, std::uint16_t dport) {
        FlowKey k{};
        for (int b = 0; b < 4; ++b) {
            k.src[b] = static_cast<std::uint8_t>(src >> (24 - 8 * b));
            k.dst[b] = static_cast<std::uint8_t>(dst >> (24 - 8 * b));
        }
        k.src_port = sport;
        k.dst_port = dport;
        k.protocol = 17;
        k.kind = PacketKind::Ipv4;
        return k;
    };
    constexpr unsigned kFlows = 65536;
    for (int pattern = 0; pattern < 4; ++pattern) {
        std::array<unsigned, 16> members{};
        std::array<unsigned, 512> buckets{};
        for (unsigned i = 0; i < kFlows; ++i) {
            const auto p = static_cast<std::uint16_t>(i);
            FlowKey k = key(0x0A000001, 0xC6120001, 1000, 2000);
            if (pattern == 0) k = key(0x0A000001, 0xC6120001, p, 2000);
            if (pattern == 1) k = key(0x0A000001, 0xC6120001, p, p);
            if (pattern == 2) k = key(0x0A000000 + i, 0xC6120000 + i, 1000, 2000);
            if (pattern == 3) k = key(0x0A000001, 0xC6120001, p & 0xFF, p >> 8);
            const std::uint32_t h = flow_hash(k);
            ++members[(std::uint64_t{h} * 16) >> 32];                                        // ECMP's reduce
            ++buckets[static_cast<std::uint32_t>((h * 0x9E3779B97F4A7C15ull) >> 32) & 511];  // ARS index
        }
        for (unsigned c : members) {  // 4096 expected; a random hash stays within a few percent
            EXPECT_GT(c, 3800u) << "pattern " << pattern;
            EXPECT_LT(c, 4400u) << "pattern " << pattern;
        }
        for (unsigned c : buckets) {  // 128 expected
            EXPECT_GT(c, 70u) << "pattern " << pattern;
            EXPECT_LT(c, 200u) << "pattern " << pattern;
        }
    }
}

}  // namespace
}  // namespace weft::dataplane
