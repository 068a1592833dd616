// The IB-over-Ethernet frame codec: a byte-exact SMP frame (its ICRC computed independently, with
// Python's zlib.crc32 over the masked packet), round trips, what the ICRC covers and what it
// leaves out, every refusal with its place, and the rules of MAD frames.
#include <gtest/gtest.h>

#include <vector>

#include "weft/sm/iboe_frame.hpp"
#include "weft/sm/icrc.hpp"
#include "weft/sm/mad_frame.hpp"

namespace weft::sm {
namespace {

constexpr MacAddr kSrc{0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

SmpBytes node_info_request() {
    const Result<SmpBytes> b = encode_smp(make_dr_smp(Method::kGet, attr::kNodeInfo, 0, {}, 0x1234));
    EXPECT_TRUE(b.ok());
    return b.value();
}

std::vector<std::uint8_t> smp_frame(const SmpBytes &mad, Lid slid = kPermissiveLid,
                                    Lid dlid = kPermissiveLid) {
    return encode_iboe_frame(smp_frame_headers(kSrc, slid, dlid, 42), mad);
}

// Recomputes the ICRC of a frame whose LRH starts at `lrh` (after a test changed it on purpose).
void reseal(std::vector<std::uint8_t> &f, std::size_t lrh) {
    const std::size_t pkt = ((f[lrh + 4] & 0x07u) << 8 | f[lrh + 5]) * 4u;
    const std::uint32_t c = iba_icrc(std::span<const std::uint8_t>(f).subspan(lrh, pkt - kIcrcSize));
    for (int i = 0; i < 4; ++i) f[lrh + pkt - kIcrcSize + i] = static_cast<std::uint8_t>(c >> (8 * i));
}

TEST(IboeFrame, SmpFrameIsByteExact) {
    const SmpBytes mad = node_info_request();
    const std::vector<std::uint8_t> f = smp_frame(mad);
    ASSERT_EQ(f.size(), kSmpFrameSize);
    ASSERT_EQ(f.size(), 302u);
    const std::vector<std::uint8_t> headers = {
        0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x88, 0xb5,  // Ethernet
        0xf0, 0x02, 0xff, 0xff, 0x00, 0x48, 0xff, 0xff,  // LRH: VL15, LNH 2, DLID, 72 words, SLID
        0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a,  // BTH: UD SEND_ONLY, QP0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,                          // DETH: Q_Key 0, QP0
    };
    EXPECT_EQ(std::vector<std::uint8_t>(f.begin(), f.begin() + 42), headers);
    EXPECT_TRUE(std::equal(mad.begin(), mad.end(), f.begin() + 42));
    const std::vector<std::uint8_t> icrc = {0x09, 0xa1, 0xc4, 0x82};  // zlib.crc32 = 0x82c4a109
    EXPECT_EQ(std::vector<std::uint8_t>(f.end() - 4, f.end()), icrc);

    const IboeDecode d = decode_mad_frame(f);
    ASSERT_TRUE(d.ok()) << d.error->message();
    EXPECT_EQ(d.packet.headers, smp_frame_headers(kSrc, kPermissiveLid, kPermissiveLid, 42));
    EXPECT_TRUE(std::equal(mad.begin(), mad.end(), d.packet.payload.begin(), d.packet.payload.end()));
    EXPECT_EQ(d.packet.lrh_offset, kEthHeaderSize);
}

TEST(IboeFrame, DataFramesRoundTripWithPadAndVlan) {
    IboeHeaders h;
    h.dst_mac = {0x02, 0, 0, 0, 0, 9};
    h.src_mac = kSrc;
    h.vlan_tci = 0x2064;
    h.vl = 3;
    h.sl = 5;
    h.dlid = 0x0102;
    h.slid = 0x0BFF;
    h.solicited = true;
    h.p_key = 0x8001;
    h.dest_qp = 0xABCDEF;
    h.psn = 0xFFFFFF;
    h.q_key = 0x11223344;
    h.src_qp = 0x000777;
    for (std::size_t len : {0u, 1u, 5u, 8u, 255u, 1000u}) {
        std::vector<std::uint8_t> payload(len);
        for (std::size_t i = 0; i < len; ++i) payload[i] = static_cast<std::uint8_t>(i * 7 + 1);
        const std::vector<std::uint8_t> f = encode_iboe_frame(h, payload);
        EXPECT_EQ(f.size(), iboe_frame_size(len, true));
        EXPECT_GE(f.size(), kMinEthFrameSize);
        const IboeDecode d = decode_iboe_frame(f);
        ASSERT_TRUE(d.ok()) << len << ": " << d.error->message();
        EXPECT_EQ(d.packet.headers, h);
        EXPECT_EQ(std::vector<std::uint8_t>(d.packet.payload.begin(), d.packet.payload.end()), payload);
        // PktLen counts LRH through ICRC in words, the pad included.
        const std::size_t lrh = kEthHeaderSize + kVlanTagSize;
        EXPECT_EQ(((f[lrh + 4] & 0x07u) << 8 | f[lrh + 5]) * 4u, 32 + (len + 3) / 4 * 4) << len;
        // Trailing bytes (Ethernet padding, an FCS left on) are not part of the packet.
        std::vector<std::uint8_t> longer = f;
        longer.insert(longer.end(), {0xde, 0xad, 0xbe, 0xef});
        EXPECT_TRUE(decode_iboe_frame(longer).ok());
    }
    // A configured EtherType on both sides; another one is not IBoE.
    const IboeFrameConfig other{0x8915, true};
    const std::vector<std::uint8_t> f = encode_iboe_frame(h, {}, other);
    EXPECT_TRUE(decode_iboe_frame(f, other).ok());
    const IboeDecode wrong = decode_iboe_frame(f);
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error->reason, FrameDrop::kNotIboe);
    EXPECT_EQ(wrong.error->offset, 16u);
    EXPECT_EQ(wrong.error->value, 0x8915u);
}

TEST(IboeFrame, EncodeRefusesFieldsOutOfRange) {
    IboeHeaders h;
    const std::vector<std::uint8_t> none;
    h.vl = 16;
    EXPECT_THROW(encode_iboe_frame(h, none), std::invalid_argument);
    h = {};
    h.dest_qp = 0x1000000;
    EXPECT_THROW(encode_iboe_frame(h, none), std::invalid_argument);
    h = {};
    h.grh = true;
    EXPECT_THROW(encode_iboe_frame(h, none), std::invalid_argument);
    h = {};
    EXPECT_THROW(encode_iboe_frame(h, std::vector<std::uint8_t>(kMaxIboePayload + 1)), std::invalid_argument);
    EXPECT_NO_THROW(encode_iboe_frame(h, std::vector<std::uint8_t>(kMaxIboePayload)));
    std::vector<std::uint8_t> small(59);
    EXPECT_THROW(encode_iboe_frame(h, none, small), std::invalid_argument);
}

// The ICRC covers what no switch changes: a VL rewritten on the way (weft's dataplane does, by
// SL2VL) or BTH's resv8a keeps it; anything else is caught.
TEST(IboeFrame, IcrcIgnoresOnlyTheVariantFields) {
    const std::vector<std::uint8_t> f = smp_frame(node_info_request(), 1, 7);
    const std::size_t lrh = kEthHeaderSize;
    std::vector<std::uint8_t> g = f;
    g[lrh] = static_cast<std::uint8_t>(0x30 | (g[lrh] & 0x0F));  // VL 3
    g[lrh + kLrhSize + 4] = 0x5A;                                // resv8a
    g[6] ^= 0xFF;                                                // the source MAC, rewritten per hop
    const IboeDecode ok = decode_iboe_frame(g);
    ASSERT_TRUE(ok.ok()) << ok.error->message();
    EXPECT_EQ(ok.packet.headers.vl, 3);
    for (std::size_t at :
         {lrh + 1, lrh + 3, lrh + 7, lrh + 8, lrh + 10, lrh + 15, lrh + 20, lrh + 100, f.size() - 5}) {
        g = f;
        g[at] ^= 0x40;
        const IboeDecode bad = decode_iboe_frame(g, IboeFrameConfig{kIboeEtherType, true});
        ASSERT_FALSE(bad.ok()) << at;
        if (bad.error->reason != FrameDrop::kBadIcrc) continue;  // a header check came first
        EXPECT_EQ(bad.error->offset, f.size() - 4) << at;
        // Not checked: taken as it is.
        EXPECT_TRUE(decode_iboe_frame(g, IboeFrameConfig{kIboeEtherType, false}).ok()) << at;
    }
    g = f;
    g[lrh + 3] ^= 1;  // DLID
    ASSERT_FALSE(decode_iboe_frame(g).ok());
    EXPECT_EQ(decode_iboe_frame(g).error->reason, FrameDrop::kBadIcrc);
}

// A packet with a GRH (LNH 3): decoded past it; its TClass, FlowLabel and HopLmt are variant.
TEST(IboeFrame, GrhIsSkippedAndItsVariantFieldsMasked) {
    IboeHeaders h;
    h.src_mac = kSrc;
    h.dlid = 4;
    h.slid = 5;
    h.dest_qp = 0x55;
    const std::vector<std::uint8_t> payload = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<std::uint8_t> f = encode_iboe_frame(h, payload);
    const std::size_t lrh = kEthHeaderSize;
    std::vector<std::uint8_t> grh(kGrhSize, 0);
    grh[0] = 0x60;
    grh[6] = 0x1B;
    for (std::size_t i = 8; i < kGrhSize; ++i) grh[i] = static_cast<std::uint8_t>(i);  // GIDs
    f.insert(f.begin() + lrh + kLrhSize, grh.begin(), grh.end());
    f[lrh + 1] = static_cast<std::uint8_t>((f[lrh + 1] & 0xFC) | 3);
    const unsigned words = (((f[lrh + 4] & 0x07u) << 8) | f[lrh + 5]) + kGrhSize / 4;
    f[lrh + 4] = static_cast<std::uint8_t>(words >> 8);
    f[lrh + 5] = static_cast<std::uint8_t>(words);
    reseal(f, lrh);
    IboeDecode d = decode_iboe_frame(f);
    ASSERT_TRUE(d.ok()) << d.error->message();
    EXPECT_TRUE(d.packet.headers.grh);
    EXPECT_EQ(d.packet.headers.dest_qp, 0x55u);
    EXPECT_EQ(std::vector<std::uint8_t>(d.packet.payload.begin(), d.packet.payload.end()), payload);

    std::vector<std::uint8_t> g = f;
    g[lrh + kLrhSize + 1] ^= 0xFF;  // TClass and FlowLabel
    g[lrh + kLrhSize + 7] ^= 0xFF;  // HopLmt
    EXPECT_TRUE(decode_iboe_frame(g).ok());
    g = f;
    g[lrh + kLrhSize + 20] ^= 1;  // SGID
    EXPECT_EQ(decode_iboe_frame(g).error->reason, FrameDrop::kBadIcrc);
    g = f;
    g[lrh + kLrhSize + 6] = 0x11;  // NxtHdr: not an IBA transport
    EXPECT_EQ(decode_iboe_frame(g).error->reason, FrameDrop::kGrhNotIba);
    g = f;
    g[lrh + kLrhSize] = 0x40;
    EXPECT_EQ(decode_iboe_frame(g).error->reason, FrameDrop::kGrhBadVersion);
}

struct Spoil {
    const char *what;
    std::size_t at;
    std::uint8_t value;  // written at `at`
    FrameDrop reason;
    std::size_t offset;
};

// Every refusal names its reason and the byte where the field is.
TEST(IboeFrame, EveryRefusalIsLocated) {
    const std::vector<std::uint8_t> f = smp_frame(node_info_request());
    constexpr std::size_t l = kEthHeaderSize, b = l + kLrhSize;
    const Spoil spoils[] = {
        {"EtherType", 12, 0x08, FrameDrop::kNotIboe, 12},
        {"LVer", l, 0xF1, FrameDrop::kLrhBadVersion, l},
        {"LNH raw", l + 1, 0x01, FrameDrop::kLrhRawPacket, l + 1},
        {"PktLen past the frame", l + 4, 0x07, FrameDrop::kLrhPktLenPastFrame, l + 4},
        {"opcode RC", b, 0x04, FrameDrop::kBthNotUdSendOnly, b},
        {"TVer", b + 1, 0x01, FrameDrop::kBthBadVersion, b + 1},
    };
    for (const Spoil &s : spoils) {
        std::vector<std::uint8_t> g = f;
        g[s.at] = s.value;
        const IboeDecode d = decode_iboe_frame(g);
        ASSERT_FALSE(d.ok()) << s.what;
        EXPECT_EQ(d.error->reason, s.reason) << s.what << ": " << d.error->message();
        EXPECT_EQ(d.error->offset, s.offset) << s.what;
    }
    // PktLen: too short for LRH, for the BTH, for DETH + ICRC; PadCnt past the payload.
    auto with_words = [&f](unsigned words) {
        std::vector<std::uint8_t> g = f;
        g[l + 4] = static_cast<std::uint8_t>(words >> 8);
        g[l + 5] = static_cast<std::uint8_t>(words);
        return decode_iboe_frame(g);
    };
    EXPECT_EQ(with_words(1).error->reason, FrameDrop::kLrhBadPktLen);
    EXPECT_EQ(with_words(4).error->reason, FrameDrop::kBthTruncated);
    EXPECT_EQ(with_words(4).error->offset, b);
    EXPECT_EQ(with_words(4).error->value, 8u);  // bytes there
    EXPECT_EQ(with_words(6).error->reason, FrameDrop::kDethTruncated);
    EXPECT_EQ(with_words(7).error->reason, FrameDrop::kLrhBadPktLen);  // no room for the ICRC
    EXPECT_EQ(with_words(8).error->reason, FrameDrop::kBadIcrc);       // no payload: summed, wrong
    {
        IboeHeaders h;
        std::vector<std::uint8_t> g = encode_iboe_frame(h, {});
        g[l + kLrhSize + 1] = 0x30;  // PadCnt 3, no payload
        EXPECT_EQ(decode_iboe_frame(g).error->reason, FrameDrop::kPadPastPayload);
    }
    // Truncations of the frame itself.
    for (std::size_t n = 0; n < f.size(); ++n) {
        const IboeDecode d = decode_iboe_frame(std::span(f).first(n));
        ASSERT_FALSE(d.ok()) << n;
        const FrameDrop want = n < 14             ? FrameDrop::kEthTruncated
                               : n < l + kLrhSize ? FrameDrop::kLrhTruncated
                                                  : FrameDrop::kLrhPktLenPastFrame;
        EXPECT_EQ(d.error->reason, want) << n;
    }
    // A VLAN tag cut short, and two tags accepted (the outer TCI kept).
    std::vector<std::uint8_t> tagged = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0x00, 0x00};
    EXPECT_EQ(decode_iboe_frame(tagged).error->reason, FrameDrop::kVlanTruncated);
    std::vector<std::uint8_t> qinq = f;
    const std::uint8_t tags[] = {0x88, 0xA8, 0x00, 0x07, 0x81, 0x00, 0x00, 0x09};
    qinq.insert(qinq.begin() + 12, std::begin(tags), std::end(tags));
    const IboeDecode q = decode_iboe_frame(qinq);
    ASSERT_TRUE(q.ok()) << q.error->message();
    EXPECT_EQ(q.packet.headers.vlan_tci, 7);
    EXPECT_EQ(q.packet.lrh_offset, 22u);
    EXPECT_EQ(FrameError({FrameDrop::kBadIcrc, 298, 0x1234}).message(),
              "ICRC at byte 298 = 0x1234: bad_icrc");
}

TEST(MadFrame, QpZeroAndVlFifteenGoTogether) {
    const SmpBytes mad = node_info_request();
    IboeHeaders h = smp_frame_headers(kSrc, 1, 2, 0);
    EXPECT_TRUE(decode_mad_frame(encode_iboe_frame(h, mad)).ok());
    h.vl = 0;
    EXPECT_EQ(decode_mad_frame(encode_iboe_frame(h, mad)).error->reason, FrameDrop::kQp0NotVl15);
    h.dest_qp = kGsiQp;
    h.q_key = kGsiQKey;
    EXPECT_TRUE(decode_mad_frame(encode_iboe_frame(h, mad)).ok());  // a GSI MAD
    h.vl = kSmpVl;
    EXPECT_EQ(decode_mad_frame(encode_iboe_frame(h, mad)).error->reason, FrameDrop::kVl15NotQp0);
    h.vl = 0;
    h.dest_qp = 0x99;
    const IboeDecode data = decode_mad_frame(encode_iboe_frame(h, mad));
    EXPECT_EQ(data.error->reason, FrameDrop::kNotManagementQp);
    EXPECT_EQ(data.error->value, 0x99u);
    h = smp_frame_headers(kSrc, 1, 2, 0);
    const IboeDecode shorter = decode_mad_frame(encode_iboe_frame(h, std::span(mad).first(252)));
    EXPECT_EQ(shorter.error->reason, FrameDrop::kMadBadLength);
    EXPECT_EQ(shorter.error->value, 252u);
}

TEST(FrameDropCounters, CountPerReason) {
    FrameDropCounters c;
    c.add(FrameDrop::kBadIcrc);
    c.add(FrameDrop::kBadIcrc);
    c.add(FrameDrop::kNotIboe);
    EXPECT_EQ(c[FrameDrop::kBadIcrc], 2u);
    EXPECT_EQ(c.total(), 3u);
    for (std::size_t i = 0; i < kFrameDropCount; ++i)
        EXPECT_STRNE(frame_drop_name(static_cast<FrameDrop>(i)), "?") << i;
}

}  // namespace
}  // namespace weft::sm
