#include "weft/sm/arn_group.hpp"

#include <algorithm>
#include <map>

#include "weft/routing/auto_choice.hpp"

namespace weft::sm {

namespace {

using routing::NodeIdx;
using routing::SwitchIdx;

bool switch_link(const routing::Fabric &f, NodeIdx n, PortNum p) {
    const routing::Port &x = f.port(n, p);
    return x.linked() && f.node(x.peer).is_switch();
}

}  // namespace

std::vector<std::uint16_t> dragonfly_groups(const routing::Fabric &f) {
    const std::vector<std::uint32_t> seen = routing::choose_routing(f, {}).groups;
    if (seen.empty()) return {};
    std::map<std::uint32_t, std::uint64_t> lowest;  // the recogniser's number -> lowest GUID
    for (SwitchIdx s = 0; s < seen.size(); ++s) {
        const std::uint64_t guid = f.node(f.switch_node(s)).guid;
        auto [it, fresh] = lowest.emplace(seen[s], guid);
        if (!fresh) it->second = std::min(it->second, guid);
    }
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
    for (const auto &[g, guid] : lowest) order.emplace_back(guid, g);
    std::sort(order.begin(), order.end());
    std::map<std::uint32_t, std::uint16_t> number;
    for (std::size_t i = 0; i < order.size(); ++i) number[order[i].second] = static_cast<std::uint16_t>(i);
    std::vector<std::uint16_t> out(seen.size());
    for (SwitchIdx s = 0; s < seen.size(); ++s) out[s] = number[seen[s]];
    return out;
}

void add_arn_groups(const routing::Fabric &f, const std::vector<std::uint16_t> &group,
                    std::vector<EthernetTable> &tables) {
    if (group.size() != f.switch_count()) return;
    // Per group: its local and global links, each once.
    std::map<std::uint16_t, std::vector<ArnGroupEntry>> links;
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        const NodeIdx n = f.switch_node(s);
        const std::uint64_t guid = f.node(n).guid;
        for (PortNum p = 1; p <= f.node(n).num_ports && p <= kMaxPortNum; ++p) {
            if (!switch_link(f, n, p)) continue;
            const routing::Port &x = f.port(n, p);
            const SwitchIdx peer = f.node(x.peer).sw;
            const std::uint64_t peer_guid = f.node(x.peer).guid;
            ArnGroupEntry e;
            if (group[peer] == group[s]) {
                if (peer_guid < guid || (peer_guid == guid && x.peer_port < p)) continue;  // the other end's
                if (peer_guid == guid || x.peer_port > kMaxPortNum) continue;  // no such link to tell
                e = {ArnEntryKind::kLocalLink, guid, p, peer_guid, x.peer_port, 0, 0};
            } else {
                e = {ArnEntryKind::kGlobalLink, guid, p, 0, 0, group[peer], 0};
            }
            links[group[s]].push_back(e);
        }
    }
    for (auto &[g, list] : links) std::sort(list.begin(), list.end());
    for (SwitchIdx s = 0; s < f.switch_count(); ++s) {
        EthernetTable &t = tables[s];
        t.arn = links[group[s]];
        for (const EthernetGroup &x : t.groups) {
            const auto leaf = f.lid_owner(x.id);
            if (!leaf || !f.node(leaf->node).is_switch()) continue;
            const std::uint16_t dest = group[f.node(leaf->node).sw];
            if (dest != group[s]) t.arn.push_back({ArnEntryKind::kDestination, 0, 0, 0, 0, dest, x.id});
        }
        if (t.arn.size() > kMaxArnEntries) t.arn.clear();  // a group too big to tell: configured instead
    }
}

}  // namespace weft::sm
