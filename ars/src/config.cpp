#include "weft/ars/config.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "validation.hpp"
#include "weft/ars/capabilities.hpp"

namespace weft::ars {

using detail::check_range;
using detail::indexed;
using detail::refuse;

const PortConfig *Config::port(PortId id) const {
    return id < ports_.size() && port_present_[id] ? &ports_[id] : nullptr;
}

const ArsObjectRuntime *Config::ars_object(ArsObjectId id) const {
    return id < ars_objects_.size() && ars_objects_[id].present ? &ars_objects_[id] : nullptr;
}

const SelectionGroup *Config::nhg(NhgId id) const {
    return id < nhgs_.size() && nhgs_[id].present ? &nhgs_[id] : nullptr;
}

const SelectionGroup *Config::lag(LagId id) const {
    return id < lags_.size() && lags_[id].present ? &lags_[id] : nullptr;
}

ConfigBuilder::ConfigBuilder(Profile profile, Ticks ticks_per_us)
    : profile_(std::move(profile)), ticks_per_us_(ticks_per_us) {}

ConfigBuilder &ConfigBuilder::add_port(const PortConfig &port) {
    ports_.push_back(port);
    return *this;
}
ConfigBuilder &ConfigBuilder::add_ars_object(const ArsObjectConfig &object) {
    ars_objects_.push_back(object);
    return *this;
}
ConfigBuilder &ConfigBuilder::add_lag(const LagConfig &lag) {
    lags_.push_back(lag);
    return *this;
}
ConfigBuilder &ConfigBuilder::add_nhg(const NhgConfig &nhg) {
    nhgs_.push_back(nhg);
    return *this;
}
ConfigBuilder &ConfigBuilder::set_acl(std::vector<AclRule> rules) {
    acl_rules_ = std::move(rules);
    return *this;
}

namespace {

constexpr Capabilities kCaps = capabilities();

// Grows a by-id vector to hold id; returns false (and refuses) for duplicates.
template <typename T>
bool claim_slot(std::vector<T> &slots, std::size_t id, ConfigErrors &errors, const std::string &attribute) {
    if (slots.size() <= id) slots.resize(id + 1);
    if (slots[id].present) {
        refuse(errors, attribute, "id " + std::to_string(id) + " is configured twice, allowed once");
        return false;
    }
    return true;
}

}  // namespace

BuildResult ConfigBuilder::build() const {
    ConfigErrors errors = validate(profile_);
    std::shared_ptr<Config> config(new Config());
    config->profile_ = profile_;
    config->ticks_per_us_ = ticks_per_us_;
    if (ticks_per_us_ == 0) refuse(errors, "ticks_per_us", "value 0 is out of range, allowed 1..2^32");

    // Ports.
    for (const PortConfig &port : ports_) {
        const std::string attr = indexed("SAI_PORT_ATTR_ARS", port.id);
        if (port.id >= kCaps.max_ports) {
            check_range(errors, attr + " id", port.id, 0, kCaps.max_ports - 1);
            continue;
        }
        if (config->ports_.size() <= port.id) {
            config->ports_.resize(port.id + 1);
            config->port_present_.resize(port.id + 1, false);
        }
        if (config->port_present_[port.id]) {
            refuse(errors, attr, "port " + std::to_string(port.id) + " is configured twice, allowed once");
            continue;
        }
        check_range(errors, indexed("SAI_PORT_ATTR_ARS_PORT_LOAD_SCALING_FACTOR", port.id), port.scale_tenths,
                    1, kMaxScaleTenths);
        check_range(errors, indexed("SAI_PORT_ATTR_ARS_PORT_LOAD_PAST_WEIGHT", port.id),
                    port.past_weight_percent, 0, 100);
        check_range(errors, indexed("SAI_PORT_ATTR_ARS_PORT_LOAD_FUTURE_WEIGHT", port.id),
                    port.future_weight_percent, 0, 100);
        config->ports_[port.id] = port;
        config->port_present_[port.id] = true;
    }

    // ARS objects, with the limits each one puts on its groups.
    std::vector<ArsObjectConfig> object_configs;
    for (const ArsObjectConfig &object : ars_objects_) {
        const std::string attr = indexed("SAI_OBJECT_TYPE_ARS", object.id);
        if (object.id >= kCaps.max_ars_objects) {
            check_range(errors, attr + " id", object.id, 0, kCaps.max_ars_objects - 1);
            continue;
        }
        if (!claim_slot(config->ars_objects_, object.id, errors, attr)) continue;
        if (static_cast<int>(object.mode) >= kModeCount) {
            check_range(errors, indexed("SAI_ARS_ATTR_MODE", object.id), static_cast<int>(object.mode), 0,
                        kModeCount - 1);
        }
        check_range(errors, indexed("SAI_ARS_ATTR_IDLE_TIME", object.id), object.idle_time_us, kMinIdleTimeUs,
                    kMaxIdleTimeUs);
        if (!std::has_single_bit(object.max_flows) || object.max_flows > kCaps.max_flows_per_object) {
            refuse(errors, indexed("SAI_ARS_ATTR_MAX_FLOWS", object.id),
                   "value " + std::to_string(object.max_flows) +
                       " is not allowed, allowed a power of two in 1.." +
                       std::to_string(kCaps.max_flows_per_object));
        }
        check_range(errors, indexed("SAI_ARS_ATTR_MAX_PRIMARY_MEMEBERS_PER_GROUP", object.id),
                    object.max_primary_members, 1, kCaps.max_primary_members);
        check_range(errors, indexed("SAI_ARS_ATTR_MAX_ALT_MEMEBERS_PER_GROUP", object.id),
                    object.max_alternate_members, 0, kCaps.max_alternate_members);
        ArsObjectRuntime &rt = config->ars_objects_[object.id];
        rt.present = true;
        rt.mode = object.mode;
        rt.monitoring = object.monitoring;
        rt.idle_ticks = Ticks{object.idle_time_us} * ticks_per_us_;
        rt.max_flows = object.max_flows;
        if (object_configs.size() <= object.id) object_configs.resize(object.id + 1);
        object_configs[object.id] = object;
    }
    auto object_known = [&](ArsObjectId id) {
        return id < config->ars_objects_.size() && config->ars_objects_[id].present;
    };

    // LAGs: members are ports, all primary; a port belongs to one LAG at most.
    std::map<PortId, LagId> lag_of_port;
    for (const LagConfig &lag : lags_) {
        const std::string attr = indexed("SAI_OBJECT_TYPE_LAG", lag.id);
        if (lag.id >= kCaps.max_lag_groups) {
            check_range(errors, attr + " id", lag.id, 0, kCaps.max_lag_groups - 1);
            continue;
        }
        if (!claim_slot(config->lags_, lag.id, errors, attr)) continue;
        if (lag.ars_object != kNoArsObject && !object_known(lag.ars_object)) {
            refuse(errors, indexed("SAI_LAG_ATTR_ARS_OBJECT_ID", lag.id),
                   "ARS object " + std::to_string(lag.ars_object) +
                       " does not exist, allowed a configured ARS object");
        }
        check_range(errors, indexed("SAI_LAG_ATTR_PORT_LIST", lag.id) + " size", lag.ports.size(), 1,
                    kCaps.max_members_per_lag_group);
        if (lag.ars_object != kNoArsObject && object_known(lag.ars_object) &&
            lag.ports.size() > object_configs[lag.ars_object].max_primary_members) {
            refuse(errors, indexed("SAI_LAG_ATTR_PORT_LIST", lag.id),
                   std::to_string(lag.ports.size()) + " ports exceed the ARS object's " +
                       "SAI_ARS_ATTR_MAX_PRIMARY_MEMEBERS_PER_GROUP, allowed 1.." +
                       std::to_string(object_configs[lag.ars_object].max_primary_members));
        }
        SelectionGroup &g = config->lags_[lag.id];
        g.present = true;
        g.ars_object = lag.ars_object;
        std::set<PortId> seen;
        for (PortId p : lag.ports) {
            const PortConfig *port = config->port(p);
            if (port == nullptr) {
                refuse(errors, indexed("SAI_LAG_ATTR_PORT_LIST", lag.id),
                       "port " + std::to_string(p) + " is not configured, allowed configured ports");
                continue;
            }
            if (!seen.insert(p).second) {
                refuse(errors, indexed("SAI_LAG_ATTR_PORT_LIST", lag.id),
                       "port " + std::to_string(p) + " is listed twice, allowed once");
                continue;
            }
            if (const auto [other, fresh] = lag_of_port.emplace(p, lag.id); !fresh) {
                refuse(errors, indexed("SAI_LAG_ATTR_PORT_LIST", lag.id),
                       "port " + std::to_string(p) + " is a member of LAG " + std::to_string(other->second) +
                           " already, allowed in one LAG");
                continue;
            }
            g.members.push_back({EgressTarget::port(p), port->ars_enabled, kNoRemoteSlot, p});
        }
        g.primary_count = static_cast<std::uint16_t>(g.members.size());
    }

    // Next-hop groups: primaries first, then alternates.
    for (const NhgConfig &nhg : nhgs_) {
        const std::string attr = indexed("SAI_OBJECT_TYPE_NEXT_HOP_GROUP", nhg.id);
        if (nhg.id >= kCaps.max_ecmp_groups) {
            check_range(errors, attr + " id", nhg.id, 0, kCaps.max_ecmp_groups - 1);
            continue;
        }
        if (!claim_slot(config->nhgs_, nhg.id, errors, attr)) continue;
        const bool has_object = nhg.ars_object != kNoArsObject;
        if (has_object && !object_known(nhg.ars_object)) {
            refuse(errors, indexed("SAI_NEXT_HOP_GROUP_ATTR_ARS_OBJECT_ID", nhg.id),
                   "ARS object " + std::to_string(nhg.ars_object) +
                       " does not exist, allowed a configured ARS object");
        }
        SelectionGroup &g = config->nhgs_[nhg.id];
        g.present = true;
        g.ars_object = nhg.ars_object;
        g.path_selection = nhg.path_selection;
        std::set<std::uint32_t> member_ids;
        std::vector<GroupMember> alternates;
        for (const NhgMember &m : nhg.members) {
            const std::string mattr =
                indexed("SAI_NEXT_HOP_GROUP_MEMBER", nhg.id) + "." + std::to_string(m.member_id);
            if (!member_ids.insert(m.member_id).second) {
                refuse(errors, mattr,
                       "member id " + std::to_string(m.member_id) + " is used twice, allowed once");
                continue;
            }
            bool usable = m.admin_up;
            if (m.target.kind == EgressTarget::Kind::kPort) {
                const PortConfig *port = config->port(m.target.id);
                if (port == nullptr) {
                    refuse(errors, mattr,
                           "port " + std::to_string(m.target.id) +
                               " is not configured, allowed configured ports");
                    continue;
                }
                usable = usable && port->ars_enabled;
            } else {
                const SelectionGroup *lag = config->lag(m.target.id);
                if (lag == nullptr) {
                    refuse(
                        errors, mattr,
                        "LAG " + std::to_string(m.target.id) + " is not configured, allowed configured LAGs");
                    continue;
                }
                usable = usable && std::any_of(lag->members.begin(), lag->members.end(),
                                               [](const GroupMember &p) { return p.usable; });
            }
            GroupMember gm{m.target, usable, m.remote_slot, m.member_id};
            if (m.role == MemberRole::kPrimary) {
                g.members.push_back(gm);
            } else {
                alternates.push_back(gm);
            }
        }
        // A port is a primary or an alternate of a group, never both (directly or through a LAG):
        // the primary/alternate rule compares the two halves' qualities.
        auto ports_of = [&](const EgressTarget &t) {
            std::vector<PortId> ports;
            if (t.kind == EgressTarget::Kind::kPort) {
                ports.push_back(t.id);
            } else if (const SelectionGroup *l = config->lag(t.id)) {
                for (const GroupMember &p : l->members) ports.push_back(p.target.id);
            }
            return ports;
        };
        std::set<PortId> primary_ports;
        for (const GroupMember &m : g.members)
            for (PortId p : ports_of(m.target)) primary_ports.insert(p);
        for (const GroupMember &m : alternates)
            for (PortId p : ports_of(m.target))
                if (primary_ports.contains(p))
                    refuse(errors,
                           indexed("SAI_NEXT_HOP_GROUP_MEMBER", nhg.id) + "." + std::to_string(m.member_id),
                           "port " + std::to_string(p) +
                               " is a primary member too, allowed as a primary or an alternate");
        g.primary_count = static_cast<std::uint16_t>(g.members.size());
        g.alternate_count = static_cast<std::uint16_t>(alternates.size());
        g.members.insert(g.members.end(), alternates.begin(), alternates.end());

        const std::uint32_t max_primary = has_object && object_known(nhg.ars_object)
                                              ? object_configs[nhg.ars_object].max_primary_members
                                              : kCaps.max_primary_members;
        const std::uint32_t max_alternate = has_object && object_known(nhg.ars_object)
                                                ? object_configs[nhg.ars_object].max_alternate_members
                                                : kCaps.max_alternate_members;
        check_range(errors, indexed("SAI_NEXT_HOP_GROUP_ATTR_ARS_PRIMARY_MEMBERS", nhg.id), g.primary_count,
                    0, max_primary);
        check_range(errors, indexed("SAI_NEXT_HOP_GROUP_ATTR_ARS_ALTERNATE_MEMBERS", nhg.id),
                    g.alternate_count, 0, max_alternate);
        check_range(errors, indexed("SAI_NEXT_HOP_GROUP_ATTR_MEMBERS", nhg.id), g.members.size(), 1,
                    kCaps.max_members_per_ecmp_group);
    }

    // ACL rules.
    std::set<ArsObjectId> overrides;
    for (std::size_t i = 0; i < acl_rules_.size(); ++i) {
        const AclRule &rule = acl_rules_[i];
        const std::string attr = indexed("SAI_OBJECT_TYPE_ACL_ENTRY", i);
        if (rule.action.disable_ars && rule.action.set_ars) {
            refuse(errors, attr + ".SAI_ACL_ENTRY_ATTR_ACTION_SET_ARS_OBJECT",
                   "combined with SAI_ACL_ENTRY_ATTR_ACTION_DISABLE_ARS_FORWARDING, allowed one of the two");
        }
        if (rule.action.set_ars) {
            if (!object_known(*rule.action.set_ars)) {
                refuse(errors, attr + ".SAI_ACL_ENTRY_ATTR_ACTION_SET_ARS_OBJECT",
                       "ARS object " + std::to_string(*rule.action.set_ars) +
                           " does not exist, allowed a configured ARS object");
            } else {
                overrides.insert(*rule.action.set_ars);
            }
        }
        const AclMatch &m = rule.match;
        if (m.ip_version && *m.ip_version != 4 && *m.ip_version != 6) {
            refuse(errors, attr + ".ip_version",
                   "value " + std::to_string(*m.ip_version) + " is not allowed, allowed 4 or 6");
        }
        if (m.l4_src_ports && m.l4_src_ports->first > m.l4_src_ports->last) {
            refuse(errors, attr + ".SAI_ACL_ENTRY_ATTR_FIELD_L4_SRC_PORT",
                   "range " + std::to_string(m.l4_src_ports->first) + ".." +
                       std::to_string(m.l4_src_ports->last) +
                       " is empty, allowed first <= last within 0..65535");
        }
        if (m.l4_dst_ports && m.l4_dst_ports->first > m.l4_dst_ports->last) {
            refuse(errors, attr + ".SAI_ACL_ENTRY_ATTR_FIELD_L4_DST_PORT",
                   "range " + std::to_string(m.l4_dst_ports->first) + ".." +
                       std::to_string(m.l4_dst_ports->last) +
                       " is empty, allowed first <= last within 0..65535");
        }
        if (m.dscp_set && *m.dscp_set == 0) {
            refuse(errors, attr + ".SAI_ACL_ENTRY_ATTR_FIELD_DSCP",
                   "the DSCP set is empty, allowed 1..64 values of 0..63");
        }
    }
    config->acl_ = AclPolicy(acl_rules_);
    config->acl_override_objects_.assign(overrides.begin(), overrides.end());

    if (!errors.empty()) return {nullptr, std::move(errors)};
    return {std::move(config), {}};
}

}  // namespace weft::ars
