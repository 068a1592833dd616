// An LFT block cut from a routing table row (index = LID), for the SM's writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "weft/sm/linear_forwarding_table.hpp"

namespace weft::sm {

// Block `block` of `row` as it stands; LIDs past the row's end have no route. A vLID block
// (1024 and up) is cut from the same row, whose index is the 18-bit LID.
inline LftBlock lft_block_of(const std::vector<PortNum> &row, std::uint32_t block) {
    LftBlock b;
    b.block = static_cast<std::uint16_t>(block);
    for (unsigned i = 0; i < kLftBlockSize; ++i) {
        const std::size_t lid = std::size_t{block} * kLftBlockSize + i;
        b.ports[i] = lid < row.size() ? row[lid] : kNoPort;
    }
    return b;
}

}  // namespace weft::sm
