// ARN in Ethernet frames: padding, VLAN tags, the configurable EtherType, and the refusals.
#include <gtest/gtest.h>

#include <vector>

#include "weft/arn/frame.hpp"

namespace weft::arn {
namespace {

ArnMessage message() {
    ArnMessage m;
    m.type = ArnType::kFailureDetected;
    m.metric = kFailureLinkDown;
    m.reporter = 42;
    m.port = 3;
    m.peer_group = 7;
    return m;
}

ArnFrameHeaders headers() {
    ArnFrameHeaders h;
    h.src_mac = {0x02, 0, 0, 0, 0, 1};
    return h;
}

TEST(ArnFrame, PadsToTheMinimumFrameAndReadsBack) {
    const auto frame = encode_arn_frame(headers(), message());
    ASSERT_EQ(frame.size(), kArnMinFrameSize);
    EXPECT_EQ(frame[0], 0x01);  // nearest-bridge destination
    EXPECT_EQ(frame[12], 0x88);
    EXPECT_EQ(frame[13], 0xB6);
    const ArnFrameDecode d = decode_arn_frame(frame);
    ASSERT_TRUE(d) << d.error->message();
    EXPECT_EQ(d.message, message());
    EXPECT_EQ(d.headers, headers());
    EXPECT_EQ(d.arn_offset, kArnEthHeaderSize);
}

TEST(ArnFrame, CarriesAVlanTagWithTheTopPriority) {
    ArnFrameHeaders h = headers();
    h.vlan_tci = vlan_tci(kArnPcp, 100);
    const auto frame = encode_arn_frame(h, message());
    EXPECT_EQ(frame[12], 0x81);
    EXPECT_EQ(frame[14] >> 5, kArnPcp);
    const ArnFrameDecode d = decode_arn_frame(frame);
    ASSERT_TRUE(d);
    EXPECT_EQ(d.headers.vlan_tci, h.vlan_tci);
    EXPECT_EQ(d.arn_offset, kArnEthHeaderSize + kArnVlanTagSize);
}

TEST(ArnFrame, ReadsTwoTagsAndKeepsTheOuter) {
    ArnFrameHeaders h = headers();
    h.vlan_tci = 0x0123;
    auto frame = encode_arn_frame(h, message());
    // Insert an inner 802.1Q tag after the outer one, and make the outer 802.1ad.
    frame.insert(frame.begin() + 16, {0x81, 0x00, 0x04, 0x56});
    frame[12] = 0x88;
    frame[13] = 0xA8;
    const ArnFrameDecode d = decode_arn_frame(frame);
    ASSERT_TRUE(d) << d.error->message();
    EXPECT_EQ(d.headers.vlan_tci, 0x0123);
    EXPECT_EQ(d.arn_offset, 22u);
    EXPECT_EQ(d.message, message());
}

TEST(ArnFrame, TheEtherTypeIsConfigurable) {
    const ArnEthernetConfig other{0x9001};
    const auto frame = encode_arn_frame(headers(), message(), other);
    EXPECT_TRUE(decode_arn_frame(frame, other));
    const ArnFrameDecode d = decode_arn_frame(frame);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error->reason, ArnDrop::kNotArn);
    EXPECT_EQ(d.error->offset, 12u);
    EXPECT_EQ(d.error->value, 0x9001u);
}

TEST(ArnFrame, RefusesShortFrames) {
    const auto frame = encode_arn_frame(headers(), message());
    for (std::size_t n = 0; n < kArnEthHeaderSize; ++n) {
        const ArnFrameDecode d = decode_arn_frame({frame.data(), n});
        ASSERT_FALSE(d);
        EXPECT_EQ(d.error->reason, ArnDrop::kEthTruncated);
    }
    ArnFrameHeaders h = headers();
    h.vlan_tci = 1;
    const auto tagged = encode_arn_frame(h, message());
    for (std::size_t n = kArnEthHeaderSize; n < kArnEthHeaderSize + kArnVlanTagSize; ++n) {
        const ArnFrameDecode d = decode_arn_frame({tagged.data(), n});
        ASSERT_FALSE(d);
        EXPECT_EQ(d.error->reason, ArnDrop::kVlanTruncated);
    }
    // The message cut short inside the frame: its own reason, its offset in the frame.
    const ArnFrameDecode d = decode_arn_frame({frame.data(), kArnEthHeaderSize + 6});
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error->reason, ArnDrop::kParamTruncated);
    EXPECT_EQ(d.error->offset, kArnEthHeaderSize + kArnHeaderSize);
}

TEST(ArnFrame, RefusesNonZeroPadding) {
    auto frame = encode_arn_frame(headers(), message());
    frame.back() = 0x5A;
    const ArnFrameDecode d = decode_arn_frame(frame);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error->reason, ArnDrop::kTrailingBytes);
    EXPECT_EQ(d.error->offset, frame.size() - 1);
}

TEST(ArnFrame, RefusesAMalformedMessageInAGoodFrame) {
    auto frame = encode_arn_frame(headers(), message());
    frame[kArnEthHeaderSize + 2] = 2;  // failure detected with an unknown failure kind
    const ArnFrameDecode d = decode_arn_frame(frame);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error->reason, ArnDrop::kBadMetric);
    EXPECT_EQ(d.error->offset, kArnEthHeaderSize + 2);
}

TEST(ArnFrame, EncoderRefusesASmallBuffer) {
    std::vector<std::uint8_t> out(kArnMinFrameSize - 1);
    EXPECT_THROW(encode_arn_frame(headers(), message(), out), std::invalid_argument);
}

}  // namespace
}  // namespace weft::arn
