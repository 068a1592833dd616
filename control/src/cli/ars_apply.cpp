// adopt_ars_state and ars_dataplane_members: the ARS state's one way into the published tables.
#include "weft/control/ars_apply.hpp"

#include <algorithm>

namespace weft::control {

std::optional<std::string> adopt_ars_state(CommandContext &ctx, const ArsState &proposed) {
    ArsState next = proposed;
    for (auto &[id, n] : next.nhgs)
        if (const auto it = ctx.ars.nhgs.find(id); it != ctx.ars.nhgs.end()) keep_member_ids(it->second, n);
    ars::BuildResult r = next.build(ctx.ticks_per_us);
    if (!r.ok()) {
        std::string why;
        for (const auto &e : r.errors) why += (why.empty() ? "" : "; ") + e.message;
        return why;
    }
    ctx.ars = next;
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
    return std::nullopt;
}

std::vector<dataplane::NhgMemberSpec> ars_dataplane_members(const ArsState &state, const ars::NhgConfig &n) {
    std::vector<dataplane::NhgMemberSpec> out;
    for (const ars::NhgMember &m : n.members) {
        if (m.target.kind == ars::EgressTarget::Kind::kPort) {
            out.push_back({m.target.id, {}});
        } else if (const auto it = state.lags.find(m.target.id); it != state.lags.end()) {
            for (std::uint16_t p : it->second.ports) out.push_back({p, {}});
        }
    }
    return out;
}

}  // namespace weft::control
