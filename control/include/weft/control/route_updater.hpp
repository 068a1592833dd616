// The control thread's entry point for whatever feeds routes in bulk (the FPM server of a routing
// daemon, a route file): routes to a group id or to a list of next hops, groups of weighted next
// hops, all staged in the FIB builder and published by commit() as one batch (see FibBuilder for
// what a batch guarantees the workers).
//
// A route given a list of next hops rather than a group id gets a group of its own making (ids
// from kImplicitNhgFirst up), shared by every route with the same list, and deleted by the
// commit after the last route using it left. Replacing a group's next hops keeps it in place:
// the routes and counters stay with it, and ARS flowlets on members that stay stay.
//
// ARS groups (primaries and alternates chosen by ARS, set_ars_group) join the ARS state of an
// ArsStateHost: the FIB group is staged at once, and the ARS state of every ARS group the batch
// changed is adopted once, by commit(), into the same snapshot.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "weft/ars/path_rule.hpp"
#include "weft/control/ars_state.hpp"
#include "weft/dataplane/fib_builder.hpp"
#include "weft/dataplane/fib_publisher.hpp"

namespace weft::control {

struct NextHop {
    std::uint16_t port = 0;
    std::optional<dataplane::IpAddr> via;  // the neighbour whose MAC frames take; none: the port's peer
    std::uint16_t weight = 1;              // 1..dataplane::kMaxNhgWeight
    auto operator<=>(const NextHop &) const = default;
};

// Ids of the groups made for next-hop lists; a caller's own ids stay below.
inline constexpr std::uint32_t kImplicitNhgFirst = 0xF0000000u;

// An ARS group: its primaries and alternates (one member per port: ARS chooses ports; the next
// hop's `via` gives the MAC, weights are ignored), the ARS object whose mode and flowlet time it
// takes (none: 0), and the primary/alternate rule's threshold, cost and bias.
struct ArsGroupSpec {
    std::vector<NextHop> primaries, alternates;
    std::uint16_t ars_object = 0;
    ars::PathSelection path;
};

// The ARS state ARS groups join, and the one way to replace it (the command context's
// adopt_ars_state in the switch).
class ArsStateHost {
  public:
    virtual ~ArsStateHost() = default;
    virtual const ArsState &ars_state() const = 0;
    // Makes `next` the accepted state and gives its configuration to the FIB builder, or says why
    // not (nothing changed).
    virtual std::optional<std::string> adopt_ars_state(const ArsState &next) = 0;
};

// An ARS state of its own, for a FIB builder that no command context drives (the FPM library's
// tests and benchmarks): every port ARS-enabled with the defaults.
class OwnArsState final : public ArsStateHost {
  public:
    OwnArsState(dataplane::FibBuilder &fib, std::uint16_t ports, ars::Ticks ticks_per_us = 1);
    const ArsState &ars_state() const override { return state_; }
    std::optional<std::string> adopt_ars_state(const ArsState &next) override;

  private:
    dataplane::FibBuilder &fib_;
    ArsState state_;
    ars::Ticks ticks_per_us_;
};

class RouteUpdater {
  public:
    struct CommitResult {
        std::size_t prefixes = 0;      // prefixes the batch changed
        std::size_t groups_freed = 0;  // next-hop-list groups no route uses any more
        bool published = false;
        std::string error;  // why not
    };

    // All outlive the updater; without an ARS host, ARS groups are refused.
    RouteUpdater(dataplane::FibBuilder &fib, dataplane::FibPublisher &publisher, ArsStateHost *ars = nullptr)
        : fib_(fib), publisher_(publisher), ars_(ars) {}

    // A hash ECMP group: added, or its next hops replaced in place. An ARS group (made by the
    // CLI's `nhg add ... ars`) is refused: its members are the ARS state's.
    dataplane::Status set_nhg(std::uint32_t id, const std::vector<NextHop> &hops);
    dataplane::Status del_nhg(std::uint32_t id);
    // An ARS group: added, or its members and parameters replaced in place (the members that
    // stay keep their ARS member ids, so their flowlets stay). An ARS object the state lacks is
    // made with ARS's defaults (flowlet-quality). Refused, changing nothing, when the group
    // alone would not build (too many members, a port ARS does not know, ...).
    dataplane::Status set_ars_group(std::uint32_t id, const ArsGroupSpec &spec);
    // An ARS group deleted (no route may use it any more after this batch).
    dataplane::Status del_ars_group(std::uint32_t id);
    // Added, or replaced (the prefix's group changes).
    dataplane::Status set_route(const dataplane::IpPrefix &prefix, std::uint32_t nhg_id);
    // No next hops: a blackhole (a Drop group, shared like any list's).
    dataplane::Status set_route(const dataplane::IpPrefix &prefix, std::vector<NextHop> hops);
    dataplane::Status del_route(const dataplane::IpPrefix &prefix);
    // Publishes everything staged (by this updater or by anyone else on the builder).
    CommitResult commit();

    std::size_t implicit_groups() const noexcept { return by_hops_.size(); }
    bool has_nhg(std::uint32_t id) const { return fib_.nhgs().contains(id); }
    const dataplane::FibBuilder &fib() const noexcept { return fib_; }

  private:
    dataplane::Status check_own_id(std::uint32_t id) const;
    void noting_old_group(const dataplane::IpPrefix &prefix);
    // The ARS state as the batch leaves it: the host's, with the staged groups.
    const ars::NhgConfig *ars_group(std::uint32_t id) const;

    dataplane::FibBuilder &fib_;
    dataplane::FibPublisher &publisher_;
    ArsStateHost *ars_;
    std::map<std::uint32_t, std::optional<ars::NhgConfig>> ars_staged_;  // nullopt: deleted
    std::set<std::uint16_t> ars_objects_made_;               // objects the staged groups need made
    std::map<std::vector<NextHop>, std::uint32_t> by_hops_;  // sorted next-hop list -> its group
    std::map<std::uint32_t, std::vector<NextHop>> hops_of_;
    std::uint32_t next_implicit_ = kImplicitNhgFirst;
    std::set<std::uint32_t> maybe_unused_;  // implicit groups a route left in this batch
};

}  // namespace weft::control
