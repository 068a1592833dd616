#include "engines/dor_cabling.hpp"

#include <algorithm>
#include <array>

namespace weft::routing::engines {
namespace {

// Union-find over port numbers that also keeps, for each port, its side (parity) relative to
// its class root: a mesh cable joins opposite sides, parallel ports of one switch the same side.
class SidedClasses {
  public:
    SidedClasses() {
        for (unsigned p = 0; p < parent_.size(); ++p) parent_[p] = static_cast<PortNum>(p);
    }
    std::pair<PortNum, unsigned> find(PortNum p) {
        unsigned side = 0;
        PortNum r = p;
        while (parent_[r] != r) side ^= parity_[r], r = parent_[r];
        // Compress: point p straight at the root with its total parity.
        parent_[p] = r, parity_[p] = static_cast<std::uint8_t>(side);
        return {r, side};
    }
    // Joins a and b with relation `opposite`; false if they are already joined the other way.
    bool join(PortNum a, PortNum b, bool opposite) {
        auto [ra, sa] = find(a);
        auto [rb, sb] = find(b);
        const unsigned want = opposite ? 1 : 0;
        if (ra == rb) return (sa ^ sb) == want;
        parent_[rb] = ra, parity_[rb] = static_cast<std::uint8_t>(sa ^ sb ^ want);
        return true;
    }

  private:
    std::array<PortNum, 256> parent_{};
    std::array<std::uint8_t, 256> parity_{};
};

std::string sw(const Fabric &f, SwitchIdx s) {
    return "switch " + switch_name(f, s);
}

std::string port_list(const std::vector<PortNum> &ports) {
    std::string s = "{";
    for (std::size_t i = 0; i < ports.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(ports[i]);
    }
    return s + "}";
}

struct Cable {
    SwitchIdx a;
    PortNum pa;
    SwitchIdx b;
    PortNum pb;
};

}  // namespace

DorCabling check_dor_cabling(const Fabric &f, const SwitchGraph &g) {
    DorCabling out;
    const std::size_t n = g.size();
    std::vector<Cable> cables;
    std::array<bool, 256> used{};
    for (SwitchIdx s = 0; s < n; ++s)
        for (const SwitchLink &l : g.links(s)) {
            used[l.port] = true;
            if (s < l.peer) cables.push_back({s, l.port, l.peer, l.peer_port});
        }
    constexpr std::size_t kMaxProblems = 8;
    std::size_t kept = 0, more = 0;
    // what() formats the line only when it is kept: on a fabric that is not a mesh nearly every
    // switch breaks the picture, and naming switches costs more than routing them.
    auto problem = [&](auto &&what) {
        if (kept < kMaxProblems)
            out.problems.push_back(what()), ++kept;
        else
            ++more;
    };

    SidedClasses cls;
    std::array<bool, 256> self_cabled{};  // port cabled to the same port number (hypercube style)
    for (const Cable &c : cables) {
        if (c.pa == c.pb) {
            self_cabled[c.pa] = true;
            continue;
        }
        if (!cls.join(c.pa, c.pb, true))
            problem([&]() {
                return sw(f, c.a) + " port " + std::to_string(c.pa) + " -> " + sw(f, c.b) + " port " +
                       std::to_string(c.pb) + ": elsewhere ports " + std::to_string(c.pa) + " and " +
                       std::to_string(c.pb) + " point the same way along their dimension";
            });
    }
    // Parallel cables to one neighbour belong to one dimension and one direction.
    for (SwitchIdx s = 0; s < n; ++s) {
        const auto links = g.links(s);
        for (std::size_t i = 0; i < links.size(); ++i)
            for (std::size_t j = i + 1; j < links.size(); ++j)
                if (links[i].peer == links[j].peer && !cls.join(links[i].port, links[j].port, false))
                    problem([&]() {
                        return sw(f, s) + " ports " + std::to_string(links[i].port) + " and " +
                               std::to_string(links[j].port) + " both lead to " + sw(f, links[i].peer) +
                               " but elsewhere point opposite ways along their dimension";
                    });
    }

    // Classes: their ports, and whether they are hypercube (same port both ends) or mesh pairs.
    // Each class by its root, in root order; its ports in port order.
    std::array<PortNum, 256> root_of{};
    std::array<bool, 256> is_root{};
    for (unsigned p = 1; p < 255; ++p)
        if (used[p]) {
            root_of[p] = cls.find(static_cast<PortNum>(p)).first;
            is_root[root_of[p]] = true;
        }
    auto ports_of = [&](PortNum root) {
        std::vector<PortNum> ports;
        for (unsigned p = 1; p < 255; ++p)
            if (used[p] && root_of[p] == root) ports.push_back(static_cast<PortNum>(p));
        return ports;
    };
    std::vector<PortNum> roots;
    for (unsigned r = 0; r < 256; ++r)
        if (is_root[r]) roots.push_back(static_cast<PortNum>(r));
    std::array<bool, 256> has_self{}, has_pair{};  // by class root
    for (const Cable &c : cables) {
        const PortNum r = cls.find(c.pa).first;
        (c.pa == c.pb ? has_self : has_pair)[r] = true;
    }
    for (const PortNum root : roots)
        if (has_self[root] && has_pair[root]) {
            for (const Cable &c : cables)
                if (c.pa == c.pb && cls.find(c.pa).first == root) {
                    problem([&]() {
                        return sw(f, c.a) + " port " + std::to_string(c.pa) + " -> " + sw(f, c.b) + " port " +
                               std::to_string(c.pb) +
                               ": a hypercube-style cable (same port at both ends) in the dimension of "
                               "ports " +
                               port_list(ports_of(root)) + ", whose other cables pair different ports";
                    });
                    break;
                }
        }
    out.dimensions = static_cast<unsigned>(roots.size());

    // One neighbour per dimension and direction at each switch; lower dimensions on lower ports.
    std::array<unsigned, 256> rank{};  // class root -> order of its lowest port
    {
        // Ports ascending: a class is ranked when its lowest port comes up.
        unsigned r = 0;
        std::array<bool, 256> ranked{};
        for (unsigned p = 1; p < 255; ++p)
            if (used[p] && !ranked[root_of[p]]) ranked[root_of[p]] = true, rank[root_of[p]] = r++;
    }
    struct AtSwitch {
        PortNum lo = 255, hi = 0;
        SwitchIdx peer[2] = {kNoSwitch, kNoSwitch};
        PortNum peer_port[2] = {0, 0};
    };
    // plus[r * n + s]: the "+" neighbour of s along the class of rank r.
    std::vector<SwitchIdx> plus(roots.size() * n, kNoSwitch);
    std::vector<AtSwitch> at(roots.size());  // by class rank, for the switch at hand
    std::vector<bool> seen(roots.size());
    for (SwitchIdx s = 0; s < n; ++s) {
        std::fill(at.begin(), at.end(), AtSwitch{});
        std::fill(seen.begin(), seen.end(), false);
        for (const SwitchLink &l : g.links(s)) {
            const auto [root, side_] = cls.find(l.port);
            const unsigned side = side_;
            const unsigned r = rank[root];
            AtSwitch &a = at[r];
            seen[r] = true;
            a.lo = std::min(a.lo, l.port), a.hi = std::max(a.hi, l.port);
            if (a.peer[side] == kNoSwitch) {
                a.peer[side] = l.peer, a.peer_port[side] = l.port;
                if (side == 0 && has_pair[root]) plus[r * n + s] = l.peer;
            } else if (a.peer[side] != l.peer) {
                problem([&]() {
                    return sw(f, s) + " ports " + std::to_string(a.peer_port[side]) + " and " +
                           std::to_string(l.port) +
                           " point the same way along one dimension but lead to different switches, " +
                           sw(f, a.peer[side]) + " and " + sw(f, l.peer);
                });
            }
        }
        const AtSwitch *prev = nullptr;
        for (std::size_t r = 0; r < at.size(); ++r) {
            if (!seen[r]) continue;
            const AtSwitch &a = at[r];
            if (prev && prev->hi > a.lo)
                problem([&]() {
                    return sw(f, s) + " port " + std::to_string(prev->hi) + " is above port " +
                           std::to_string(a.lo) +
                           ", which belongs to a higher dimension: dor takes the lowest min-hop port, so "
                           "lower dimensions must use lower ports on every switch";
                });
            prev = &a;
        }
    }
    if (more) out.problems.push_back("... and " + std::to_string(more) + " more");

    // Rings: following "+" along a mesh dimension comes back to where it started.
    std::vector<std::uint8_t> state;  // 0 new, 1 on the current walk, 2 done
    std::vector<SwitchIdx> walk;
    for (const PortNum root : roots) {
        if (!has_pair[root]) continue;
        const SwitchIdx *const next = plus.data() + std::size_t{rank[root]} * n;
        state.assign(n, 0);
        for (SwitchIdx s0 = 0; s0 < n; ++s0) {
            walk.clear();
            SwitchIdx s = s0;
            while (s != kNoSwitch && state[s] == 0) state[s] = 1, walk.push_back(s), s = next[s];
            if (s != kNoSwitch && state[s] == 1) {
                const auto it = std::find(walk.begin(), walk.end(), s);
                out.rings.push_back("ports " + port_list(ports_of(root)) + " close a ring of " +
                                    std::to_string(walk.end() - it) + " switches through " + sw(f, s) +
                                    " (a torus dimension): dimension order alone does not keep rings "
                                    "free of credit loops; lash or torus-2QoS route tori without them");
                for (SwitchIdx w : walk) state[w] = 2;
                break;
            }
            for (SwitchIdx w : walk) state[w] = 2;
        }
    }
    return out;
}

}  // namespace weft::routing::engines
