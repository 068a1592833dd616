// The dragonfly policy: how FRR's routes become an ARS group's primary and alternate members
// (control/FRR_POLICY.md says why). Minimal paths (the destination group's direct global link)
// are the primaries, non-minimal ones (through an intermediate group) the alternates, and ARS
// chooses between them by its path rule.
//
// Two sources, chosen per switch:
//  - Tables: the routes of the primary kernel table (main, 254) are the primaries; the routes FRR
//    puts in a second table (a VRF or `table N` whose policy accepts the longer paths) for the
//    same prefix are the alternates.
//  - Weights: one table; next hops weighted at least `primary_weight_min` are primaries, the
//    lighter ones alternates (FRR sets weights from BGP link bandwidth or a route-map).
//
// DragonflyRib keeps, per prefix, what each table said, and answers the group a prefix needs
// after every change; the FPM server feeds it and applies the answers through RouteUpdater. Pure:
// no I/O, no FIB.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "weft/ars/path_rule.hpp"
#include "weft/control/route_updater.hpp"
#include "weft/dataplane/ip_addr.hpp"

namespace weft::control::fib {

inline constexpr std::uint32_t kMainTable = 254;  // RT_TABLE_MAIN

struct DragonflyPolicy {
    enum class Source : std::uint8_t { Tables, Weights };
    Source source = Source::Tables;
    std::uint32_t primary_table = kMainTable;
    std::uint32_t alternate_table = 200;
    std::uint16_t primary_weight_min = 2;  // Weights: 1..255
    std::uint16_t ars_object = 1;          // its mode and flowlet time (made flowlet-quality if missing)
    ars::PathSelection path;               // when flowlets leave the primaries: threshold, cost, bias
    std::size_t max_alternates = 16;
    // A prefix with primaries and no alternates: a hash ECMP group with the routes' weights
    // (true) or an ARS group over the primaries alone (false: flowlets still move by quality).
    bool ecmp_without_alternates = false;
};

// What a prefix's group is to be. Members are sorted and each appears once, so the same routes
// always give the same plan (a replay of zebra's table changes nothing).
struct GroupPlan {
    bool ars = true;
    std::vector<NextHop> primaries;   // ARS: weight 1 each; ECMP: the routes' weights; none: drop
    std::vector<NextHop> alternates;  // ARS only
    std::uint16_t ars_object = 0;
    auto operator<=>(const GroupPlan &) const = default;
};

// The plan for one prefix from what each table holds for it (table id -> next hops; none: the
// table's route is a blackhole); nothing when no table the policy reads has a route (the prefix
// is to be removed). A blackhole in the table that gives the primaries drops the prefix (an ECMP
// plan with no member: the FIB's Drop group); one in the alternate table adds no alternates.
std::optional<GroupPlan> plan_group(const DragonflyPolicy &policy,
                                    const std::map<std::uint32_t, std::vector<NextHop>> &by_table);

class DragonflyRib {
  public:
    explicit DragonflyRib(DragonflyPolicy policy) : policy_(policy) {}

    // A route of `table` for `prefix` added or replaced (RTM_NEWROUTE) or removed
    // (RTM_DELROUTE); no next hops: a blackhole route. Tables the policy does not read are
    // ignored (false). True when the
    // prefix's plan changed; plan() then says what it is now.
    bool set(const dataplane::IpPrefix &prefix, std::uint32_t table, std::vector<NextHop> hops);
    bool remove(const dataplane::IpPrefix &prefix, std::uint32_t table);
    // The prefix's plan; nothing when no table has a route for it.
    std::optional<GroupPlan> plan(const dataplane::IpPrefix &prefix) const;

    const DragonflyPolicy &policy() const noexcept { return policy_; }
    bool reads(std::uint32_t table) const noexcept;
    std::size_t prefixes() const noexcept { return rib_.size(); }

  private:
    DragonflyPolicy policy_;
    std::map<dataplane::IpPrefix, std::map<std::uint32_t, std::vector<NextHop>>> rib_;
};

}  // namespace weft::control::fib
