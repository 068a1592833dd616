// torus-2QoS path SLs and SL2VL maps (see torus_sl.hpp).
#include "engines/torus/torus_sl.hpp"

#include <algorithm>

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

std::uint8_t sl_to_vl(unsigned in_dir, unsigned out_dir, unsigned sl, unsigned max_vls) {
    const unsigned qos = (sl >> kTorusDims) & 1;
    if (out_dir >= kEndDir) return static_cast<std::uint8_t>(max_vls >= 2 ? qos : 0);
    unsigned vl = 0;
    if (max_vls >= 2) vl |= (sl >> out_dir) & 1;
    if (max_vls >= 4 && in_dir < kEndDir && in_dir > out_dir) vl |= 2;
    if (max_vls >= 8) vl |= qos << 2;
    return static_cast<std::uint8_t>(vl);
}

void fill_sl_tables(const Fabric &f, const Torus &tor, const std::vector<SwitchIdx> &lid_switch,
                    unsigned max_vls, RoutingTables &t) {
    const std::size_t S = f.switch_count();
    const Lid max = f.max_lid();
    t.path_sl.assign(S, std::vector<std::uint8_t>(std::size_t{max} + 1, 0));
    std::vector<std::uint8_t> by_switch(S);
    for (SwitchIdx s = 0; s < S; ++s) {
        for (SwitchIdx d = 0; d < S; ++d) by_switch[d] = path_sl(tor, s, d);
        auto &row = t.path_sl[s];
        for (Lid l = 1; l <= max; ++l)
            if (lid_switch[l] != kNoSwitch) row[l] = by_switch[lid_switch[l]];
    }
    t.sl2vl.assign(S, {});
    for (SwitchIdx s = 0; s < S; ++s) {
        const unsigned radix = f.node(f.switch_node(s)).num_ports;
        auto &tabs = t.sl2vl[s];
        tabs.assign(std::size_t{radix + 1} * (radix + 1), Sl2Vl{});
        const auto &dir = tor.port_dir[s];
        for (unsigned in = 0; in <= radix; ++in)
            for (unsigned out = 0; out <= radix; ++out)
                for (unsigned sl = 0; sl < 16; ++sl)
                    tabs[std::size_t{in} * (radix + 1) + out][sl] = sl_to_vl(dir[in], dir[out], sl, max_vls);
    }
}

}  // namespace weft::routing::torus
