// ARS monitoring: a hook called on every path reassignment of a monitored group (SAI
// SAI_ARS_ATTR_MON_ENABLE, or an ACL SET_ARS_MONITORING). The dataplane turns it into a mirror
// copy; tests and the demo record it.
#pragma once

#include <cstdint>

#include "weft/ars/next_hop_group.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

enum class ReassignReason : std::uint8_t {
    kFlowletExpired,  // idle time passed and a better (or random) member was chosen
    kLinkDown,        // the member's link went down, moved at once
    kMemberRemoved,   // a config snapshot removed the member
};

struct ReassignEvent {
    bool is_lag = false;
    std::uint32_t group_id = 0;  // NhgId or LagId
    ArsObjectId ars_object = kNoArsObject;
    std::uint32_t bucket = 0;
    std::uint32_t old_member_id = 0;
    std::uint32_t new_member_id = 0;
    EgressTarget old_target;
    EgressTarget new_target;
    ReassignReason reason = ReassignReason::kFlowletExpired;
    Ticks now = 0;
};

// A plain function pointer and context: no virtual call, no allocation on the hot path.
struct MonitorHook {
    void (*fn)(void *context, const ReassignEvent &event) = nullptr;
    void *context = nullptr;

    explicit operator bool() const { return fn != nullptr; }
    void operator()(const ReassignEvent &event) const { fn(context, event); }
};

}  // namespace weft::ars
