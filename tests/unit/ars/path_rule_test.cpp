// weft's primary/alternate rule, row by row of the truth table in path_rule.hpp.
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

// The truth table of path_rule.hpp, one test per row.
TEST(PathRule, RowNeitherEligibleDrops) {
    EXPECT_EQ(choose_path(false, 7, false, 7, PathSelection{}), PathChoice::kNone);
}

TEST(PathRule, RowOnlyPrimaryEligibleIsPrimary) {
    EXPECT_EQ(choose_path(true, 0, false, 7, PathSelection{}), PathChoice::kPrimary);
}

TEST(PathRule, RowOnlyAlternateEligibleIsAlternate) {
    EXPECT_EQ(choose_path(false, 7, true, 0, PathSelection{}), PathChoice::kAlternate);
}

TEST(PathRule, RowPrimaryAtOrAboveThresholdStaysOnPrimary) {
    PathSelection sel;
    sel.primary_quality_threshold = 4;
    // q1 >= T: the primary is good enough, even against a much better alternate.
    EXPECT_EQ(choose_path(true, 4, true, 7, sel), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(true, 5, true, 7, sel), PathChoice::kPrimary);
    sel.alternate_bias = 100;  // no bias pulls a primary that has not fallen below T
    EXPECT_EQ(choose_path(true, 4, true, 7, sel), PathChoice::kPrimary);
    sel.primary_quality_threshold = 0;  // threshold 0: never leave the primaries
    EXPECT_EQ(choose_path(true, 0, true, 7, sel), PathChoice::kPrimary);
}

TEST(PathRule, RowBelowThresholdAlternateNotBetterStaysOnPrimary) {
    PathSelection sel;
    sel.primary_quality_threshold = 5;
    sel.alternate_cost = 2;
    sel.alternate_bias = 1;
    // q1 = 4 < 5; q4 + bias = 3 + 1 = 4 is not above q1 + cost = 6.
    EXPECT_EQ(choose_path(true, 4, true, 3, sel), PathChoice::kPrimary);
    // A tie, 5 + 1 = 4 + 2: stays on the primary.
    EXPECT_EQ(choose_path(true, 4, true, 5, sel), PathChoice::kPrimary);
}

TEST(PathRule, RowBelowThresholdAlternateBetterIsAlternate) {
    PathSelection sel;
    sel.primary_quality_threshold = 5;
    sel.alternate_cost = 2;
    sel.alternate_bias = 1;
    // q1 = 4 < 5; q4 + bias = 6 + 1 = 7 is above q1 + cost = 6.
    EXPECT_EQ(choose_path(true, 4, true, 6, sel), PathChoice::kAlternate);
}

TEST(PathRule, WithDefaultsTiesStayOnPrimaryAndOnlyAStrictlyBetterAlternateWins) {
    const PathSelection sel;
    EXPECT_EQ(choose_path(true, 7, true, 7, sel), PathChoice::kPrimary);  // an idle fabric
    EXPECT_EQ(choose_path(true, 5, true, 5, sel), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(true, 6, true, 5, sel), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(true, 7, true, 0, sel), PathChoice::kPrimary);
    EXPECT_EQ(choose_path(true, 5, true, 6, sel), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 2, true, 7, sel), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 0, true, 1, sel), PathChoice::kAlternate);
}

// How far the alternate must be ahead of the primary before the rule takes it.
int margin_needed(const PathSelection &sel, QualityBand primary) {
    for (int q4 = primary; q4 <= kBestQuality; ++q4)
        if (choose_path(true, primary, true, static_cast<QualityBand>(q4), sel) == PathChoice::kAlternate)
            return q4 - primary;
    return 99;  // never
}

// ALTERNATE_PATH_COST is "the cost of switching over to non least cost paths": more cost, the
// alternate must be further ahead, so fewer switches.
TEST(PathRule, MoreCostMeansLessAlternate) {
    PathSelection sel;
    int previous = margin_needed(sel, 2);
    EXPECT_EQ(previous, 1);
    for (std::uint32_t cost = 1; cost <= 5; ++cost) {
        sel.alternate_cost = cost;
        const int margin = margin_needed(sel, 2);
        EXPECT_GT(margin, previous) << "cost " << cost;
        previous = margin;
    }
    sel.alternate_cost = 1;
    EXPECT_EQ(choose_path(true, 5, true, 6, sel), PathChoice::kPrimary);  // better by 1 is not enough
    EXPECT_EQ(choose_path(true, 5, true, 7, sel), PathChoice::kAlternate);
}

// ALTERNATE_PATH_BIAS is "the bias in favor of alternate path": more bias, the alternate wins
// sooner, even when it is worse.
TEST(PathRule, MoreBiasMeansMoreAlternate) {
    PathSelection sel;
    sel.alternate_cost = 4;
    int previous = margin_needed(sel, 2);
    EXPECT_EQ(previous, 5);
    for (std::uint32_t bias = 1; bias <= 5; ++bias) {
        sel.alternate_bias = bias;
        const int margin = margin_needed(sel, 2);
        EXPECT_LT(margin, previous) << "bias " << bias;
        previous = margin;
    }
    sel.alternate_cost = 0;
    sel.alternate_bias = 2;
    EXPECT_EQ(choose_path(true, 6, true, 5, sel), PathChoice::kAlternate);  // worse by 1, still taken
    EXPECT_EQ(choose_path(true, 6, true, 4, sel), PathChoice::kPrimary);    // worse by 2: a tie
}

TEST(PathRule, HugeSettingsDoNotOverflow) {
    PathSelection sel;
    sel.primary_quality_threshold = 0xFFFFFFFFu;
    sel.alternate_cost = 0xFFFFFFFFu;
    sel.alternate_bias = 0xFFFFFFFEu;
    // Compared as 64-bit sums: q4 + max - 1 > q1 + max exactly when q4 > q1 + 1.
    EXPECT_EQ(choose_path(true, 0, true, 7, sel), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 0, true, 2, sel), PathChoice::kAlternate);
    EXPECT_EQ(choose_path(true, 0, true, 1, sel), PathChoice::kPrimary);
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

    // Every port idle (band 7): the primaries carry the traffic.
    for (std::uint32_t h = 0; h < 64; ++h)
        EXPECT_NE(rig.worker.select_nhg(1, h * 2654435761u, 0).port, 2) << h;
    // Primaries at 5 and 4, alternate at 6: the alternate is strictly better (new flowlets,
    // the earlier ones long idle).
    rig.board.publish_port_quality(0, 5);
    rig.board.publish_port_quality(1, 4);
    rig.board.publish_port_quality(2, 6);
    EXPECT_EQ(rig.worker.select_nhg(1, 0x1111, test::us(1000)).port, 2);
    // Best primary back level with the alternate: a tie stays on the primary.
    rig.board.publish_port_quality(0, 6);
    EXPECT_EQ(rig.worker.select_nhg(1, 0x2222, test::us(2000)).port, 0);
    // Alternate link down: primary even when worse.
    rig.board.publish_port_quality(1, 0);
    rig.board.publish_port_quality(0, 0);
    rig.board.set_link_up(2, false);
    EXPECT_NE(rig.worker.select_nhg(1, 0x3333, test::us(3000)).port, 2);
}

}  // namespace
}  // namespace weft::ars
