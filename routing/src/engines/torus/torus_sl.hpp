// torus-2QoS service levels and SL2VL maps.
//
// Path SL: bit d set when the shortest way from the source switch to the destination switch
// around the looped dimension d crosses its dateline (between coordinates radix-1 and 0);
// bit 3 is the QoS level the requester asks for (path_sl holds level 0). It depends only on
// the two switches' coordinates, so failures never change a path SL already granted.
//
// SL2VL on a switch, per (input port, output port):
//   inter-switch output in dimension d: VL bit 0 = SL bit d (dateline VL),
//                                       VL bit 1 = input dimension > output dimension (a y-x,
//                                       z-x or z-y turn, illegal under x-y-z order),
//                                       VL bit 2 = SL bit 3 (QoS level)
//   output to a host or the management port: VL = SL bit 3 (VL 0 or 1).
// Bits the fabric's VL budget (max_vls 2, 4, 8) cannot hold are left out, as OpenSM does.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engines/torus/torus_topology.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing::torus {

std::uint8_t path_sl(const Torus &t, SwitchIdx s, SwitchIdx d);

// path_sl() for many pairs: one dateline bit table per dimension, indexed by the coordinates.
class PathSl {
  public:
    explicit PathSl(const Torus &t);
    std::uint8_t operator()(SwitchIdx s, SwitchIdx d) const {
        const Coord &a = t_.coord[s], &b = t_.coord[d];
        return static_cast<std::uint8_t>(bit_[0][a[0] * r_[0] + b[0]] | bit_[1][a[1] * r_[1] + b[1]] << 1 |
                                         bit_[2][a[2] * r_[2] + b[2]] << 2);
    }

    // out[d] = (*this)(s, d) for every switch d.
    void row(SwitchIdx s, std::uint8_t *out) const;

  private:
    const Torus &t_;
    std::array<int, kTorusDims> r_{};
    std::array<std::vector<std::uint8_t>, kTorusDims> bit_;
};
std::uint8_t sl_to_vl(unsigned in_dir, unsigned out_dir, unsigned sl, unsigned max_vls);

// Fills t.sl2vl for every switch.
void fill_sl2vl(const Fabric &f, const Torus &tor, unsigned max_vls, RoutingTables &t);

}  // namespace weft::routing::torus
