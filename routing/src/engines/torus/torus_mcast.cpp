// torus-2QoS multicast master spanning tree and group trees (see torus_mcast.hpp).
#include "engines/torus/torus_mcast.hpp"

#include <algorithm>

namespace weft::routing::torus {

namespace {

SwitchIdx ring_next(const Fabric &f, const Torus &t, SwitchIdx s, unsigned d, int sign) {
    const auto &g = t.group[s][2 * d + (sign > 0 ? 1 : 0)];
    if (g.empty()) return kNoSwitch;
    return f.node(f.port(f.switch_node(s), g.front()).peer).sw;
}

int canon(int v, unsigned r) {
    return ((v % static_cast<int>(r)) + static_cast<int>(r)) % static_cast<int>(r);
}

class TreeBuilder {
  public:
    TreeBuilder(const Fabric &f, const Torus &t, MasterTree &m) : f_(f), t_(t), m_(m) {}

    bool in_tree(SwitchIdx s) const { return s == m_.root || m_.to_root[s] >= 0; }

    // Grows `tip` by one switch along d in direction sign; returns the new tip or kNoSwitch.
    SwitchIdx grow(SwitchIdx tip, unsigned d, int sign) {
        const SwitchIdx n = ring_next(f_, t_, tip, d, sign);
        if (n == kNoSwitch || in_tree(n)) return kNoSwitch;
        m_.to_tip[tip][2 * d + (sign > 0 ? 1 : 0)] = true;
        m_.to_root[n] = static_cast<int>(2 * d + (sign > 0 ? 0 : 1));
        return n;
    }

    // Both ways along d from `from`, up to the dateline; past it only if one way was blocked
    // (then the ring is broken and crossing its dateline cannot close a ring credit loop).
    void branch(SwitchIdx from, unsigned d) {
        const unsigned cnt = t_.radix[d];
        if (cnt < 2) return;
        const int idx = t_.coord[from][d];
        SwitchIdx neg = from, pos = from;
        for (int l = idx; neg != kNoSwitch && l >= 1; --l) neg = grow(neg, d, -1);
        for (int l = idx; pos != kNoSwitch && l < static_cast<int>(cnt) - 1; ++l) pos = grow(pos, d, 1);
        if (neg != kNoSwitch && pos != kNoSwitch) return;
        for (unsigned l = 0; l < cnt && (neg != kNoSwitch || pos != kNoSwitch); ++l) {
            if (neg != kNoSwitch) neg = grow(neg, d, -1);
            if (pos != kNoSwitch) pos = grow(pos, d, 1);
        }
    }

  private:
    const Fabric &f_;
    const Torus &t_;
    MasterTree &m_;
};

bool whole_rings(const Torus &t, const Coord &c) {
    for (unsigned d = 0; d < 2; ++d)
        for (unsigned k = 0; k < t.radix[d]; ++k) {
            Coord x = c;
            x[d] = static_cast<int>(k);
            if (t.switch_at(x) == kNoSwitch) return false;
        }
    return true;
}

// Near the middle of plane z: (xm, ym), then diagonal steps away from it.
SwitchIdx plane_mid(const Torus &t, int z) {
    const int xm = static_cast<int>(t.radix[0] / 2), ym = static_cast<int>(t.radix[1] / 2);
    if (whole_rings(t, {xm, ym, z})) return t.switch_at({xm, ym, z});
    for (int dd = 1; dd <= xm && dd <= ym; ++dd)
        for (int sg : {-1, 1}) {
            const Coord c{canon(xm + sg * dd, t.radix[0]), canon(ym + sg * dd, t.radix[1]), z};
            if (whole_rings(t, c)) return t.switch_at(c);
        }
    return kNoSwitch;
}

bool whole_plane(const Torus &t, int z) {
    for (unsigned y = 0; y < t.radix[1]; ++y)
        for (unsigned x = 0; x < t.radix[0]; ++x)
            if (t.switch_at({static_cast<int>(x), static_cast<int>(y), z}) == kNoSwitch) return false;
    return true;
}

SwitchIdx find_root(const Torus &t) {
    const int zm = static_cast<int>(t.radix[2] / 2);
    for (int dz = 0; dz <= zm; ++dz)
        for (int sg : {-1, 1}) {
            if (dz == 0 && sg > 0) continue;
            const int z = canon(zm + sg * dz, t.radix[2]);
            if (whole_plane(t, z))
                if (const SwitchIdx r = plane_mid(t, z); r != kNoSwitch) return r;
        }
    // Only a column of missing switches along z is routable; any switch of the middle plane
    // with whole rings will do.
    return plane_mid(t, zm);
}

}  // namespace

bool build_master_tree(const Fabric &f, const Torus &t, MasterTree &m, std::string &why) {
    const std::size_t S = f.switch_count();
    m = MasterTree{};
    m.to_root.assign(S, -1);
    m.to_tip.assign(S, {});
    m.root = find_root(t);
    if (m.root == kNoSwitch) {
        why = "torus-2QoS: no switch with whole x and y rings for the multicast master spanning tree root";
        return false;
    }
    TreeBuilder b(f, t, m);
    b.branch(m.root, 0);
    const Coord r = t.coord[m.root];
    for (unsigned i = 0; i < t.radix[0]; ++i) {
        if (const SwitchIdx s = t.switch_at({static_cast<int>(i), r[1], r[2]}); s != kNoSwitch)
            b.branch(s, 1);
        for (unsigned j = 0; j < t.radix[1]; ++j)
            if (const SwitchIdx s = t.switch_at({static_cast<int>(i), static_cast<int>(j), r[2]});
                s != kNoSwitch)
                b.branch(s, 2);
    }
    for (SwitchIdx s = 0; s < S; ++s)
        if (!b.in_tree(s)) {
            why = "torus-2QoS: switch " + switch_name(f, t, s) +
                  " is not on the multicast master spanning tree";
            return false;
        }
    return true;
}

bool group_tree(const Fabric &f, const Torus &t, const MasterTree &m, const McastGroup &g, McastTree &out,
                std::string &why) {
    const std::size_t S = f.switch_count();
    out.mlid = g.mlid;
    out.ports.assign(S, {});
    std::vector<std::vector<PortNum>> member_ports(S);
    for (const LidOwner &o : g.members) {
        const Node &n = f.node(o.node);
        if (n.is_switch()) {
            member_ports[n.sw].push_back(0);
            continue;
        }
        const Port &p = f.port(o.node, o.port);
        if (!p.linked() || !f.node(p.peer).is_switch()) {
            why = "torus-2QoS: multicast member '" + n.desc + "' port " + std::to_string(o.port) +
                  " is not cabled to a switch";
            return false;
        }
        member_ports[f.node(p.peer).sw].push_back(p.peer_port);
    }
    // Post-order over the master tree: a switch is on the group tree if a member hangs below it.
    std::vector<SwitchIdx> order{m.root};
    for (std::size_t i = 0; i < order.size(); ++i)
        for (unsigned gi = 0; gi < kGroups; ++gi)
            if (m.to_tip[order[i]][gi]) {
                const PortNum p = t.group[order[i]][gi].front();
                order.push_back(f.node(f.port(f.switch_node(order[i]), p).peer).sw);
            }
    std::vector<char> used(S, 0);
    for (std::size_t i = order.size(); i-- > 0;) {
        const SwitchIdx s = order[i];
        auto &ports = out.ports[s];
        ports = member_ports[s];
        const NodeIdx n = f.switch_node(s);
        for (unsigned gi = 0; gi < kGroups; ++gi) {
            if (!m.to_tip[s][gi]) continue;
            // Parallel links: one per MLID, so different groups spread over them.
            const auto &grp = t.group[s][gi];
            const PortNum p = grp[g.mlid % grp.size()];
            const Port &link = f.port(n, p);
            const SwitchIdx child = f.node(link.peer).sw;
            if (!used[child]) continue;
            ports.push_back(p);
            out.ports[child].push_back(link.peer_port);  // and back up towards the root
        }
        used[s] = !ports.empty();
    }
    for (auto &p : out.ports) {
        std::sort(p.begin(), p.end());
        p.erase(std::unique(p.begin(), p.end()), p.end());
    }
    return true;
}

}  // namespace weft::routing::torus
