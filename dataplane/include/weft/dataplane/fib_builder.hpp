// Control-side owner of the desired forwarding state. Every setter validates first and changes
// nothing when it refuses; build() turns the state into a fresh immutable FibSnapshot, reusing
// the IPv4/IPv6/LID tables of the previous build when they did not change.
#pragma once

#include <rte_ether.h>
#include <rte_memory.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "weft/dataplane/fib_snapshot.hpp"
#include "weft/dataplane/ip_addr.hpp"
#include "weft/dataplane/status.hpp"

namespace weft::dataplane {

struct FibConfig {
    int socket_id = SOCKET_ID_ANY;
    std::uint16_t num_ports = kMaxPorts;  // ports 0..num_ports-1 are valid targets
    int max_routes4 = 1 << 16;
    std::uint32_t tbl8_groups4 = 1 << 10;  // routes longer than /24 each need a group
    int max_routes6 = 1 << 16;
    std::uint32_t tbl8_groups6 = 1 << 12;
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
    // The ARS configuration the next builds carry (validated by ars::ConfigBuilder already).
    void set_ars(std::shared_ptr<const ars::Config> config) { ars_ = std::move(config); }
    const std::shared_ptr<const ars::Config> &ars() const noexcept { return ars_; }

    // Builds the next snapshot. Throws std::runtime_error when DPDK cannot allocate the tables
    // (the builder's state is unchanged and a later build may succeed).
    std::unique_ptr<FibSnapshot> build();

    const std::map<IpPrefix, std::uint32_t> &routes() const noexcept { return routes_; }
    const std::map<std::uint32_t, NhgSpec> &nhgs() const noexcept { return nhgs_; }
    const std::map<IpAddr, NeighbourSpec> &neighbours() const noexcept { return neighbours_; }
    std::optional<std::uint32_t> nhg_index(std::uint32_t id) const;
    const FibConfig &config() const noexcept { return config_; }

  private:
    Status check_port(std::uint16_t port) const;
    bool nhg_referenced(std::uint32_t id) const;
    std::uint32_t index_for(std::uint32_t id);

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
};

}  // namespace weft::dataplane
