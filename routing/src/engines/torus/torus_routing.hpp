// torus-2QoS unicast: dimension-order routing (x, then y, then z) on the placed torus, the
// shorter way around each ring, the long way around a ring a failure has broken, and an early
// turn towards a missing turning switch. Also the checks that refuse fabrics this cannot route
// free of credit loops.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engines/torus/torus_topology.hpp"

namespace weft::routing::torus {

// Steps possible from each switch along each direction before a missing link or switch
// (capped at the radix), so "does the ring lead there this way" is O(1).
struct RingRuns {
    std::vector<std::array<std::uint16_t, kGroups>> run;
};
RingRuns ring_runs(const Torus &t);

// Refuses (false, why) when a ring is broken into disjoint segments, or missing switches are
// not confined to one column along the last routed dimension (the only case the turn VL bit
// keeps credit-loop free), or the VL budget cannot hold the VL bits this torus needs.
bool check_routable(const Fabric &f, const Torus &t, unsigned max_vls, std::string &why);

// Port group (0..5) switch s uses towards switch d (s != d), or -1 when it cannot progress.
// The step along a dimension depends only on s and d's coordinate in that dimension, so it is
// worked out once per (switch, dimension, coordinate) and every pair is a few table lookups.
class NextGroups {
  public:
    NextGroups(const Torus &t, const RingRuns &r);
    int operator()(SwitchIdx s, SwitchIdx d) const {
        const Coord &a = t_.coord[s], &b = t_.coord[d];
        const std::int8_t *row = step_.data() + std::size_t{s} * width_;
        // The first dimension the path still has to travel; blocked there, the next one.
        for (unsigned k = 0; k < kTorusDims; ++k)
            if (a[k] != b[k])
                if (const int g = row[base_[k] + b[k]]; g >= 0) return g;
        return -1;
    }

  private:
    const Torus &t_;
    std::array<unsigned, kTorusDims> base_{};  // offset of dimension d in a switch's row
    unsigned width_ = 0;                       // sum of the radices
    std::vector<std::int8_t> step_;            // [s * width_ + base_[d] + v]: group, -1 = none
};

// Ring direction from a to b on a ring of radix r: +1, -1 (shorter way; ties the way that does
// not wrap), 0 if equal. Mesh dimensions never wrap.
int ring_direction(const Torus &t, unsigned dim, int a, int b);

}  // namespace weft::routing::torus
