// The one path by which a desired ARS state becomes the accepted one, shared by the CLI's ARS
// commands and the fabric's tables (the SM's next-hop groups): the state is built whole into an
// ars::Config, and only a state that builds replaces the accepted one, in the FIB builder's next
// snapshot and in the quality sampler.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "weft/ars/next_hop_group.hpp"
#include "weft/control/ars_state.hpp"
#include "weft/control/command_context.hpp"
#include "weft/dataplane/fib_builder.hpp"

namespace weft::control {

// Makes `next` the accepted ARS state (ctx.ars, ctx.ars_config, the FIB builder's ARS
// configuration and the sampler's). Nothing changes when it does not build: the library's
// messages, joined with "; ", are returned instead. Groups that stay keep their members' ids
// (keep_member_ids).
std::optional<std::string> adopt_ars_state(CommandContext &ctx, const ArsState &next);

// The dataplane members of ARS group `n`, in ARS member order (so the index ARS returns names the
// dataplane member); a LAG member adds each of its ports.
std::vector<dataplane::NhgMemberSpec> ars_dataplane_members(const ArsState &state, const ars::NhgConfig &n);

}  // namespace weft::control
