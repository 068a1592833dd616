// The SMP header: round trips of both classes, and every rejection of decode_smp located.
#include <gtest/gtest.h>

#include <vector>

#include "weft/sm/smp.hpp"

namespace weft::sm {
namespace {

Smp sample_dr() {
    const std::uint8_t path[] = {1, 3, 17};
    Smp s = make_dr_smp(Method::kGet, attr::kPortInfo, 5, path, 0x1234'5678'9abc'def0ull);
    s.m_key = 0x0102030405060708ull;
    s.hop_pointer = 2;
    s.return_path[1] = 9;
    s.return_path[2] = 4;
    for (unsigned i = 0; i < kSmpDataSize; ++i) s.data[i] = static_cast<std::uint8_t>(i * 7);
    return s;
}

SmpBytes encoded(const Smp &s) {
    auto r = encode_smp(s);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    return r.value();
}

TEST(Smp, DirectedRouteRoundTrip) {
    const Smp s = sample_dr();
    const SmpBytes b = encoded(s);
    EXPECT_EQ(b[0], 1);      // base version
    EXPECT_EQ(b[1], 0x81);   // directed route
    EXPECT_EQ(b[2], 1);      // class version
    EXPECT_EQ(b[3], 0x01);   // Get
    EXPECT_EQ(b[6], 2);      // hop pointer
    EXPECT_EQ(b[7], 3);      // hop count
    EXPECT_EQ(b[16], 0x00);  // attribute ID 0x0015, big-endian
    EXPECT_EQ(b[17], 0x15);
    EXPECT_EQ(b[23], 5);     // attribute modifier
    EXPECT_EQ(b[32], 0xFF);  // DrSLID permissive
    EXPECT_EQ(b[129], 1);    // initial path, hop 1
    EXPECT_EQ(b[131], 17);   // hop 3
    EXPECT_EQ(b[193], 9);    // return path, hop 1
    EXPECT_EQ(b[64 + 10], 70);
    const auto d = decode_smp(b);
    ASSERT_TRUE(d.ok()) << d.error().message();
    EXPECT_EQ(d.value(), s);
}

TEST(Smp, LidRoutedRoundTripAndFullStatus) {
    Smp s = make_lid_smp(Method::kSet, attr::kLinearForwardingTable, 3, 42);
    s.status = 0x801C;  // all 16 bits are status in a LID-routed SMP
    const SmpBytes b = encoded(s);
    EXPECT_EQ(b[1], 0x01);
    EXPECT_EQ(b[4], 0x80);
    EXPECT_EQ(b[5], 0x1C);
    const auto d = decode_smp(b);
    ASSERT_TRUE(d.ok()) << d.error().message();
    EXPECT_EQ(d.value(), s);
}

TEST(Smp, ResponseSetsDirectionBitAndGetResp) {
    const Smp req = sample_dr();
    SmpData data{};
    data[0] = 0xAB;
    const Smp resp = make_response(req, data, status::kInvalidField);
    const SmpBytes b = encoded(resp);
    EXPECT_EQ(b[3], 0x81);
    EXPECT_EQ(b[4], 0x80);  // D bit
    EXPECT_EQ(b[5], 0x1C);
    const auto d = decode_smp(b);
    ASSERT_TRUE(d.ok());
    EXPECT_TRUE(d->direction);
    EXPECT_TRUE(d->is_response());
    EXPECT_EQ(d->status, status::kInvalidField);
    EXPECT_EQ(d->tid, req.tid);
}

TEST(Smp, ReservedBytesAreIgnoredNotKept) {
    SmpBytes b = encoded(sample_dr());
    b[40] = 0x55;  // reserved in a directed-route SMP
    const auto d = decode_smp(b);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d.value(), sample_dr());
    b[40] = 0;
    EXPECT_EQ(encoded(d.value()), b);
}

struct BadHeader {
    std::size_t offset;
    std::uint8_t value;
    std::string_view field;
};

TEST(Smp, RejectsBadHeadersWithTheirPlace) {
    const SmpBytes good = encoded(sample_dr());
    const BadHeader cases[] = {
        {0, 2, "SMP.base_version"},  {1, 0x04, "SMP.mgmt_class"},
        {2, 2, "SMP.class_version"}, {3, 0x03, "SMP.method"},
        {3, 0x05, "SMP.method"},     {7, 64, "SMP.hop_count"},
        {6, 5, "SMP.hop_pointer"},   {32, 0xC0, "SMP.dr_slid"},
        {34, 0xC1, "SMP.dr_dlid"},   {130, 255, "SMP.initial_path[hop]"},
    };
    for (const auto &c : cases) {
        SmpBytes b = good;
        b[c.offset] = c.value;
        const auto d = decode_smp(b);
        ASSERT_FALSE(d.ok()) << "byte " << c.offset;
        EXPECT_EQ(d.error().field, c.field) << d.error().message();
    }
    const auto d = decode_smp(good);
    ASSERT_TRUE(d.ok());
}

TEST(Smp, RejectsWrongSizes) {
    const SmpBytes good = encoded(sample_dr());
    for (std::size_t n : {0u, 24u, 255u}) {
        const auto d = decode_smp(std::span(good.data(), n));
        ASSERT_FALSE(d.ok());
        EXPECT_EQ(d.error().field, "SMP.size");
        EXPECT_EQ(d.error().value, n);
    }
    std::vector<std::uint8_t> longer(good.begin(), good.end());
    longer.push_back(0);
    EXPECT_FALSE(decode_smp(longer).ok());
}

TEST(Smp, EncodeRefusesWhatDecodeWouldRefuse) {
    Smp s = sample_dr();
    s.hop_count = 64;
    EXPECT_EQ(encode_smp(s).error().field, "SMP.hop_count");
    s = sample_dr();
    s.method = Method::kTrap;
    EXPECT_EQ(encode_smp(s).error().field, "SMP.method");
    s = make_lid_smp(Method::kGet, attr::kNodeInfo, 0, 1);
    s.dr_slid = 5;
    EXPECT_EQ(encode_smp(s).error().field, "SMP.dr_slid");
    s = sample_dr();
    s.status = 0x8000;
    EXPECT_EQ(encode_smp(s).error().field, "SMP.status");
}

TEST(Smp, PathLongerThan63HopsIsCut) {
    std::vector<std::uint8_t> path(70, 1);
    const Smp s = make_dr_smp(Method::kGet, attr::kNodeInfo, 0, path, 1);
    EXPECT_EQ(s.hop_count, 63);
    EXPECT_TRUE(encode_smp(s).ok());
}

TEST(Smp, ErrorMessageNamesFieldValueAndExpectation) {
    const SmpError e{"SMP.hop_count", 64, "0..63"};
    EXPECT_EQ(e.message(), "SMP.hop_count = 0x40: expected 0..63");
}

TEST(Smp, CheckAttributeWantsTheIdAndSuccess) {
    Smp s = make_response(sample_dr(), {}, 0);
    EXPECT_FALSE(check_attribute(s, attr::kPortInfo).has_value());
    EXPECT_EQ(check_attribute(s, attr::kNodeInfo)->field, "SMP.attr_id");
    s.status = status::kUnsupportedMethodAttr;
    EXPECT_EQ(check_attribute(s, attr::kPortInfo)->field, "SMP.status");
}

}  // namespace
}  // namespace weft::sm
