// weft's vendor attribute codecs: exact round trips with the fields where VENDOR_ATTRIBUTES.md
// puts them, and the located rejection of what a switch or an SM must not take.
#include <gtest/gtest.h>

#include "codec_checks.hpp"

#include "weft/sm/vendor_arn_group.hpp"
#include "weft/sm/vendor_fib_state.hpp"
#include "weft/sm/vendor_host_subnets.hpp"
#include "weft/sm/vendor_next_hop_group.hpp"
#include "weft/sm/vendor_routes.hpp"

namespace weft::sm {
namespace {

using test::ByteCase;
using test::expect_rejected;
using test::must;

IpPrefix v6_prefix() {
    std::array<std::uint8_t, 16> a{0x20, 0x01, 0x0d, 0xb8, 0, 3};
    return IpPrefix::v6(a, 48);
}

TEST(VendorPrefix, MasksHostBitsAndPrints) {
    const IpPrefix p = IpPrefix::v4(0x0A000301, 24);
    EXPECT_EQ(p.to_string(), "10.0.3.0/24");
    EXPECT_EQ(IpPrefix::v4(0x0A000301, 40).len, 32);
    EXPECT_EQ(v6_prefix().to_string(), "2001:db8:3:0:0:0:0:0/48");
    EXPECT_EQ(IpPrefix{}.to_string(), "-");
    EXPECT_LT(IpPrefix::v4(0x0A000000, 8), IpPrefix::v4(0x0B000000, 8));
}

TEST(WeftHostSubnets, RoundTripAndPlacement) {
    HostSubnetsBlock b;
    b.block = 1;
    b.total = 4;
    b.version = 0x1234;
    b.entries[0] = {5, v6_prefix()};
    const SmpData d = must(encode_host_subnets_block(b));
    EXPECT_EQ(d[0], 0);
    EXPECT_EQ(d[1], 4);     // total
    EXPECT_EQ(d[2], 0x12);  // version
    EXPECT_EQ(d[4], 6);     // family
    EXPECT_EQ(d[5], 48);    // length
    EXPECT_EQ(d[6], 5);     // port
    EXPECT_EQ(d[8], 0x20);  // address
    EXPECT_EQ(d[24], 0);    // the second slot: past the total
    EXPECT_EQ(must(decode_host_subnets_block(d, 1)), b);
    expect_rejected(d,
                    {{4, 5, "WeftHostSubnets.family"},
                     {4, 0, "WeftHostSubnets.prefix_length"},  // empty, but with a length
                     {5, 129, "WeftHostSubnets.prefix_length"},
                     {14, 1, "WeftHostSubnets.address"},  // a host bit past /48
                     {6, 0, "WeftHostSubnets.port"},
                     {6, 255, "WeftHostSubnets.port"},
                     {24, 4, "WeftHostSubnets.family"},  // an entry past the total
                     {26, 1, "WeftHostSubnets.port"},
                     {1, 3, "WeftHostSubnets.block"}},  // block 1 holds none of 3 subnets
                    [](const SmpData &x) { return decode_host_subnets_block(x, 1); });
    EXPECT_EQ(decode_host_subnets_block(d, 0xFFFF).error().field, "WeftHostSubnets.block");
    const std::array<std::uint8_t, 63> short_data{};
    EXPECT_EQ(decode_host_subnets_block(short_data, 0).error().field, "WeftHostSubnets.size");
    // A switch without subnets answers block 0 empty.
    EXPECT_TRUE(decode_host_subnets_block(SmpData{}, 0).ok());
    EXPECT_FALSE(decode_host_subnets_block(SmpData{}, 1).ok());
}

TEST(WeftRoutes, RoundTripAndPlacement) {
    RoutesBlock b;
    b.block = 0x0102;
    b.entries[0] = {IpPrefix::v4(0x0A000300, 24), 0xBEEF};
    b.entries[1] = {v6_prefix(), 7};
    const SmpData d = must(encode_routes_block(b));
    EXPECT_EQ(d[4], 4);
    EXPECT_EQ(d[5], 24);
    EXPECT_EQ(d[6], 0xBE);  // group
    EXPECT_EQ(d[7], 0xEF);
    EXPECT_EQ(d[8], 10);  // address
    EXPECT_EQ(d[24], 6);
    EXPECT_EQ(d[27], 7);
    EXPECT_EQ(d[44], 0);  // the third entry: empty
    EXPECT_EQ(must(decode_routes_block(d, 0x0102)), b);
    expect_rejected(d,
                    {{4, 3, "WeftRoutes.family"},
                     {5, 33, "WeftRoutes.prefix_length"},
                     {11, 1, "WeftRoutes.address"},  // past /24
                     {12, 1, "WeftRoutes.address"},  // IPv4 uses 4 bytes
                     {44, 4, "WeftRoutes.group"},    // a route without a group
                     {47, 1, "WeftRoutes.group"},    // an empty entry with one
                     {45, 1, "WeftRoutes.prefix_length"}},
                    [](const SmpData &x) { return decode_routes_block(x, 0x0102); });
    EXPECT_EQ(decode_routes_block(d, 0x10000).error().field, "WeftRoutes.block");
    b.entries[2].group = 3;  // no prefix
    EXPECT_EQ(encode_routes_block(b).error().field, "WeftRoutes.group");
}

TEST(WeftArnGroup, RoundTripAndPlacement) {
    ArnGroupBlock b;
    b.block = 0x0102;
    b.entries[0] = {ArnEntryKind::kLocalLink, 0x1122334455667788, 3, 0x99AABBCCDDEEFF00, 4, 0, 0};
    b.entries[1] = {ArnEntryKind::kGlobalLink, 0x0102030405060708, 9, 0, 0, 0x0A0B, 0};
    b.entries[2] = {ArnEntryKind::kDestination, 0, 0, 0, 0, 0x0C0D, 0x0E0F};
    const SmpData d = must(encode_arn_group_block(b));
    EXPECT_EQ(d[0], 0);  // reserved
    EXPECT_EQ(d[4], 1);  // kind
    EXPECT_EQ(d[5], 3);  // port a
    EXPECT_EQ(d[6], 4);  // port b
    EXPECT_EQ(d[8], 0x11);
    EXPECT_EQ(d[15], 0x88);
    EXPECT_EQ(d[16], 0x99);
    EXPECT_EQ(d[23], 0x00);
    EXPECT_EQ(d[24], 2);  // the global link: kind, owner's port, owner, group
    EXPECT_EQ(d[25], 9);
    EXPECT_EQ(d[28], 0x01);
    EXPECT_EQ(d[36], 0x0A);
    EXPECT_EQ(d[37], 0x0B);
    EXPECT_EQ(d[44], 3);  // the destination: next-hop group, then group
    EXPECT_EQ(d[48], 0x0E);
    EXPECT_EQ(d[49], 0x0F);
    EXPECT_EQ(d[50], 0x0C);
    EXPECT_EQ(d[51], 0x0D);
    EXPECT_EQ(must(decode_arn_group_block(d, 0x0102)), b);
    expect_rejected(d,
                    {{4, 4, "WeftArnGroup.kind"},
                     {5, 0, "WeftArnGroup.port_a"},
                     {5, 255, "WeftArnGroup.port_a"},
                     {6, 0, "WeftArnGroup.port_b"},
                     {4, 2, "WeftArnGroup.port_b"},  // a global link has one end here
                     {25, 0, "WeftArnGroup.port_a"},
                     {26, 1, "WeftArnGroup.port_b"},  // a global link has one end here
                     {45, 1, "WeftArnGroup.port_a"}},
                    [](const SmpData &x) { return decode_arn_group_block(x, 0x0102); });
    EXPECT_EQ(decode_arn_group_block(d, kMaxArnBlock + 1).error().field, "WeftArnGroup.block");
    b.entries[0].group = 1;  // a local link has no group
    EXPECT_EQ(encode_arn_group_block(b).error().field, "WeftArnGroup.group");
    b.entries[0].group = 0;
    b.entries[0].b = b.entries[0].a;  // nor joins a switch to itself
    EXPECT_EQ(encode_arn_group_block(b).error().field, "WeftArnGroup.b");
    b.entries[0].b = 1;
    b.entries[2].nhg = 0;  // a destination names a next-hop group
    EXPECT_EQ(encode_arn_group_block(b).error().field, "WeftArnGroup.nhg");
    // An empty block is all zero.
    EXPECT_EQ(must(decode_arn_group_block(SmpData{}, 0)), ArnGroupBlock{});
    EXPECT_EQ(attribute_name(attr::kWeftArnGroup), "WeftArnGroup");
    EXPECT_TRUE(is_weft_attribute(attr::kWeftArnGroup));
    EXPECT_FALSE(is_weft_attribute(0xFFC4));  // WeftExtendedLids is the LFT's
}

NextHopGroupBlock group_block() {
    NextHopGroupBlock b;
    b.group = 0x0203;
    b.block = 1;
    b.members = 30;  // 28 in block 0, 2 here
    b.fixed = 3;
    b.mode = EthernetArsMode::kPerPacketQuality;
    b.ars_object = 9;
    b.slots[0] = {7, MemberRole::kPrimary};
    b.slots[1] = {12, MemberRole::kAlternate};
    return b;
}

TEST(WeftNextHopGroup, RoundTripAndPlacement) {
    const NextHopGroupBlock b = group_block();
    EXPECT_EQ(b.attr_mod(), 0x00010203u);
    const SmpData d = must(encode_next_hop_group_block(b, 12));
    EXPECT_EQ(d[1], 30);  // members
    EXPECT_EQ(d[2], 3);   // fixed
    EXPECT_EQ(d[3], 2);   // mode
    EXPECT_EQ(d[5], 9);   // ARS object
    EXPECT_EQ(d[8], 7);
    EXPECT_EQ(d[9], 1);
    EXPECT_EQ(d[10], 12);
    EXPECT_EQ(d[11], 2);
    EXPECT_EQ(d[12], 0);
    EXPECT_EQ(must(decode_next_hop_group_block(d, b.attr_mod(), 12)), b);
    expect_rejected(d,
                    {{1, 28, "WeftNextHopGroup.block"},   // 28 members fit block 0
                     {0, 1, "WeftNextHopGroup.members"},  // 286 members
                     {2, 0, "WeftNextHopGroup.fixed"},
                     {2, 13, "WeftNextHopGroup.fixed"},  // past NumPorts
                     {3, 5, "WeftNextHopGroup.mode"},
                     {8, 0, "WeftNextHopGroup.port"},
                     {10, 13, "WeftNextHopGroup.port"},
                     {9, 0, "WeftNextHopGroup.role"},
                     {11, 3, "WeftNextHopGroup.role"},
                     {12, 1, "WeftNextHopGroup.port"}},  // a slot past the members
                    [&](const SmpData &x) { return decode_next_hop_group_block(x, b.attr_mod(), 12); });
    EXPECT_EQ(decode_next_hop_group_block(d, b.attr_mod()).value(), b);  // no port count: 1..254
    EXPECT_EQ(decode_next_hop_group_block(d, 0x0203, 12).error().field,
              "WeftNextHopGroup.port");  // as block 0
    EXPECT_EQ(decode_next_hop_group_block(d, 0x000A0203).error().field, "WeftNextHopGroup.block");
    EXPECT_EQ(decode_next_hop_group_block(d, 0x01010203).error().field, "WeftNextHopGroup.block");
    EXPECT_EQ(decode_next_hop_group_block(d, 0x00010000).error().field, "WeftNextHopGroup.group");
    // No members: the group is absent, and all of block 0 is zero.
    EXPECT_TRUE(decode_next_hop_group_block(SmpData{}, 5).ok());
    SmpData gone{};
    gone[3] = 1;
    EXPECT_EQ(decode_next_hop_group_block(gone, 5).error().field, "WeftNextHopGroup.members");
}

TEST(WeftFibState, RoundTripAndPlacement) {
    FibState s;
    s.op = FibOp::kCommit;
    s.staging_open = true;
    s.active_generation = 0x01020304;
    s.generation = 0x01020305;
    s.routes = 70000;
    s.groups = 513;
    s.arn = 0x0708;
    s.max_routes = 196608;
    s.max_groups = 4096;
    s.max_primaries = 16;
    s.max_alternates = 8;
    s.subnets = 2;
    s.subnets_version = 0x0506;
    const SmpData d = must(encode_fib_state(s));
    EXPECT_EQ(d[0], 'w');
    EXPECT_EQ(d[3], 't');
    EXPECT_EQ(d[4], 1);
    EXPECT_EQ(d[5], 2);
    EXPECT_EQ(d[6], 0x80);
    EXPECT_EQ(d[11], 0x04);
    EXPECT_EQ(d[15], 0x05);
    EXPECT_EQ(d[17], 0x01);  // 70000 = 0x011170
    EXPECT_EQ(d[21], 0x01);  // 513 = 0x0201
    EXPECT_EQ(d[22], 0x07);  // ARN entries
    EXPECT_EQ(d[23], 0x08);
    EXPECT_EQ(d[30], 16);
    EXPECT_EQ(d[31], 8);
    EXPECT_EQ(d[33], 2);
    EXPECT_EQ(d[35], 0x06);
    EXPECT_EQ(must(decode_fib_state(d)), s);
    expect_rejected(d,
                    {{0, 'W', "WeftFibState.magic"},
                     {4, 2, "WeftFibState.version"},
                     {5, 3, "WeftFibState.op"},
                     {16, 0xFF, "WeftFibState.routes"},
                     {24, 0xFF, "WeftFibState.max_routes"}},
                    [](const SmpData &x) { return decode_fib_state(x); });
    EXPECT_EQ(decode_fib_state(d, 1).error().field, "WeftFibState.attr_mod");
    s.generation = 0;
    EXPECT_EQ(encode_fib_state(s).error().field, "WeftFibState.generation");
    s.op = FibOp::kNone;
    EXPECT_TRUE(encode_fib_state(s).ok());
    // What another vendor's node may answer with: no magic.
    EXPECT_EQ(decode_fib_state(SmpData{}).error().field, "WeftFibState.magic");
}

TEST(WeftAttributes, NamesAndAnSmpAroundThem) {
    EXPECT_EQ(attribute_name(attr::kWeftFibState), "WeftFibState");
    EXPECT_EQ(attribute_name(attr::kWeftRoutes), "WeftRoutes");
    EXPECT_TRUE(is_weft_attribute(attr::kWeftHostSubnets));
    EXPECT_FALSE(is_weft_attribute(0xFF90));
    RoutesBlock b;
    b.block = 4;
    b.entries[0] = {IpPrefix::v4(0xC0A80000, 16), 1};
    Smp smp = make_dr_smp(Method::kSet, attr::kWeftRoutes, b.attr_mod(), {}, 1);
    smp.data = must(encode_routes_block(b));
    const Smp reply = make_response(smp, smp.data);
    EXPECT_EQ(must(decode_routes_block(reply)), b);
    EXPECT_FALSE(decode_next_hop_group_block(reply).ok());  // another attribute
}

}  // namespace
}  // namespace weft::sm
