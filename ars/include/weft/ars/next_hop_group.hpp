// An ARS next-hop group as configured: members with roles, the ARS object it is bound to and
// the parameters of the primary/alternate rule.
#pragma once

#include <cstdint>
#include <vector>

#include "weft/ars/path_rule.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

enum class MemberRole : std::uint8_t { kPrimary, kAlternate };

// Where a member sends traffic: one port, or a LAG that then picks one of its ports.
struct EgressTarget {
    enum class Kind : std::uint8_t { kPort, kLag };
    Kind kind = Kind::kPort;
    std::uint16_t id = 0;  // PortId or LagId

    static constexpr EgressTarget port(PortId p) { return {Kind::kPort, p}; }
    static constexpr EgressTarget lag(LagId l) { return {Kind::kLag, l}; }
    friend constexpr bool operator==(const EgressTarget &, const EgressTarget &) = default;
};

struct NhgMember {
    std::uint32_t member_id = 0;  // stable across snapshots (the control plane's next-hop id)
    EgressTarget target;
    MemberRole role = MemberRole::kPrimary;
    bool admin_up = true;  // administratively down members are never chosen
    // The member's quality is the lower of its port's (or LAG's) band and this remote slot's band
    // on the PortBoard (the path beyond the port, from ARN); kNoRemoteSlot: local quality only.
    RemoteSlot remote_slot = kNoRemoteSlot;
};

struct NhgConfig {
    NhgId id = 0;
    ArsObjectId ars_object = kNoArsObject;  // none: plain static-hash ECMP unless an ACL sets one
    PathSelection path_selection;
    std::vector<NhgMember> members;
};

}  // namespace weft::ars
