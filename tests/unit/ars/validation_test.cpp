// Every refused setting names its attribute and the allowed range.
#include <gtest/gtest.h>

#include <string>

#include "rig.hpp"
#include "weft/ars/capabilities.hpp"

namespace weft::ars {
namespace {

// Builds and expects exactly one error, on `attribute`, whose message contains `text`.
void expect_refused(const ConfigBuilder &b, const std::string &attribute, const std::string &text) {
    const BuildResult r = b.build();
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.config, nullptr);
    ASSERT_EQ(r.errors.size(), 1u) << (r.errors.empty() ? "" : r.errors[0].message);
    EXPECT_EQ(r.errors[0].attribute, attribute);
    EXPECT_NE(r.errors[0].message.find(attribute), std::string::npos) << r.errors[0].message;
    EXPECT_NE(r.errors[0].message.find(text), std::string::npos) << r.errors[0].message;
}

ConfigBuilder with_profile(Profile p) {
    return test::builder(Mode::kFlowletQuality, p);
}

TEST(Validation, DefaultsAndTheSaiExampleAreAccepted) {
    EXPECT_TRUE(test::builder().build().ok());
    Profile sai;
    sai.random_seed = 0x12345678;
    sai.current_load_enabled = false;
    sai.bands[0] = {10, 100};
    for (int i = 1; i < kBandCount; ++i) sai.bands[i] = {100u * i, 100u * (i + 1)};
    EXPECT_TRUE(with_profile(sai).build().ok());
}

TEST(Validation, Algorithm) {
    Profile p;
    p.algorithm = static_cast<QualityAlgorithm>(3);
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_ALGO", "EWMA");
}

TEST(Validation, SamplingInterval) {
    Profile p;
    p.sampling_interval_us = 0;
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_SAMPLING_INTERVAL", "allowed 1..65535");
    p.sampling_interval_us = 65536;
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_SAMPLING_INTERVAL", "allowed 1..65535");
}

TEST(Validation, EwmaExponent) {
    Profile p;
    p.ewma_exponent = 0;
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT", "allowed 1..16");
    p.ewma_exponent = 17;
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT", "allowed 1..16");
    p.ewma_exponent = 16;
    EXPECT_TRUE(with_profile(p).build().ok());
}

TEST(Validation, LoadEnablesAndWeights) {
    Profile p;
    p.past_load_enabled = false;
    p.future_load_enabled = false;
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_PORT_LOAD_PAST", "at least one");
    p.past_load_enabled = true;
    p.past_load_weight = 0;
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_PORT_LOAD_PAST_WEIGHT", "allowed 1..255");
}

TEST(Validation, UnorderedBand) {
    Profile p;
    p.bands[2] = {3000, 2500};
    p.bands[3] = {3750, 5000};
    p.bands[1] = {1250, 2500};
    const BuildResult r = with_profile(p).build();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.errors[0].attribute, "SAI_ARS_PROFILE_ATTR_QUANT_BAND_2_MIN_THRESHOLD");
    EXPECT_NE(r.errors[0].message.find("allowed min < max"), std::string::npos);
}

TEST(Validation, EmptyBand) {
    Profile p;
    p.bands[5] = {6250, 6250};
    p.bands[6] = {6250, 8750};  // keep the neighbours consistent: only band 5 is wrong
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_QUANT_BAND_5_MIN_THRESHOLD", "allowed min < max");
}

TEST(Validation, OverlappingBands) {
    Profile p;
    p.bands[4] = {4900, 6250};  // band 3 ends at 5000
    expect_refused(with_profile(p), "SAI_ARS_PROFILE_ATTR_QUANT_BAND_4_MIN_THRESHOLD", "allowed min >= 5000");
}

TEST(Validation, TicksPerMicrosecond) {
    ConfigBuilder b(Profile{}, 0);
    expect_refused(b, "ticks_per_us", "allowed 1..");
}

TEST(Validation, PortIdAndDuplicates) {
    auto b = test::builder();
    b.add_port(PortConfig{static_cast<PortId>(capabilities().max_ports), true, 10, 100, 100});
    expect_refused(b, "SAI_PORT_ATTR_ARS[4096] id", "allowed 0..4095");
    auto d = test::builder();
    d.add_port(PortConfig{3, true, 10, 100, 100});
    expect_refused(d, "SAI_PORT_ATTR_ARS[3]", "allowed once");
}

TEST(Validation, PortScalingAndWeights) {
    ConfigBuilder b(Profile{}, 1);
    b.add_port(PortConfig{0, true, 0, 100, 100});
    expect_refused(b, "SAI_PORT_ATTR_ARS_PORT_LOAD_SCALING_FACTOR[0]", "allowed 1..100000");
    ConfigBuilder w(Profile{}, 1);
    w.add_port(PortConfig{0, true, 10, 101, 100});
    expect_refused(w, "SAI_PORT_ATTR_ARS_PORT_LOAD_PAST_WEIGHT[0]", "allowed 0..100");
    ConfigBuilder f(Profile{}, 1);
    f.add_port(PortConfig{0, true, 10, 100, 200});
    expect_refused(f, "SAI_PORT_ATTR_ARS_PORT_LOAD_FUTURE_WEIGHT[0]", "allowed 0..100");
}

TEST(Validation, ArsObject) {
    auto mode = test::builder();
    ArsObjectConfig o = test::object(1, static_cast<Mode>(9));
    mode.add_ars_object(o);
    expect_refused(mode, "SAI_ARS_ATTR_MODE[1]", "allowed 0..4");

    auto idle = test::builder();
    idle.add_ars_object(test::object(1, Mode::kFixed, 0));
    expect_refused(idle, "SAI_ARS_ATTR_IDLE_TIME[1]", "allowed 1..1000000");

    auto flows = test::builder();
    flows.add_ars_object(test::object(1, Mode::kFixed, 256, 1000));
    expect_refused(flows, "SAI_ARS_ATTR_MAX_FLOWS[1]", "power of two in 1..16777216");
    auto too_many = test::builder();
    too_many.add_ars_object(test::object(1, Mode::kFixed, 256, 1u << 25));
    expect_refused(too_many, "SAI_ARS_ATTR_MAX_FLOWS[1]", "power of two");

    auto prim = test::builder();
    o = test::object(1, Mode::kFixed);
    o.max_primary_members = 65;
    prim.add_ars_object(o);
    expect_refused(prim, "SAI_ARS_ATTR_MAX_PRIMARY_MEMEBERS_PER_GROUP[1]", "allowed 1..64");

    auto alt = test::builder();
    o = test::object(1, Mode::kFixed);
    o.max_alternate_members = 100;
    alt.add_ars_object(o);
    expect_refused(alt, "SAI_ARS_ATTR_MAX_ALT_MEMEBERS_PER_GROUP[1]", "allowed 0..64");

    auto dup = test::builder();
    dup.add_ars_object(test::object(0, Mode::kFixed));
    expect_refused(dup, "SAI_OBJECT_TYPE_ARS[0]", "allowed once");

    auto id = test::builder();
    id.add_ars_object(test::object(256, Mode::kFixed));
    expect_refused(id, "SAI_OBJECT_TYPE_ARS[256] id", "allowed 0..255");
}

TEST(Validation, Lag) {
    auto unknown_port = test::builder();
    unknown_port.add_lag(LagConfig{0, 0, {1, 99}});
    expect_refused(unknown_port, "SAI_LAG_ATTR_PORT_LIST[0]", "allowed configured ports");
    auto twice = test::builder();
    twice.add_lag(LagConfig{0, 0, {1, 1}});
    expect_refused(twice, "SAI_LAG_ATTR_PORT_LIST[0]", "allowed once");
    auto empty = test::builder();
    empty.add_lag(LagConfig{0, 0, {}});
    expect_refused(empty, "SAI_LAG_ATTR_PORT_LIST[0] size", "allowed 1..64");
    auto object = test::builder();
    object.add_lag(LagConfig{0, 7, {1}});
    expect_refused(object, "SAI_LAG_ATTR_ARS_OBJECT_ID[0]", "allowed a configured ARS object");
    auto dup = test::builder();
    dup.add_lag(LagConfig{0, 0, {1}});
    dup.add_lag(LagConfig{0, 0, {2}});
    expect_refused(dup, "SAI_OBJECT_TYPE_LAG[0]", "allowed once");
    auto id = test::builder();
    id.add_lag(LagConfig{1024, 0, {1}});
    expect_refused(id, "SAI_OBJECT_TYPE_LAG[1024] id", "allowed 0..1023");
    auto limit = test::builder();
    ArsObjectConfig small = test::object(1, Mode::kFlowletQuality);
    small.max_primary_members = 2;
    limit.add_ars_object(small);
    limit.add_lag(LagConfig{0, 1, {1, 2, 3}});
    expect_refused(limit, "SAI_LAG_ATTR_PORT_LIST[0]", "allowed 1..2");
    auto two_lags = test::builder();
    two_lags.add_lag(LagConfig{0, 0, {1, 2}});
    two_lags.add_lag(LagConfig{1, 0, {2, 3}});
    expect_refused(two_lags, "SAI_LAG_ATTR_PORT_LIST[1]",
                   "port 2 is a member of LAG 0 already, allowed in one LAG");
}

NhgConfig nhg_with(std::vector<NhgMember> members, ArsObjectId object = 0) {
    NhgConfig n;
    n.id = 1;
    n.ars_object = object;
    n.members = std::move(members);
    return n;
}

TEST(Validation, NextHopGroup) {
    auto object = test::builder();
    object.add_nhg(nhg_with({test::primary(1, 0)}, 5));
    expect_refused(object, "SAI_NEXT_HOP_GROUP_ATTR_ARS_OBJECT_ID[1]", "allowed a configured ARS object");

    auto port = test::builder();
    port.add_nhg(nhg_with({test::primary(1, 0), test::primary(2, 77)}));
    expect_refused(port, "SAI_NEXT_HOP_GROUP_MEMBER[1].2", "allowed configured ports");

    auto lag = test::builder();
    lag.add_nhg(nhg_with({test::primary(2, 0), {1, EgressTarget::lag(3), MemberRole::kPrimary, true}}));
    expect_refused(lag, "SAI_NEXT_HOP_GROUP_MEMBER[1].1", "allowed configured LAGs");

    auto dup_member = test::builder();
    dup_member.add_nhg(nhg_with({test::primary(1, 0), test::primary(1, 1)}));
    expect_refused(dup_member, "SAI_NEXT_HOP_GROUP_MEMBER[1].1", "allowed once");

    auto empty = test::builder();
    empty.add_nhg(nhg_with({}));
    expect_refused(empty, "SAI_NEXT_HOP_GROUP_ATTR_MEMBERS[1]", "allowed 1..128");

    auto primaries = test::builder();
    ArsObjectConfig small = test::object(1, Mode::kFlowletQuality);
    small.max_primary_members = 2;
    small.max_alternate_members = 1;
    primaries.add_ars_object(small);
    primaries.add_nhg(nhg_with({test::primary(1, 0), test::primary(2, 1), test::primary(3, 2)}, 1));
    expect_refused(primaries, "SAI_NEXT_HOP_GROUP_ATTR_ARS_PRIMARY_MEMBERS[1]", "allowed 0..2");

    auto alternates = test::builder();
    alternates.add_ars_object(small);
    alternates.add_nhg(nhg_with({test::primary(1, 0), test::alternate(2, 1), test::alternate(3, 2)}, 1));
    expect_refused(alternates, "SAI_NEXT_HOP_GROUP_ATTR_ARS_ALTERNATE_MEMBERS[1]", "allowed 0..1");

    auto dup = test::builder();
    dup.add_nhg(nhg_with({test::primary(1, 0)}));
    dup.add_nhg(nhg_with({test::primary(1, 0)}));
    expect_refused(dup, "SAI_OBJECT_TYPE_NEXT_HOP_GROUP[1]", "allowed once");

    auto both = test::builder();
    both.add_nhg(nhg_with({test::primary(1, 2), test::alternate(2, 3), test::alternate(3, 2)}));
    expect_refused(both, "SAI_NEXT_HOP_GROUP_MEMBER[1].3", "port 2 is a primary member too");
    auto through_lag = test::builder();
    through_lag.add_lag(LagConfig{4, 0, {1, 2}});
    through_lag.add_nhg(
        nhg_with({{1, EgressTarget::lag(4), MemberRole::kPrimary, true}, test::alternate(2, 2)}));
    expect_refused(through_lag, "SAI_NEXT_HOP_GROUP_MEMBER[1].2", "port 2 is a primary member too");
    auto apart = test::builder();
    apart.add_lag(LagConfig{4, 0, {1, 2}});
    apart.add_nhg(nhg_with({{1, EgressTarget::lag(4), MemberRole::kPrimary, true}, test::alternate(2, 3)}));
    EXPECT_TRUE(apart.build().ok());

    auto id = test::builder();
    NhgConfig far = nhg_with({test::primary(1, 0)});
    far.id = capabilities().max_ecmp_groups;
    id.add_nhg(far);
    expect_refused(id, "SAI_OBJECT_TYPE_NEXT_HOP_GROUP[16384] id", "allowed 0..16383");
}

TEST(Validation, AclRules) {
    AclRule both{1, {}, {}};
    both.action.disable_ars = true;
    both.action.set_ars = 0;
    auto b = test::builder();
    b.set_acl({both});
    expect_refused(b, "SAI_OBJECT_TYPE_ACL_ENTRY[0].SAI_ACL_ENTRY_ATTR_ACTION_SET_ARS_OBJECT",
                   "one of the two");

    AclRule unknown{1, {}, {}};
    unknown.action.set_ars = 42;
    auto u = test::builder();
    u.set_acl({unknown});
    expect_refused(u, "SAI_OBJECT_TYPE_ACL_ENTRY[0].SAI_ACL_ENTRY_ATTR_ACTION_SET_ARS_OBJECT",
                   "allowed a configured ARS object");

    AclRule version{1, {}, {}};
    version.match.ip_version = 5;
    auto v = test::builder();
    v.set_acl({version});
    expect_refused(v, "SAI_OBJECT_TYPE_ACL_ENTRY[0].ip_version", "allowed 4 or 6");

    AclRule src{1, {}, {}};
    src.match.l4_src_ports = PortRange{10, 9};
    auto s = test::builder();
    s.set_acl({src});
    expect_refused(s, "SAI_OBJECT_TYPE_ACL_ENTRY[0].SAI_ACL_ENTRY_ATTR_FIELD_L4_SRC_PORT", "first <= last");

    AclRule dst{1, {}, {}};
    dst.match.l4_dst_ports = PortRange{10, 9};
    auto d = test::builder();
    d.set_acl({AclRule{}, dst});
    expect_refused(d, "SAI_OBJECT_TYPE_ACL_ENTRY[1].SAI_ACL_ENTRY_ATTR_FIELD_L4_DST_PORT", "first <= last");

    AclRule dscp{1, {}, {}};
    dscp.match.dscp_set = 0;
    auto e = test::builder();
    e.set_acl({dscp});
    expect_refused(e, "SAI_OBJECT_TYPE_ACL_ENTRY[0].SAI_ACL_ENTRY_ATTR_FIELD_DSCP", "allowed 1..64 values");
}

TEST(Validation, AllErrorsAreReportedAtOnce) {
    Profile p;
    p.ewma_exponent = 0;
    p.sampling_interval_us = 0;
    auto b = with_profile(p);
    b.add_ars_object(test::object(1, Mode::kFixed, 0, 3));
    EXPECT_EQ(b.build().errors.size(), 4u);
}

}  // namespace
}  // namespace weft::ars
