// A set of members of one group by index (bit i = member i), as the selection keeps them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::ars {

template <std::size_t Words>
struct MemberBits {
    std::uint64_t word[Words] = {};

    // Any index, in range or not (an empty or removed bucket's marker is simply not contained).
    constexpr bool contains(std::uint16_t m) const {
        return m < 64 * Words && ((word[m / 64] >> (m % 64)) & 1) != 0;
    }
    constexpr void insert(std::uint16_t m) { word[m / 64] |= std::uint64_t{1} << (m % 64); }
};

// A flowlet burst's group: at most 64 members, one register.
using MemberMask = MemberBits<1>;
// A whole group: up to 64 primaries and 64 alternates.
using MemberSet = MemberBits<2>;

}  // namespace weft::ars
