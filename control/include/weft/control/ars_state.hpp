// The desired ARS state the CLI keeps on the control thread: profile, ports, ARS objects, LAGs,
// ARS next-hop groups, ACL rules and the global monitoring switch. It becomes an ars::Config
// only as a whole, so a refused change leaves both this state and the published tables as they
// were.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "weft/ars/config.hpp"

namespace weft::control {

struct ArsState {
    ars::Profile profile;
    std::map<std::uint16_t, ars::PortConfig> ports;
    std::map<std::uint16_t, ars::ArsObjectConfig> objects;
    std::map<std::uint16_t, ars::LagConfig> lags;
    std::map<std::uint32_t, ars::NhgConfig> nhgs;
    std::vector<ars::AclRule> acl;
    bool monitor = false;  // `monitor start`: every ARS object reports reassignments
    // ARN's remote quality slots (arn_state.hpp): the member of NHG id on a port counts with
    // the lower of its port's band and the slot's.
    std::map<std::pair<std::uint32_t, std::uint16_t>, ars::RemoteSlot> remote_slots;

    ars::BuildResult build(ars::Ticks ticks_per_us) const;
};

// `next`, a new version of group `before`, with the member ids of `before` for the members that
// stay (the same target) and ids `before` never used for new ones: the workers remap their flow
// tables by member id, so the flowlets on members that stay stay on them.
void keep_member_ids(const ars::NhgConfig &before, ars::NhgConfig &next);

}  // namespace weft::control
