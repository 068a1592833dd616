// weft's primary/alternate rule: when a next-hop group's traffic leaves its primary (least-cost)
// members for its alternate (non-minimal) members.
//
// With P1 the best eligible primary member, P4 the best eligible alternate member and qualityBand
// the quality band of types.hpp (7 = least loaded = best, 0 = worst):
//
//   use P4 only when  qualityBand(P1) < PRIMARY_PATH_QUALITY_THRESHOLD
//                and  qualityBand(P4) + ALTERNATE_PATH_BIAS > qualityBand(P1) + ALTERNATE_PATH_COST;
//   otherwise P1. No eligible primary: P4. Neither: drop (counted as an ARS packet drop).
//
// Why this and not section 7 of the SAI proposal word for word. Section 7 contradicts itself:
//  - its prose: "when the primary choice falls below some configured threshold value quality, an
//    alternate path is chosen with an associated cost", and the merged header's "crossing down
//    the threshold will result in using the non least cost sub optimal path": the alternate is
//    for a primary that has become bad;
//  - its example: "if (qualityBand(P1) < THRESHOLD) AND (qualityBand(P1) + COST > qualityBand(P4)
//    + BIAS) then use P1 else P4". Taken literally this abandons a primary that is at or above
//    the threshold (a good primary goes to the alternates), and with SAI's defaults (threshold
//    16, cost 0, bias 0) it sends a tie to the alternate: an idle fabric (every band 7) puts all
//    its traffic on the non-minimal paths. In a dragonfly that doubles the global-link load of an
//    idle fabric, the opposite of what adaptive routing is for.
// The rule above keeps the prose, the header and the names: the threshold gates leaving the
// primaries ("falls below"); the cost is what switching to a non-least-cost path costs, so it is
// added to the primary's side (more cost, less alternate); the bias is "in favor of alternate
// path", so it is added to the alternate's side (more bias, more alternate); a tie stays on the
// primary (least cost). With SAI's defaults the alternate is used exactly when it is strictly
// better than the best primary.
//
// Truth table (q1 = qualityBand(P1), q4 = qualityBand(P4), T = threshold):
//
//   P1 eligible | P4 eligible | q1 < T | q4 + bias > q1 + cost | result
//   ------------+-------------+--------+-----------------------+-------
//   no          | no          |   -    |           -           | drop
//   yes         | no          |   -    |           -           | P1
//   no          | yes         |   -    |           -           | P4
//   yes         | yes         |  no    |           -           | P1
//   yes         | yes         |  yes   |          no           | P1   (a tie is a "no")
//   yes         | yes         |  yes   |          yes          | P4
//
// With the defaults (T = 16, cost = 0, bias = 0): q1 = 7, q4 = 7 -> P1 (idle fabric);
// q1 = 5, q4 = 5 -> P1; q1 = 5, q4 = 6 -> P4; q1 = 2, q4 = 7 -> P4.
#pragma once

#include <cstdint>

#include "weft/ars/types.hpp"

namespace weft::ars {

// Per-group parameters of the rule (SAI defaults).
struct PathSelection {
    std::uint32_t primary_quality_threshold = 16;
    std::uint32_t alternate_cost = 0;
    std::uint32_t alternate_bias = 0;
};

enum class PathChoice : std::uint8_t { kPrimary, kAlternate, kNone };

// Both sets have an eligible member: true when the rule sends the traffic to the alternate.
// Sums are 64-bit so no setting overflows.
constexpr bool prefer_alternate(QualityBand primary, QualityBand alternate, const PathSelection &sel) {
    const std::uint64_t q1 = primary;
    const std::uint64_t q4 = alternate;
    return q1 < sel.primary_quality_threshold && q4 + sel.alternate_bias > q1 + sel.alternate_cost;
}

// The whole table above, including the rows where a set has no eligible member.
constexpr PathChoice choose_path(bool primary_eligible, QualityBand primary, bool alternate_eligible,
                                 QualityBand alternate, const PathSelection &sel) {
    if (!primary_eligible) return alternate_eligible ? PathChoice::kAlternate : PathChoice::kNone;
    if (!alternate_eligible) return PathChoice::kPrimary;
    return prefer_alternate(primary, alternate, sel) ? PathChoice::kAlternate : PathChoice::kPrimary;
}

}  // namespace weft::ars
