// Control-side owner of the desired forwarding state. Every setter validates first and changes
// nothing when it refuses. Route changes are staged and reach the live IPv4/IPv6 tables in place
// at the next build() or commit(), as one batch: nothing is rebuilt, and a worker looking up any
// address during the batch gets its old route or its new one, never another (see
// apply_routes() in fib_builder.cpp). Everything else (next-hop groups, neighbours, LFT, MFT,
// SL2VL, ARS) travels in the snapshot each build makes.
#pragma once

#include <rte_ether.h>
#include <rte_memory.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/ip_addr.hpp"
#include "weft/dataplane/prefix_map.hpp"
#include "weft/dataplane/status.hpp"

struct rte_rcu_qsbr;

namespace weft::dataplane {

// Bounds of the table sizes (weft's --fib4-*/--fib6-* options). IPv4 entries are 2 bytes (one
// bit marks a group), so the IPv4 table has at most 2^15 - 1 groups; IPv6 entries are 4 bytes.
inline constexpr std::uint32_t kMaxTbl8Groups = 32767;
inline constexpr std::uint32_t kMaxTbl8Groups6 = 1u << 22;
inline constexpr int kMaxFibRoutes = 1 << 22;

struct FibConfig {
    int socket_id = SOCKET_ID_ANY;
    std::uint16_t num_ports = kMaxPorts;  // ports 0..num_ports-1 are valid targets
    int max_routes4 = 1 << 16;
    std::uint32_t tbl8_groups4 = 1 << 10;  // one per /24 block that holds routes longer than /24
    int max_routes6 = 1 << 16;
    // One per byte-aligned prefix of 16, 24, ... 120 bits that holds a longer route.
    std::uint32_t tbl8_groups6 = 1 << 12;
    // The QSBR variable the workers report to: a group the tables no longer use is reused only
    // after a grace period. None: nothing reads the tables while they change (tests).
    rte_rcu_qsbr *rcu = nullptr;
};

// How full one family's table is. Groups: what the routes in the tables and the staged ones
// hold together (a batch adds before it deletes).
struct FibTableUse {
    std::size_t routes = 0;
    std::size_t max_routes = 0;
    std::size_t tbl8_groups = 0;
    std::size_t max_tbl8_groups = 0;     // what the table gives out
    std::size_t tbl8_groups_linked = 0;  // what the table holds now (tbl8_groups after a batch)
};

struct FibCapacity {
    FibTableUse ipv4, ipv6;
    std::size_t nhgs = 0, max_nhgs = 0;
    std::size_t neighbours = 0;
};

// A member is a port; with `via` its MAC comes from that neighbour (which must be on the same
// port), without it from the port's neighbour (the peer of a point-to-point link).
// `weight` (hash ECMP groups only; 1 in an ARS group): the member's share of the flows.
struct NhgMemberSpec {
    std::uint16_t port = 0;
    std::optional<IpAddr> via;
    std::uint16_t weight = 1;
};

// Weights are 1..kMaxNhgWeight (FRR's and the kernel's next-hop weights are at most 255).
inline constexpr unsigned kMaxNhgWeight = 255;

// How many hash slots each member of a hash ECMP group takes: its weight over the members'
// greatest common divisor, scaled down (at least one each) when that makes more than
// kMaxNhgMembers slots.
std::vector<unsigned> ecmp_slots(const std::vector<NhgMemberSpec> &members);

struct NhgSpec {
    std::vector<NhgMemberSpec> members;
    NhgMode mode = NhgMode::Ecmp;
};

struct NeighbourSpec {
    rte_ether_addr mac{};
    std::uint16_t port = 0;
};

// fe80::/10: an address meaningful only with the link it is on.
inline bool is_link_local_v6(const IpAddr &ip) noexcept {
    return ip.v6 && ip.bytes[0] == 0xfe && (ip.bytes[1] & 0xc0) == 0x80;
}

// A neighbour's key: its address, and for an IPv6 link-local address the port it is on (the same
// fe80:: address may be a neighbour on several links: BGP unnumbered peers, routers that all use
// fe80::1); kAnyPort for every other address, which is one neighbour wherever it is.
struct NeighbourKey {
    static constexpr std::uint16_t kAnyPort = 0xFFFF;
    IpAddr ip;
    std::uint16_t port = kAnyPort;
    static NeighbourKey of(const IpAddr &ip, std::uint16_t port) noexcept {
        return {ip, is_link_local_v6(ip) ? port : kAnyPort};
    }
    auto operator<=>(const NeighbourKey &) const = default;
};

struct LftSpec {
    LftTarget::Kind kind = LftTarget::Kind::None;
    std::uint32_t value = 0;  // port, or NHG id
};

class FibPublisher;
class Fib4Table;
class Fib6Table;

// Routes by prefix: the desired state (unordered; sorted_routes() gives them in order).
using RouteMap = PrefixMap<std::uint32_t>;

class FibBuilder {
  public:
    // Allocates the IPv4 and IPv6 tables; throws std::runtime_error when it cannot.
    explicit FibBuilder(FibConfig config = {});
    ~FibBuilder();
    FibBuilder(const FibBuilder &) = delete;
    FibBuilder &operator=(const FibBuilder &) = delete;

    // A route to an NHG: added, or its group replaced when the prefix has one.
    Status add_route(const IpPrefix &prefix, std::uint32_t nhg_id);
    Status del_route(const IpPrefix &prefix);
    // A group: added, or its members replaced in place (same index: routes and LFT entries keep
    // pointing at it, its ARS flowlets on the members that stay stay). A Drop group has no
    // members, every other group at least one.
    Status set_nhg(std::uint32_t id, std::vector<NhgMemberSpec> members, NhgMode mode = NhgMode::Ecmp);
    Status del_nhg(std::uint32_t id);
    Status set_neighbour(const IpAddr &ip, const rte_ether_addr &mac, std::uint16_t port);
    // A link-local neighbour on `port` (none: on every port); any other address wherever it is.
    Status del_neighbour(const IpAddr &ip, std::optional<std::uint16_t> port = std::nullopt);
    // The neighbour a member on `port` through `ip` takes its MAC from (null: none, or on
    // another port).
    const NeighbourSpec *neighbour(const IpAddr &ip, std::uint16_t port) const;
    // A unicast LID's entry: a pLID (0x0001..0xBFFF) in the LFT, a vLID (kFirstVlid..kMaxVlid)
    // in the secondary LFT.
    Status set_lft_port(std::uint32_t lid, std::uint16_t port);
    Status set_lft_nhg(std::uint32_t lid, std::uint32_t nhg_id);
    Status clear_lft(std::uint32_t lid);
    Status set_mft(std::uint16_t mlid, const PortMask &ports);  // no port: the entry goes
    Status set_sl2vl(std::uint16_t port, std::uint8_t sl, std::uint8_t vl);
    // This switch's base LID and LMC (0: none): LIDs base .. base + 2^lmc - 1, all unicast, base
    // a multiple of 2^lmc as IBA asks.
    Status set_switch_lid(std::uint16_t base, std::uint8_t lmc);
    SwitchLid switch_lid() const noexcept { return switch_lid_; }
    // The ARS configuration the next builds carry (validated by ars::ConfigBuilder already).
    void set_ars(std::shared_ptr<const ars::Config> config);
    const std::shared_ptr<const ars::Config> &ars() const noexcept { return ars_; }

    // Applies the staged route changes to the tables and returns the next snapshot, for a
    // caller with no concurrent readers (or one that publishes it at once and accepts that a
    // route to a new group may be looked up before the group is published: commit() does not).
    std::unique_ptr<FibSnapshot> build();
    // Applies the staged changes and publishes them through `publisher`, in the order that keeps
    // every lookup consistent: groups new in this batch are published (and a grace period
    // passes) before any route names them; groups deleted in it leave the published snapshot
    // after the routes that named them left the tables.
    void commit(FibPublisher &publisher);
    // Route changes staged since the last build or commit (prefixes touched).
    std::size_t staged_routes() const noexcept { return pending_.size(); }

    const RouteMap &routes() const noexcept { return routes_; }
    std::vector<RouteEntry> sorted_routes() const;
    const std::map<std::uint32_t, NhgSpec> &nhgs() const noexcept { return nhgs_; }
    const std::map<NeighbourKey, NeighbourSpec> &neighbours() const noexcept { return neighbours_; }
    std::optional<std::uint32_t> nhg_index(std::uint32_t id) const;
    // Desired routes that name group `id`.
    std::size_t routes_to(std::uint32_t id) const;
    const FibConfig &config() const noexcept { return config_; }
    FibCapacity capacity() const;
    // Bytes the tables and the builder's route state hold (an estimate of the heap part).
    std::size_t memory_bytes() const noexcept;

  private:
    struct Leaving {
        std::uint32_t index;
        NhgSpec spec;
    };
    std::unique_ptr<FibSnapshot> build_snapshot(bool with_leaving);
    std::unique_ptr<FibSnapshot> apply(FibPublisher *publisher);
    void apply_routes();
    void finish_batch();
    Status check_port(std::uint16_t port) const;
    Status check_fits(const IpPrefix &prefix, bool held) const;
    Status check_via(std::uint32_t id, const NhgMemberSpec &m) const;
    bool nhg_referenced(std::uint32_t id) const;
    std::uint32_t index_for(std::uint32_t id);
    // The group with a member whose MAC comes from neighbour `ip` (on `port`), if any.
    std::optional<std::uint32_t> nhg_using(const IpAddr &ip, std::uint16_t port) const;
    Status del_neighbour_key(std::map<NeighbourKey, NeighbourSpec>::iterator it);
    // A prefix changed in this batch: the NHG id the tables hold for it, and the one they will
    // (none: not in them).
    struct Staged {
        std::optional<std::uint32_t> before, after;
    };
    Staged &stage(const IpPrefix &prefix, std::optional<std::uint32_t> in_tables_now,
                  std::optional<std::uint32_t> next);
    // Counts `prefix` in (+1) or out of (-1) the groups the tables need.
    void count_groups(const IpPrefix &prefix, int delta);
    std::size_t groups_needed(const IpPrefix &prefix) const;
    // The longest desired route shorter than `prefix` that covers it: its value and length.
    std::pair<std::uint32_t, unsigned> covering(const IpPrefix &prefix) const;
    void sample_add(const IpPrefix &prefix, std::uint32_t nhg);
    void sample_del(const IpPrefix &prefix);

    FibConfig config_;
    std::uint64_t generation_ = 0;
    std::shared_ptr<Fib4Table> fib4_;
    std::shared_ptr<Fib6Table> fib6_;
    RouteMap routes_;                            // prefix -> NHG id
    PrefixMap<Staged> pending_;                  // prefixes changed since the last batch
    std::array<std::uint32_t, 33> lengths4_{};   // desired routes per prefix length
    std::array<std::uint32_t, 129> lengths6_{};  // (the covering-route search skips empty lengths)
    std::size_t routes4_ = 0, routes6_ = 0;
    // Groups the tables need for the routes in them and the staged ones: /24 block -> routes
    // longer than /24 (IPv4); byte-aligned prefix of 16..120 bits -> routes longer below it (IPv6).
    std::unordered_map<std::uint32_t, std::uint32_t> blocks4_;
    PrefixMap<std::uint32_t> nodes6_;
    std::unordered_map<std::uint32_t, std::uint32_t> nhg_routes_;  // NHG id -> desired routes to it
    // Up to kRouteSample routes for the snapshot (telemetry lists them).
    std::map<IpPrefix, std::uint32_t> sample_;
    bool sample_dirty_ = true;
    std::size_t sample_cursor_ = 0;
    std::shared_ptr<const std::vector<RouteEntry>> sample_list_;

    std::map<std::uint32_t, NhgSpec> nhgs_;
    std::map<std::uint32_t, std::uint32_t> nhg_index_;  // NHG id -> stable index
    std::vector<std::uint32_t> free_indices_;
    std::uint32_t next_index_ = 0;
    // Groups deleted since the last batch: the published snapshot still has them, and routes in
    // the tables may name them until the batch is applied. Their indices are free after it.
    std::map<std::uint32_t, Leaving> leaving_;
    // Indices of groups the published snapshot does not have (added since the last batch).
    std::set<std::uint32_t> fresh_indices_;

    std::map<NeighbourKey, NeighbourSpec> neighbours_;
    std::map<std::uint32_t, LftSpec> lft_;  // pLIDs, then vLIDs
    std::map<std::uint16_t, PortMask> mft_;
    std::array<std::array<std::uint8_t, kNumSl>, kMaxPorts> sl2vl_;
    std::shared_ptr<const LidTables> lids_;
    bool lids_dirty_ = true;
    std::shared_ptr<const ars::Config> ars_;
    SwitchLid switch_lid_;
};

}  // namespace weft::dataplane
