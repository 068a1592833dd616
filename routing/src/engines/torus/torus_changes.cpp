// torus-2QoS change report (see torus_changes.hpp).
#include "engines/torus/torus_changes.hpp"

#include <algorithm>

namespace weft::routing::torus {

namespace {

std::string where(const Coord &c) {
    return std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]);
}

std::string remote_text(const TorusSnapshot::Remote &r) {
    return std::string(r.is_switch ? "sw " : "node ") + guid_text(r.node) + "[" + std::to_string(r.port) +
           "]";
}

// Changes of the switch at coordinate c, appended to out; returns how many.
unsigned switch_changes(const Coord &c, const TorusSnapshot::Switch &now, const TorusSnapshot::Switch &before,
                        std::vector<std::string> &out) {
    const std::string at = "torus switch " + where(c);
    if (now.guid && !before.guid) {
        out.push_back("new " + at + " GUID " + guid_text(now.guid));
        return 1;
    }
    if (before.guid && !now.guid) {
        out.push_back("lost " + at + " GUID " + guid_text(before.guid));
        return 1;
    }
    if (!now.guid) return 0;
    unsigned n = 0;
    if (now.guid != before.guid) {
        out.push_back(at + " GUID was " + guid_text(before.guid) + ", now " + guid_text(now.guid));
        ++n;
    }
    if (now.ports != before.ports) {
        out.push_back(at + " GUID " + guid_text(now.guid) + " had " + std::to_string(before.ports) +
                      " ports, now has " + std::to_string(now.ports));
        ++n;
    }
    const std::size_t ports = std::min(now.remote.size(), before.remote.size());
    for (std::size_t p = 0; p < ports; ++p) {
        const auto &a = now.remote[p], &b = before.remote[p];
        if (a.node == b.node) continue;  // as OpenSM: the remote node decides, not its port
        const std::string here =
            at + " GUID " + guid_text(now.guid) + "[" + std::to_string(p) + "] remote now ";
        if (!b.node)
            out.push_back(here + remote_text(a) + ", was missing");
        else if (!a.node)
            out.push_back(here + "missing, was " + remote_text(b));
        else
            out.push_back(here + remote_text(a) + ", was " + remote_text(b));
        ++n;
    }
    return n;
}

}  // namespace

TorusSnapshot snapshot(const Fabric &f, const Torus &t) {
    TorusSnapshot s;
    s.radix = t.radix;
    s.at.resize(t.positions());
    for (std::size_t i = 0; i < t.positions(); ++i) {
        const SwitchIdx sw = t.at[i];
        if (sw == kNoSwitch) continue;
        const NodeIdx n = f.switch_node(sw);
        auto &x = s.at[i];
        x.guid = f.node(n).guid;
        x.ports = f.node(n).num_ports + 1u;
        x.remote.resize(x.ports);
        for (PortNum p = 1; p < x.ports; ++p) {
            const Port &port = f.port(n, p);
            if (!port.linked()) continue;
            const Node &peer = f.node(port.peer);
            x.remote[p] = {peer.guid, port.peer_port, peer.is_switch()};
        }
    }
    return s;
}

std::vector<std::string> torus_changes(const TorusSnapshot &now, const TorusSnapshot &before,
                                       unsigned max_changes) {
    static constexpr char axis[] = {'x', 'y', 'z'};
    std::vector<std::string> out;
    unsigned count = 0;
    std::array<unsigned, kTorusDims> common = now.radix;  // coordinates both tori have
    for (unsigned d = 0; d < kTorusDims; ++d)
        if (now.radix[d] != before.radix[d]) {
            ++count;
            out.push_back(std::string("torus ") + axis[d] + " radix was " + std::to_string(before.radix[d]) +
                          " now " + std::to_string(now.radix[d]));
            common[d] = std::min(now.radix[d], before.radix[d]);
        }
    auto index = [](const std::array<unsigned, kTorusDims> &r, const Coord &c) {
        return static_cast<std::size_t>(c[0]) + r[0] * (static_cast<std::size_t>(c[1]) + r[1] * c[2]);
    };
    for (int z = 0; z < static_cast<int>(common[2]); ++z)
        for (int y = 0; y < static_cast<int>(common[1]); ++y)
            for (int x = 0; x < static_cast<int>(common[0]); ++x) {
                const Coord c{x, y, z};
                count +=
                    switch_changes(c, now.at[index(now.radix, c)], before.at[index(before.radix, c)], out);
                if (count > max_changes) {
                    out.push_back("too many torus changes; stopping reporting early");
                    return out;
                }
            }
    return out;
}

}  // namespace weft::routing::torus
