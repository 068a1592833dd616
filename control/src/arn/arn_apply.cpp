#include "weft/control/arn_apply.hpp"

#include <algorithm>
#include <cstdio>

#include "weft/control/ars_apply.hpp"
#include "weft/control/cli.hpp"
#include "weft/control/fabric/switch_agent.hpp"

namespace weft::control {

namespace {

ArnInputs inputs_of(const CommandContext &ctx, const ArnState &s) {
    ArnInputs in;
    in.self = s.self.value_or(ctx.sma != nullptr ? ctx.sma->sma().config().node_guid : 0);
    in.num_ports = ctx.dp->num_ports();
    for (std::uint16_t p = 0; p < in.num_ports; ++p) {
        if (ctx.sma != nullptr && ctx.sma->fabric_port(p)) in.fabric_ports |= std::uint64_t{1} << p;
        in.port_speeds.push_back(ctx.dp->port_status(p).speed_mbps);
    }
    in.ticks_per_us = ctx.ticks_per_us;
    return in;
}

}  // namespace

std::optional<std::string> adopt_arn_state(CommandContext &ctx, const ArnState &proposed) {
    if (const auto why = arn::check_detector_config(proposed.detector)) return *why;
    ArnPlanResult r = plan_arn(proposed, inputs_of(ctx, proposed));
    if (!r.plan) return r.error;
    ArsState ars = ctx.ars;
    ars.remote_slots = proposed.enabled
                           ? r.plan->member_slots
                           : std::map<std::pair<std::uint32_t, std::uint16_t>, ars::RemoteSlot>{};
    if (ars.remote_slots != ctx.ars.remote_slots) {
        if (auto why = adopt_ars_state(ctx, ars)) return "ARS: " + *why;
        // The ARS configuration reaches the workers with a published FIB: without this the
        // members' slots waited for the next route change, and news moved no traffic.
        if (!commit(ctx, nullptr)) return "ARS: the tables with the remote slots could not be published";
    }
    ctx.arn = proposed;
    ctx.dp->arn_publisher().publish(r.plan->tables);
    if (ctx.arn_agent != nullptr) ctx.arn_agent->configure(proposed.enabled ? r.plan->setup : nullptr);
    return std::nullopt;
}

std::variant<ArnTopology, std::string> arn_topology_of(const std::vector<sm::ArnGroupEntry> &entries,
                                                       const std::map<std::uint16_t, std::uint32_t> &slots) {
    ArnTopology t;
    auto port = [](sm::PortNum p) { return static_cast<std::uint16_t>(p - 1); };
    for (const sm::ArnGroupEntry &e : entries) {
        switch (e.kind) {
            case sm::ArnEntryKind::kLocalLink: {
                ArnLocalLink l{e.a, port(e.port_a), e.b, port(e.port_b)};
                if (l.b < l.a) l = ArnLocalLink{e.b, port(e.port_b), e.a, port(e.port_a)};
                t.links.push_back(l);
                break;
            }
            case sm::ArnEntryKind::kGlobalLink:
                t.globals.push_back({e.a, port(e.port_a), e.group});
                break;
            case sm::ArnEntryKind::kDestination: {
                const auto it = slots.find(e.nhg);
                if (it == slots.end())
                    return "group " + std::to_string(e.nhg) + " has no next-hop group here";
                t.nhgs[it->second] = e.group;
                break;
            }
            case sm::ArnEntryKind::kEmpty:
                break;
        }
    }
    std::sort(t.links.begin(), t.links.end());
    t.links.erase(std::unique(t.links.begin(), t.links.end()), t.links.end());
    std::sort(t.globals.begin(), t.globals.end());
    t.globals.erase(std::unique(t.globals.begin(), t.globals.end()), t.globals.end());
    return t;
}

std::optional<std::string> adopt_sm_arn_topology(CommandContext &ctx, std::optional<ArnTopology> topology) {
    if (ctx.arn.from_sm == topology) return std::nullopt;
    ArnState next = ctx.arn;
    next.from_sm = std::move(topology);
    return adopt_arn_state(ctx, next);
}

void refresh_arn(CommandContext &ctx) {
    if (!ctx.arn.enabled) return;
    if (auto why = adopt_arn_state(ctx, ctx.arn))
        std::fprintf(stderr, "weft: ARN tables not rebuilt: %s\n", why->c_str());
}

}  // namespace weft::control
