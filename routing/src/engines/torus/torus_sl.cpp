// torus-2QoS path SLs and SL2VL maps (see torus_sl.hpp).
#include "engines/torus/torus_sl.hpp"

#include <algorithm>
#include <array>

namespace weft::routing::torus {

std::uint8_t path_sl(const Torus &t, SwitchIdx s, SwitchIdx d) {
    unsigned sl = 0;
    for (unsigned k = 0; k < kTorusDims; ++k) {
        if (!t.wrap[k]) continue;  // a mesh dimension has no dateline
        const int R = static_cast<int>(t.radix[k]);
        const int lo = std::min(t.coord[s][k], t.coord[d][k]), hi = std::max(t.coord[s][k], t.coord[d][k]);
        const bool wraps = hi - lo > lo + R - hi;  // the shorter way goes around through the dateline
        sl |= static_cast<unsigned>(wraps) << k;
    }
    return static_cast<std::uint8_t>(sl);
}

PathSl::PathSl(const Torus &t) : t_(t) {
    for (unsigned k = 0; k < kTorusDims; ++k) {
        const int R = static_cast<int>(t.radix[k]);
        r_[k] = R;
        bit_[k].assign(static_cast<std::size_t>(R) * R, 0);
        if (!t.wrap[k]) continue;
        for (int a = 0; a < R; ++a)
            for (int b = 0; b < R; ++b) {
                const int lo = std::min(a, b), hi = std::max(a, b);
                bit_[k][a * R + b] = hi - lo > lo + R - hi;
            }
    }
}

void PathSl::row(SwitchIdx s, std::uint8_t *out) const {
    const Coord &a = t_.coord[s];
    const std::uint8_t *bx = bit_[0].data() + a[0] * r_[0], *by = bit_[1].data() + a[1] * r_[1],
                       *bz = bit_[2].data() + a[2] * r_[2];
    const std::size_t n = t_.coord.size();
    for (std::size_t d = 0; d < n; ++d) {
        const Coord &b = t_.coord[d];
        out[d] = static_cast<std::uint8_t>(bx[b[0]] | by[b[1]] << 1 | bz[b[2]] << 2);
    }
}

std::uint8_t sl_to_vl(unsigned in_dir, unsigned out_dir, unsigned sl, unsigned max_vls) {
    const unsigned qos = (sl >> kTorusDims) & 1;
    if (out_dir >= kEndDir) return static_cast<std::uint8_t>(max_vls >= 2 ? qos : 0);
    unsigned vl = 0;
    if (max_vls >= 2) vl |= (sl >> out_dir) & 1;
    if (max_vls >= 4 && in_dir < kEndDir && in_dir > out_dir) vl |= 2;
    if (max_vls >= 8) vl |= qos << 2;
    return static_cast<std::uint8_t>(vl);
}

void fill_sl2vl(const Fabric &f, const Torus &tor, unsigned max_vls, RoutingTables &t) {
    // One map per (input direction, output direction); ports only pick among them.
    std::array<std::array<Sl2Vl, kEndDir + 1>, kEndDir + 1> by_dir{};
    for (unsigned in = 0; in <= kEndDir; ++in)
        for (unsigned out = 0; out <= kEndDir; ++out)
            for (unsigned sl = 0; sl < 16; ++sl) by_dir[in][out][sl] = sl_to_vl(in, out, sl, max_vls);
    const std::size_t S = f.switch_count();
    t.sl2vl.assign(S, {});
    for (SwitchIdx s = 0; s < S; ++s) {
        const unsigned radix = f.node(f.switch_node(s)).num_ports;
        auto &tabs = t.sl2vl[s];
        tabs.resize(std::size_t{radix + 1} * (radix + 1));
        const auto &dir = tor.port_dir[s];
        for (unsigned in = 0; in <= radix; ++in)
            for (unsigned out = 0; out <= radix; ++out)
                tabs[std::size_t{in} * (radix + 1) + out] = by_dir[dir[in]][dir[out]];
    }
}

}  // namespace weft::routing::torus
