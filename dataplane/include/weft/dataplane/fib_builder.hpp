// Control-side owner of the desired forwarding state. Every setter validates first and changes
// nothing when it refuses; build() turns the state into a fresh immutable FibSnapshot, reusing
// the IPv4/IPv6/LID tables of the previous build when they did not change. A build that fails
// (a table DPDK cannot fill or allocate) rolls the state back to the last one built, so the
// state the builder shows is always the state that forwards.
#pragma once

#include <rte_ether.h>
#include <rte_memory.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/ip_addr.hpp"
#include "weft/dataplane/status.hpp"

namespace weft::dataplane {

// Bounds of the table sizes (weft's --fib4-*/--fib6-* options). With 2-byte next hops one bit
// marks a tbl8 index, so rte_fib and rte_fib6 take at most 2^15 - 1 groups.
inline constexpr std::uint32_t kMaxTbl8Groups = 32767;
inline constexpr int kMaxFibRoutes = 1 << 22;

struct FibConfig {
    int socket_id = SOCKET_ID_ANY;
    std::uint16_t num_ports = kMaxPorts;  // ports 0..num_ports-1 are valid targets
    int max_routes4 = 1 << 16;
    std::uint32_t tbl8_groups4 = 1 << 10;  // one per /24 block that holds routes longer than /24
    int max_routes6 = 1 << 16;
    std::uint32_t tbl8_groups6 = 1 << 12;  // up to one per byte of a route beyond /24
};

// How full one family's table is. tbl8 groups: what the routes hold, counted by weft the way
// DPDK 22.11 reserves them when it adds the routes (see check_fits in fib_builder.cpp).
struct FibTableUse {
    std::size_t routes = 0;
    std::size_t max_routes = 0;
    std::size_t tbl8_groups = 0;
    std::size_t max_tbl8_groups = 0;  // what the table gives out
};

struct FibCapacity {
    FibTableUse ipv4, ipv6;
    std::size_t nhgs = 0, max_nhgs = 0;
    std::size_t neighbours = 0;
};

// A member is a port; with `via` its MAC comes from that neighbour (which must be on the same
// port), without it from the port's neighbour (the peer of a point-to-point link).
struct NhgMemberSpec {
    std::uint16_t port = 0;
    std::optional<IpAddr> via;
};

struct NhgSpec {
    std::vector<NhgMemberSpec> members;
    NhgMode mode = NhgMode::Ecmp;
};

struct NeighbourSpec {
    rte_ether_addr mac{};
    std::uint16_t port = 0;
};

struct LftSpec {
    LftTarget::Kind kind = LftTarget::Kind::None;
    std::uint32_t value = 0;  // port, or NHG id
};

class FibBuilder {
  public:
    explicit FibBuilder(FibConfig config = {});
    ~FibBuilder();
    FibBuilder(const FibBuilder &) = delete;  // its undo log refers to this object
    FibBuilder &operator=(const FibBuilder &) = delete;

    Status add_route(const IpPrefix &prefix, std::uint32_t nhg_id);
    Status del_route(const IpPrefix &prefix);
    Status set_nhg(std::uint32_t id, std::vector<NhgMemberSpec> members, NhgMode mode = NhgMode::Ecmp);
    Status del_nhg(std::uint32_t id);
    Status set_neighbour(const IpAddr &ip, const rte_ether_addr &mac, std::uint16_t port);
    Status del_neighbour(const IpAddr &ip);
    Status set_lft_port(std::uint16_t lid, std::uint16_t port);
    Status set_lft_nhg(std::uint16_t lid, std::uint32_t nhg_id);
    Status clear_lft(std::uint16_t lid);
    Status set_mft(std::uint16_t mlid, std::uint64_t port_mask);
    Status set_sl2vl(std::uint16_t port, std::uint8_t sl, std::uint8_t vl);
    // This switch's base LID and LMC (0: none): LIDs base .. base + 2^lmc - 1, all unicast, base
    // a multiple of 2^lmc as IBA asks.
    Status set_switch_lid(std::uint16_t base, std::uint8_t lmc);
    SwitchLid switch_lid() const noexcept { return switch_lid_; }
    // The ARS configuration the next builds carry (validated by ars::ConfigBuilder already).
    void set_ars(std::shared_ptr<const ars::Config> config);
    const std::shared_ptr<const ars::Config> &ars() const noexcept { return ars_; }

    // Builds the next snapshot. Throws std::runtime_error when DPDK cannot allocate or fill the
    // tables; the builder's state is then rolled back to the last build's (every change since
    // is undone), so a later build of other changes may succeed.
    std::unique_ptr<FibSnapshot> build();

    const std::map<IpPrefix, std::uint32_t> &routes() const noexcept { return routes_; }
    const std::map<std::uint32_t, NhgSpec> &nhgs() const noexcept { return nhgs_; }
    const std::map<IpAddr, NeighbourSpec> &neighbours() const noexcept { return neighbours_; }
    std::optional<std::uint32_t> nhg_index(std::uint32_t id) const;
    const FibConfig &config() const noexcept { return config_; }
    FibCapacity capacity() const;

  private:
    std::unique_ptr<FibSnapshot> build_snapshot();
    Status check_port(std::uint16_t port) const;
    Status check_fits(const IpPrefix &prefix);  // leaves the state as it was
    Status check_via(std::uint32_t id, const NhgMemberSpec &m) const;
    bool nhg_referenced(std::uint32_t id) const;
    std::uint32_t index_for(std::uint32_t id);
    // The group with a member whose MAC comes from neighbour `ip` (on `port`), if any.
    std::optional<std::uint32_t> nhg_using(const IpAddr &ip, std::uint16_t port) const;
    std::uint32_t usable_tbl8_groups4() const noexcept;
    std::uint32_t usable_tbl8_groups6() const noexcept;
    std::uint32_t tbl8_groups6_of_block(const IpPrefix &block) const;
    // Counts `prefix` (just added to or removed from routes_) in the tbl8 use.
    void count_tbl8(const IpPrefix &prefix, int delta);
    void mark_dirty(const IpPrefix &prefix) { (prefix.addr.v6 ? fib6_dirty_ : fib4_dirty_) = true; }
    // Records how to undo a change; build() forgets the log on success and replays it backwards
    // on failure.
    void remember(std::function<void()> undo);
    void rollback();

    FibConfig config_;
    std::uint64_t generation_ = 0;
    std::map<IpPrefix, std::uint32_t> routes_;  // prefix -> NHG id
    std::map<std::uint32_t, NhgSpec> nhgs_;
    std::map<std::uint32_t, std::uint32_t> nhg_index_;  // NHG id -> stable index
    std::vector<std::uint32_t> free_indices_;
    std::uint32_t next_index_ = 0;
    std::map<IpAddr, NeighbourSpec> neighbours_;
    std::map<std::uint16_t, LftSpec> lft_;
    std::map<std::uint16_t, std::uint64_t> mft_;
    std::size_t routes4_ = 0, routes6_ = 0;
    std::map<std::uint32_t, std::uint32_t> blocks4_;  // /24 block -> its routes longer than /24
    std::map<IpPrefix, std::uint32_t> blocks6_;       // /24 block -> tbl8 groups its routes hold
    std::size_t tbl8_used6_ = 0;                      // the sum of blocks6_
    std::array<std::array<std::uint8_t, kNumSl>, kMaxPorts> sl2vl_;
    // Last built shared tables and whether the state they came from has changed since.
    std::shared_ptr<const Fib4Table> fib4_;
    std::shared_ptr<const Fib6Table> fib6_;
    std::shared_ptr<const LidTables> lids_;
    std::shared_ptr<const std::vector<RouteEntry>> route_list_;
    bool fib4_dirty_ = true;
    bool fib6_dirty_ = true;
    bool lids_dirty_ = true;
    std::shared_ptr<const ars::Config> ars_;
    SwitchLid switch_lid_;
    std::vector<std::function<void()>> undo_;
    std::array<bool, 3> dirty_at_start_{};  // the dirty flags when the undo log began
};

}  // namespace weft::dataplane
