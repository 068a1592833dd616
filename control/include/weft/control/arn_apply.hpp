// The ARN state's one way into the switch: planned (arn_state.hpp), then the flood tables
// published to the workers, the setup handed to the ARN agent and the remote slots into the ARS
// state, or refused with nothing changed.
#pragma once

#include <optional>
#include <string>

#include "weft/control/command_context.hpp"

namespace weft::control {

// Plans `proposed` with the switch as it is (its id, fabric ports, port speeds) and adopts it;
// the reason when it is refused.
std::optional<std::string> adopt_arn_state(CommandContext &ctx, const ArnState &proposed);
// Plans and adopts the accepted state again (after a fabric port or the node GUID changed).
void refresh_arn(CommandContext &ctx);

}  // namespace weft::control
