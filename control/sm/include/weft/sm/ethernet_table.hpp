// The Ethernet/RoCE table of a weft switch as the SM compiles it and the switch commits it:
// next-hop groups (one per destination leaf) and routes to them. The switch turns a committed
// table into its FibBuilder's NHGs and routes (one snapshot); the SM splits it into the blocks of
// WeftNextHopGroup and WeftRoutes and compares blocks to write only those that differ. Putting
// blocks back together checks everything a commit promises (VENDOR_ATTRIBUTES.md).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "weft/sm/vendor_arn_group.hpp"
#include "weft/sm/vendor_fib_state.hpp"
#include "weft/sm/vendor_next_hop_group.hpp"
#include "weft/sm/vendor_routes.hpp"

namespace weft::sm {

struct EthernetGroup {
    std::uint16_t id = 0;  // the SM's choice: the destination leaf switch's LID
    std::uint16_t ars_object = 0;
    EthernetArsMode mode = EthernetArsMode::kFlowletQuality;
    PortNum fixed = 0;               // the engine's port; one of the primaries
    std::vector<PortNum> primary;    // port order
    std::vector<PortNum> alternate;  // the order ARS prefers them in: cheapest detour first
    friend bool operator==(const EthernetGroup &, const EthernetGroup &) = default;
};

struct EthernetTable {
    std::uint32_t generation = 0;
    std::vector<EthernetGroup> groups;  // by id
    std::vector<EthernetRoute> routes;  // as sent (the SM sends them by prefix)
    std::vector<ArnGroupEntry> arn;     // the switch's dragonfly group, as sent (empty: none)

    const EthernetGroup *group(std::uint16_t id) const;
    // The groups, routes and ARN group (the generation aside) are the same.
    bool same_content(const EthernetTable &o) const {
        return groups == o.groups && routes == o.routes && arn == o.arn;
    }
    friend bool operator==(const EthernetTable &, const EthernetTable &) = default;
};

// A table as blocks: what a switch answers Gets with, what staging holds.
struct EthernetBlocks {
    std::map<std::uint32_t, NextHopGroupBlock> groups;  // by attribute modifier
    std::map<std::uint32_t, RoutesBlock> routes;        // by block
    std::map<std::uint32_t, ArnGroupBlock> arn;         // by block
    friend bool operator==(const EthernetBlocks &, const EthernetBlocks &) = default;
};

EthernetBlocks split_ethernet_table(const EthernetTable &t);

// Why a switch refused a Set of its Ethernet table (counted per reason).
enum class EthernetRefusal : std::uint8_t {
    kNoStaging,          // a block Set or a Commit without an open staging (no Begin)
    kMalformed,          // does not decode (a field out of its range)
    kUnknownPort,        // a member or fixed port the switch does not have
    kGeneration,         // a Commit of another generation than staging's
    kMissingBlock,       // a block the counts need was never written (or a route slot is empty)
    kCountMismatch,      // staging holds another number of routes or groups than the Commit says
    kBadGroupReference,  // a route to a group staging does not hold
    kDuplicate,          // a prefix twice, or a port twice in one group
    kInconsistentGroup,  // a group's blocks disagree on its header
    kFixedNotPrimary,    // the fixed port is not among the primaries
    kTooManyMembers,     // more primaries or alternates than the switch takes per group
    kTooManyRoutes,
    kTooManyGroups,
    kCount
};
inline constexpr std::size_t kEthernetRefusals = static_cast<std::size_t>(EthernetRefusal::kCount);
const char *refusal_name(EthernetRefusal why);  // "bad-group-reference", ...

struct EthernetLimits {
    PortNum num_ports = kMaxPortNum;
    std::uint32_t max_routes = kMaxRoutes;
    std::uint16_t max_groups = 0xFFFF;
    std::uint8_t max_primaries = 16, max_alternates = 16;  // weft::ars::ArsObjectConfig's defaults
};

struct EthernetFault {
    EthernetRefusal reason = EthernetRefusal::kMalformed;
    std::string what;  // one line: "route 4 (10.0.3.0/24): group 9 is not in the table"
};

// Puts staging together as a Commit of `routes` routes, `groups` groups and `arn` ARN entries
// asks: the checks of VENDOR_ATTRIBUTES.md, the first failing one as the fault. Blocks nothing
// needs are left out.
std::variant<EthernetTable, EthernetFault> assemble_ethernet_table(const EthernetBlocks &staging,
                                                                   std::uint32_t routes, std::uint32_t groups,
                                                                   const EthernetLimits &limits,
                                                                   std::uint32_t arn = 0);

}  // namespace weft::sm
