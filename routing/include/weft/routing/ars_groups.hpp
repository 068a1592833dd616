// ARS next-hop groups for Ethernet/RoCE fabrics, compiled from an engine's tables.
//
// A destination is a leaf switch (one with CA/router ports): its hosts' subnets all become routes
// to one group per switch, so a group per (switch, destination leaf) is what a switch forwards
// by. Its representative LID is the lowest LID of a port cabled to the leaf; the engine's route
// for that LID is the group's FIXED member and its path SL (per source switch) is the priority
// the packet keeps. Primary members are the ports on minimal paths, alternates non-minimal ports
// to switches the engine still routes from to the leaf, shortest detour first. "Minimal" is
// measured on a distance basis (ArsDistance): the engine's hop counts (equal_cost_ports()) where
// a hop is a hop; on a dragonfly the fewest global links (a route through an intermediate group is
// a detour even when it has no more hops); with -w hop weights the cheapest route.
//
// ARS may pick any member at every switch, so the compiler checks the channel dependency graph
// of the union of all members (check_ars_credit_loops() in verification.hpp) as it goes: the
// fixed members of every group first (the engine's own routes), then primaries, then alternates
// by detour length, each added only if the union stays acyclic in every VL. A forwarding loop
// through alternates is such a cycle too.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/option_files.hpp"
#include "weft/routing/tables.hpp"
#include "weft/routing/verification.hpp"

namespace weft::routing {

struct ArsDestination {
    SwitchIdx sw = kNoSwitch;  // the leaf
    Lid lid = 0;               // its representative LID
};

// One switch's group for one destination. No group: fixed == kNoPort (the destination leaf
// itself, or a switch the engine does not route to it).
struct ArsGroup {
    PortNum fixed = kNoPort;
    std::span<const PortNum> primary;    // port order; includes fixed
    std::span<const PortNum> alternate;  // in the order they were added: cheapest detour first
};

// Every switch's group for every destination, flat: group (d, s) is entry d * switches + s.
struct ArsGroups {
    std::size_t switches = 0;
    std::vector<ArsDestination> destinations;
    std::vector<PortNum> fixed;
    std::vector<std::uint32_t> primary_begin, alternate_begin;  // size groups + 1
    std::vector<PortNum> primary_ports, alternate_ports;

    ArsGroup group(std::size_t d, SwitchIdx s) const {
        const std::size_t i = d * switches + s;
        return {
            fixed[i],
            {primary_ports.data() + primary_begin[i], primary_ports.data() + primary_begin[i + 1]},
            {alternate_ports.data() + alternate_begin[i], alternate_ports.data() + alternate_begin[i + 1]}};
    }
};

// The leaves of f in node GUID order, each with its representative LID (lowest cabled CA LID).
std::vector<ArsDestination> ars_destinations(const Fabric &f);

// The distance primaries and detours are measured by. A member is primary when the cheapest route
// through it costs what the cheapest route from the switch does; a detour's length is the hops
// over the cheapest route's (ties between detours go to the cheaper one).
enum class ArsDistance : std::uint8_t {
    Auto,       // Dragonfly on a fabric choose_routing() sees as one, else Weighted with hop
                // weights, else Engine
    Engine,     // the engine's t.hops, each link one: the links the engine allows (updn, ftree)
    Weighted,   // each link its port's hop weight (ArsOptions::hop_weights, 1 where none is named)
    Dragonfly,  // fewest global links, then fewest hops (groups as choose_routing() recognises
                // them; a fabric where it sees none is measured as Engine)
};
const char *ars_distance_name(ArsDistance d);  // "auto", "engine", "weighted", "dragonfly"

struct ArsOptions {
    // Alternates whose path is longer than the minimal one by more than this many hops are not
    // offered (a neighbour at the same distance costs 1, one farther away 2).
    unsigned max_extra_hops = 2;
    unsigned max_alternates = 0;  // per group, 0 = no limit
    ArsDistance distance = ArsDistance::Auto;
    std::vector<HopWeight> hop_weights;  // the engine's -w weights, for Weighted
};

// Why a candidate member was left out.
enum class ArsLeftOut : std::uint8_t {
    PrimaryCreditLoop,    // a minimal port that would close a credit loop in the union
    AlternateCreditLoop,  // a detour that would close a credit loop (or a forwarding loop)
    AlternateTooLong,     // detour longer than max_extra_hops
    GroupFull,            // max_alternates reached
    EngineCreditLoop,     // the engine's own routes already close a credit loop: nothing added
};
inline constexpr std::size_t kArsLeftOutReasons = 5;
const char *ars_left_out_name(ArsLeftOut why);  // "primary-credit-loop", ...

struct ArsMember {
    std::size_t dest = 0;
    SwitchIdx sw = kNoSwitch;
    PortNum port = 0;
};

struct ArsLeftOutCount {
    std::uint64_t count = 0;
    ArsMember example;  // the first one left out for this reason
};

struct ArsCompileReport {
    std::uint64_t groups = 0;      // (switch, destination) pairs with a fixed member
    std::uint64_t unrouted = 0;    // pairs (other than a leaf to itself) the engine does not route
    std::uint64_t primaries = 0;   // primary members kept, fixed included
    std::uint64_t alternates = 0;  // alternate members kept
    std::array<ArsLeftOutCount, kArsLeftOutReasons> left_out{};
    CreditLoopReport engine_cycle;               // has_cycle when the fixed members alone close a loop
    ArsDistance distance = ArsDistance::Engine;  // the basis Auto resolved to

    const ArsLeftOutCount &count(ArsLeftOut why) const { return left_out[static_cast<std::size_t>(why)]; }
    std::uint64_t left_out_total() const;
    // One line per reason with its example: "alternate-credit-loop: 12 (e.g. 'sw' port 3 to 'leaf')".
    std::string describe(const Fabric &f, const ArsGroups &g) const;
};

// Every candidate, unchecked: fixed, all minimal ports and all detours within max_extra_hops (up
// to max_alternates). What naive ARS would program; the union check shows what it risks.
ArsGroups naive_ars_groups(const Fabric &f, const RoutingTables &t, const ArsOptions &o = {});

// The groups with only the members that keep the union of all choices free of credit loops.
// Deterministic, and the same whatever order f's nodes come in: destinations in order (by GUID),
// cheapest candidates first, ties by switch GUID then port.
ArsGroups compile_ars_groups(const Fabric &f, const RoutingTables &t, const ArsOptions &o = {},
                             ArsCompileReport *report = nullptr, const ProgressFn &progress = {});

}  // namespace weft::routing
