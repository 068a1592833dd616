#include "weft/sm/ethernet_table.hpp"

#include <algorithm>
#include <optional>

namespace weft::sm {

const EthernetGroup *EthernetTable::group(std::uint16_t id) const {
    auto it = std::lower_bound(groups.begin(), groups.end(), id,
                               [](const EthernetGroup &g, std::uint16_t x) { return g.id < x; });
    return it != groups.end() && it->id == id ? &*it : nullptr;
}

EthernetBlocks split_ethernet_table(const EthernetTable &t) {
    EthernetBlocks b;
    for (const EthernetGroup &g : t.groups) {
        std::vector<GroupMemberSlot> members;
        for (PortNum p : g.primary) members.push_back({p, MemberRole::kPrimary});
        for (PortNum p : g.alternate) members.push_back({p, MemberRole::kAlternate});
        for (unsigned k = 0; k < NextHopGroupBlock::blocks_for(static_cast<unsigned>(members.size())); ++k) {
            NextHopGroupBlock x;
            x.group = g.id;
            x.block = static_cast<std::uint8_t>(k);
            x.members = static_cast<std::uint16_t>(members.size());
            x.fixed = g.fixed;
            x.mode = g.mode;
            x.ars_object = g.ars_object;
            for (unsigned i = 0; i < kGroupMembersPerBlock && k * kGroupMembersPerBlock + i < members.size();
                 ++i)
                x.slots[i] = members[k * kGroupMembersPerBlock + i];
            b.groups.emplace(x.attr_mod(), x);
        }
    }
    for (std::size_t i = 0; i < t.routes.size(); ++i) {
        RoutesBlock &x = b.routes[static_cast<std::uint32_t>(i / kRoutesPerBlock)];
        x.block = static_cast<std::uint16_t>(i / kRoutesPerBlock);
        x.entries[i % kRoutesPerBlock] = t.routes[i];
    }
    for (std::size_t i = 0; i < t.arn.size(); ++i) {
        ArnGroupBlock &x = b.arn[static_cast<std::uint32_t>(i / kArnEntriesPerBlock)];
        x.block = static_cast<std::uint16_t>(i / kArnEntriesPerBlock);
        x.entries[i % kArnEntriesPerBlock] = t.arn[i];
    }
    return b;
}

const char *refusal_name(EthernetRefusal why) {
    switch (why) {
        case EthernetRefusal::kNoStaging:
            return "no-staging";
        case EthernetRefusal::kMalformed:
            return "malformed";
        case EthernetRefusal::kUnknownPort:
            return "unknown-port";
        case EthernetRefusal::kGeneration:
            return "generation";
        case EthernetRefusal::kMissingBlock:
            return "missing-block";
        case EthernetRefusal::kCountMismatch:
            return "count-mismatch";
        case EthernetRefusal::kBadGroupReference:
            return "bad-group-reference";
        case EthernetRefusal::kDuplicate:
            return "duplicate";
        case EthernetRefusal::kInconsistentGroup:
            return "inconsistent-group";
        case EthernetRefusal::kFixedNotPrimary:
            return "fixed-not-primary";
        case EthernetRefusal::kTooManyMembers:
            return "too-many-members";
        case EthernetRefusal::kTooManyRoutes:
            return "too-many-routes";
        case EthernetRefusal::kTooManyGroups:
            return "too-many-groups";
        case EthernetRefusal::kCount:
            break;
    }
    return "?";
}

namespace {

using Assembled = std::variant<EthernetTable, EthernetFault>;

EthernetFault fault(EthernetRefusal why, std::string what) {
    return {why, std::move(what)};
}

std::string group_name(std::uint16_t id) {
    return "group " + std::to_string(id);
}

// One group from its blocks (block 0 has members), or why not.
std::variant<EthernetGroup, EthernetFault> assemble_group(const EthernetBlocks &s,
                                                          const NextHopGroupBlock &head,
                                                          const EthernetLimits &limits) {
    EthernetGroup g;
    g.id = head.group;
    g.ars_object = head.ars_object;
    g.mode = head.mode;
    g.fixed = head.fixed;
    std::array<bool, 256> seen{};
    for (unsigned k = 0; k < NextHopGroupBlock::blocks_for(head.members); ++k) {
        auto it = s.groups.find(NextHopGroupBlock::attr_mod_of(head.group, k));
        if (it == s.groups.end())
            return fault(EthernetRefusal::kMissingBlock,
                         group_name(g.id) + ": block " + std::to_string(k) + " was not written");
        const NextHopGroupBlock &b = it->second;
        if (b.members != head.members || b.fixed != head.fixed || b.mode != head.mode ||
            b.ars_object != head.ars_object)
            return fault(
                EthernetRefusal::kInconsistentGroup,
                group_name(g.id) + ": block " + std::to_string(k) + " has another header than block 0");
        for (unsigned i = 0; i < kGroupMembersPerBlock && k * kGroupMembersPerBlock + i < head.members; ++i) {
            const GroupMemberSlot &m = b.slots[i];
            if (m.port > limits.num_ports)
                return fault(EthernetRefusal::kUnknownPort,
                             group_name(g.id) + ": member port " + std::to_string(m.port) + " is not a port");
            if (seen[m.port])
                return fault(EthernetRefusal::kDuplicate,
                             group_name(g.id) + ": port " + std::to_string(m.port) + " twice");
            seen[m.port] = true;
            (m.role == MemberRole::kPrimary ? g.primary : g.alternate).push_back(m.port);
        }
    }
    if (g.fixed > limits.num_ports)
        return fault(EthernetRefusal::kUnknownPort,
                     group_name(g.id) + ": fixed port " + std::to_string(g.fixed) + " is not a port");
    if (std::find(g.primary.begin(), g.primary.end(), g.fixed) == g.primary.end())
        return fault(EthernetRefusal::kFixedNotPrimary,
                     group_name(g.id) + ": fixed port " + std::to_string(g.fixed) + " is not a primary");
    if (g.primary.size() > limits.max_primaries || g.alternate.size() > limits.max_alternates)
        return fault(EthernetRefusal::kTooManyMembers,
                     group_name(g.id) + ": " + std::to_string(g.primary.size()) + " primaries and " +
                         std::to_string(g.alternate.size()) + " alternates, the switch takes " +
                         std::to_string(limits.max_primaries) + " and " +
                         std::to_string(limits.max_alternates));
    return g;
}

// The ARN group's entries 0..arn-1 into t: every block they need written, nothing past them, a
// destination's next-hop group among t's groups.
std::optional<EthernetFault> assemble_arn(const EthernetBlocks &s, std::uint32_t arn, EthernetTable &t) {
    const std::uint32_t blocks = (arn + kArnEntriesPerBlock - 1) / kArnEntriesPerBlock;
    for (std::uint32_t b = 0; b < blocks; ++b) {
        auto it = s.arn.find(b);
        if (it == s.arn.end())
            return fault(EthernetRefusal::kMissingBlock,
                         "ARN group block " + std::to_string(b) + " was not written");
        for (unsigned i = 0; i < kArnEntriesPerBlock; ++i) {
            const ArnGroupEntry &e = it->second.entries[i];
            const std::uint32_t n = b * kArnEntriesPerBlock + i;
            const bool empty = e.kind == ArnEntryKind::kEmpty;
            if (n < arn && empty)
                return fault(EthernetRefusal::kMissingBlock, "ARN entry " + std::to_string(n) + " is empty");
            if (n >= arn && !empty)
                return fault(
                    EthernetRefusal::kCountMismatch,
                    "ARN entry " + std::to_string(n) + " is set, the commit has " + std::to_string(arn));
            if (n >= arn) continue;
            if (e.kind == ArnEntryKind::kDestination && !t.group(e.nhg))
                return fault(EthernetRefusal::kBadGroupReference, "ARN entry " + std::to_string(n) +
                                                                      ": group " + std::to_string(e.nhg) +
                                                                      " is not in the table");
            t.arn.push_back(e);
        }
    }
    return std::nullopt;
}

}  // namespace

Assembled assemble_ethernet_table(const EthernetBlocks &s, std::uint32_t routes, std::uint32_t groups,
                                  const EthernetLimits &limits, std::uint32_t arn) {
    EthernetTable t;
    if (routes > limits.max_routes)
        return fault(EthernetRefusal::kTooManyRoutes, std::to_string(routes) + " routes, the switch takes " +
                                                          std::to_string(limits.max_routes));
    if (groups > limits.max_groups)
        return fault(EthernetRefusal::kTooManyGroups, std::to_string(groups) + " groups, the switch takes " +
                                                          std::to_string(limits.max_groups));
    const std::uint32_t route_blocks = (routes + kRoutesPerBlock - 1) / kRoutesPerBlock;
    for (std::uint32_t b = 0; b < route_blocks; ++b) {
        auto it = s.routes.find(b);
        if (it == s.routes.end())
            return fault(EthernetRefusal::kMissingBlock,
                         "routes block " + std::to_string(b) + " was not written");
        for (unsigned i = 0; i < kRoutesPerBlock; ++i) {
            const EthernetRoute &r = it->second.entries[i];
            const std::uint32_t n = b * kRoutesPerBlock + i;
            if (n < routes && r.prefix.empty())
                return fault(EthernetRefusal::kMissingBlock, "route " + std::to_string(n) + " is empty");
            if (n >= routes && !r.prefix.empty())
                return fault(
                    EthernetRefusal::kCountMismatch,
                    "route " + std::to_string(n) + " is set, the commit has " + std::to_string(routes));
            if (n < routes) t.routes.push_back(r);
        }
    }
    std::vector<IpPrefix> prefixes;
    for (const EthernetRoute &r : t.routes) prefixes.push_back(r.prefix);
    std::sort(prefixes.begin(), prefixes.end());
    if (auto d = std::adjacent_find(prefixes.begin(), prefixes.end()); d != prefixes.end())
        return fault(EthernetRefusal::kDuplicate, "prefix " + d->to_string() + " twice");
    for (const auto &[mod, head] : s.groups) {
        if (head.block != 0 || head.members == 0) continue;
        auto g = assemble_group(s, head, limits);
        if (auto *f = std::get_if<EthernetFault>(&g)) return std::move(*f);
        t.groups.push_back(std::move(std::get<EthernetGroup>(g)));
    }
    std::sort(t.groups.begin(), t.groups.end(),
              [](const EthernetGroup &a, const EthernetGroup &b) { return a.id < b.id; });
    if (t.groups.size() != groups)
        return fault(EthernetRefusal::kCountMismatch, "staging holds " + std::to_string(t.groups.size()) +
                                                          " groups, the commit has " +
                                                          std::to_string(groups));
    for (std::size_t i = 0; i < t.routes.size(); ++i)
        if (!t.group(t.routes[i].group))
            return fault(EthernetRefusal::kBadGroupReference,
                         "route " + std::to_string(i) + " (" + t.routes[i].prefix.to_string() + "): group " +
                             std::to_string(t.routes[i].group) + " is not in the table");
    if (auto f = assemble_arn(s, arn, t)) return std::move(*f);
    return t;
}

}  // namespace weft::sm
