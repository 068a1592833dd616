// The ARN state's one way into the switch: planned (arn_state.hpp), then the flood tables
// published to the workers, the setup handed to the ARN agent and the remote slots into the ARS
// state, or refused with nothing changed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "weft/control/command_context.hpp"
#include "weft/sm/vendor_arn_group.hpp"

namespace weft::control {

// Plans `proposed` with the switch as it is (its id, fabric ports, port speeds) and adopts it;
// the reason when it is refused.
std::optional<std::string> adopt_arn_state(CommandContext &ctx, const ArnState &proposed);
// Plans and adopts the accepted state again (after a fabric port or the node GUID changed).
void refresh_arn(CommandContext &ctx);

// The group the SM sent with the switch's table (its WeftArnGroup entries) in the switch's terms:
// IB port p is dataplane port p - 1, and a destination's next-hop group is the NHG id the SM's
// group took (`slots`: SM group id -> NHG id). The reason when an entry does not fit.
std::variant<ArnTopology, std::string> arn_topology_of(const std::vector<sm::ArnGroupEntry> &entries,
                                                       const std::map<std::uint16_t, std::uint32_t> &slots);
// Makes `topology` (none: the SM sent no group) the SM's part of the ARN state and adopts it.
std::optional<std::string> adopt_sm_arn_topology(CommandContext &ctx, std::optional<ArnTopology> topology);

}  // namespace weft::control
