// The ARN codec: round trips, the exact bytes, and every malformed form refused with its reason.
#include <gtest/gtest.h>

#include <vector>

#include "weft/arn/codec.hpp"

namespace weft::arn {
namespace {

ArnMessage minimal(ArnType type = ArnType::kCongestionDetected, std::uint8_t metric = 3) {
    ArnMessage m;
    m.type = type;
    m.metric = metric;
    m.reporter = 0x0002C90300A1B2C3;
    m.port = 17;
    return m;
}

ArnMessage full() {
    ArnMessage m = minimal();
    m.peer_group = 5;
    m.path_id = 0x01020304;
    m.dest_group = 9;
    m.dest_prefix = DestPrefix{6, 65, {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0x80}};
    m.sequence = 0xA0B0C0D0;
    m.hold_ms = 300;
    return m;
}

ArnDecode decode(const std::vector<std::uint8_t> &bytes, Trailing t = Trailing::kRefuse) {
    return decode_arn(bytes, t);
}

TEST(ArnCodec, EncodesTheExactBytes) {
    ArnMessage m = minimal();
    m.peer_group = 0x0102;
    m.dest_prefix = DestPrefix{4, 20, {10, 1, 0x20}};
    m.hold_ms = 0x0203;
    const std::vector<std::uint8_t> expected = {
        0x01, 0x00, 0x03, 0xE5,                          // Type 1, Version 0, Metric 3, bits 1110 0101
        0x00, 0x02, 0xC9, 0x03, 0x00, 0xA1, 0xB2, 0xC3,  // reporter
        0x00, 0x11,                                      // port 17
        0x01, 0x02,                                      // peer group
        0x04, 0x14, 0x0A, 0x01, 0x20,                    // IPv4 /20: three address bytes
        0x02, 0x03,                                      // hold time
    };
    EXPECT_EQ(encode_arn(m), expected);
    EXPECT_EQ(arn_size(m), expected.size());
    const ArnDecode d = decode(expected);
    ASSERT_TRUE(d) << d.error->message();
    EXPECT_EQ(d.message, m);
    EXPECT_EQ(d.size, expected.size());
}

TEST(ArnCodec, RoundTripsEveryTypeAndParameterSet) {
    const std::pair<ArnType, std::uint8_t> kinds[] = {{ArnType::kCongestionDetected, 1},
                                                      {ArnType::kCongestionDetected, kMaxSeverity},
                                                      {ArnType::kCongestionEliminated, 0},
                                                      {ArnType::kFailureDetected, kFailureLinkDown},
                                                      {ArnType::kFailureEliminated, 0}};
    for (auto [type, metric] : kinds) {
        // Every subset of the optional parameters.
        for (unsigned subset = 0; subset < 64; ++subset) {
            ArnMessage m = minimal(type, metric);
            const ArnMessage f = full();
            if (subset & 1) m.peer_group = f.peer_group;
            if (subset & 2) m.path_id = f.path_id;
            if (subset & 4) m.dest_group = f.dest_group;
            if (subset & 8) m.dest_prefix = f.dest_prefix;
            if (subset & 16) m.sequence = f.sequence;
            if (subset & 32) m.hold_ms = f.hold_ms;
            const auto bytes = encode_arn(m);
            const ArnDecode d = decode(bytes);
            ASSERT_TRUE(d) << d.error->message();
            EXPECT_EQ(d.message, m);
            EXPECT_EQ(d.message.para_type(), bytes[3]);
        }
    }
}

TEST(ArnCodec, RoundTripsPrefixesOfEveryLength) {
    for (std::uint8_t family : {4, 6}) {
        const unsigned max = family == 4 ? 32 : 128;
        for (unsigned len = 0; len <= max; ++len) {
            ArnMessage m = minimal();
            DestPrefix p{family, static_cast<std::uint8_t>(len), {}};
            for (unsigned bit = 0; bit < len; ++bit)
                if (bit % 3 == 0) p.address[bit / 8] |= static_cast<std::uint8_t>(0x80 >> (bit % 8));
            m.dest_prefix = p;
            const auto bytes = encode_arn(m);
            EXPECT_EQ(bytes.size(), 4 + 8 + 2 + 2 + (len + 7) / 8);
            const ArnDecode d = decode(bytes);
            ASSERT_TRUE(d) << d.error->message();
            EXPECT_EQ(d.message, m);
        }
    }
}

TEST(ArnCodec, LongestMessageIsTheDeclaredMaximum) {
    ArnMessage m = full();
    m.dest_prefix = DestPrefix{6, 128, {}};
    EXPECT_EQ(encode_arn(m).size(), kMaxArnSize);
}

TEST(ArnCodec, ReservedBitsAreReadAndIgnored) {
    auto bytes = encode_arn(minimal());
    bytes[1] = 0x0F;
    const ArnDecode d = decode(bytes);
    ASSERT_TRUE(d);
    EXPECT_EQ(d.message.reserved, 0x0F);
    EXPECT_EQ(encode_arn(d.message)[1], 0x00);  // written as 0
}

void expect_refused(const std::vector<std::uint8_t> &bytes, ArnDrop reason, std::size_t offset,
                    Trailing t = Trailing::kRefuse) {
    const ArnDecode d = decode(bytes, t);
    ASSERT_FALSE(d) << "accepted";
    EXPECT_EQ(d.error->reason, reason) << d.error->message();
    EXPECT_EQ(d.error->offset, offset) << d.error->message();
    EXPECT_FALSE(d.error->message().empty());
}

TEST(ArnCodec, RefusesATruncatedHeader) {
    const auto bytes = encode_arn(minimal());
    for (std::size_t n = 0; n < kArnHeaderSize; ++n)
        expect_refused({bytes.begin(), bytes.begin() + static_cast<long>(n)}, ArnDrop::kHeaderTruncated, 0);
}

TEST(ArnCodec, RefusesEveryTruncationOfAFullMessage) {
    const auto bytes = encode_arn(full());
    for (std::size_t n = kArnHeaderSize; n < bytes.size(); ++n) {
        const ArnDecode d = decode({bytes.begin(), bytes.begin() + static_cast<long>(n)});
        ASSERT_FALSE(d) << n;
        EXPECT_EQ(d.error->reason, ArnDrop::kParamTruncated) << n;
        EXPECT_LE(d.error->offset, n);
    }
}

TEST(ArnCodec, RefusesAnotherVersion) {
    auto bytes = encode_arn(minimal());
    for (std::uint8_t v = 1; v < 16; ++v) {
        bytes[1] = static_cast<std::uint8_t>(v << 4);
        expect_refused(bytes, ArnDrop::kBadVersion, 1);
    }
}

TEST(ArnCodec, RefusesUnknownTypes) {
    auto bytes = encode_arn(minimal());
    for (unsigned t : {0u, 5u, 0x80u, 0xFFu}) {
        bytes[0] = static_cast<std::uint8_t>(t);
        expect_refused(bytes, ArnDrop::kUnknownType, 0);
    }
}

TEST(ArnCodec, RefusesAMetricTheTypeDoesNotAllow) {
    const std::pair<ArnType, std::vector<std::uint8_t>> bad[] = {
        {ArnType::kCongestionDetected, {0, kMaxSeverity + 1, 0xFF}},
        {ArnType::kCongestionEliminated, {1, 7, 0xFF}},
        {ArnType::kFailureDetected, {0, 2, 0xFF}},
        {ArnType::kFailureEliminated, {1, 0xFF}},
    };
    for (const auto &[type, metrics] : bad) {
        auto bytes = encode_arn(minimal(type, type == ArnType::kCongestionDetected ? 1
                                              : type == ArnType::kFailureDetected  ? kFailureLinkDown
                                                                                   : 0));
        for (std::uint8_t metric : metrics) {
            bytes[2] = metric;
            expect_refused(bytes, ArnDrop::kBadMetric, 2);
        }
    }
}

TEST(ArnCodec, RefusesAMessageThatDoesNotNameItsLink) {
    for (std::uint8_t drop : {kParamReporter, kParamPort}) {
        ArnMessage m = minimal();
        if (drop == kParamReporter) m.reporter.reset();
        if (drop == kParamPort) m.port.reset();
        // The encoder refuses it too: build the bytes by hand from a complete message.
        auto bytes = encode_arn(minimal());
        bytes[3] = static_cast<std::uint8_t>(bytes[3] & ~drop);
        const ArnDecode d = decode(bytes);
        ASSERT_FALSE(d);
        EXPECT_EQ(d.error->reason, ArnDrop::kMissingParameter);
        EXPECT_EQ(d.error->value, drop);
        EXPECT_THROW(encode_arn(m), std::invalid_argument);
    }
}

TEST(ArnCodec, RefusesABadPrefix) {
    ArnMessage m = minimal();
    m.dest_prefix = DestPrefix{4, 8, {10}};
    const auto good = encode_arn(m);
    const std::size_t at = 4 + 8 + 2;  // family byte
    auto bytes = good;
    bytes[at] = 5;
    expect_refused(bytes, ArnDrop::kBadPrefixFamily, at);
    bytes[at] = 0;
    expect_refused(bytes, ArnDrop::kBadPrefixFamily, at);
    bytes = good;
    bytes[at + 1] = 33;
    expect_refused(bytes, ArnDrop::kBadPrefixLength, at + 1);
    bytes = good;
    bytes[at + 1] = 7;
    bytes[at + 2] = 0x0B;  // 0000101|1: the eighth bit is past /7
    expect_refused(bytes, ArnDrop::kPrefixHostBits, at + 2);
    EXPECT_EQ(decode(bytes).error->value, 0x0Bu);  // the byte that holds it

    m.dest_prefix = DestPrefix{6, 128, {}};
    bytes = encode_arn(m);
    bytes[at + 1] = 129;
    expect_refused(bytes, ArnDrop::kBadPrefixLength, at + 1);
}

TEST(ArnCodec, RefusesAZeroHoldTime) {
    ArnMessage m = minimal();
    m.hold_ms = 1;
    auto bytes = encode_arn(m);
    bytes[bytes.size() - 1] = 0;
    expect_refused(bytes, ArnDrop::kBadHoldTime, bytes.size() - 2);
    m.hold_ms = 0;
    EXPECT_THROW(encode_arn(m), std::invalid_argument);
}

TEST(ArnCodec, TrailingBytesAreRefusedOrMustBeZeroPadding) {
    auto bytes = encode_arn(minimal());
    const std::size_t end = bytes.size();
    bytes.resize(end + 10, 0);
    expect_refused(bytes, ArnDrop::kTrailingBytes, end);
    const ArnDecode padded = decode(bytes, Trailing::kZeroPadding);
    ASSERT_TRUE(padded);
    EXPECT_EQ(padded.size, end);
    bytes[end + 4] = 1;
    expect_refused(bytes, ArnDrop::kTrailingBytes, end + 4, Trailing::kZeroPadding);
}

TEST(ArnCodec, EncoderRefusesWhatTheDecoderWould) {
    ArnMessage m = minimal();
    m.metric = 0;
    EXPECT_THROW(encode_arn(m), std::invalid_argument);
    m = minimal();
    m.type = static_cast<ArnType>(9);
    EXPECT_THROW(encode_arn(m), std::invalid_argument);
    m = minimal();
    m.dest_prefix = DestPrefix{4, 8, {10, 1}};  // host bits
    EXPECT_THROW(encode_arn(m), std::invalid_argument);
    std::vector<std::uint8_t> small(arn_size(minimal()) - 1);
    EXPECT_THROW(encode_arn(minimal(), small), std::invalid_argument);
}

TEST(ArnCodec, ErrorsAreOffsetByTheirPlaceInTheFrame) {
    auto bytes = encode_arn(minimal());
    bytes[2] = 0;
    const ArnDecode d = decode_arn(bytes, Trailing::kRefuse, 18);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error->offset, 20u);
    EXPECT_EQ(d.error->message(), "ARN.Metric at byte 20 = 0x0: bad_metric");
}

TEST(ArnCodec, CountersCountByReason) {
    ArnDropCounters c;
    c.add(ArnDrop::kBadMetric);
    c.add(ArnDrop::kBadMetric);
    c.add(ArnDrop::kNotArn);
    EXPECT_EQ(c[ArnDrop::kBadMetric], 2u);
    EXPECT_EQ(c[ArnDrop::kNotArn], 1u);
    EXPECT_EQ(c.total(), 3u);
    for (std::size_t r = 0; r < kArnDropCount; ++r) {
        EXPECT_STRNE(arn_drop_name(static_cast<ArnDrop>(r)), "unknown");
        EXPECT_STRNE(arn_drop_field(static_cast<ArnDrop>(r)), "?");
    }
}

}  // namespace
}  // namespace weft::arn
