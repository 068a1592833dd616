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
    for (const auto &[id, n] : nhgs) b.add_nhg(n);
    b.set_acl(acl);
    return b.build();
}

}  // namespace weft::control
