// Trap 128 (a port of this switch changed state, IBA 14.3.11): a Notice sent LID-routed from the
// switch's LID to its SM's LID (PortInfo.MasterSMLID of port 0). It is sent again every
// 4.096 us * 2^SubnetTimeOut (never more often than the configured floor) until the SM answers
// with a TrapRepress of the same TID. A change while a trap is outstanding starts a new one (new
// TID, NoticeToggle flipped), which replaces it: the SM sweeps the whole switch either way. With
// no LID or no SM LID yet there is no one to tell: SwitchInfo.PortStateChange alone says it, for
// the SM's light sweep.
#include <algorithm>

#include "weft/sm/notice.hpp"
#include "weft/sm/sma.hpp"

namespace weft::sm {

SmaTime Sma::trap_interval() const {
    const unsigned timeout = std::min<unsigned>(ports_[0].subnet_timeout, 31);
    const SmaTime spec = std::chrono::nanoseconds(4096) * (std::int64_t{1} << timeout);
    return std::max(spec, config_.trap_repeat_floor);
}

std::optional<SmaOutput> Sma::raise_trap(SmaTime now) {
    trap_due_ = false;
    const Lid sm_lid = ports_[0].master_sm_lid;
    if (!is_switch() || !is_unicast_lid(lid()) || !is_unicast_lid(sm_lid)) return std::nullopt;
    Notice notice = make_port_state_change_notice(lid(), static_cast<std::uint32_t>(NodeType::kSwitch));
    notice_toggle_ = !notice_toggle_;
    notice.toggle = notice_toggle_;
    Smp smp = make_lid_smp(Method::kTrap, attr::kNotice, 0, ++trap_tid_);
    smp.m_key = ports_[0].m_key;
    smp.data = encode_notice(notice).value();
    trap_ = Trap{smp, now};
    return send_trap(now, false);
}

std::optional<SmaOutput> Sma::send_trap(SmaTime now, bool repeat) {
    if (!trap_) return std::nullopt;
    trap_->next = now + trap_interval();
    ++(repeat ? counters_.trap_repeats : counters_.traps_sent);
    const Lid sm_lid = ports_[0].master_sm_lid;
    SmaOutput o =
        owns_lid(sm_lid, 0) ? to_sm(trap_->smp) : send_lid_routed(trap_->smp, nullptr, lid(), sm_lid, 0);
    if (o.dropped()) return std::nullopt;  // no route yet: tried again when due
    return o;
}

std::optional<SmaOutput> Sma::poll(SmaTime now) {
    expire_lease(now);
    if (trap_due_) return raise_trap(now);
    if (trap_ && now >= trap_->next) return send_trap(now, true);
    return std::nullopt;
}

std::optional<SmaTime> Sma::next_deadline() const {
    std::optional<SmaTime> t = lease_ends_;
    if (trap_due_) return SmaTime{0};
    if (trap_ && (!t || trap_->next < *t)) t = trap_->next;
    return t;
}

}  // namespace weft::sm
