// Section 7's primary/alternate rule, row by row of the truth table in path_rule.hpp.
#include <gtest/gtest.h>

#include "rig.hpp"
#include "weft/ars/path_rule.hpp"

namespace weft::ars {
namespace {

TEST(PathRule, DefaultsAreSaiDefaults) {
    PathSelection sel;
    EXPECT_EQ(sel.primary_quality_threshold, 16u);
    EXPECT_EQ(sel.alternate_cost, 0u);
    EXPECT_EQ(sel.alternate_bias, 0u);
}

TEST(PathRule, TruthTableEligibility) {
    const PathSelection sel;
    EXPECT_EQ(choose_path(false, 0, false, 0, sel), PathChoice::kNone);
    EXPECT_EQ(choose_path(true, 0, false, 7, sel), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(false, 7, true, 0, sel), PathChoice::kAlternate);
}

TEST(PathRule, TruthTableBothEligible) {
    PathSelection sel;
    sel.primary_quality_threshold = 5;
    sel.alternate_cost = 2;
    sel.alternate_bias = 1;
    // q1 < T and q1 + cost > q4 + bias -> P1: 4 < 5, 6 > 4.
    EXPECT_EQ(choose_path(true, 4, true, 3, sel), PathChoice::kPrimary);
    // q1 < T, sum not greater -> P4: 4 + 2 = 6, 5 + 1 = 6.
    EXPECT_EQ(choose_path(true, 4, true, 5, sel), PathChoice::kAlternate);
    // q1 >= T, sum greater -> P4 (the rule exactly as written).
    EXPECT_EQ(choose_path(true, 5, true, 0, sel), PathChoice::kAlternate);
    // q1 >= T, sum not greater -> P4.
    EXPECT_EQ(choose_path(true, 7, true, 7, sel), PathChoice::kAlternate);
}

TEST(PathRule, WithDefaultsTheBetterBandWinsAndTiesGoToAlternate) {
    const PathSelection sel;
    EXPECT_EQ(choose_path(true, 6, true, 5, sel), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(true, 5, true, 5, sel), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 2, true, 7, sel), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 7, true, 0, sel), PathChoice::kPrimary);
}

TEST(PathRule, CostKeepsTrafficOnPrimaryBiasPullsToAlternate) {
    PathSelection cost;
    cost.alternate_cost = 1;
    EXPECT_EQ(choose_path(true, 5, true, 5, cost), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(true, 5, true, 6, cost), PathChoice::kAlternate);
    PathSelection bias;
    bias.alternate_bias = 2;
    EXPECT_EQ(choose_path(true, 6, true, 5, bias), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 7, true, 4, bias), PathChoice::kPrimary);
}

TEST(PathRule, HugeSettingsDoNotOverflow) {
    PathSelection sel;
    sel.primary_quality_threshold = 0xFFFFFFFFu;
    sel.alternate_cost = 0xFFFFFFFFu;
    sel.alternate_bias = 0xFFFFFFFEu;
    EXPECT_EQ(choose_path(true, 0, true, 7, sel), PathChoice::kAlternate);  // 0+max > 7+max-1 is false
    EXPECT_EQ(choose_path(true, 7, true, 0, sel), PathChoice::kPrimary);
}

// The rule inside a running group: the worker sends new flows where the table says.
TEST(PathRule, WorkerFollowsTheRule) {
    test::Rig rig;
    auto b = test::builder();
    NhgConfig nhg;
    nhg.id = 1;
    nhg.ars_object = 0;
    nhg.members = {test::primary(10, 0), test::primary(11, 1), test::alternate(20, 2)};
    b.add_nhg(nhg);
    rig.adopt(b);

    // Primaries at 5, alternate at 6: alternate wins by default.
    rig.board.publish_port_quality(0, 5);
    rig.board.publish_port_quality(1, 4);
    rig.board.publish_port_quality(2, 6);
    EXPECT_EQ(rig.worker.select_nhg(1, 0x1111, 0).port, 2);
    // Primary at 7 beats the alternate at 6.
    rig.board.publish_port_quality(1, 7);
    EXPECT_EQ(rig.worker.select_nhg(1, 0x2222, 0).port, 1);
    // Alternate link down: primary even when worse.
    rig.board.publish_port_quality(1, 0);
    rig.board.publish_port_quality(0, 0);
    rig.board.set_link_up(2, false);
    EXPECT_NE(rig.worker.select_nhg(1, 0x3333, 0).port, 2);
}

}  // namespace
}  // namespace weft::ars
