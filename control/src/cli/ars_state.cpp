// ArsState::build: the whole desired ARS state through ars::ConfigBuilder.
#include "weft/control/ars_state.hpp"

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

}  // namespace weft::control
