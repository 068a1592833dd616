// The immutable configuration snapshot the workers read, and the builder that validates it.
//
// The control thread fills a ConfigBuilder, calls build(), and publishes the resulting
// shared_ptr<const Config> (the dataplane does the RCU). Nothing in a Config changes after build,
// so any number of workers may read it concurrently. Per-worker mutable state (flow tables,
// counters, generator) lives in Worker and is indexed by the stable ids, so it survives a
// snapshot change (see Worker::adopt).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "weft/ars/acl_policy.hpp"
#include "weft/ars/ars_object.hpp"
#include "weft/ars/config_error.hpp"
#include "weft/ars/lag.hpp"
#include "weft/ars/next_hop_group.hpp"
#include "weft/ars/path_rule.hpp"
#include "weft/ars/port_config.hpp"
#include "weft/ars/profile.hpp"
#include "weft/ars/types.hpp"

namespace weft::ars {

// An ARS object as the hot path needs it: times already in ticks.
struct ArsObjectRuntime {
    bool present = false;
    Mode mode = Mode::kFlowletQuality;
    bool monitoring = false;
    Ticks idle_ticks = 0;
    std::uint32_t max_flows = 0;
};

// One member of a selection group. Members are stored primaries first, then alternates.
struct GroupMember {
    EgressTarget target;
    bool usable = false;  // admin up and its port (or some LAG port) takes part in ARS
    RemoteSlot remote_slot = kNoRemoteSlot;  // NhgMember::remote_slot (in what was padding)
    std::uint32_t member_id = 0;
};

// A next-hop group or a LAG, ready for selection. A LAG's members are its ports, all primary.
struct SelectionGroup {
    bool present = false;
    ArsObjectId ars_object = kNoArsObject;
    PathSelection path_selection;
    std::uint16_t primary_count = 0;
    std::uint16_t alternate_count = 0;
    std::vector<GroupMember> members;

    std::uint16_t size() const { return static_cast<std::uint16_t>(members.size()); }
};

class Config {
  public:
    const Profile &profile() const { return profile_; }
    Ticks ticks_per_us() const { return ticks_per_us_; }

    // Lookups by stable id; nullptr / absent entries for ids that are not configured.
    const PortConfig *port(PortId id) const;
    const ArsObjectRuntime *ars_object(ArsObjectId id) const;
    const SelectionGroup *nhg(NhgId id) const;
    const SelectionGroup *lag(LagId id) const;

    // Dense arrays indexed by id (entries with present == false are holes).
    const std::vector<ArsObjectRuntime> &ars_objects() const { return ars_objects_; }
    const std::vector<SelectionGroup> &nhgs() const { return nhgs_; }
    const std::vector<SelectionGroup> &lags() const { return lags_; }
    const std::vector<PortConfig> &ports() const { return ports_; }
    const std::vector<bool> &port_present() const { return port_present_; }
    const AclPolicy &acl() const { return acl_; }

    // ARS objects an ACL rule may switch a group to; workers keep a flow table per group for each.
    const std::vector<ArsObjectId> &acl_override_objects() const { return acl_override_objects_; }

  private:
    friend class ConfigBuilder;
    Config() = default;

    Profile profile_;
    Ticks ticks_per_us_ = 1;
    std::vector<PortConfig> ports_;
    std::vector<bool> port_present_;
    std::vector<ArsObjectRuntime> ars_objects_;
    std::vector<SelectionGroup> nhgs_;
    std::vector<SelectionGroup> lags_;
    AclPolicy acl_;
    std::vector<ArsObjectId> acl_override_objects_;
};

struct BuildResult {
    std::shared_ptr<const Config> config;  // null when errors is not empty
    ConfigErrors errors;
    bool ok() const { return errors.empty(); }
};

class ConfigBuilder {
  public:
    // ticks_per_us converts the microsecond settings into the tick unit the workers are fed.
    ConfigBuilder(Profile profile, Ticks ticks_per_us);

    ConfigBuilder &add_port(const PortConfig &port);
    ConfigBuilder &add_ars_object(const ArsObjectConfig &object);
    ConfigBuilder &add_lag(const LagConfig &lag);
    ConfigBuilder &add_nhg(const NhgConfig &nhg);
    ConfigBuilder &set_acl(std::vector<AclRule> rules);

    // Validates everything and reports every refused setting, not just the first.
    BuildResult build() const;

  private:
    Profile profile_;
    Ticks ticks_per_us_;
    std::vector<PortConfig> ports_;
    std::vector<ArsObjectConfig> ars_objects_;
    std::vector<LagConfig> lags_;
    std::vector<NhgConfig> nhgs_;
    std::vector<AclRule> acl_rules_;
};

}  // namespace weft::ars
