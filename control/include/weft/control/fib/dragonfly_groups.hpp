// The dragonfly policy applied to the FIB: each prefix's plan (DragonflyRib) as an ARS group of
// primaries and alternates, through a RouteUpdater. Prefixes with the same plan share a group
// (ids kPolicyNhgFirst..kPolicyNhgEnd-1); a plan with no ARS (ecmp_without_alternates) is a hash
// ECMP group of the updater's next-hop lists.
//
// Changes are applied per batch (flush(), before the updater's commit), so that a group whose
// prefixes all change to the same new plan — a global link cut and BGP converged around it, all
// the prefixes behind it moving together — is changed in place: its routes stay on it, and the
// flowlets on the members that stay are not disturbed, even when another group has that plan
// already (two groups may then share a plan; new prefixes join the lowest). A prefix that leaves
// its group alone moves to a group of its new plan.
//
// A prefix withdrawn and announced again in a later batch (a BGP session flapping while the
// prefix has no other path) takes its former group id back when it is free, or joins it when it
// was taken back with the same plan: prefixes that shared a group share it again, and the next
// change of plan is again in place rather than splitting one shared group into new ones.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "weft/control/fib/dragonfly_policy.hpp"
#include "weft/control/route_updater.hpp"

namespace weft::control::fib {

// The policy's ARS group ids: below the fabric's (kFabricNhgFirst), ARS ids all.
inline constexpr std::uint32_t kPolicyNhgs = 1024;
inline constexpr std::uint32_t kPolicyNhgEnd = 15360;
inline constexpr std::uint32_t kPolicyNhgFirst = kPolicyNhgEnd - kPolicyNhgs;
inline bool is_policy_nhg(std::uint32_t id) {
    return id >= kPolicyNhgFirst && id < kPolicyNhgEnd;
}

struct PolicyCounters {
    std::uint64_t groups_made = 0;
    std::uint64_t groups_changed_in_place = 0;
    std::uint64_t groups_freed = 0;
    std::uint64_t prefixes_moved = 0;  // to another group (their flowlets start again)
    std::uint64_t refusals = 0;        // a group or a route the FIB or ARS refused
    std::string last_refusal;
};

class DragonflyGroups {
  public:
    DragonflyGroups(RouteUpdater &updater, DragonflyPolicy policy) : updater_(updater), rib_(policy) {}

    // A table's next hops for a prefix (empty: none), or its route gone. Applied by flush().
    void set(const dataplane::IpPrefix &prefix, std::uint32_t table, std::vector<NextHop> hops);
    void remove(const dataplane::IpPrefix &prefix, std::uint32_t table);
    // Stages the changed prefixes' groups and routes in the updater (its commit publishes them).
    void flush();
    // Every route and group this made, removed (staged); the tables' routes forgotten.
    void clear();

    const DragonflyPolicy &policy() const noexcept { return rib_.policy(); }
    bool reads(std::uint32_t table) const noexcept { return rib_.reads(table); }
    std::size_t prefixes() const noexcept { return installed_.size(); }  // in the FIB
    std::size_t groups() const noexcept { return groups_.size(); }
    std::size_t refused() const noexcept { return refused_.size(); }  // prefixes with no route for it
    const PolicyCounters &counters() const noexcept { return counters_; }
    // The ARS group of a prefix (0: none, or a hash ECMP group).
    std::uint32_t group_of(const dataplane::IpPrefix &prefix) const;

  private:
    struct Group {
        GroupPlan plan;
        std::size_t users = 0;
    };
    struct Installed {
        GroupPlan plan;
        std::uint32_t group = 0;  // 0: an ECMP plan on the updater's list group
    };
    void refuse(const dataplane::IpPrefix &prefix, const dataplane::Status &s);
    std::uint32_t group_for(const GroupPlan &plan, dataplane::Status &s);
    // The group a returning prefix had (former_), made again with that id or joined; 0: neither.
    std::uint32_t former_group(const dataplane::IpPrefix &prefix, const GroupPlan &plan,
                               dataplane::Status &s);
    std::uint32_t make_group(std::uint32_t id, const GroupPlan &plan, dataplane::Status &s);
    void release(std::uint32_t group);
    void forget_plan(const GroupPlan &plan, std::uint32_t group);
    dataplane::Status change_in_place(std::uint32_t group, const GroupPlan &plan);
    ArsGroupSpec spec_of(const GroupPlan &plan) const;

    RouteUpdater &updater_;
    DragonflyRib rib_;
    std::unordered_set<dataplane::IpPrefix, dataplane::IpPrefixHash> dirty_;
    std::unordered_map<dataplane::IpPrefix, Installed, dataplane::IpPrefixHash> installed_;
    std::unordered_set<dataplane::IpPrefix, dataplane::IpPrefixHash> refused_;
    std::map<std::uint32_t, Group> groups_;
    std::map<GroupPlan, std::set<std::uint32_t>> by_plan_;  // a plan's groups (usually one)
    // Prefixes withdrawn from an ARS group -> its id, until they come back (at most kFormerMax:
    // past that, the others come back to new groups).
    static constexpr std::size_t kFormerMax = 65536;
    std::unordered_map<dataplane::IpPrefix, std::uint32_t, dataplane::IpPrefixHash> former_;
    std::uint32_t next_id_ = kPolicyNhgFirst;
    PolicyCounters counters_;
};

}  // namespace weft::control::fib
