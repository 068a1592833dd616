// M_Key (IBA 14.2.4): the key of the port an SMP addresses (a switch's port 0, a CA's port) and
// its protection level decide what an SMP with another key may do. With no key (0) or the right
// key everything passes. Otherwise: protection 0 lets Gets through; 1 lets Gets through with
// PortInfo's M_Key read as 0; 2 and 3 refuse Gets too. Sets and TrapRepresses with a wrong key
// are always refused. A refused SMP is dropped (no reply), counted in PortInfo.M_KeyViolations,
// and starts the lease: when M_KeyLeasePeriod seconds pass with no SMP carrying the right key,
// the protection bits fall to 0 so that a new SM can take the subnet over.
#include "weft/sm/sma.hpp"

namespace weft::sm {

PortNum Sma::m_key_port(PortNum in_port) const {
    return is_switch() ? 0 : in_port;
}

Sma::MKeyCheck Sma::check_m_key(const Smp &smp, PortNum in_port, SmaTime now) {
    PortInfo &p = ports_[m_key_port(in_port)];
    if (p.m_key == 0) return MKeyCheck::kPass;
    if (smp.m_key == p.m_key) {
        lease_ends_.reset();
        return MKeyCheck::kPass;
    }
    if (smp.method == Method::kGet && p.m_key_protect_bits == 0) return MKeyCheck::kPass;
    if (smp.method == Method::kGet && p.m_key_protect_bits == 1) return MKeyCheck::kPassHideKey;
    ++counters_.m_key_violations;
    if (p.m_key_violations != 0xFFFF) ++p.m_key_violations;
    if (!lease_ends_ && p.m_key_lease_period != 0)
        lease_ends_ = now + std::chrono::seconds(p.m_key_lease_period);
    return MKeyCheck::kFail;
}

void Sma::expire_lease(SmaTime now) {
    if (!lease_ends_ || now < *lease_ends_) return;
    lease_ends_.reset();
    ++counters_.m_key_lease_expiries;
    for (unsigned port = 0; port <= config_.num_ports; ++port) {
        if (is_switch() != (port == 0) || ports_[port].m_key_protect_bits == 0) continue;
        ports_[port].m_key_protect_bits = 0;
        publish_port(static_cast<PortNum>(port));
    }
}

}  // namespace weft::sm
