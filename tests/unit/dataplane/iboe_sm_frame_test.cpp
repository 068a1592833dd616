// weft's dataplane parser reads the IB-over-Ethernet frames control/sm encodes (SMPs from the SMA,
// data frames from weft-ca) as the codec wrote them: LRH fields, BTH place and DestQP, VLAN; and
// the dataplane's per-hop VL rewrite leaves the frame's ICRC valid for the codec's check.
#include <gtest/gtest.h>

#include "rewrite.hpp"
#include "weft/dataplane/parser.hpp"
#include "weft/sm/mad_frame.hpp"

namespace weft::dataplane {
namespace {

TEST(IboeSmFrame, ParserAgreesWithTheSmCodec) {
    const sm::MacAddr src{0x02, 0, 0, 0, 0, 7};
    const std::vector<std::uint8_t> mad(sm::kSmpSize, 0x5A);
    sm::IboeHeaders data;
    data.src_mac = src;
    data.vl = 2;
    data.sl = 9;
    data.dlid = 0x0123;
    data.slid = 0x0BFE;
    data.dest_qp = 0x00ABCD;
    data.vlan_tci = 0x0064;
    const std::vector<std::uint8_t> payload(37, 1);
    struct Case {
        sm::IboeHeaders h;
        std::vector<std::uint8_t> payload;
    };
    const Case cases[] = {
        {sm::smp_frame_headers(src, sm::kPermissiveLid, sm::kPermissiveLid, 1), mad},
        {sm::smp_frame_headers(src, 3, 0x0C01, 2), mad},
        {data, payload},
    };
    for (const Case &c : cases) {
        const std::vector<std::uint8_t> f = sm::encode_iboe_frame(c.h, c.payload);
        const sm::IboeDecode d = sm::decode_iboe_frame(f);
        ASSERT_TRUE(d.ok());
        ParsedPacket p;
        ASSERT_EQ(parse_frame(f, ParserConfig{}, p), DropReason::None);
        EXPECT_EQ(p.kind, PacketKind::Iboe);
        EXPECT_EQ(p.l3_offset, d.packet.lrh_offset);
        EXPECT_EQ(p.vl, c.h.vl);
        EXPECT_EQ(p.sl, c.h.sl);
        EXPECT_EQ(p.lnh, 2);
        EXPECT_EQ(p.dlid, c.h.dlid);
        EXPECT_EQ(p.slid, c.h.slid);
        EXPECT_TRUE(p.has_bth);
        EXPECT_FALSE(p.has_grh);
        EXPECT_EQ(p.l4_offset, d.packet.lrh_offset + sm::kLrhSize);
        EXPECT_EQ(p.key.dest_qp, c.h.dest_qp);
        EXPECT_EQ(p.has_vlan, c.h.vlan_tci.has_value());
        EXPECT_EQ(p.vlan_tci, c.h.vlan_tci.value_or(0));

        // A hop's rewrite: source MAC and VL. The ICRC still holds.
        std::vector<std::uint8_t> g = f;
        lrh_set_vl(g.data() + p.l3_offset, 6);
        g[11] ^= 0xFF;
        const sm::IboeDecode after = sm::decode_iboe_frame(g);
        ASSERT_TRUE(after.ok()) << after.error->message();
        EXPECT_EQ(after.packet.headers.vl, 6);
    }
    // The configured EtherType, on both sides.
    const std::vector<std::uint8_t> f =
        sm::encode_iboe_frame(data, payload, sm::IboeFrameConfig{0x8915, true});
    ParsedPacket p;
    EXPECT_EQ(parse_frame(f, ParserConfig{0x8915, true}, p), DropReason::None);
    EXPECT_EQ(parse_frame(f, ParserConfig{}, p), DropReason::UnknownEtherType);
}

}  // namespace
}  // namespace weft::dataplane
