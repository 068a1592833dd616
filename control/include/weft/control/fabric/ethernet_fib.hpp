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
#include "weft/sm/ethernet_table.hpp"

namespace weft::control::fabric {

// The fabric's NHG ids: the top kFabricNhgs ids ARS takes.
inline constexpr std::uint32_t kFabricNhgs = 1024;
inline constexpr std::uint32_t kFabricNhgEnd = 16384;  // ars::capabilities().max_ecmp_groups
inline constexpr std::uint32_t kFabricNhgFirst = kFabricNhgEnd - kFabricNhgs;
inline bool is_fabric_nhg(std::uint32_t id) {
    return id >= kFabricNhgFirst && id < kFabricNhgEnd;
}

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

    const sm::EthernetTable &applied() const { return applied_; }
    const std::map<std::uint16_t, std::uint32_t> &slots() const { return slots_; }
    const std::set<std::uint16_t> &created_objects() const { return created_; }

  private:
    std::optional<std::string> write_fib(CommandContext &ctx, const sm::EthernetTable &table,
                                         const std::map<std::uint16_t, std::uint32_t> &slots);

    sm::EthernetTable applied_;
    std::map<std::uint16_t, std::uint32_t> slots_;
    std::set<std::uint16_t> created_;
};

// The dataplane's prefix for the SM's.
dataplane::IpPrefix to_dataplane(const sm::IpPrefix &p);

}  // namespace weft::control::fabric
