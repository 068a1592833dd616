#include "weft/ars/acl_policy.hpp"

#include <algorithm>
#include <utility>

namespace weft::ars {

AclPolicy::AclPolicy(std::vector<AclRule> rules) : rules_(std::move(rules)) {
    std::stable_sort(rules_.begin(), rules_.end(),
                     [](const AclRule &a, const AclRule &b) { return a.priority > b.priority; });
}

bool matches(const AclMatch &match, const PacketFields &f) {
    if (match.ether_type && *match.ether_type != f.ether_type) return false;
    if (match.ip_version && *match.ip_version != f.ip_version) return false;
    if (match.ip_protocol && (f.ip_version == 0 || *match.ip_protocol != f.ip_protocol)) return false;
    if (match.l4_src_ports &&
        (f.l4_src_port < match.l4_src_ports->first || f.l4_src_port > match.l4_src_ports->last))
        return false;
    if (match.l4_dst_ports &&
        (f.l4_dst_port < match.l4_dst_ports->first || f.l4_dst_port > match.l4_dst_ports->last))
        return false;
    if (match.dscp_set && ((*match.dscp_set >> (f.dscp & 63)) & 1) == 0) return false;
    return true;
}

AclVerdict AclPolicy::classify(const PacketFields &fields) const {
    for (const AclRule &rule : rules_) {
        if (!matches(rule.match, fields)) continue;
        AclVerdict verdict;
        if (rule.action.disable_ars) verdict.flags |= AclVerdict::kDisableArs;
        if (rule.action.set_ars) {
            verdict.flags |= AclVerdict::kOverrideArs;
            verdict.ars_object = *rule.action.set_ars;
        }
        if (rule.action.set_monitoring) {
            verdict.flags |= *rule.action.set_monitoring ? AclVerdict::kMonitorOn : AclVerdict::kMonitorOff;
        }
        return verdict;
    }
    return {};
}

}  // namespace weft::ars
