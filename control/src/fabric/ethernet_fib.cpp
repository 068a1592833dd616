// EthernetFib: the SM's Ethernet/RoCE table into the ARS state and the FIB builder.
#include "weft/control/fabric/ethernet_fib.hpp"

#include <algorithm>
#include <set>

#include "weft/control/ars_apply.hpp"

namespace weft::control::fabric {

namespace dp = weft::dataplane;

static_assert(kFabricNhgEnd <= ars::Capabilities{}.max_ecmp_groups, "fabric NHG ids are ARS NHG ids");

dp::IpPrefix to_dataplane(const sm::IpPrefix &p) {
    dp::IpPrefix out;
    out.addr.v6 = p.family == sm::IpFamily::kIpv6;
    out.addr.bytes = p.addr;
    out.len = p.len;
    return out;
}

namespace {

ars::Mode mode_of(sm::EthernetArsMode m) {
    // The attribute carries weft::ars::Mode's numbers (VENDOR_ATTRIBUTES.md).
    return static_cast<ars::Mode>(static_cast<std::uint8_t>(m));
}

bool same_members(const std::vector<dp::NhgMemberSpec> &a, const std::vector<dp::NhgMemberSpec> &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto &x, const auto &y) {
        return x.port == y.port && x.via == y.via && x.weight == y.weight;
    });
}

bool uses_object(const sm::EthernetTable &t, std::uint16_t object) {
    return std::any_of(t.groups.begin(), t.groups.end(),
                       [&](const sm::EthernetGroup &g) { return g.ars_object == object; });
}

}  // namespace

std::variant<FabricArsPlan, std::string> plan_fabric_ars(const ArsState &state,
                                                         const sm::EthernetTable &table,
                                                         const std::map<std::uint16_t, std::uint32_t> &slots,
                                                         const std::set<std::uint16_t> &created) {
    FabricArsPlan plan;
    plan.state = state;
    std::erase_if(plan.state.nhgs, [](const auto &kv) { return is_sm_nhg(kv.first); });
    for (std::uint16_t o : created)
        if (!uses_object(table, o)) plan.state.objects.erase(o);

    // Ids: a group that stays keeps its NHG id (its flowlets and counters stay with it).
    std::set<std::uint32_t> taken;
    for (const sm::EthernetGroup &g : table.groups)
        if (const auto it = slots.find(g.id); it != slots.end()) {
            plan.slots[g.id] = it->second;
            taken.insert(it->second);
        }
    std::uint32_t next_free = kFabricNhgFirst;
    for (const sm::EthernetGroup &g : table.groups) {
        if (plan.slots.count(g.id) != 0) continue;
        while (taken.count(next_free) != 0) ++next_free;
        if (next_free >= kConnectedNhgFirst)
            return "more than " + std::to_string(kSmNhgs) + " groups: group " + std::to_string(g.id) +
                   " has no NHG id left";
        plan.slots[g.id] = next_free;
        taken.insert(next_free);
    }

    for (const sm::EthernetGroup &g : table.groups) {
        ars::NhgConfig n;
        n.id = plan.slots[g.id];
        if (g.ars_object != sm::kNoEthernetArsObject) {
            n.ars_object = g.ars_object;
            const auto it = plan.state.objects.find(g.ars_object);
            if (it == plan.state.objects.end() || created.count(g.ars_object) != 0) {
                ars::ArsObjectConfig o = it == plan.state.objects.end() ? ars::ArsObjectConfig{} : it->second;
                o.id = g.ars_object;
                o.mode = mode_of(g.mode);
                plan.state.objects[o.id] = o;
                plan.created.insert(o.id);
            }
        }
        const bool fixed = g.mode == sm::EthernetArsMode::kFixed && g.fixed != 0;
        const std::vector<sm::PortNum> primaries = fixed ? std::vector<sm::PortNum>{g.fixed} : g.primary;
        for (const auto &[ports, role] : {std::pair{&primaries, ars::MemberRole::kPrimary},
                                          std::pair{&g.alternate, ars::MemberRole::kAlternate}})
            for (const sm::PortNum p : *ports) {
                if (p == 0) return "group " + std::to_string(g.id) + ": port 0 is no member";
                ars::NhgMember m;
                m.member_id = static_cast<std::uint32_t>(n.members.size());
                m.target = ars::EgressTarget::port(static_cast<std::uint16_t>(p - 1));
                m.role = role;
                n.members.push_back(m);
            }
        plan.state.nhgs[n.id] = n;
    }
    return plan;
}

std::optional<std::string> EthernetFib::write_fib(CommandContext &ctx, const sm::EthernetTable &table,
                                                  const std::map<std::uint16_t, std::uint32_t> &slots) {
    // Only the difference goes in: groups are replaced in place, routes re-pointed, and what the
    // new table lacks leaves last, so every address keeps a route while the batch is built and
    // the flowlets of groups that stay are not disturbed.
    dp::FibBuilder &fib = *ctx.fib;
    std::set<std::uint32_t> groups;
    for (const sm::EthernetGroup &g : table.groups) {
        const std::uint32_t id = slots.at(g.id);
        const auto it = ctx.ars.nhgs.find(id);
        if (it == ctx.ars.nhgs.end()) return "group " + std::to_string(g.id) + " is not in the ARS state";
        std::vector<dp::NhgMemberSpec> members = ars_dataplane_members(ctx.ars, it->second);
        if (const auto have = fib.nhgs().find(id); have == fib.nhgs().end() ||
                                                   have->second.mode != dp::NhgMode::Ars ||
                                                   !same_members(have->second.members, members))
            if (dp::Status s = fib.set_nhg(id, std::move(members), dp::NhgMode::Ars); !s.ok())
                return "group " + std::to_string(g.id) + ": " + s.message();
        groups.insert(id);
    }
    std::set<dp::IpPrefix> routes;
    for (const sm::EthernetRoute &r : table.routes) {
        const auto slot = slots.find(r.group);
        if (slot == slots.end())
            return "route " + r.prefix.to_string() + ": no group " + std::to_string(r.group);
        const dp::IpPrefix prefix = to_dataplane(r.prefix);
        routes.insert(prefix);
        if (const auto have = fib.routes().find(prefix);
            have != fib.routes().end() && have->second == slot->second)
            continue;
        if (dp::Status s = fib.add_route(prefix, slot->second); !s.ok())
            return "route " + r.prefix.to_string() + ": " + s.message();
    }
    std::vector<dp::IpPrefix> old_routes;
    for (const auto &[prefix, nhg] : fib.routes())
        if (is_sm_nhg(nhg) && routes.count(prefix) == 0) old_routes.push_back(prefix);
    for (const dp::IpPrefix &p : old_routes)
        if (dp::Status s = fib.del_route(p); !s.ok()) return s.message();
    std::vector<std::uint32_t> old_nhgs;
    for (const auto &[id, spec] : fib.nhgs())
        if (is_sm_nhg(id) && groups.count(id) == 0) old_nhgs.push_back(id);
    for (const std::uint32_t id : old_nhgs)
        if (dp::Status s = fib.del_nhg(id); !s.ok()) return s.message();
    return std::nullopt;
}

std::optional<std::string> EthernetFib::apply(CommandContext &ctx, const sm::EthernetTable &table) {
    auto planned = plan_fabric_ars(ctx.ars, table, slots_, created_);
    if (auto *why = std::get_if<std::string>(&planned)) return *why;
    FabricArsPlan &plan = std::get<FabricArsPlan>(planned);
    const ArsState before = ctx.ars;
    if (auto why = adopt_ars_state(ctx, plan.state)) return "ARS: " + *why;
    if (auto why = write_fib(ctx, table, plan.slots)) {
        // Back to what was applied before, which was written once already.
        adopt_ars_state(ctx, before);
        write_fib(ctx, applied_, slots_);
        return why;
    }
    applied_ = table;
    slots_ = std::move(plan.slots);
    created_ = std::move(plan.created);
    return std::nullopt;
}

dp::IpPrefix subnet_of(const HostAddress &a) {
    return to_dataplane(a.addr.v6 ? sm::IpPrefix::v6(a.addr.bytes, a.len)
                                  : sm::IpPrefix::v4(a.addr.v4_host_order(), a.len));
}

namespace {

// Removes the connected routes and their groups; then writes those of `addresses`.
std::optional<std::string> write_connected(dp::FibBuilder &fib, const std::vector<HostAddress> &addresses) {
    std::vector<dp::IpPrefix> old_routes;
    for (const auto &[prefix, nhg] : fib.routes())
        if (is_connected_nhg(nhg)) old_routes.push_back(prefix);
    for (const dp::IpPrefix &p : old_routes)
        if (dp::Status s = fib.del_route(p); !s.ok()) return s.message();
    std::vector<std::uint32_t> old_nhgs;
    for (const auto &[id, spec] : fib.nhgs())
        if (is_connected_nhg(id)) old_nhgs.push_back(id);
    for (const std::uint32_t id : old_nhgs)
        if (dp::Status s = fib.del_nhg(id); !s.ok()) return s.message();
    std::set<dp::IpPrefix> done;
    for (const HostAddress &a : addresses) {
        if (a.port >= kConnectedNhgs) return "port " + std::to_string(a.port) + " has no connected group id";
        const std::uint32_t id = kConnectedNhgFirst + a.port;
        if (fib.nhgs().count(id) == 0)
            if (dp::Status s = fib.set_nhg(id, {dp::NhgMemberSpec{a.port, std::nullopt}}); !s.ok())
                return "port " + std::to_string(a.port) + ": " + s.message();
        const dp::IpPrefix prefix = subnet_of(a);
        if (!done.insert(prefix).second) continue;  // the first port's
        if (dp::Status s = fib.add_route(prefix, id); !s.ok())
            return "connected route " + prefix.to_string() + ": " + s.message();
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> EthernetFib::set_connected(CommandContext &ctx,
                                                      const std::vector<HostAddress> &addresses) {
    if (auto why = write_connected(*ctx.fib, addresses)) {
        write_connected(*ctx.fib, connected_);  // back to what was written before
        return why;
    }
    connected_ = addresses;
    return std::nullopt;
}

}  // namespace weft::control::fabric
