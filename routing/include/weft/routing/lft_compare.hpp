// Compares two sets of LFTs on the same fabric (e.g. weft's and OpenSM's dump): per
// (source, destination LID) pair, does each deliver, and how long are the paths.
#pragma once

#include <cstdint>
#include <string>

#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing {

struct LftComparison {
    std::uint64_t pairs = 0;
    std::uint64_t delivered_a = 0, delivered_b = 0;
    std::uint64_t only_a = 0, only_b = 0;  // delivered by one side only
    std::uint64_t same_length = 0;         // delivered by both with equal hop counts
    std::uint64_t a_longer = 0, b_longer = 0;
    std::uint64_t minimal_a = 0, minimal_b = 0;  // delivered on a shortest cabled path
    std::uint64_t both_minimal = 0;
    std::uint64_t differing_entries = 0;  // LFT entries (switch, LID) that differ
    std::string describe() const;         // key=value lines
};

LftComparison compare_lfts(const Fabric &f, const RoutingTables &a, const RoutingTables &b);

}  // namespace weft::routing
