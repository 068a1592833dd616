// VF LIDs routed as their PF: for engines that know nothing of VMs.
#include "engines/engines.hpp"

namespace weft::routing::engines {

void copy_vf_routes(const Fabric &f, RoutingTables &t) {
    if (!f.has_vswitches()) return;
    std::vector<std::pair<Lid, Lid>> copies;  // (VF LID, PF LID)
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        if (!f.node(n).vswitch) continue;
        const Lid pf = f.port(n, kVswitchPort).lid;
        for (const VirtualFunction &v : f.vfs(n))
            if (v.lid && pf) copies.emplace_back(v.lid, pf);
    }
    for (std::size_t s = 0; s < t.lft.size(); ++s) {
        auto &lft = t.lft[s];
        auto &hops = t.hops[s];
        for (auto [vf, pf] : copies) {
            lft[vf] = lft[pf];
            hops[vf] = hops[pf];
        }
        if (!t.path_sl.empty())
            for (auto [vf, pf] : copies) t.path_sl[s][vf] = t.path_sl[s][pf];
    }
}

}  // namespace weft::routing::engines
