// The subnet management interface of the SMA: SMPs in from a port or from the local SM, checked,
// passed on (directed route or by LID) or handed to the agent, and its reply sent back the way the
// request came. The attributes, port states, M_Key and traps are in sma_*.cpp.
#include "weft/sm/sma.hpp"

#include <algorithm>
#include <stdexcept>

#include "directed_route.hpp"
#include "weft/sm/node_description.hpp"

namespace weft::sm {

namespace {

constexpr std::size_t kHopPointerOffset = 6;
constexpr std::size_t kReturnPathOffset = 192;

bool is_request(Method m) {
    return m == Method::kGet || m == Method::kSet;
}

}  // namespace

Sma::Sma(SmaConfig config, SmaObserver *observer) : config_(std::move(config)), observer_(observer) {
    const SmaConfig &c = config_;
    if (c.node_type != NodeType::kSwitch && c.node_type != NodeType::kCa)
        throw std::invalid_argument("Sma: node type must be switch or CA");
    if (c.num_ports < 1 || c.num_ports > kMaxPortNum) throw std::invalid_argument("Sma: 1..254 ports");
    if (c.node_guid == 0) throw std::invalid_argument("Sma: node GUID 0");
    if (c.linear_fdb_cap > kMaxLinearFdbCap || c.multicast_fdb_cap > kMaxMulticastFdbCap)
        throw std::invalid_argument("Sma: forwarding table capacity beyond the IBA's");
    if (c.linear_fdb_cap % kLftBlockSize || c.multicast_fdb_cap % kMftBlockSize)
        throw std::invalid_argument("Sma: forwarding table capacities in whole blocks");
    if (!encode_node_description({c.description}))
        throw std::invalid_argument("Sma: a node description of at most 64 bytes, no NUL");
    if (c.mtu_cap < 1 || c.mtu_cap > 5 || c.vl_cap < 1 || c.vl_cap > 5)
        throw std::invalid_argument("Sma: MTUCap and VLCap 1..5");
    const unsigned n = c.num_ports;
    ports_.resize(n + 1u);
    fabric_.assign(n + 1u, false);
    cable_up_.assign(n + 1u, false);
    for (unsigned p = 0; p <= n; ++p) {
        PortInfo &pi = ports_[p];
        pi.local_port_num = static_cast<PortNum>(p);
        pi.port_state = PortState::kDown;
        pi.phys_state = PhysState::kPolling;
        pi.link_down_default_state = 2;  // polling
        pi.link_width_supported = c.link_width_supported;
        pi.link_width_enabled = c.link_width_supported;
        pi.link_speed_supported = c.link_speed_supported;
        pi.link_speed_enabled = c.link_speed_supported;
        pi.mtu_cap = c.mtu_cap;
        pi.neighbor_mtu = c.mtu_cap;
        pi.vl_cap = c.vl_cap;
        pi.operational_vls = 1;
        pi.vl_high_limit = 0;
        pi.guid_cap = 1;
        pi.subnet_timeout = 0;
        if (p == 0 || !is_switch()) pi.capability_mask = c.capability_mask;
    }
    if (is_switch()) {
        // Base switch port 0 is always up: it is the switch itself.
        ports_[0].port_state = PortState::kActive;
        ports_[0].phys_state = PhysState::kLinkUp;
        switch_info_.linear_fdb_cap = c.linear_fdb_cap;
        switch_info_.multicast_fdb_cap = c.multicast_fdb_cap;
        switch_info_.life_time_value = c.life_time_value;
        switch_info_.default_port = 0;
        switch_info_.default_multicast_primary_port = kNoPort;
        switch_info_.default_multicast_not_primary_port = kNoPort;
        switch_info_.partition_enforcement_cap = 0;
        lft_.assign(c.linear_fdb_cap, kNoPort);
        vlft_.assign(c.vlid_cap, kNoPort);
        mft_positions_ = n / 16 + 1;
        mft_.assign(std::size_t{c.multicast_fdb_cap} * mft_positions_, 0);
        sl_to_vl_.resize((n + 1u) * (n + 1u));
    } else {
        sl_to_vl_.resize(n + 1u);
    }
}

void Sma::set_fabric_port(PortNum port, bool fabric) {
    if (port == 0 || port > config_.num_ports) throw std::out_of_range("Sma::set_fabric_port: no such port");
    fabric_[port] = fabric;
}

bool Sma::fabric_port(PortNum port) const {
    return port >= 1 && port <= config_.num_ports && fabric_[port];
}

NodeInfo Sma::node_info(PortNum local_port) const {
    NodeInfo n;
    n.node_type = config_.node_type;
    n.num_ports = config_.num_ports;
    n.system_image_guid = config_.system_image_guid ? config_.system_image_guid : config_.node_guid;
    n.node_guid = config_.node_guid;
    if (is_switch()) {
        n.port_guid = config_.node_guid;
    } else {
        const PortNum p = local_port ? local_port : 1;
        n.port_guid = p < config_.port_guids.size() && config_.port_guids[p] ? config_.port_guids[p]
                                                                             : config_.node_guid + p;
    }
    n.partition_cap = config_.partition_cap;
    n.device_id = config_.device_id;
    n.revision = config_.revision;
    n.local_port_num = local_port;
    n.vendor_id = config_.vendor_id;
    return n;
}

Lid Sma::lid() const {
    if (is_switch()) return ports_[0].lid;
    for (unsigned p = 1; p <= config_.num_ports; ++p)
        if (ports_[p].lid) return ports_[p].lid;
    return 0;
}

PortNum Sma::lft(std::uint32_t lid) const {
    if (lid >= kFirstVlid) return lid - kFirstVlid < vlft_.size() ? vlft_[lid - kFirstVlid] : kNoPort;
    return lid < lft_.size() ? lft_[lid] : kNoPort;
}

std::uint16_t Sma::mft_mask(Lid mlid, unsigned position) const {
    if (!is_multicast_lid(mlid) || position >= mft_positions_) return 0;
    const std::size_t i = mlid - kFirstMulticastLid;
    if (i >= config_.multicast_fdb_cap) return 0;
    return mft_[i * mft_positions_ + position];
}

const SlToVlTable &Sma::sl_to_vl(PortNum in, PortNum out) const {
    if (!is_switch()) return sl_to_vl_.at(out);
    const std::size_t n = config_.num_ports + 1u;
    if (in >= n || out >= n) throw std::out_of_range("Sma::sl_to_vl: no such port");
    return sl_to_vl_[in * n + out];
}

bool Sma::owns_lid(Lid lid, PortNum port) const {
    auto in_range = [lid](const PortInfo &p) {
        return p.lid != 0 && lid >= p.lid && static_cast<unsigned>(lid - p.lid) < (1u << p.lmc);
    };
    if (is_switch()) return in_range(ports_[0]);
    if (port >= 1 && port <= config_.num_ports) return in_range(ports_[port]);
    for (unsigned p = 1; p <= config_.num_ports; ++p)
        if (in_range(ports_[p])) return true;
    return false;
}

SmaOutput Sma::drop(SmaDrop reason) {
    ++counters_.dropped[static_cast<std::size_t>(reason)];
    SmaOutput o;
    o.drop = reason;
    return o;
}

std::optional<Sma::Incoming> Sma::take(std::span<const std::uint8_t> mad) {
    Incoming in;
    Result<Smp> r = decode_smp(mad);
    if (!r && mad.size() == kSmpSize && mad[0] == 1 && (mad[2] != 1 || !is_known_method(mad[3])) &&
        (mad[3] & 0x80) == 0) {
        // A request of another class version, or with a method SMPs do not have: decoded as a
        // Get only to be answered with the status that says so.
        SmpBytes patched;
        std::copy(mad.begin(), mad.end(), patched.begin());
        patched[2] = 1;
        patched[3] = static_cast<std::uint8_t>(Method::kGet);
        if (Result<Smp> again = decode_smp(patched)) {
            in.odd_status = mad[2] != 1 ? status::kBadVersion : status::kUnsupportedMethod;
            r = std::move(again);
        }
    }
    if (!r) {
        ++counters_.malformed_by_field[std::string(r.error().field)];
        return std::nullopt;
    }
    in.smp = std::move(r).value();
    std::copy(mad.begin(), mad.end(), in.raw.begin());
    return in;
}

SmaOutput Sma::send_port(const Smp &smp, const SmpBytes *raw, PortNum port, SmaLrh lrh) {
    if (port == 0 || port > config_.num_ports) return drop(SmaDrop::kBadPathPort);
    if (!fabric_[port]) return drop(SmaDrop::kNotFabricPort);
    if (!link_up(port)) return drop(SmaDrop::kPortDown);
    SmaOutput o;
    if (raw) {
        // Passed on as it came, with the hop pointer and return path this node updated.
        o.bytes = *raw;
        o.bytes[kHopPointerOffset] = smp.hop_pointer;
        if (smp.directed())
            std::copy(smp.return_path.begin(), smp.return_path.end(), o.bytes.begin() + kReturnPathOffset);
    } else {
        Result<SmpBytes> b = encode_smp(smp);
        if (!b) return drop(SmaDrop::kMalformed);
        o.bytes = b.value();
    }
    o.action = SmaAction::kSend;
    o.port = port;
    o.lrh = lrh;
    return o;
}

SmaOutput Sma::send_lid_routed(const Smp &smp, const SmpBytes *raw, Lid slid, Lid dlid, PortNum ca_port) {
    if (!is_unicast_lid(dlid)) return drop(SmaDrop::kNoReturnAddress);
    PortNum port = ca_port;
    if (is_switch()) {
        port = lft(dlid);
        if (port == kNoPort || port == 0) return drop(SmaDrop::kNoRoute);
    } else if (port == 0) {
        // A CA's own SMP (a trap, a request of its SM): out of its first port that is up.
        for (unsigned p = 1; p <= config_.num_ports && port == 0; ++p)
            if (fabric_[p] && link_up(static_cast<PortNum>(p))) port = static_cast<PortNum>(p);
        if (port == 0) return drop(SmaDrop::kPortDown);
    }
    return send_port(smp, raw, port, {slid, dlid});
}

SmaOutput Sma::to_sm(const Smp &smp) {
    Result<SmpBytes> b = encode_smp(smp);
    if (!b) return drop(SmaDrop::kMalformed);
    ++counters_.to_sm;
    SmaOutput o;
    o.action = SmaAction::kToSm;
    o.bytes = b.value();
    return o;
}

SmaOutput Sma::handle(PortNum in_port, std::span<const std::uint8_t> mad, SmaTime now, SmaLrh lrh) {
    ++counters_.received;
    if (in_port == 0 || in_port > config_.num_ports) return drop(SmaDrop::kBadPort);
    if (!fabric_[in_port]) return drop(SmaDrop::kNotFabricPort);
    if (!link_up(in_port)) return drop(SmaDrop::kPortDown);
    expire_lease(now);
    std::optional<Incoming> in = take(mad);
    if (!in) return drop(SmaDrop::kMalformed);
    if (is_multicast_lid(lrh.dlid)) return drop(SmaDrop::kNotForUs);
    if (is_unicast_lid(lrh.dlid) && !owns_lid(lrh.dlid, in_port)) {
        // LID-routed through this node: a switch passes it on by its LFT, untouched.
        if (!is_switch()) return drop(SmaDrop::kNotForUs);
        SmaOutput o = send_lid_routed(in->smp, &in->raw, lrh.slid, lrh.dlid, 0);
        if (!o.dropped()) ++counters_.forwarded;
        return o;
    }
    if (in->smp.directed()) return directed(std::move(*in), in_port, now, lrh, false);
    return lid_routed(*in, in_port, now, lrh, false);
}

SmaOutput Sma::originate(PortNum sm_port, std::span<const std::uint8_t> mad, SmaTime now, Lid dlid) {
    ++counters_.from_sm;
    if (is_switch() ? sm_port != 0 : (sm_port == 0 || sm_port > config_.num_ports))
        return drop(SmaDrop::kBadPort);
    expire_lease(now);
    std::optional<Incoming> in = take(mad);
    if (!in) return drop(SmaDrop::kMalformed);
    const SmaLrh lrh{lid() ? lid() : kPermissiveLid, dlid};
    if (in->smp.directed()) return directed(std::move(*in), sm_port, now, lrh, true);
    if (!owns_lid(dlid, sm_port)) return send_lid_routed(in->smp, nullptr, lrh.slid, dlid, sm_port);
    return lid_routed(*in, sm_port, now, lrh, true);
}

std::optional<Smp> Sma::respond(const Incoming &in, PortNum in_port, SmaTime now) {
    const Smp &request = in.smp;
    const MKeyCheck key = check_m_key(request, in_port, now);
    if (key == MKeyCheck::kFail) return std::nullopt;
    Smp reply = request;
    reply.method = Method::kGetResp;
    reply.direction = request.directed();
    ++counters_.replies;
    if (in.odd_status) {
        reply.status = in.odd_status;
        ++(in.odd_status == status::kBadVersion ? counters_.bad_version : counters_.unsupported);
        return reply;
    }
    ++(request.method == Method::kGet ? counters_.gets : counters_.sets);
    reply.status = 0;
    reply.data = {};
    get_set(request, reply, in_port, key == MKeyCheck::kPassHideKey);
    if (reply.status == status::kUnsupportedMethodAttr || reply.status == status::kUnsupportedMethod)
        ++counters_.unsupported;
    if (reply.status == status::kInvalidField) ++counters_.invalid_field;
    return reply;
}

SmaOutput Sma::lid_routed(const Incoming &in, PortNum in_port, SmaTime now, SmaLrh lrh, bool from_sm) {
    const Smp &smp = in.smp;
    if (smp.method == Method::kTrapRepress) {
        if (check_m_key(smp, in_port, now) == MKeyCheck::kFail) return drop(SmaDrop::kMKey);
        if (!trap_ || trap_->smp.tid != smp.tid || smp.attr_id != attr::kNotice)
            return drop(SmaDrop::kUnexpected);
        trap_.reset();
        ++counters_.traps_repressed;
        SmaOutput o;
        o.action = SmaAction::kConsumed;
        return o;
    }
    if (!is_request(smp.method)) {
        // A reply to, or a trap for, the SM on this node.
        if (from_sm) return drop(SmaDrop::kUnexpected);
        return to_sm(smp);
    }
    std::optional<Smp> reply = respond(in, in_port, now);
    if (!reply) return drop(SmaDrop::kMKey);
    if (from_sm) return to_sm(*reply);
    // Answered to the request's source LID, by the LFT (a switch) or out of the port it came in.
    return send_lid_routed(*reply, nullptr, lid(), lrh.slid, in_port);
}

SmaOutput Sma::directed(Incoming in, PortNum in_port, SmaTime now, SmaLrh lrh, bool from_sm) {
    using detail::DrAction;
    const detail::DrNode node{is_switch(), config_.num_ports};
    Smp &smp = in.smp;
    detail::DrStep s = from_sm ? detail::dr_send(smp, node) : detail::dr_receive(smp, in_port, node);
    if (s.action == DrAction::kOutLid && owns_lid(s.lid, in_port)) {
        // LID-routed on to this very node.
        s.action = smp.direction ? DrAction::kToSm : DrAction::kLocal;
    }
    switch (s.action) {
        case DrAction::kDrop:
            return drop(s.drop);
        case DrAction::kOutPort: {
            SmaOutput o = send_port(smp, &in.raw, s.port, {});
            if (!o.dropped() && !from_sm) ++counters_.forwarded;
            return o;
        }
        case DrAction::kOutLid: {
            SmaOutput o = send_lid_routed(smp, &in.raw, lid() ? lid() : kPermissiveLid, s.lid, in_port);
            if (!o.dropped() && !from_sm) ++counters_.forwarded;
            return o;
        }
        case DrAction::kToSm:
            if (from_sm) return drop(SmaDrop::kUnexpected);
            return to_sm(smp);
        case DrAction::kLocal:
            break;
    }
    if (!is_request(smp.method) || smp.direction) return drop(SmaDrop::kUnexpected);
    std::optional<Smp> reply = respond(in, in_port, now);
    if (!reply) return drop(SmaDrop::kMKey);
    const detail::DrStep back = detail::dr_send(*reply, node, s.lid_tail);
    switch (back.action) {
        case DrAction::kOutPort:
            return send_port(*reply, nullptr, back.port, {});
        case DrAction::kOutLid: {
            const Lid to = s.lid_tail ? lrh.slid : back.lid;
            if (owns_lid(to, in_port)) return to_sm(*reply);
            return send_lid_routed(*reply, nullptr, lid() ? lid() : kPermissiveLid, to, in_port);
        }
        case DrAction::kToSm:
            return to_sm(*reply);
        case DrAction::kLocal:
        case DrAction::kDrop:
            break;
    }
    return drop(back.action == DrAction::kDrop ? back.drop : SmaDrop::kBadHopPointer);
}

}  // namespace weft::sm
