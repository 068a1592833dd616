#include "weft/control/arn_apply.hpp"

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

void refresh_arn(CommandContext &ctx) {
    if (!ctx.arn.enabled) return;
    if (auto why = adopt_arn_state(ctx, ctx.arn))
        std::fprintf(stderr, "weft: ARN tables not rebuilt: %s\n", why->c_str());
}

}  // namespace weft::control
