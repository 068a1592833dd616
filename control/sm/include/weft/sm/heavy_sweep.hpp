// A heavy sweep, the SM's whole job once: discover the fabric, assign LIDs (keeping what the
// ports and the guid2lid file already say), route with the engine chain, verify the routing
// (every CA pair reaches, no LFT loop, no credit loop) and only then program it. Each phase is
// timed on the caller's clock and its SMPs counted per kind.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/mcast_groups.hpp"
#include "weft/routing/ucast_cache.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"
#include "weft/sm/discovery.hpp"
#include "weft/sm/ethernet_programming.hpp"
#include "weft/sm/live_migration.hpp"
#include "weft/sm/programming.hpp"

namespace weft::sm {

struct SweepOptions {
    std::string chain = "minhop";     // -R
    routing::RoutingOptions routing;  // engine options; routing.lmc is the LMC assigned
    std::vector<routing::Guid2LidEntry> guid2lid;
    bool program = true;  // false: stop after verification (a dry run)
    // Threads the verification spreads over (0: one per hardware thread). An SM inside a switch
    // gives 1: the other CPUs are its workers'.
    unsigned verify_threads = 0;
    // Hypervisors and VMs (seed 002, --vms): placed on the discovered CAs (routing::add_vms) before
    // LIDs are assigned. Their VF LIDs are vLIDs when every switch forwards them (a Get of
    // WeftExtendedLids to each, the "vswitch" phase) and vms->extended_vlids asks for them, and
    // LIDs of the 16-bit space otherwise (the legacy fallback; the phase line says why).
    std::optional<routing::VmParams> vms;
    // With vms: a resident SM's memory of where the VMs run and the VFs' LIDs (the last sweep's,
    // and the moves since): they are put back (routing::restore_vswitches) instead of being placed
    // by vms afresh. A fabric that carries VMs already (a trap sweep's) keeps them. The SM's own
    // CA is never a hypervisor.
    const routing::VswitchState *vswitch_state = nullptr;
    // The multicast groups to build trees and MFTs for (--mcast-groups), found in each sweep's
    // fabric; a group whose tree fails its check is left out and logged, the rest programmed.
    std::vector<routing::McastGroupSpec> mcast_groups;
    // A resident SM's memory of what it programmed (the last sweep's program.programmed). Its
    // LFTs also steer the re-route (routing::ExistingLfts) unless ignore_existing_lfts.
    const TableMemory *held = nullptr;
    bool ignore_existing_lfts = false;
    // A resident SM's memory of the node descriptions it read (DiscoveryOptions::descriptions).
    const NodeDescriptions *descriptions = nullptr;
    // A resident SM's unicast cache (used when routing.ucast_cache, -A, is on).
    routing::UcastCache *cache = nullptr;
    // Ethernet/RoCE: after programming, the routes and ARS groups of every weft switch
    // (ethernet_programming.hpp); its `held` is the last sweep's ethernet.programmed.
    std::optional<EthernetOptions> ethernet;
    // Problems as they happen ("discovery: ...", "programming: ...", "lids: ...", "routing: ..."),
    // one line per phase ("phase NAME: ...") and what -R auto chose ("routing: auto: ...").
    std::function<void(std::string_view)> log;
};

struct PhaseReport {
    std::string name;  // discovery, lids, routing, verification, multicast (with groups), programming
    double seconds = 0;
    SmpCounters smps;  // what this phase sent, per kind (counters after minus before)
};

enum class SweepOutcome {
    kProgrammed,         // routed, verified, programmed (problems, if any, logged and counted)
    kVerifiedDryRun,     // routed and verified; options.program was false
    kUnreachable,        // the SM's own node did not answer: no fabric
    kLidsExhausted,      // LID assignment ran out of LIDs
    kNoRoute,            // no engine of the chain could route
    kVerificationFailed  // the routing failed verification: nothing was programmed
};

struct SweepReport {
    SweepOutcome outcome = SweepOutcome::kUnreachable;
    std::string why;            // for every outcome but kProgrammed/kVerifiedDryRun: one line
    DiscoveryResult discovery;  // its fabric carries the assigned LIDs
    Lid sm_lid = 0;
    VlidProbe vlids;  // with SweepOptions::vms asking for vLIDs
    routing::LidReport lids;
    routing::ChainResult chain;
    routing::CacheDecision cache;  // with SweepOptions::cache
    routing::RoutingTables tables;
    routing::PathReport paths;
    routing::CreditLoopReport loops;
    routing::McastRouting mcast;  // the trees of SweepOptions::mcast_groups
    ProgramReport program;
    EthernetReport ethernet;  // with SweepOptions::ethernet
    std::vector<PhaseReport> phases;
    SmpCounters smps;  // the whole sweep's SMPs, per kind
    double seconds = 0;
};

SweepReport heavy_sweep(SmpEngine &engine, const SmClock &clock, const SweepOptions &options);

// The phases after discovery (LIDs, routing, verification, multicast, programming, Ethernet) on
// the fabric r.discovery holds; what they find goes into r.
void route_and_program(SmpEngine &engine, const SmClock &clock, const SweepOptions &options, SweepReport &r);

// "12 Get/NodeInfo, 40 Get/PortInfo, ...": a phase's SMPs by kind, for the log.
std::string smp_summary(const SmpCounters &c);

}  // namespace weft::sm
