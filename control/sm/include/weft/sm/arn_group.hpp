// The ARN part of each switch's Ethernet table (WeftArnGroup, vendor_arn_group.hpp): on a
// dragonfly the SM has the whole fabric, so it tells every switch its group — the group's local
// links, over which the switch builds the group's prefix-multicast tree, its global links and the
// group beyond each, and which of the switch's next-hop groups lead to which group — and the
// switch builds its ARN flood tables and candidate paths from that instead of from configuration
// (control/include/weft/control/arn_state.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/sm/ethernet_table.hpp"

namespace weft::sm {

// Each switch's dragonfly group (by SwitchIdx) as routing::choose_routing() recognises the groups,
// numbered in the order of their lowest switch GUID (so a sweep that finds the switches in another
// order numbers them alike); empty when it sees no dragonfly or dragonfly+.
std::vector<std::uint16_t> dragonfly_groups(const routing::Fabric &f);

// tables[s].arn for every switch s of f (tables by SwitchIdx, their groups already compiled):
// the group's local links and global links, then one destination per next-hop group whose leaf
// is in another group; local links once each (the end with the lower GUID first), sorted, as the
// global links and the destinations are. Nothing when `group` is empty.
void add_arn_groups(const routing::Fabric &f, const std::vector<std::uint16_t> &group,
                    std::vector<EthernetTable> &tables);

}  // namespace weft::sm
