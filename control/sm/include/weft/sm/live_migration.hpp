// Seed 002 on a live fabric: which switches forward vLIDs (the extended LID space, or the legacy
// fallback), and live migration of a VM on a fabric the SM routed and programmed. The LFT
// changes are planned by the routing library (routing/reconfig.hpp: full re-route, ItRC or
// FTreeMinRC) and only the LinearForwardingTable blocks the plan touches are sent, one Set per
// block on each switch the plan names, the switches on the paths between the two hypervisors
// first. Every SMP is counted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/reconfig.hpp"
#include "weft/sm/discovery.hpp"
#include "weft/sm/smp_loop.hpp"

namespace weft::sm {

// A Get of WeftExtendedLids to every switch (VENDOR_ATTRIBUTES.md): the fabric can use vLIDs
// only when every switch answers with weft's magic and holds them all; otherwise VMs take LIDs
// of the 16-bit space (seed 002's legacy compatibility mode).
struct VlidProbe {
    std::size_t switches = 0;
    std::size_t extended = 0;         // answered with weft's magic and a capacity
    std::uint32_t min_cap = 0;        // the smallest capacity among those (vLIDs from 0x10000)
    std::vector<std::string> legacy;  // one line per switch that is not extended: which, and why
    bool all_extended(std::uint32_t vlids) const {
        return switches != 0 && extended == switches && vlids <= min_cap;
    }
};
VlidProbe probe_vlids(SmpEngine &engine, const SmClock &clock, const DiscoveryResult &d);

struct LiveMigrationOptions {
    routing::ReconfigMethod method = routing::ReconfigMethod::FTreeMinRC;
    bool rebalance = false;               // FTreeMinRC with its sub-tree routed again
    std::string chain = "vswitch-ftree";  // what a full re-route runs
    routing::RoutingOptions routing;
};

struct LiveMigrationReport {
    routing::MigrationPlan plan;     // the plan applied (plan.error: refused, nothing sent)
    std::size_t switches = 0;        // switches sent at least one block
    std::size_t lft_blocks_set = 0;  // one Set per LFT block a changed entry is in
    std::size_t failures = 0;        // Sets refused or unanswered
    SmpCounters smps;                // what the migration sent
    std::vector<std::string> problems;
};

// One line for the log: "vm00001 'h0' -> 'h3' (LID 65537 swaps with LID 65541): ftree-minrc:
// 3 switches, 3 LFT blocks (planned 3), 3 SMPs sent, 0 failures; 6 LFT entries changed, 0 of them
// for other LIDs"; `from` is the hypervisor the VM left, `f` the fabric after the move.
std::string migration_summary(const LiveMigrationReport &r, const routing::Fabric &f,
                              const std::string &from);

// Moves VM m.vm to hypervisor m.to in d.fabric (routed and programmed with t), plans the LFT
// changes with o.method (FTreeMinRC needs `sky`, the fabric's fat-tree skyline), applies them to
// t and sends them. d.fabric and t then describe the fabric as programmed.
LiveMigrationReport migrate_live(SmpEngine &engine, const SmClock &clock, DiscoveryResult &d,
                                 routing::RoutingTables &t, const routing::Migration &m,
                                 const LiveMigrationOptions &o, const routing::FatTreeSkyline *sky);

}  // namespace weft::sm
