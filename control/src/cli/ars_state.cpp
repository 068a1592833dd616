// ArsState::build: the whole desired ARS state through ars::ConfigBuilder; keep_member_ids.
#include "weft/control/ars_state.hpp"

#include <algorithm>

namespace weft::control {

ars::BuildResult ArsState::build(ars::Ticks ticks_per_us) const {
    ars::ConfigBuilder b(profile, ticks_per_us);
    for (const auto &[id, p] : ports) b.add_port(p);
    for (const auto &[id, o] : objects) {
        ars::ArsObjectConfig copy = o;
        copy.monitoring = copy.monitoring || monitor;
        b.add_ars_object(copy);
    }
    for (const auto &[id, l] : lags) b.add_lag(l);
    for (const auto &[id, n] : nhgs) {
        if (remote_slots.empty()) {
            b.add_nhg(n);
            continue;
        }
        ars::NhgConfig copy = n;
        for (ars::NhgMember &m : copy.members) {
            const auto it = remote_slots.find({n.id, m.target.id});
            m.remote_slot = m.target.kind == ars::EgressTarget::Kind::kPort && it != remote_slots.end()
                                ? it->second
                                : ars::kNoRemoteSlot;
        }
        b.add_nhg(copy);
    }
    b.set_acl(acl);
    return b.build();
}

void keep_member_ids(const ars::NhgConfig &before, ars::NhgConfig &next) {
    std::uint32_t fresh = 0;
    for (const ars::NhgMember &m : before.members) fresh = std::max(fresh, m.member_id + 1);
    for (ars::NhgMember &m : next.members) {
        const auto it = std::find_if(before.members.begin(), before.members.end(),
                                     [&](const ars::NhgMember &b) { return b.target == m.target; });
        m.member_id = it != before.members.end() ? it->member_id : fresh++;
    }
}

}  // namespace weft::control
