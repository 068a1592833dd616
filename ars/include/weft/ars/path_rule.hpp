// The primary/alternate selection rule of section 7 of the SAI ARS proposal.
//
// Text of the rule, with P1 the best primary member and P4 the best alternate member:
//
//   if (qualityBand(P1) < PRIMARY_PATH_QUALITY_THRESHOLD) AND
//      (qualityBand(P1) + ALTERNATE_PATH_COST > qualityBand(P4) + ALTERNATE_PATH_BIAS)
//   then use P1 else P4.
//
// Band orientation. The rule only makes sense if a larger quality band is a better path:
//  - SAI's defaults are threshold 16, cost 0, bias 0 with bands 0..7. The threshold clause is
//    then always true and the rule reduces to "P1 if qualityBand(P1) > qualityBand(P4)". With
//    7 = best this keeps traffic on the primaries unless an alternate is at least as good; with
//    0 = best it would use the primary only when it is strictly worse than the alternate.
//  - The merged header calls the cost "the cost of switching over to non least cost paths" and
//    the bias "the bias in favor of alternate path". With 7 = best, cost is added to the
//    primary's side (more cost, fewer switches to the alternate) and bias to the alternate's side
//    (more bias, more alternate) -- both as named. With 0 = best both act backwards.
// So qualityBand is the quality band of types.hpp: 7 = least loaded = best, 0 = worst.
//
// What the literal threshold clause does: when the threshold is 8 or more (the default 16) it is
// always true. When it is 0..7 and the primary's band is at or above it, the rule as written
// picks P4 even though the primary is good. The header's prose ("crossing down the threshold
// will result in using the non least cost path") suggests the opposite for that case; this
// library implements the rule exactly as written and leaves the threshold at 16 by default.
//
// Truth table (q1 = qualityBand(P1), q4 = qualityBand(P4), T = threshold):
//
//   P1 eligible | P4 eligible | q1 < T | q1 + cost > q4 + bias | result
//   ------------+-------------+--------+-----------------------+-------
//   no          | no          |   -    |           -           | drop
//   yes         | no          |   -    |           -           | P1
//   no          | yes         |   -    |           -           | P4
//   yes         | yes         |  yes   |          yes          | P1
//   yes         | yes         |  yes   |          no           | P4
//   yes         | yes         |  no    |          yes          | P4
//   yes         | yes         |  no    |          no           | P4
//
// With the defaults (T = 16, cost = 0, bias = 0): q1 = 6, q4 = 5 -> P1; q1 = 5, q4 = 5 -> P4
// (a tie goes to the alternate; cost 1 keeps ties on the primary); q1 = 2, q4 = 7 -> P4.
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

// Both sets have an eligible member: the rule itself. Sums are 64-bit so no setting overflows.
constexpr bool prefer_primary(QualityBand primary, QualityBand alternate, const PathSelection &sel) {
    const std::uint64_t q1 = primary;
    const std::uint64_t q4 = alternate;
    return q1 < sel.primary_quality_threshold && q1 + sel.alternate_cost > q4 + sel.alternate_bias;
}

// The whole table above, including the rows where a set has no eligible member.
constexpr PathChoice choose_path(bool primary_eligible, QualityBand primary, bool alternate_eligible,
                                 QualityBand alternate, const PathSelection &sel) {
    if (!primary_eligible) return alternate_eligible ? PathChoice::kAlternate : PathChoice::kNone;
    if (!alternate_eligible) return PathChoice::kPrimary;
    return prefer_primary(primary, alternate, sel) ? PathChoice::kPrimary : PathChoice::kAlternate;
}

}  // namespace weft::ars
