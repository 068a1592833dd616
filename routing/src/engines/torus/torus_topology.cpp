// Placing switches into the torus. Start: the seed's common switch at the origin (moved by the
// datelines) and its seed links' far ends one step along their directions. Growth, repeated
// until nothing changes:
//   face rule   corners a, a+ei, a+ej placed: the one switch (other than a) cabled to both
//               a+ei and a+ej is a+ei+ej. In a torus two diagonal neighbours share exactly
//               these two common neighbours, so this needs no further evidence.
//   ring rules  radix 3: the common neighbour of a and a+ei is a+2ei (a 3-ring is a triangle);
//               radix 4: the common neighbour of a and a+2ei other than a+ei is a-ei.
//   line rule   only when the rules above are stuck: a and w = a+ei placed, the one unplaced
//               neighbour x of w that closes no 4-loop with the link a-w is a+2ei (the other
//               neighbours of w close a face with a). Radix >= 5 or mesh only.
// Every placement must agree with the switch's already placed neighbours (each at an adjacent
// coordinate), so a miswired or misconfigured fabric stops with switches left unplaced instead
// of a wrong torus.
#include "engines/torus/torus_topology.hpp"

#include "engines/switch_graph.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>

namespace weft::routing::torus {

bool Torus::moved(Coord c, unsigned d, int step, Coord &out) const {
    const int r = static_cast<int>(radix[d]);
    int v = c[d] + step;
    if (wrap[d]) {
        v = ((v % r) + r) % r;
    } else if (v < 0 || v >= r) {
        return false;
    }
    c[d] = v;
    out = c;
    return true;
}

unsigned Torus::last_dim() const {
    for (unsigned d = kTorusDims; d-- > 0;)
        if (radix[d] > 1) return d;
    return 0;
}

std::string switch_name(const Fabric &f, const Torus &t, SwitchIdx s) {
    std::string out = engines::switch_name(f, s);
    if (s < t.coord.size() && t.coord[s][0] >= 0)
        out += " at (" + std::to_string(t.coord[s][0]) + "," + std::to_string(t.coord[s][1]) + "," +
               std::to_string(t.coord[s][2]) + ")";
    return out;
}

namespace {

class Placer {
  public:
    Placer(const Fabric &f, Torus &t) : f_(f), t_(t), nbr_(f.switch_count()) {
        for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
            const NodeIdx n = f.switch_node(s);
            for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
                const Port &port = f.port(n, p);
                if (port.linked() && f.node(port.peer).is_switch() && f.node(port.peer).sw != s)
                    nbr_[s].push_back(f.node(port.peer).sw);
            }
            std::sort(nbr_[s].begin(), nbr_[s].end());
            nbr_[s].erase(std::unique(nbr_[s].begin(), nbr_[s].end()), nbr_[s].end());
        }
    }

    bool adjacent(SwitchIdx a, SwitchIdx b) const {
        return std::binary_search(nbr_[a].begin(), nbr_[a].end(), b);
    }
    bool placed(SwitchIdx s) const { return t_.coord[s][0] >= 0; }

    bool coords_adjacent(const Coord &a, const Coord &b) const {
        for (unsigned d = 0; d < kTorusDims; ++d) {
            Coord c;
            if (t_.moved(a, d, 1, c) && c == b) return true;
            if (t_.moved(a, d, -1, c) && c == b) return true;
        }
        return false;
    }

    // x may go to T: T free, x unplaced, every placed neighbour of x next to T.
    bool consistent(SwitchIdx x, const Coord &T) const {
        if (placed(x) || t_.switch_at(T) != kNoSwitch) return false;
        for (SwitchIdx y : nbr_[x])
            if (placed(y) && !coords_adjacent(t_.coord[y], T)) return false;
        return true;
    }

    void place(SwitchIdx x, const Coord &T) {
        t_.coord[x] = T;
        t_.at[t_.index(T)] = x;
        work_.push_back(T);
        for (unsigned d = 0; d < kTorusDims; ++d)
            for (int s : {-1, 1}) {
                Coord n;
                if (t_.moved(T, d, s, n) && t_.switch_at(n) != kNoSwitch) work_.push_back(n);
            }
    }

    // The one unplaced switch cabled to both a and b except `skip`, or kNoSwitch.
    SwitchIdx only_common(SwitchIdx a, SwitchIdx b, SwitchIdx skip) const {
        SwitchIdx found = kNoSwitch;
        for (SwitchIdx x : nbr_[a]) {
            if (x == skip || x == b || placed(x) || !adjacent(b, x)) continue;
            if (found != kNoSwitch) return kNoSwitch;
            found = x;
        }
        return found;
    }

    bool try_place(SwitchIdx x, const Coord &T) {
        if (x == kNoSwitch || !consistent(x, T)) return false;
        place(x, T);
        return true;
    }

    // Face and ring rules around the switch at U.
    void local_rules(const Coord &U) {
        const SwitchIdx a = t_.switch_at(U);
        if (a == kNoSwitch) return;
        for (unsigned i = 0; i < kTorusDims; ++i) {
            if (t_.radix[i] < 2) continue;
            for (unsigned j = i + 1; j < kTorusDims; ++j) {
                if (t_.radix[j] < 2) continue;
                for (int si : {-1, 1})
                    for (int sj : {-1, 1}) {
                        Coord B, D, T;
                        if (!t_.moved(U, i, si, B) || !t_.moved(U, j, sj, D) || !t_.moved(B, j, sj, T))
                            continue;
                        const SwitchIdx b = t_.switch_at(B), d = t_.switch_at(D);
                        if (b == kNoSwitch || d == kNoSwitch || t_.switch_at(T) != kNoSwitch) continue;
                        try_place(only_common(b, d, a), T);
                    }
            }
            if (!t_.wrap[i]) continue;
            Coord B, W, T;
            if (t_.radix[i] == 3 && t_.moved(U, i, 1, B) && t_.moved(U, i, 2, T)) {
                const SwitchIdx w = t_.switch_at(B);
                if (w != kNoSwitch && t_.switch_at(T) == kNoSwitch)
                    try_place(only_common(a, w, kNoSwitch), T);
            }
            if (t_.radix[i] == 4 && t_.moved(U, i, 1, B) && t_.moved(U, i, 2, W) && t_.moved(U, i, -1, T)) {
                const SwitchIdx m = t_.switch_at(B), w = t_.switch_at(W);
                if (m != kNoSwitch && w != kNoSwitch && t_.switch_at(T) == kNoSwitch)
                    try_place(only_common(a, w, m), T);
            }
        }
    }

    // Line rule over every placed switch; true if it placed something.
    bool line_rule() {
        bool any = false;
        for (SwitchIdx u = 0; u < f_.switch_count(); ++u) {
            if (!placed(u)) continue;
            const Coord U = t_.coord[u];
            for (unsigned i = 0; i < kTorusDims; ++i) {
                if (t_.wrap[i] ? t_.radix[i] < 5 : t_.radix[i] < 3) continue;
                for (int s : {-1, 1}) {
                    Coord W, T;
                    if (!t_.moved(U, i, s, W) || !t_.moved(W, i, s, T)) continue;
                    const SwitchIdx w = t_.switch_at(W);
                    if (w == kNoSwitch || t_.switch_at(T) != kNoSwitch) continue;
                    SwitchIdx found = kNoSwitch;
                    bool unique = true;
                    for (SwitchIdx x : nbr_[w]) {
                        if (x == u || placed(x)) continue;
                        bool face = false;  // some y != w cabled to both u and x
                        for (SwitchIdx y : nbr_[u])
                            if (y != w && y != x && adjacent(y, x)) {
                                face = true;
                                break;
                            }
                        if (face) continue;
                        if (found != kNoSwitch) unique = false;
                        found = x;
                    }
                    if (unique && try_place(found, T)) any = true;
                }
            }
        }
        return any;
    }

    void grow() {
        for (;;) {
            while (!work_.empty()) {
                const Coord U = work_.front();
                work_.pop_front();
                local_rules(U);
            }
            if (!line_rule()) break;
        }
    }

  private:
    const Fabric &f_;
    Torus &t_;
    std::vector<std::vector<SwitchIdx>> nbr_;
    std::deque<Coord> work_;

  public:
    const std::vector<SwitchIdx> &neighbours(SwitchIdx s) const { return nbr_[s]; }
};

std::string hex(Guid g) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(g));
    return buf;
}

// Seeds in order; the first whose switches are all present and cabled as stated is used.
bool place_seed(const Fabric &f, const TorusConfig &cfg, Torus &t, Placer &pl, std::string &why) {
    std::string reasons;
    for (unsigned k = 0; k < cfg.seeds.size(); ++k) {
        const TorusSeed &seed = cfg.seeds[k];
        auto sw_of = [&](Guid g) -> SwitchIdx {
            const auto n = f.find_guid(g);
            return n && f.node(*n).is_switch() ? f.node(*n).sw : kNoSwitch;
        };
        std::string bad;
        const SwitchIdx o = sw_of(seed.origin());
        if (o == kNoSwitch) bad = "switch " + hex(seed.origin()) + " is not in the fabric";
        Coord O{0, 0, 0};
        for (unsigned d = 0; d < kTorusDims; ++d) {
            const int r = static_cast<int>(t.radix[d]);
            O[d] = ((-seed.dateline[d] % r) + r) % r;
        }
        std::vector<std::pair<SwitchIdx, Coord>> plan;
        if (bad.empty()) plan.emplace_back(o, O);
        for (unsigned d = 0; d < kTorusDims && bad.empty(); ++d)
            for (unsigned pos = 0; pos < 2 && bad.empty(); ++pos) {
                if (!seed.link[d][pos]) continue;
                const SwitchIdx s = sw_of(seed.link[d][pos]->second);
                Coord C;
                if (s == kNoSwitch)
                    bad = "switch " + hex(seed.link[d][pos]->second) + " is not in the fabric";
                else if (!pl.adjacent(o, s))
                    bad = "no link between " + hex(seed.origin()) + " and " + hex(seed.link[d][pos]->second);
                else if (!t.moved(O, d, pos ? 1 : -1, C))
                    bad = "the dateline puts a seed link outside the mesh";
                else
                    plan.emplace_back(s, C);
            }
        // Two seed links must not name the same switch or the same place.
        for (std::size_t a = 0; a < plan.size() && bad.empty(); ++a)
            for (std::size_t b = a + 1; b < plan.size() && bad.empty(); ++b)
                if ((plan[a].first == plan[b].first) != (plan[a].second == plan[b].second))
                    bad = "its links put one switch at two places (or two at one)";
        if (!bad.empty()) {
            reasons += "; seed at line " + std::to_string(seed.line) + ": " + bad;
            continue;
        }
        for (const auto &[s, c] : plan)
            if (!pl.placed(s)) pl.place(s, c);
        t.seed_used = k;
        return true;
    }
    why = "torus-2QoS: no usable seed in the torus configuration" + reasons;
    return false;
}

}  // namespace

bool build_torus(const Fabric &f, const TorusConfig &cfg, Torus &t, std::string &why) {
    t = Torus{};
    t.radix = cfg.radix;
    for (unsigned d = 0; d < kTorusDims; ++d) t.wrap[d] = !cfg.mesh[d] && cfg.radix[d] >= 3;
    std::size_t positions = 1;
    for (unsigned r : t.radix) positions *= r;
    t.at.assign(positions, kNoSwitch);
    const std::size_t S = f.switch_count();
    t.coord.assign(S, Coord{-1, -1, -1});
    if (S > positions) {
        why = "torus-2QoS: the fabric has " + std::to_string(S) + " switches, the configured " +
              std::to_string(t.radix[0]) + "x" + std::to_string(t.radix[1]) + "x" +
              std::to_string(t.radix[2]) + " torus only " + std::to_string(positions) + " places";
        return false;
    }
    Placer pl(f, t);
    if (!place_seed(f, cfg, t, pl, why)) return false;
    pl.grow();
    for (SwitchIdx s = 0; s < S; ++s)
        if (!pl.placed(s)) {
            why = "torus-2QoS: could not place switch " + switch_name(f, t, s) +
                  " into the torus (radices as configured vs as cabled, or too many failures near it)";
            return false;
        }

    // Port groups by direction, host ports in port_order, and each port's dimension.
    t.group.assign(S, {});
    t.end_ports.assign(S, {});
    t.port_dir.assign(S, {});
    for (SwitchIdx s = 0; s < S; ++s) {
        const NodeIdx n = f.switch_node(s);
        const PortNum np = f.node(n).num_ports;
        t.port_dir[s].assign(std::size_t{np} + 1, static_cast<std::uint8_t>(kEndDir));
        for (PortNum p = 1; p <= np; ++p) {
            const Port &port = f.port(n, p);
            if (!port.linked()) continue;
            const Node &peer = f.node(port.peer);
            if (!peer.is_switch()) {
                t.end_ports[s].push_back(p);
                continue;
            }
            const Coord &P = t.coord[peer.sw];
            bool fits = false;
            for (unsigned d = 0; d < kTorusDims && !fits; ++d)
                for (int sg : {1, -1}) {
                    Coord C;
                    if (t.moved(t.coord[s], d, sg, C) && C == P) {
                        t.group[s][2 * d + (sg > 0 ? 1 : 0)].push_back(p);
                        t.port_dir[s][p] = static_cast<std::uint8_t>(d);
                        fits = true;
                        break;
                    }
                }
            if (!fits) {
                why = "torus-2QoS: the link from " + switch_name(f, t, s) + " port " + std::to_string(p) +
                      " to " + switch_name(f, t, peer.sw) + " does not join torus neighbours";
                return false;
            }
        }
        for (const auto &g : t.group[s])
            if (g.size() > cfg.portgroup_max_ports) {
                why = "torus-2QoS: switch " + switch_name(f, t, s) + " has " + std::to_string(g.size()) +
                      " parallel links in one direction, more than portgroup_max_ports " +
                      std::to_string(cfg.portgroup_max_ports);
                return false;
            }
        if (t.end_ports[s].size() > cfg.portgroup_max_ports) {
            why = "torus-2QoS: switch " + switch_name(f, t, s) + " has " +
                  std::to_string(t.end_ports[s].size()) + " host ports, more than portgroup_max_ports " +
                  std::to_string(cfg.portgroup_max_ports);
            return false;
        }
        auto rank = [&](PortNum p) {
            const auto it = std::find(cfg.port_order.begin(), cfg.port_order.end(), p);
            return std::make_pair(it - cfg.port_order.begin(), p);
        };
        std::stable_sort(t.end_ports[s].begin(), t.end_ports[s].end(),
                         [&](PortNum a, PortNum b) { return rank(a) < rank(b); });
    }
    return true;
}

}  // namespace weft::routing::torus
