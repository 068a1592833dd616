#include "config_text.hpp"

namespace weft::control::cli {

namespace {

std::string target_word(const ars::EgressTarget &t) {
    return (t.kind == ars::EgressTarget::Kind::kLag ? "lag" : "") + std::to_string(t.id);
}

std::string range_word(const ars::PortRange &r) {
    return r.first == r.last ? std::to_string(r.first)
                             : std::to_string(r.first) + "-" + std::to_string(r.last);
}

}  // namespace

const char *mode_word(ars::Mode mode) {
    switch (mode) {
        case ars::Mode::kFlowletQuality:
            return "flowlet-quality";
        case ars::Mode::kFlowletRandom:
            return "flowlet-random";
        case ars::Mode::kPerPacketQuality:
            return "per-packet-quality";
        case ars::Mode::kPerPacketRandom:
            return "per-packet-random";
        case ars::Mode::kFixed:
            return "fixed";
    }
    return "flowlet-quality";
}

std::string object_words(const ars::ArsObjectConfig &o) {
    return std::to_string(o.id) + " mode " + mode_word(o.mode) + " idle-time " +
           std::to_string(o.idle_time_us) + " max-flows " + std::to_string(o.max_flows) + " monitor " +
           (o.monitoring ? "on" : "off");
}

std::string lag_words(const ars::LagConfig &l) {
    std::string ports;
    for (const ars::PortId p : l.ports) ports += (ports.empty() ? "" : ",") + std::to_string(p);
    std::string out = std::to_string(l.id) + " ports " + ports;
    if (l.ars_object != ars::kNoArsObject) out += " ars " + std::to_string(l.ars_object);
    return out;
}

std::string member_list(const ars::NhgConfig &n, ars::MemberRole role) {
    std::string out;
    for (const ars::NhgMember &m : n.members)
        if (m.role == role) out += (out.empty() ? "" : ",") + target_word(m.target);
    return out;
}

std::string nhg_ars_words(const ars::NhgConfig &n) {
    std::string out =
        std::to_string(n.id) + " ars " +
        (n.ars_object == ars::kNoArsObject ? std::string("none") : std::to_string(n.ars_object)) +
        " primary " + member_list(n, ars::MemberRole::kPrimary);
    const std::string alternates = member_list(n, ars::MemberRole::kAlternate);
    if (!alternates.empty()) out += " alternate " + alternates;
    const ars::PathSelection &p = n.path_selection;
    return out + " cost " + std::to_string(p.alternate_cost) + " bias " + std::to_string(p.alternate_bias) +
           " threshold " + std::to_string(p.primary_quality_threshold);
}

std::string acl_words(const ars::AclRule &r) {
    std::string out = std::to_string(r.priority);
    const ars::AclMatch &m = r.match;
    if (m.ether_type) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%04x", *m.ether_type);
        out += std::string(" ethertype ") + hex;
    }
    if (m.ip_version) out += " ip-version " + std::to_string(*m.ip_version);
    if (m.ip_protocol) out += " proto " + std::to_string(*m.ip_protocol);
    if (m.l4_src_ports) out += " sport " + range_word(*m.l4_src_ports);
    if (m.l4_dst_ports) out += " dport " + range_word(*m.l4_dst_ports);
    if (m.dscp_set) {
        std::string dscp;
        for (unsigned d = 0; d < 64; ++d)
            if (((*m.dscp_set >> d) & 1) != 0) dscp += (dscp.empty() ? "" : ",") + std::to_string(d);
        out += " dscp " + dscp;
    }
    out += " action";
    if (r.action.disable_ars) out += " disable-ars";
    if (r.action.set_ars) out += " set-ars " + std::to_string(*r.action.set_ars);
    if (r.action.set_monitoring) out += std::string(" monitor ") + (*r.action.set_monitoring ? "on" : "off");
    return out;
}

}  // namespace weft::control::cli
