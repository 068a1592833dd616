// The control thread's entry point for whatever feeds routes in bulk (the FPM server of a routing
// daemon, a route file): routes to a group id or to a list of next hops, groups of weighted next
// hops, all staged in the FIB builder and published by commit() as one batch (see FibBuilder for
// what a batch guarantees the workers).
//
// A route given a list of next hops rather than a group id gets a group of its own making (ids
// from kImplicitNhgFirst up), shared by every route with the same list, and deleted by the
// commit after the last route using it left. Replacing a group's next hops keeps it in place:
// the routes and counters stay with it, and ARS flowlets on members that stay stay.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

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

class RouteUpdater {
  public:
    struct CommitResult {
        std::size_t prefixes = 0;      // prefixes the batch changed
        std::size_t groups_freed = 0;  // next-hop-list groups no route uses any more
        bool published = false;
        std::string error;  // why not
    };

    // Both outlive the updater.
    RouteUpdater(dataplane::FibBuilder &fib, dataplane::FibPublisher &publisher)
        : fib_(fib), publisher_(publisher) {}

    // A hash ECMP group: added, or its next hops replaced in place. An ARS group (made by the
    // CLI's `nhg add ... ars`) is refused: its members are the ARS state's.
    dataplane::Status set_nhg(std::uint32_t id, const std::vector<NextHop> &hops);
    dataplane::Status del_nhg(std::uint32_t id);
    // Added, or replaced (the prefix's group changes).
    dataplane::Status set_route(const dataplane::IpPrefix &prefix, std::uint32_t nhg_id);
    dataplane::Status set_route(const dataplane::IpPrefix &prefix, std::vector<NextHop> hops);
    dataplane::Status del_route(const dataplane::IpPrefix &prefix);
    // Publishes everything staged (by this updater or by anyone else on the builder).
    CommitResult commit();

    std::size_t implicit_groups() const noexcept { return by_hops_.size(); }
    bool has_nhg(std::uint32_t id) const { return fib_.nhgs().contains(id); }

  private:
    dataplane::Status check_own_id(std::uint32_t id) const;
    void noting_old_group(const dataplane::IpPrefix &prefix);

    dataplane::FibBuilder &fib_;
    dataplane::FibPublisher &publisher_;
    std::map<std::vector<NextHop>, std::uint32_t> by_hops_;  // sorted next-hop list -> its group
    std::map<std::uint32_t, std::vector<NextHop>> hops_of_;
    std::uint32_t next_implicit_ = kImplicitNhgFirst;
    std::set<std::uint32_t> maybe_unused_;  // implicit groups a route left in this batch
};

}  // namespace weft::control
