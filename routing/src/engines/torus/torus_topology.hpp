// The torus as torus-2QoS sees it: every switch of the fabric placed at a coordinate, its
// switch links grouped by the direction they point (-x, +x, -y, +y, -z, +z), its host ports in
// port_order. Placement starts at a configured seed and grows from 4-loops of switch links.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/torus_config.hpp"

namespace weft::routing::torus {

using Coord = std::array<int, kTorusDims>;
inline constexpr unsigned kGroups = 2 * kTorusDims;  // group 2d = -d, 2d+1 = +d
inline constexpr unsigned kEndDir = kTorusDims;      // "direction" of a host/management port

struct Torus {
    std::array<unsigned, kTorusDims> radix{1, 1, 1};
    std::array<bool, kTorusDims> wrap{};  // looped dimension (torus, radix >= 3)
    unsigned seed_used = 0;               // index of the seed that placed the torus

    std::vector<SwitchIdx> at;  // by position index, kNoSwitch where no switch is
    std::vector<Coord> coord;   // by SwitchIdx
    std::vector<std::array<std::vector<PortNum>, kGroups>> group;  // by SwitchIdx
    std::vector<std::vector<PortNum>> end_ports;                   // CA/router ports, by SwitchIdx
    std::vector<std::vector<std::uint8_t>> port_dir;               // [s][port]: dimension 0..2, or kEndDir

    std::size_t positions() const { return at.size(); }
    std::size_t index(const Coord &c) const {
        return static_cast<std::size_t>(c[0]) + radix[0] * (static_cast<std::size_t>(c[1]) + radix[1] * c[2]);
    }
    SwitchIdx switch_at(const Coord &c) const { return at[index(c)]; }
    // c moved by `step` along dimension d; false when it leaves a mesh dimension.
    bool moved(Coord c, unsigned d, int step, Coord &out) const;
    // The last dimension dimension-order routing visits (the highest one of radix > 1).
    unsigned last_dim() const;
};

// Places the fabric's switches. On failure returns false with `why` saying what could not be
// placed or which seed was unusable.
bool build_torus(const Fabric &f, const TorusConfig &cfg, Torus &t, std::string &why);

// Names a switch for messages: 'desc' (0xguid) at (x,y,z).
std::string switch_name(const Fabric &f, const Torus &t, SwitchIdx s);

}  // namespace weft::routing::torus
