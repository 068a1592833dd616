// torus-2QoS next hops and routability checks (see torus_routing.hpp).
#include "engines/torus/torus_routing.hpp"

#include <algorithm>

namespace weft::routing::torus {

namespace {

int mod(int v, int r) {
    return ((v % r) + r) % r;
}

// The switch at `c` with dimension d set to v.
SwitchIdx at_with(const Torus &t, Coord c, unsigned d, int v) {
    c[d] = v;
    return t.switch_at(c);
}

int group_of(unsigned d, int sign) {
    return static_cast<int>(2 * d + (sign > 0 ? 1 : 0));
}

bool reaches(const Torus &t, const RingRuns &r, SwitchIdx s, unsigned d, int sign, int target) {
    const int R = static_cast<int>(t.radix[d]);
    const int cur = t.coord[s][d];
    int dist = sign > 0 ? target - cur : cur - target;  // both in 0..R-1: no division needed
    if (dist < 0) dist += R;
    return dist <= r.run[s][group_of(d, sign)];
}

// One step along dimension d from s towards coordinate `to`. If the turning switch (s with d
// set to `to`) is there: the shorter way if the ring leads there that way, else the other way
// (the ring is broken, so no ring deadlock). If it is missing (x and y only; z is the last
// dimension): the shorter way while a link goes on, to turn early where blocked.
int dim_step(const Torus &t, const RingRuns &r, SwitchIdx s, unsigned d, int to) {
    const int from = t.coord[s][d];
    const int pref = ring_direction(t, d, from, to);
    if (!pref) return -1;
    const bool turn_present = at_with(t, t.coord[s], d, to) != kNoSwitch;
    if (!turn_present) {
        if (d + 1 == kTorusDims) return -1;
        const int g = group_of(d, pref);
        return t.group[s][g].empty() ? -1 : g;
    }
    if (reaches(t, r, s, d, pref, to)) return group_of(d, pref);
    if (reaches(t, r, s, d, -pref, to)) return group_of(d, -pref);
    return -1;
}

}  // namespace

int ring_direction(const Torus &t, unsigned d, int a, int b) {
    if (a == b) return 0;
    if (!t.wrap[d]) return b > a ? 1 : -1;
    const int R = static_cast<int>(t.radix[d]);
    const int lo = std::min(a, b), hi = std::max(a, b);
    const bool direct = hi - lo <= lo + R - hi;
    return (b > a) == direct ? 1 : -1;
}

RingRuns ring_runs(const Torus &t) {
    RingRuns r;
    r.run.assign(t.coord.size(), {});
    for (unsigned d = 0; d < kTorusDims; ++d) {
        const int R = static_cast<int>(t.radix[d]);
        if (R < 2) continue;
        for (std::size_t i = 0; i < t.positions(); ++i) {
            // One pass per line, started at its coordinate-0 position.
            Coord c{static_cast<int>(i % t.radix[0]), static_cast<int>((i / t.radix[0]) % t.radix[1]),
                    static_cast<int>(i / (std::size_t{t.radix[0]} * t.radix[1]))};
            if (c[d] != 0) continue;
            std::vector<SwitchIdx> line(R);
            for (int k = 0; k < R; ++k) line[k] = at_with(t, c, d, k);
            for (int sign : {1, -1}) {
                const int g = group_of(d, sign);
                auto ok = [&](int k) { return line[k] != kNoSwitch && !t.group[line[k]][g].empty(); };
                int start = -1;  // a position whose link this way is missing
                for (int k = 0; k < R && start < 0; ++k)
                    if (!ok(k)) start = k;
                if (start < 0) {
                    for (int k = 0; k < R; ++k) r.run[line[k]][g] = static_cast<std::uint16_t>(R);
                    continue;
                }
                // Walk against the direction from the break, counting the steps to it.
                int steps = 0;
                for (int n = 0; n < R; ++n) {
                    const int k = mod(start - sign * n, R);
                    steps = ok(k) ? steps + 1 : 0;
                    if (line[k] != kNoSwitch) r.run[line[k]][g] = static_cast<std::uint16_t>(steps);
                }
            }
        }
    }
    return r;
}

NextGroups::NextGroups(const Torus &t, const RingRuns &r) : t_(t) {
    unsigned width = 0;
    for (unsigned d = 0; d < kTorusDims; ++d) {
        base_[d] = width;
        width += t.radix[d];
    }
    width_ = width;
    step_.assign(t.coord.size() * width_, -1);
    for (SwitchIdx s = 0; s < t.coord.size(); ++s)
        for (unsigned d = 0; d < kTorusDims; ++d)
            for (int v = 0; v < static_cast<int>(t.radix[d]); ++v)
                step_[s * width_ + base_[d] + v] = static_cast<std::int8_t>(dim_step(t, r, s, d, v));
}

bool check_routable(const Fabric &f, const Torus &t, unsigned max_vls, std::string &why) {
    static constexpr char axis[] = {'x', 'y', 'z'};
    auto where = [&](const Coord &c) {
        return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
    };
    // Rings: the switches present must form one unbroken segment (or the whole ring).
    for (unsigned d = 0; d < kTorusDims; ++d) {
        const int R = static_cast<int>(t.radix[d]);
        if (R < 2) continue;
        for (std::size_t i = 0; i < t.positions(); ++i) {
            Coord c{static_cast<int>(i % t.radix[0]), static_cast<int>((i / t.radix[0]) % t.radix[1]),
                    static_cast<int>(i / (std::size_t{t.radix[0]} * t.radix[1]))};
            if (c[d] != 0) continue;
            unsigned no_minus = 0, no_plus = 0;
            for (int k = 0; k < R; ++k) {
                const SwitchIdx s = at_with(t, c, d, k);
                if (s == kNoSwitch) continue;
                no_minus += t.group[s][2 * d].empty();
                no_plus += t.group[s][2 * d + 1].empty();
            }
            if (no_minus != no_plus || no_minus > 1) {
                c[d] = 0;
                why = std::string("torus-2QoS: failures break the ") + axis[d] + " ring through " + where(c) +
                      " into disjoint segments; refusing to route (no credit-loop-free routes)";
                return false;
            }
        }
    }
    // Missing switches: more than one only if they form one column along the last dimension.
    std::vector<std::size_t> missing;
    for (std::size_t i = 0; i < t.positions(); ++i)
        if (t.at[i] == kNoSwitch) missing.push_back(i);
    const unsigned last = t.last_dim();
    auto coord_of = [&](std::size_t i) {
        return Coord{static_cast<int>(i % t.radix[0]), static_cast<int>((i / t.radix[0]) % t.radix[1]),
                     static_cast<int>(i / (std::size_t{t.radix[0]} * t.radix[1]))};
    };
    if (missing.size() > 1) {
        const Coord c0 = coord_of(missing[0]);
        for (std::size_t i : missing) {
            Coord c = coord_of(i);
            bool same_column = true;
            for (unsigned d = 0; d < kTorusDims; ++d)
                if (d != last && c[d] != c0[d]) same_column = false;
            Coord lo, hi;
            const bool lo_missing = t.moved(c, last, -1, lo) && t.switch_at(lo) == kNoSwitch;
            const bool hi_missing = t.moved(c, last, 1, hi) && t.switch_at(hi) == kNoSwitch;
            if (!same_column || !(lo_missing || hi_missing)) {
                const Coord other = coord_of(i == missing[0] ? missing[1] : missing[0]);
                why =
                    std::string("torus-2QoS: missing switches at ") + where(other) + " and " + where(c) +
                    " are not adjacent along the last routed dimension (" + axis[last] +
                    "); routing around them would need turns that can close credit loops (message deadlock)";
                return false;
            }
        }
    }
    // VL bits: bit 0 for crossing a dateline of a looped dimension, bit 1 for the turn after
    // an early turn around a missing switch.
    unsigned need = 1;
    for (unsigned d = 0; d < kTorusDims; ++d)
        if (t.wrap[d]) need = 2;
    if (!missing.empty()) need = 4;
    if (max_vls < need) {
        why = "torus-2QoS: this torus needs " + std::to_string(need) +
              " data VLs per QoS level, the fabric offers " + std::to_string(max_vls);
        return false;
    }
    (void)f;
    return true;
}

}  // namespace weft::routing::torus
