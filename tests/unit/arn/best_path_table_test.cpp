// The best-path table: the draft's two rules, removal and penalties, failures, expiry, stale
// news, and the bands it hands ARS.
#include <gtest/gtest.h>

#include "weft/arn/best_path_table.hpp"

namespace weft::arn {
namespace {

constexpr Ticks kTicksPerUs = 1;
constexpr GroupId kDest = 2;

// Switch 1 (this one) in a group with switches 2 and 3. Toward group 2:
//  P0 via peer 2's global link to group 2 (local port 2 -> switch 2, its port 5), cost 2;
//  P1 via group 3 through peer 3's global link (local port 3 -> switch 3, its port 6), cost 3;
//  P2 via group 4 through this switch's own global port 7, cost 3.
const LinkRef kToPeer2{1, 2}, kPeer2Global{2, 5}, kToPeer3{1, 3}, kPeer3Global{3, 6}, kOwnGlobal{1, 7};

std::vector<CandidatePath> candidates() {
    return {
        {PathKind::kViaPeer, 2, 2, {kToPeer2, kPeer2Global}},
        {PathKind::kViaGroup, 3, 3, {kToPeer3, kPeer3Global}},
        {PathKind::kViaGroup, 7, 3, {kOwnGlobal}},
    };
}

ArnMessage news(ArnType type, LinkRef link, std::uint8_t metric = 0, std::optional<std::uint32_t> seq = {},
                std::optional<std::uint16_t> hold_ms = {}) {
    ArnMessage m;
    m.type = type;
    m.metric = metric;
    m.reporter = link.sw;
    m.port = link.port;
    m.sequence = seq;
    m.hold_ms = hold_ms;
    return m;
}
ArnMessage congested(LinkRef l, std::uint8_t severity = 3, std::optional<std::uint32_t> seq = {}) {
    return news(ArnType::kCongestionDetected, l, severity, seq);
}
ArnMessage cleared(LinkRef l, std::optional<std::uint32_t> seq = {}) {
    return news(ArnType::kCongestionEliminated, l, 0, seq);
}

struct Rig {
    explicit Rig(BptConfig c = {}) : bpt(c, kTicksPerUs) { bpt.set_destination(kDest, candidates()); }
    BestPathTable bpt;
};

TEST(ArnBpt, ChoosesTheCheapestPath) {
    Rig r;
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
    EXPECT_EQ(r.bpt.effective_cost(kDest, 0), 2u);
    EXPECT_FALSE(r.bpt.chosen(9));
}

TEST(ArnBpt, RuleOneDropsTheChosenPathThroughTheLink) {
    Rig r;
    const BptChange c = r.bpt.apply(congested(kPeer2Global), 0);
    EXPECT_EQ(c.rechosen, std::vector<GroupId>{kDest});
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);  // the first of the two that cost 3
    EXPECT_EQ(r.bpt.counters().rechosen, 1u);
}

TEST(ArnBpt, RuleOneLeavesAChoiceThatDoesNotCrossTheLink) {
    Rig r;
    const BptChange c = r.bpt.apply(congested(kPeer3Global), 0);
    EXPECT_TRUE(c.rechosen.empty());
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
}

TEST(ArnBpt, RuleTwoRestoresAPathCheaperThanTheChosen) {
    Rig r;
    r.bpt.apply(congested(kPeer2Global), 0);
    ASSERT_EQ(r.bpt.chosen(kDest), 1u);
    const BptChange c = r.bpt.apply(cleared(kPeer2Global), 10);
    EXPECT_EQ(c.rechosen, std::vector<GroupId>{kDest});
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
}

TEST(ArnBpt, RuleTwoKeepsTheChoiceWhenTheRestoredPathIsNotCheaper) {
    Rig r;
    r.bpt.apply(congested(kPeer2Global), 0);  // chosen: P1, cost 3
    r.bpt.apply(congested(kOwnGlobal), 1);    // P2 was not chosen: nothing
    ASSERT_EQ(r.bpt.chosen(kDest), 1u);
    const BptChange c = r.bpt.apply(cleared(kOwnGlobal), 2);  // P2 costs 3 again: a tie stays
    EXPECT_TRUE(c.rechosen.empty());
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
}

TEST(ArnBpt, RemovalFallsBackToTheLeastCongestedWhenEveryPathIs) {
    Rig r;
    r.bpt.apply(congested(kPeer2Global, 5), 0);
    r.bpt.apply(congested(kPeer3Global, 2), 1);
    r.bpt.apply(congested(kOwnGlobal, 4), 2);
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);  // severity 2
    // Every path congested: each costs more than any clear path would.
    for (std::size_t p = 0; p < 3; ++p) EXPECT_GT(r.bpt.effective_cost(kDest, p), 1u << 30);
    // P1 gets worse than P2: rule 1 moves to P2.
    r.bpt.apply(congested(kPeer3Global, 6), 3);
    EXPECT_EQ(r.bpt.chosen(kDest), 2u);
}

TEST(ArnBpt, PenaltiesAddSeverityTimesThePenalty) {
    BptConfig c;
    c.action = CongestionAction::kPenalize;
    c.penalty_per_severity = 1;
    Rig r(c);
    r.bpt.apply(congested(kPeer2Global, 1), 0);
    EXPECT_EQ(r.bpt.effective_cost(kDest, 0), 3u);
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);          // 3 against 3: the first listed keeps it
    r.bpt.apply(congested(kPeer2Global, 2), 1);  // worse: rule 1
    EXPECT_EQ(r.bpt.effective_cost(kDest, 0), 4u);
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
    r.bpt.apply(congested(kPeer2Global, 1), 2);  // better, but only as cheap: rule 2 keeps P1
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
    r.bpt.apply(cleared(kPeer2Global), 3);  // cheaper: back
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
}

TEST(ArnBpt, AFailedLinkRemovesItsPathsInEitherMode) {
    for (CongestionAction a : {CongestionAction::kRemove, CongestionAction::kPenalize}) {
        BptConfig c;
        c.action = a;
        Rig r(c);
        r.bpt.apply(news(ArnType::kFailureDetected, kToPeer2, kFailureLinkDown), 0);
        EXPECT_EQ(r.bpt.effective_cost(kDest, 0), kUnreachableCost);
        EXPECT_EQ(r.bpt.chosen(kDest), 1u);
        r.bpt.apply(news(ArnType::kFailureDetected, kPeer3Global, kFailureLinkDown), 1);
        r.bpt.apply(news(ArnType::kFailureDetected, kOwnGlobal, kFailureLinkDown), 2);
        EXPECT_FALSE(r.bpt.chosen(kDest));  // nothing left
        r.bpt.apply(news(ArnType::kFailureEliminated, kOwnGlobal), 3);
        EXPECT_EQ(r.bpt.chosen(kDest), 2u);
        r.bpt.apply(news(ArnType::kFailureEliminated, kToPeer2), 4);
        EXPECT_EQ(r.bpt.chosen(kDest), 0u);
    }
}

TEST(ArnBpt, NewsNotRefreshedExpires) {
    Rig r;
    r.bpt.apply(news(ArnType::kCongestionDetected, kPeer2Global, 3, 1, 3), 0);  // held 3 ms
    ASSERT_EQ(r.bpt.chosen(kDest), 1u);
    r.bpt.apply(news(ArnType::kCongestionDetected, kPeer2Global, 3, 2, 3), 2000);  // a repeat: to 5 ms
    EXPECT_TRUE(r.bpt.expire(4999).rechosen.empty());
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
    const BptChange c = r.bpt.expire(5000);
    EXPECT_EQ(c.rechosen, std::vector<GroupId>{kDest});
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
    EXPECT_EQ(r.bpt.counters().expired, 1u);
    ASSERT_NE(r.bpt.news(kPeer2Global), nullptr);
    EXPECT_EQ(r.bpt.news(kPeer2Global)->condition, LinkCondition::kClear);
    // What is left of it goes after a default hold.
    r.bpt.expire(5000 + 3000);
    EXPECT_EQ(r.bpt.news(kPeer2Global), nullptr);
}

TEST(ArnBpt, NewsWithoutAHoldTimeUsesTheDefault) {
    BptConfig c;
    c.default_hold_us = 700;
    Rig r(c);
    r.bpt.apply(congested(kPeer2Global), 100);
    r.bpt.expire(799);
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
    r.bpt.expire(800);
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
}

TEST(ArnBpt, StaleAndRepeatedNewsIsIgnored) {
    Rig r;
    r.bpt.apply(congested(kPeer2Global, 3, 10), 0);
    EXPECT_TRUE(r.bpt.apply(cleared(kPeer2Global, 9), 1).stale);        // reordered: older
    EXPECT_TRUE(r.bpt.apply(congested(kPeer2Global, 3, 10), 1).stale);  // the same message twice
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
    EXPECT_FALSE(r.bpt.apply(cleared(kPeer2Global, 11), 2).stale);
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
    // The "detected" that was overtaken arrives late: still known stale.
    EXPECT_TRUE(r.bpt.apply(congested(kPeer2Global, 3, 10), 3).stale);
    EXPECT_EQ(r.bpt.chosen(kDest), 0u);
    EXPECT_EQ(r.bpt.counters().stale, 3u);
    // Sequence numbers wrap.
    r.bpt.apply(congested(kPeer3Global, 3, 0xFFFFFFFF), 4);
    EXPECT_FALSE(r.bpt.apply(cleared(kPeer3Global, 0), 5).stale);
    // Once what an elimination left has gone, a restarted reporter is heard again.
    r.bpt.expire(2 + 3000);
    EXPECT_FALSE(r.bpt.apply(congested(kPeer2Global, 3, 0), 3003).stale);
    EXPECT_EQ(r.bpt.chosen(kDest), 1u);
}

TEST(ArnBpt, BandsAreWhatARSCounts) {
    Rig r;
    std::vector<CandidatePath> more = candidates();
    // A second path by port 2: via peer 2's other global link.
    more.push_back({PathKind::kViaGroup, 2, 4, {kToPeer2, LinkRef{2, 8}}});
    r.bpt.set_destination(kDest, more);
    EXPECT_EQ(r.bpt.port_band(kDest, 2), ars::kBestQuality);
    r.bpt.apply(congested(kPeer2Global, 3), 0);
    EXPECT_EQ(r.bpt.path_band(kDest, 0), 4);
    EXPECT_EQ(r.bpt.path_band(kDest, 3), 7);
    EXPECT_EQ(r.bpt.port_band(kDest, 2), 7);  // the other path by port 2 is clear
    r.bpt.apply(congested(LinkRef{2, 8}, 5), 1);
    EXPECT_EQ(r.bpt.port_band(kDest, 2), 4);  // the better of 4 and 2
    r.bpt.apply(news(ArnType::kFailureDetected, kToPeer2, kFailureLinkDown), 2);
    EXPECT_EQ(r.bpt.port_band(kDest, 2), ars::kWorstQuality);
    EXPECT_EQ(r.bpt.port_band(kDest, 3), ars::kBestQuality);
    EXPECT_EQ(r.bpt.port_band(kDest, 99), ars::kBestQuality);  // no path by it
    EXPECT_EQ(r.bpt.port_band(77, 2), ars::kBestQuality);      // no such destination
}

TEST(ArnBpt, NewsOfAnUnknownLinkIsCountedAndKept) {
    Rig r;
    r.bpt.apply(congested(LinkRef{9, 9}), 0);
    EXPECT_EQ(r.bpt.counters().unknown_link, 1u);
    EXPECT_NE(r.bpt.news(LinkRef{9, 9}), nullptr);
    // A destination learnt later sees it.
    r.bpt.set_destination(
        5, {{PathKind::kDirect, 9, 1, {LinkRef{9, 9}}}, {PathKind::kViaPeer, 2, 2, {kToPeer2}}});
    EXPECT_EQ(r.bpt.chosen(5), 1u);
}

TEST(ArnBpt, RefusesABaseCostBeyondTheRange) {
    BestPathTable bpt({}, kTicksPerUs);
    EXPECT_THROW(bpt.set_destination(1, {{PathKind::kDirect, 1, 1u << 20, {}}}), std::invalid_argument);
}

}  // namespace
}  // namespace weft::arn
