// weft-ca's data: the payload round trip, and the receiver's counting per source LID (missing,
// reordered, misdelivered, other QPs, foreign payloads), on frames through the real codec.
#include <gtest/gtest.h>

#include "ca_traffic.hpp"

namespace weft::sm::tools {
namespace {

std::vector<std::uint8_t> data_frame(Lid dlid, Lid slid, std::uint64_t seq, std::uint32_t qp = kCaDataQp) {
    std::vector<std::uint8_t> payload(40, 0xEE);
    encode_ca_payload(CaDatagram{seq, 1000 + seq}, payload);
    IboeHeaders h;
    h.dlid = dlid;
    h.slid = slid;
    h.dest_qp = qp;
    return encode_iboe_frame(h, payload);
}

void take(CaReceiver &r, const std::vector<std::uint8_t> &f, Lid own) {
    const IboeDecode d = decode_iboe_frame(f);
    ASSERT_TRUE(d.ok());
    r.take(d.packet, own);
}

TEST(CaTraffic, PayloadRoundTrip) {
    std::vector<std::uint8_t> p(kCaPayloadMin);
    encode_ca_payload(CaDatagram{0x0102030405060708, 42}, p);
    const std::optional<CaDatagram> d = decode_ca_payload(p);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->seq, 0x0102030405060708u);
    EXPECT_EQ(d->sent_ns, 42u);
    EXPECT_FALSE(decode_ca_payload(std::span(p).first(23)));
    p[0] = 'W';
    EXPECT_FALSE(decode_ca_payload(p));
}

TEST(CaTraffic, ReceiverCountsPerSourceLid) {
    CaReceiver r;
    for (std::uint64_t s : {0u, 1u, 2u, 5u, 4u, 6u}) take(r, data_frame(3, 7, s), 3);
    take(r, data_frame(3, 9, 0), 3);
    take(r, data_frame(4, 7, 7), 3);     // for another LID
    take(r, data_frame(3, 7, 8), 0);     // before this port has a LID
    take(r, data_frame(3, 7, 9, 5), 3);  // another QP
    IboeHeaders h;
    h.dlid = 3;
    h.dest_qp = kCaDataQp;
    take(r, encode_iboe_frame(h, std::vector<std::uint8_t>(30, 1)), 3);  // not weft-ca's payload
    EXPECT_EQ(r.received(), 7u);
    EXPECT_EQ(r.counters().misdelivered, 2u);
    EXPECT_EQ(r.counters().other_qp, 1u);
    EXPECT_EQ(r.counters().not_ca_data, 1u);
    ASSERT_EQ(r.flows().size(), 2u);
    const CaFlow &f = r.flows().at(7);
    EXPECT_EQ(f.received, 6u);
    EXPECT_EQ(f.highest, 6u);
    EXPECT_EQ(f.missing(), 1u);  // 3
    EXPECT_EQ(f.reordered, 1u);  // 4 after 5
    EXPECT_EQ(r.flows().at(9).missing(), 0u);
    take(r, data_frame(3, 11, ~0ull), 3);  // the last sequence number: no overflow
    EXPECT_EQ(r.flows().at(11).missing(), ~0ull);
}

}  // namespace
}  // namespace weft::sm::tools
