// Port states: the cable from outside (set_link), and the SM's Set PortInfo. The logical state
// follows the IBA's port state machine (IBA 7.2): a port whose link comes up is INIT; the SM
// moves it INIT -> ARMED -> ACTIVE, one step at a time and only while the link is up; DOWN may be
// asked at any time (the link then retrains and comes back INIT). Physical state DISABLED takes
// the link down until POLLING is asked for again.
#include <stdexcept>

#include "weft/sm/sma.hpp"

namespace weft::sm {

namespace {

// A mask field of Set PortInfo: 0 leaves it, `all` means every supported value, anything else
// must be a non-empty subset of what the port supports.
bool mask_ok(std::uint8_t want, std::uint8_t supported, std::uint8_t all) {
    return want == 0 || want == all || (want & ~supported) == 0;
}

std::uint8_t mask_value(std::uint8_t want, std::uint8_t now, std::uint8_t supported, std::uint8_t all) {
    return want == 0 ? now : want == all ? supported : want;
}

}  // namespace

bool Sma::link_up(PortNum port) const {
    if (port > config_.num_ports) return false;
    if (port == 0) return is_switch();
    return cable_up_[port] && ports_[port].phys_state != PhysState::kDisabled;
}

std::optional<SmaOutput> Sma::set_link(PortNum port, bool up, SmaTime now, SmaLinkRate rate) {
    if (port == 0 || port > config_.num_ports) throw std::out_of_range("Sma::set_link: no such port");
    const bool was = link_up(port);
    cable_up_[port] = up;
    if (link_up(port) == was) return std::nullopt;  // no change, or the port is disabled
    PortInfo &p = ports_[port];
    p.link_width_active = rate.width_active;
    p.link_speed_active = rate.speed_active;
    p.link_speed_ext_active = rate.speed_ext_active;
    link_changed(port);
    if (!is_switch()) return std::nullopt;
    flag_port_state_change();
    return raise_trap(now);
}

void Sma::link_changed(PortNum port) {
    PortInfo &p = ports_[port];
    if (link_up(port)) {
        p.phys_state = PhysState::kLinkUp;
        p.port_state = PortState::kInit;
    } else {
        if (p.phys_state != PhysState::kDisabled) p.phys_state = PhysState::kPolling;
        p.port_state = PortState::kDown;
    }
    publish_port(port);
}

void Sma::flag_port_state_change() {
    if (switch_info_.port_state_change) return;
    switch_info_.port_state_change = true;
    if (observer_) observer_->switch_info_changed(switch_info_);
}

void Sma::publish_port(PortNum port) {
    if (observer_) observer_->port_info_changed(port, ports_[port]);
}

std::optional<SmpError> Sma::set_port_info(PortNum port, const PortInfo &want) {
    PortInfo next = ports_[port];
    const bool end_port = !is_switch() || port == 0;
    const bool base_port0 = is_switch() && port == 0;
    const bool up = link_up(port);
    // Everything is checked before anything changes.
    const PortState from = next.port_state, to = want.port_state;
    if (!base_port0 && to != PortState::kNoChange && to != from) {
        const bool ok = to == PortState::kDown ||
                        (up && from == PortState::kInit && to == PortState::kArmed) ||
                        (up && from == PortState::kArmed && to == PortState::kActive);
        if (!ok)
            return SmpError{"PortInfo.PortState", static_cast<std::uint8_t>(to), "a step the port can take"};
    }
    const PhysState phys = want.phys_state;
    if (!base_port0 && phys != PhysState::kNoChange && phys != PhysState::kPolling &&
        phys != PhysState::kDisabled)
        return SmpError{"PortInfo.PortPhysicalState", static_cast<std::uint8_t>(phys),
                        "0 (no change), 2 (polling) or 3 (disabled)"};
    if (!mask_ok(want.link_width_enabled, next.link_width_supported, 0xFF))
        return SmpError{"PortInfo.LinkWidthEnabled", want.link_width_enabled, "supported widths, 0 or 255"};
    if (!mask_ok(want.link_speed_enabled, next.link_speed_supported, 0xF))
        return SmpError{"PortInfo.LinkSpeedEnabled", want.link_speed_enabled, "supported speeds, 0 or 15"};
    if (want.neighbor_mtu > next.mtu_cap)
        return SmpError{"PortInfo.NeighborMTU", want.neighbor_mtu, "at most MTUCap"};
    if (want.operational_vls > next.vl_cap)
        return SmpError{"PortInfo.OperationalVLs", want.operational_vls, "at most VLCap"};
    if (want.link_down_default_state > 3)
        return SmpError{"PortInfo.LinkDownDefaultState", want.link_down_default_state, "0..3"};

    next.link_width_enabled =
        mask_value(want.link_width_enabled, next.link_width_enabled, next.link_width_supported, 0xFF);
    next.link_speed_enabled =
        mask_value(want.link_speed_enabled, next.link_speed_enabled, next.link_speed_supported, 0xF);
    if (want.neighbor_mtu) next.neighbor_mtu = want.neighbor_mtu;
    if (want.operational_vls) next.operational_vls = want.operational_vls;
    if (want.link_down_default_state) next.link_down_default_state = want.link_down_default_state;
    next.vl_high_limit = want.vl_high_limit;
    next.vl_stall_count = want.vl_stall_count;
    next.hoq_life = want.hoq_life;
    next.m_key_violations = want.m_key_violations;
    next.p_key_violations = want.p_key_violations;
    next.q_key_violations = want.q_key_violations;
    next.partition_enforcement_inbound = want.partition_enforcement_inbound;
    next.partition_enforcement_outbound = want.partition_enforcement_outbound;
    next.filter_raw_inbound = want.filter_raw_inbound;
    next.filter_raw_outbound = want.filter_raw_outbound;
    next.local_phy_errors = want.local_phy_errors;
    next.overrun_errors = want.overrun_errors;
    if (end_port) {
        // Only end ports (CA ports, switch port 0) carry these; on a switch's external ports
        // they are reserved and ignored.
        next.m_key = want.m_key;
        next.gid_prefix = want.gid_prefix;
        next.lid = want.lid;
        next.lmc = want.lmc;
        next.master_sm_lid = want.master_sm_lid;
        next.master_sm_sl = want.master_sm_sl;
        next.m_key_protect_bits = want.m_key_protect_bits;
        next.m_key_lease_period = want.m_key_lease_period;
        next.subnet_timeout = want.subnet_timeout;
        next.resp_time_value = want.resp_time_value;
        next.multicast_pkey_trap_suppression = want.multicast_pkey_trap_suppression;
        next.client_reregister = !is_switch() && want.client_reregister;
    }
    if (!base_port0 && to != PortState::kNoChange) next.port_state = to;
    bool link_change = false;
    if (!base_port0 && phys == PhysState::kDisabled && next.phys_state != PhysState::kDisabled) {
        next.phys_state = PhysState::kDisabled;
        next.port_state = PortState::kDown;
        link_change = up;
    } else if (!base_port0 && phys == PhysState::kPolling && next.phys_state == PhysState::kDisabled) {
        next.phys_state = PhysState::kPolling;
        link_change = cable_up_[port];
    }
    if (!base_port0 && to == PortState::kDown && !link_change && up) {
        // Down asked of a port whose cable is up: the link retrains and the port is INIT again.
        next.port_state = PortState::kInit;
        link_change = true;
    }
    const bool changed = !(next == ports_[port]);
    ports_[port] = next;
    if (link_change) {
        link_changed(port);
        if (is_switch()) {
            flag_port_state_change();
            trap_due_ = true;  // trap 128 goes at the next poll(), which knows the time
        }
    } else if (changed) {
        publish_port(port);
    }
    return std::nullopt;
}

}  // namespace weft::sm
