// An Ethernet/RoCE table the SM committed (sm::EthernetTable), made the switch's: each group an
// ARS next-hop group (primaries, then alternates in the SM's order, bound to the ARS object the SM
// names) through the same ARS state the `nhg add ... ars` command changes, and each route a FIB
// route to it. The groups take NHG ids of their own (kFabricNhgFirst and up), which the CLI
// refuses for hand-made groups, so the two never clash.
//
// An ARS object the SM names and the switch has (configured by hand) is used as configured; one
// it does not have is made with the SM's mode and otherwise the defaults, and removed when no
// group of the SM's names it any more. Mode fixed: the group is the fixed port alone as primary
// (ARS's fixed mode hashes over the primaries; the engine's own port is what fixed asks for),
// alternates kept for when it fails.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "weft/ars/capabilities.hpp"
#include "weft/ars/next_hop_group.hpp"
#include "weft/control/ars_state.hpp"
#include "weft/control/command_context.hpp"
#include "weft/dataplane/ip_addr.hpp"
#include "weft/sm/ethernet_table.hpp"

namespace weft::control::fabric {

// The fabric's NHG ids: the top kFabricNhgs ids ARS takes. The SM's groups take the first ones,
// the connected subnets' groups (one per host port) the last kConnectedNhgs.
inline constexpr std::uint32_t kFabricNhgs = 1024;
inline constexpr std::uint32_t kFabricNhgEnd = 16384;  // ars::capabilities().max_ecmp_groups
inline constexpr std::uint32_t kFabricNhgFirst = kFabricNhgEnd - kFabricNhgs;
inline constexpr std::uint32_t kConnectedNhgs = 256;  // a dataplane port each
inline constexpr std::uint32_t kConnectedNhgFirst = kFabricNhgEnd - kConnectedNhgs;
inline constexpr std::uint32_t kSmNhgs = kFabricNhgs - kConnectedNhgs;
inline bool is_fabric_nhg(std::uint32_t id) {
    return id >= kFabricNhgFirst && id < kFabricNhgEnd;
}
inline bool is_sm_nhg(std::uint32_t id) {
    return id >= kFabricNhgFirst && id < kConnectedNhgFirst;
}
inline bool is_connected_nhg(std::uint32_t id) {
    return id >= kConnectedNhgFirst && id < kFabricNhgEnd;
}

// A host subnet as the CLI configures it: `port N ip A/len` on dataplane port N.
struct HostAddress {
    std::uint16_t port = 0;  // dataplane port
    dataplane::IpAddr addr;  // the switch's address on that subnet
    std::uint8_t len = 0;
    auto operator<=>(const HostAddress &) const = default;
};

// The ARS state with `table`'s groups in place of the fabric groups `state` had. `slots` maps
// the SM's group ids to fabric NHG ids: kept for groups that stay, new ones given the lowest free
// id; `created` the ARS objects made for the SM (updated). `num_ports`: IB port p is dataplane
// port p - 1. Returns the error instead when a group cannot be placed.
struct FabricArsPlan {
    ArsState state;
    std::map<std::uint16_t, std::uint32_t> slots;  // SM group id -> NHG id
    std::set<std::uint16_t> created;               // ARS objects made for the SM's groups
};
std::variant<FabricArsPlan, std::string> plan_fabric_ars(const ArsState &state,
                                                         const sm::EthernetTable &table,
                                                         const std::map<std::uint16_t, std::uint32_t> &slots,
                                                         const std::set<std::uint16_t> &created);

// What the switch has applied, and the application.
class EthernetFib {
  public:
    // Makes `table` the switch's fabric groups and routes in the ARS state and the FIB builder
    // (the caller publishes). On failure nothing is left changed and the error is returned.
    std::optional<std::string> apply(CommandContext &ctx, const sm::EthernetTable &table);

    // Makes each host subnet a route to its port: a one-member group whose MAC is the port's
    // neighbour's (the host, or the router, at the other end of the host link). Replaces the
    // connected routes set before; on failure they are left as they were.
    std::optional<std::string> set_connected(CommandContext &ctx, const std::vector<HostAddress> &addresses);

    const sm::EthernetTable &applied() const { return applied_; }
    const std::vector<HostAddress> &connected() const { return connected_; }
    const std::map<std::uint16_t, std::uint32_t> &slots() const { return slots_; }
    const std::set<std::uint16_t> &created_objects() const { return created_; }

  private:
    std::optional<std::string> write_fib(CommandContext &ctx, const sm::EthernetTable &table,
                                         const std::map<std::uint16_t, std::uint32_t> &slots);

    sm::EthernetTable applied_;
    std::map<std::uint16_t, std::uint32_t> slots_;
    std::set<std::uint16_t> created_;
    std::vector<HostAddress> connected_;
};

// The subnet a host address is in (`10.0.3.1/24` -> 10.0.3.0/24).
dataplane::IpPrefix subnet_of(const HostAddress &a);

// The dataplane's prefix for the SM's.
dataplane::IpPrefix to_dataplane(const sm::IpPrefix &p);

}  // namespace weft::control::fabric
