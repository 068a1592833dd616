#include "weft/sm/ethernet_compiler.hpp"

#include "weft/sm/arn_group.hpp"

#include <algorithm>
#include <cstdio>

namespace weft::sm {

namespace {

std::string switch_name(const routing::Fabric &f, routing::NodeIdx n) {
    char guid[24];
    std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(f.node(n).guid));
    return "'" + f.node(n).desc + "' (" + guid + ")";
}

// A group as the switch takes it: within `limits`, the fixed member always kept.
EthernetGroup make_group(std::uint16_t id, const routing::ArsGroup &a, const EthernetCompileOptions &o,
                         const EthernetLimits *limits, std::size_t &left_out) {
    EthernetGroup g;
    g.id = id;
    g.ars_object = o.ars_object;
    g.mode = o.mode;
    g.fixed = a.fixed;
    g.primary.assign(a.primary.begin(), a.primary.end());
    g.alternate.assign(a.alternate.begin(), a.alternate.end());
    if (!limits) return g;
    if (g.alternate.size() > limits->max_alternates) {
        left_out += g.alternate.size() - limits->max_alternates;
        g.alternate.resize(limits->max_alternates);
    }
    const std::size_t max_primaries = std::max<std::size_t>(limits->max_primaries, 1);
    while (g.primary.size() > max_primaries) {
        // The last primary that is not the fixed one.
        auto it = std::find_if(g.primary.rbegin(), g.primary.rend(), [&](PortNum p) { return p != g.fixed; });
        g.primary.erase(std::next(it).base());
        ++left_out;
    }
    return g;
}

}  // namespace

std::vector<EthernetTable> compile_ethernet_tables(const routing::Fabric &f, const routing::ArsGroups &g,
                                                   const LearnedSubnets &subnets,
                                                   const EthernetCompileOptions &o,
                                                   EthernetCompileReport *report) {
    EthernetCompileReport local;
    EthernetCompileReport &r = report ? *report : local;
    std::vector<EthernetTable> tables(f.switch_count());
    // Who owns each prefix: the first destination (switch order) to announce it.
    std::map<IpPrefix, std::size_t> owner;
    std::vector<std::uint16_t> group_id(g.destinations.size(), 0);
    for (std::size_t d = 0; d < g.destinations.size(); ++d) {
        const routing::NodeIdx leaf = f.switch_node(g.destinations[d].sw);
        const routing::Lid lid = f.port(leaf, 0).lid;
        if (lid == 0 || lid > 0xFFFF) {
            r.problems.push_back("leaf " + switch_name(f, leaf) + " has no LID: its subnets are not routed");
            continue;
        }
        group_id[d] = static_cast<std::uint16_t>(lid);
        auto it = subnets.find(f.node(leaf).guid);
        if (it == subnets.end()) continue;
        for (const HostSubnet &s : it->second) {
            auto [at, fresh] = owner.emplace(s.prefix, d);
            if (!fresh && at->second != d)
                r.problems.push_back("prefix " + s.prefix.to_string() + " of " + switch_name(f, leaf) +
                                     " is also " +
                                     switch_name(f, f.switch_node(g.destinations[at->second].sw)) +
                                     "'s: routed to the latter only");
        }
    }
    // Leaves that announced subnets but are no destination (no CA port with a LID).
    for (const auto &[guid, list] : subnets) {
        const auto n = f.find_guid(guid);
        const bool known = n && std::any_of(g.destinations.begin(), g.destinations.end(),
                                            [&](const auto &d) { return f.switch_node(d.sw) == *n; });
        if (!list.empty() && !known)
            r.problems.push_back("switch " + (n ? switch_name(f, *n) : std::to_string(guid)) + " announced " +
                                 std::to_string(list.size()) +
                                 " subnets but is no ARS destination: not routed");
    }
    for (routing::SwitchIdx s = 0; s < f.switch_count(); ++s) {
        EthernetTable &t = tables[s];
        const std::uint64_t guid = f.node(f.switch_node(s)).guid;
        auto lim = o.limits.find(guid);
        const EthernetLimits *limits = lim == o.limits.end() ? nullptr : &lim->second;
        std::vector<bool> used(g.destinations.size(), false);
        for (const auto &[prefix, d] : owner) {
            if (g.destinations[d].sw == s || !group_id[d]) continue;  // its own: a local route
            if (g.group(d, s).fixed == routing::kNoPort) {
                ++r.unrouted;
                continue;
            }
            used[d] = true;
            t.routes.push_back({prefix, group_id[d]});
        }
        for (std::size_t d = 0; d < g.destinations.size(); ++d)
            if (used[d])
                t.groups.push_back(make_group(group_id[d], g.group(d, s), o, limits, r.members_left_out));
        std::sort(t.groups.begin(), t.groups.end(),
                  [](const EthernetGroup &a, const EthernetGroup &b) { return a.id < b.id; });
        r.groups += t.groups.size();
        r.routes += t.routes.size();
    }
    if (o.arn) add_arn_groups(f, dragonfly_groups(f), tables);
    return tables;
}

}  // namespace weft::sm
