// ARS ACL policy: ordered rules on packet fields with the three SAI ARS actions
// (DISABLE_ARS_FORWARDING, SET_ARS_OBJECT, SET_ARS_MONITORING).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "weft/ars/types.hpp"

namespace weft::ars {

// The fields a rule can match, as the dataplane's parser extracted them.
struct PacketFields {
    std::uint16_t ether_type = 0;
    std::uint8_t ip_version = 0;   // 4, 6, or 0 for non-IP
    std::uint8_t ip_protocol = 0;  // next header for IPv6
    std::uint16_t l4_src_port = 0;
    std::uint16_t l4_dst_port = 0;
    std::uint8_t dscp = 0;  // 0..63
};

struct PortRange {
    std::uint16_t first = 0;
    std::uint16_t last = 0xFFFF;
};

// Unset fields match everything.
struct AclMatch {
    std::optional<std::uint16_t> ether_type;
    std::optional<std::uint8_t> ip_version;
    std::optional<std::uint8_t> ip_protocol;
    std::optional<PortRange> l4_src_ports;
    std::optional<PortRange> l4_dst_ports;
    std::optional<std::uint64_t> dscp_set;  // bit d set: DSCP d matches
};

struct AclAction {
    bool disable_ars = false;            // fall back to static hash
    std::optional<ArsObjectId> set_ars;  // use this ARS object instead of the group's
    std::optional<bool> set_monitoring;  // force monitoring on or off for the packet
};

struct AclRule {
    std::uint32_t priority = 0;  // higher wins; equal priorities keep insertion order
    AclMatch match;
    AclAction action;
};

// What the policy decided for one packet; the selection takes it as a parameter.
struct AclVerdict {
    static constexpr std::uint8_t kDisableArs = 1;
    static constexpr std::uint8_t kOverrideArs = 2;
    static constexpr std::uint8_t kMonitorOn = 4;
    static constexpr std::uint8_t kMonitorOff = 8;

    std::uint8_t flags = 0;
    ArsObjectId ars_object = kNoArsObject;  // valid with kOverrideArs

    bool disables_ars() const { return (flags & kDisableArs) != 0; }
    bool overrides_ars() const { return (flags & kOverrideArs) != 0; }
};

// Rules sorted by precedence at build time; classification returns the first match's verdict.
class AclPolicy {
  public:
    AclPolicy() = default;
    explicit AclPolicy(std::vector<AclRule> rules);  // stable-sorts by descending priority

    AclVerdict classify(const PacketFields &fields) const;
    bool empty() const { return rules_.empty(); }
    const std::vector<AclRule> &rules() const { return rules_; }

  private:
    std::vector<AclRule> rules_;
};

bool matches(const AclMatch &match, const PacketFields &fields);

}  // namespace weft::ars
