// What zebra has told the FPM server, and how it stands in weft's FIB: the routes (installed, or
// held and why), zebra's nexthop objects of the current connection, and the weft groups made for
// the ones routes use. Every change goes through a RouteUpdater and is published by its commit.
//
// Blackhole, unreachable and prohibit routes, and routes to a blackhole nexthop, are routes to a
// Drop group (RouteUpdater's empty next-hop list): the workers drop what they route there.
//
// The traps it handles:
// - A route naming a nexthop id not yet sent is held, and installed when the nexthop comes.
// - A nexthop deleted while routes use it takes those routes with it, as the Linux kernel does
//   (zebra deletes a group only after its last route moved; anything else is counted). A member
//   deleted leaves the groups that have it; a group left empty goes like a deleted one.
// - Zebra's nexthop ids belong to one connection. A new connection (a zebra restarted, or
//   reconnected) marks every route stale; the replay refreshes them, a replayed group with the
//   same members as one stale routes use takes that weft group over (no change reaches the
//   workers), and sweep() removes what was not replayed.
//
// With the dragonfly policy (set_policy), routes of the policy's tables are taken, each route's
// next hops resolved as above, and DragonflyGroups makes the FIB's ARS groups of them; without
// it, the main table's routes go to the FIB as zebra gave them. Under the policy a route whose
// next hops resolve in part (a neighbour the kernel forgot with its link, not learnt again yet)
// gives the policy those that do and waits for the rest: held whole, it would leave its prefix's
// ARS group, which would be freed and made again rather than changed in place.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "fpm_codec.hpp"
#include "weft/control/fib/dragonfly_groups.hpp"
#include "weft/control/route_updater.hpp"

namespace weft::control::fpm {

// Ids of the weft groups made for zebra's nexthops; below them the CLI's, above them
// RouteUpdater's groups for next-hop lists.
inline constexpr std::uint32_t kFpmNhgFirst = 0xE0000000u;

// Why a route is held rather than installed.
enum class Hold : std::uint8_t {
    None,
    Group,      // its nexthop id (or a member of it) has not come
    Port,       // a next hop's interface maps to no weft port
    Neighbour,  // a next hop's gateway is none of weft's neighbours
    Refused,    // the FIB refused it (full, say); tried again when zebra sends it again
    kCount
};
std::string_view hold_name(Hold h);

// Where a next hop goes in weft, or why it cannot go anywhere yet (Port or Neighbour).
struct Resolved {
    std::optional<NextHop> hop;
    Hold why = Hold::None;
};
using Resolver = std::function<Resolved(const NlNextHop &)>;

// A route is a prefix in a kernel table.
struct RouteKey {
    dataplane::IpPrefix prefix;
    std::uint32_t table = kMainTable;
    auto operator<=>(const RouteKey &) const = default;
};
struct RouteKeyHash {
    std::size_t operator()(const RouteKey &k) const noexcept {
        return dataplane::IpPrefixHash{}(k.prefix) ^
               (static_cast<std::size_t>(k.table) * 0x9E3779B97F4A7C15ull);
    }
};

struct RibCounters {
    std::uint64_t held_for_group = 0;        // routes that came before their nexthop
    std::uint64_t held_applied = 0;          // held routes installed later
    std::uint64_t removed_with_nexthop = 0;  // routes gone with a deleted nexthop
    std::uint64_t groups_updated_in_place = 0;
    std::uint64_t groups_adopted = 0;   // replayed nexthops that took a stale weft group
    std::uint64_t unknown_deletes = 0;  // deletes of routes or nexthops not held
    std::uint64_t sessions = 0;
    std::uint64_t sweeps = 0;
    std::uint64_t swept_routes = 0;
    std::uint64_t fib_refusals = 0;
    std::string last_refusal;
};

class Rib {
  public:
    using Clock = std::chrono::steady_clock;

    Rib(RouteUpdater &updater, Resolver resolver, std::chrono::seconds grace)
        : updater_(updater), resolve_(std::move(resolver)), grace_(grace) {}

    // Whether routes of `table` are taken (the main table's, or the policy's tables).
    bool takes(std::uint32_t table) const noexcept;
    void apply(const RouteMsg &m);  // of a table it takes
    void apply(const NexthopMsg &m);

    // Routes from now on go through `policy` (null: to the FIB as they are). Every installed
    // route leaves the FIB the old way and comes back the new way, in the same batch; routes of
    // tables the new way does not take, and stale ones (not replayed yet), are forgotten.
    void set_policy(fib::DragonflyGroups *policy);

    // A zebra connected: everything held so far is stale until replayed; sweep() is due `grace`
    // from `now`.
    void new_session(Clock::time_point now);
    bool sweep_due(Clock::time_point now) const { return sweep_at_ && now >= *sweep_at_; }
    std::optional<Clock::time_point> sweep_at() const { return sweep_at_; }
    // Removes every route not replayed since the last new_session(); returns how many.
    std::size_t sweep();
    void set_grace(std::chrono::seconds grace) { grace_ = grace; }

    // Tries the routes held for a port or a neighbour, and those installed without some of their
    // next hops, again (the mapping or the neighbours changed); returns how many changed in the
    // FIB (installed, given more or fewer next hops, or held).
    std::size_t retry_held();

    std::size_t routes() const noexcept { return routes_.size(); }
    std::size_t held(Hold h) const noexcept { return held_[static_cast<std::size_t>(h)]; }
    std::size_t held_total() const noexcept;
    // Routes to try again when neighbours or ports change: those held for one, and (under the
    // policy) installed ones some of whose next hops wait for one.
    std::size_t unresolved() const noexcept { return unresolved_.size(); }
    std::size_t partial() const noexcept {
        return unresolved_.size() - held(Hold::Port) - held(Hold::Neighbour);
    }
    std::size_t installed() const noexcept { return routes_.size() - held_total(); }
    std::size_t stale() const noexcept { return stale_; }
    std::size_t nexthops() const noexcept { return nhs_.size(); }
    std::size_t groups() const noexcept { return groups_.size(); }
    const RibCounters &counters() const noexcept { return counters_; }

  private:
    struct Route {
        std::optional<std::uint32_t> nh_id;
        std::vector<NlNextHop> hops;
        bool blackhole = false;
        std::uint64_t session = 0;
        Hold hold = Hold::None;
        std::uint32_t group = 0;  // the weft group of its nexthop id (0: none, or a list's)
        std::size_t waiting = 0;  // installed under the policy: next hops left out until they resolve
    };
    struct Nexthop {
        bool blackhole = false;
        NlNextHop hop;
        std::vector<GroupMember> members;  // non-empty: a group
        std::uint32_t weft = 0;            // its weft group while routes use it
    };
    struct Group {
        std::vector<NextHop> members;
        std::size_t users = 0;
        std::optional<std::uint32_t> owner;  // zebra's id of this connection
    };
    struct Members {
        std::vector<NextHop> hops;
        Hold why = Hold::None;
        std::uint32_t missing = 0;  // the nexthop id it waits for (Group)
        bool blackhole = false;     // a blackhole nexthop (NHA_BLACKHOLE): the route drops
        std::size_t waiting = 0;    // next hops left out, waiting for a port or a neighbour
    };

    void install(const RouteKey &key, Route &r);
    void install_by_policy(const RouteKey &key, Route &r);
    // Out of the FIB (the route stays, as it was held); then remove() forgets it.
    void uninstall(const RouteKey &key, Route &r);
    void remove(const RouteKey &key, Route &r);
    void set_hold(const RouteKey &key, Route &r, Hold h, std::uint32_t waits_for = 0);
    // The next hops of a list, each resolved; nothing (and why) when one does not resolve. With
    // `waiting`, those waiting for a port or a neighbour are left out and counted there instead
    // (nothing, and why, only when none resolves).
    std::optional<std::vector<NextHop>> resolve_list(const std::vector<NlNextHop> &hops, Hold &why,
                                                     std::size_t *waiting = nullptr) const;
    void use_nexthop(const RouteKey &key, const Route &r, bool uses);
    void release(std::uint32_t group);
    // A nexthop's next hops, resolved; with `skip_waiting`, as resolve_list's `waiting`.
    Members members_of(std::uint32_t nh_id, bool skip_waiting = false) const;
    std::optional<std::uint32_t> group_for(std::uint32_t nh_id, Members &m);
    // A nexthop's members changed: its weft group follows in place, or its routes are held.
    void refresh(std::uint32_t nh_id);
    void drop_nexthop(std::uint32_t nh_id);
    void wake(std::uint32_t nh_id);
    void refused(const dataplane::Status &s);
    bool is_stale(const Route &r) const { return r.session < session_; }

    RouteUpdater &updater_;
    Resolver resolve_;
    std::chrono::seconds grace_;
    fib::DragonflyGroups *policy_ = nullptr;
    std::unordered_map<RouteKey, Route, RouteKeyHash> routes_;
    std::unordered_map<std::uint32_t, Nexthop> nhs_;  // this connection's nexthops
    std::map<std::uint32_t, Group> groups_;           // weft id -> group
    std::uint32_t next_group_ = kFpmNhgFirst;
    std::unordered_map<std::uint32_t, std::set<RouteKey>> waiting_;  // nexthop id -> routes
    std::unordered_set<RouteKey, RouteKeyHash> unresolved_;          // held: Port, Neighbour; or partial
    // This connection's nexthop id -> the routes that name it (the policy's routes follow it).
    std::unordered_map<std::uint32_t, std::unordered_set<RouteKey, RouteKeyHash>> users_;
    std::array<std::size_t, static_cast<std::size_t>(Hold::kCount)> held_{};
    std::uint64_t session_ = 0;
    std::size_t stale_ = 0;
    std::optional<Clock::time_point> sweep_at_;
    RibCounters counters_;
};

}  // namespace weft::control::fpm
