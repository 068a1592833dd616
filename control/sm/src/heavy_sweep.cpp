#include "weft/sm/heavy_sweep.hpp"

#include "sweep_phase.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace weft::sm {

std::string smp_summary(const SmpCounters &c) {
    std::string s;
    for (const auto &[kind, k] : c.per_kind) {
        if (!k.sent) continue;
        if (!s.empty()) s += ", ";
        s += std::to_string(k.sent) + " " + method_name(kind.method) + "/" + attribute_name(kind.attr_id);
        if (k.retried) s += " (" + std::to_string(k.retried) + " retried)";
        if (k.timed_out) s += " (" + std::to_string(k.timed_out) + " timed out)";
        if (k.malformed) s += " (" + std::to_string(k.malformed) + " malformed)";
    }
    return s;
}

namespace {

void sweep(SmpEngine &engine, const SmClock &clock, const SweepOptions &options, SweepReport &r) {
    {
        Phase phase(r, engine, clock, options, "discovery");
        DiscoveryOptions dopt;
        dopt.log = options.log;
        dopt.descriptions = options.descriptions;
        dopt.ethernet = options.ethernet.has_value();
        r.discovery = discover(engine, clock, dopt);
        const DiscoveryStats &s = r.discovery.stats;
        phase.end(std::to_string(s.switches) + " switches, " + std::to_string(s.cas) + " CAs, " +
                  std::to_string(s.links) + " links, " +
                  (dopt.ethernet ? std::to_string(s.host_ports) + " host ports, " : std::string()) +
                  std::to_string(s.problems()) + " problems");
    }
    DiscoveryResult &d = r.discovery;
    if (!d.reached || d.sm_node == routing::kNoNode) {
        r.outcome = SweepOutcome::kUnreachable;
        r.why = d.problems.empty() ? "the SM's own node did not answer" : d.problems.front();
        return;
    }
    if (d.sm_port != 0 && d.fabric.port(d.sm_node, d.sm_port).peer == routing::kNoNode) {
        // The SM's own CA answered, but its port leads nowhere: there is no fabric to manage.
        const auto &pi = d.nodes[d.sm_node].ports[d.sm_port];
        r.outcome = SweepOutcome::kUnreachable;
        r.why = "the SM's port " + std::to_string(d.sm_port) + " has no link" +
                (pi ? " (physical state " + std::to_string(static_cast<unsigned>(pi->phys_state)) +
                          ", 5 is LinkUp)"
                    : std::string()) +
                (d.problems.empty() ? "" : "; " + d.problems.front());
        return;
    }
    route_and_program(engine, clock, options, r);
}

}  // namespace

void route_and_program(SmpEngine &engine, const SmClock &clock, const SweepOptions &options, SweepReport &r) {
    DiscoveryResult &d = r.discovery;
    // Routing plans the links as they will be once armed: every cabled, physically up link.
    routing::Fabric &f = d.fabric;
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p)
            if (f.port(n, p).peer != routing::kNoNode) f.port(n, p).state = routing::PortState::Active;
    if (options.vms) {
        Phase phase(r, engine, clock, options, "vswitch");
        routing::VmParams vp = *options.vms;
        const routing::NodeIdx own = f.node(d.sm_node).is_switch() ? routing::kNoNode : d.sm_node;
        std::string mode = "legacy (16-bit LIDs, as asked)";
        if (vp.extended_vlids) {
            // The vLIDs the VFs take: every VF of every CA with prepopulated LIDs, else one a VM.
            std::size_t cas = 0;
            for (routing::NodeIdx n = 0; n < f.node_count(); ++n) cas += !f.node(n).is_switch() && n != own;
            const std::uint64_t vlids =
                vp.scheme == routing::VfLidScheme::Prepopulated ? std::uint64_t{cas} * vp.vfs : cas * vp.vfs;
            r.vlids = probe_vlids(engine, clock, d);
            vp.extended_vlids =
                r.vlids.all_extended(static_cast<std::uint32_t>(std::min<std::uint64_t>(vlids, ~0u)));
            if (vp.extended_vlids) {
                mode = "vLIDs: every switch forwards them (" + std::to_string(r.vlids.min_cap) + " at least)";
            } else {
                mode = "legacy fallback to 16-bit LIDs: " +
                       (r.vlids.legacy.empty()
                            ? "a capacity below the " + std::to_string(vlids) + " vLIDs wanted"
                            : r.vlids.legacy.front()) +
                       (r.vlids.legacy.size() > 1
                            ? " (and " + std::to_string(r.vlids.legacy.size() - 1) + " more switches)"
                            : std::string());
            }
        }
        std::string placed = "placed";
        if (f.has_vswitches()) {
            f.extended_vlids = vp.extended_vlids;  // VF LIDs outside that space are assigned again
            placed = "kept";
        } else if (options.vswitch_state && !options.vswitch_state->empty()) {
            for (const std::string &line : routing::restore_vswitches(f, vp, *options.vswitch_state, own))
                if (options.log) options.log("vswitch: " + line);
            placed = "as they were";
        } else {
            try {
                routing::add_vms(f, vp, own);
            } catch (const std::invalid_argument &e) {
                r.outcome = SweepOutcome::kLidsExhausted;
                r.why = std::string("vms: ") + e.what();
                phase.end(r.why);
                return;
            }
        }
        std::size_t hyps = 0;
        for (routing::NodeIdx n = 0; n < f.node_count(); ++n) hyps += f.node(n).vswitch;
        phase.end(std::to_string(hyps) + " hypervisors, " + std::to_string(f.vms().size()) + " VMs " +
                  placed + "; " + mode);
    }
    {
        Phase phase(r, engine, clock, options, "lids");
        routing::LidOptions lo;
        lo.lmc = options.routing.lmc;
        lo.guid2lid = options.guid2lid;
        lo.keep_existing = true;
        try {
            r.lids = routing::assign_lids(f, lo);
        } catch (const std::runtime_error &e) {
            r.outcome = SweepOutcome::kLidsExhausted;
            r.why = e.what();
            phase.end(r.why);
            return;
        }
        for (const auto &c : r.lids.conflicts)
            if (options.log) options.log("lids: " + c);
        r.sm_lid = static_cast<Lid>(f.port(d.sm_node, d.sm_port).lid);
        phase.end(std::to_string(r.lids.assigned) + " assigned: " + std::to_string(r.lids.from_file) +
                  " from guid2lid, " + std::to_string(r.lids.kept) + " kept, " +
                  std::to_string(r.lids.assigned - r.lids.from_file - r.lids.kept) + " new, " +
                  std::to_string(r.lids.conflicts.size()) + " conflicts; max LID " +
                  std::to_string(r.lids.max_lid) + ", SM LID " + std::to_string(r.sm_lid));
    }
    {
        Phase phase(r, engine, clock, options, "routing");
        std::string cache_note;
        routing::RoutingOptions ro = options.routing;
        if (options.held && !options.ignore_existing_lfts) {
            auto existing = std::make_shared<routing::ExistingLfts>();
            for (const auto &[guid, held] : *options.held) existing->by_switch.emplace(guid, held.entries);
            ro.existing.lfts = std::move(existing);
        }
        if (options.cache && options.routing.ucast_cache) {
            // -A: the cache reuses the last routing when only end ports or leaf switches changed.
            const routing::CachedRouting cr = options.cache->route(options.chain, f, ro, r.tables);
            r.chain = cr.chain;
            r.cache = cr.cache;
            cache_note =
                std::string(cr.cache.hit ? "; unicast cache hit: " : "; unicast cache: recomputed: ") +
                cr.cache.reason;
        } else {
            r.chain = routing::run_chain(options.chain, f, ro, r.tables);
        }
        for (const auto &why : r.chain.failures)
            if (options.log) options.log("routing: fell through: " + why);
        for (const auto &w : r.tables.warnings)
            if (options.log) options.log("routing: warning: " + w);
        // -R auto says what it recognised and which chain it chose (not on a cache hit: nothing
        // was chosen then).
        if (!r.chain.auto_choice.empty() && !r.cache.hit && options.log)
            options.log("routing: auto: " + r.chain.auto_choice);
        if (!r.chain.ok) {
            r.outcome = SweepOutcome::kNoRoute;
            r.why = "no engine of '" + options.chain + "' could route the fabric" +
                    (r.chain.error.empty() ? "" : ": " + r.chain.error);
            phase.end(r.why);
            return;
        }
        phase.end("engine " + r.chain.engine + " (chain " + options.chain + "), " +
                  std::to_string(r.tables.vls_used) + " VLs" + cache_note);
    }
    {
        Phase phase(r, engine, clock, options, "verification");
        routing::RoutingCheck check = routing::check_routing(f, r.tables, {}, options.verify_threads);
        r.paths = std::move(check.paths);
        r.loops = std::move(check.credit_loops);
        std::string detail = std::to_string(r.paths.pairs) + " pairs, " +
                             std::to_string(r.paths.unreachable) + " unreachable, " +
                             std::to_string(r.paths.loops) + " loops, max " +
                             std::to_string(r.paths.max_hops) + " hops; " +
                             (r.loops.has_cycle ? "a credit loop" : "no credit loop") + " in " +
                             std::to_string(r.loops.dependencies) + " channel dependencies on " +
                             std::to_string(r.loops.vls) + " VLs";
        if (!r.paths.ok() || r.loops.has_cycle) {
            if (options.cache) options.cache->invalidate();  // never reuse a routing that failed
            r.outcome = SweepOutcome::kVerificationFailed;
            r.why = "the routing by " + r.chain.engine + " failed verification and is not programmed: ";
            if (r.loops.has_cycle) {
                r.why += "credit loop:\n" + r.loops.describe(f);
            } else {
                r.why += std::to_string(r.paths.unreachable) + " unreachable pairs, " +
                         std::to_string(r.paths.loops) + " LFT loops";
                for (const auto &e : r.paths.examples) r.why += "\n  " + e.what;
            }
            phase.end(detail);
            return;
        }
        phase.end(detail);
    }
    if (!options.mcast_groups.empty()) {
        Phase phase(r, engine, clock, options, "multicast");
        const routing::ResolvedMcastGroups groups = routing::resolve_mcast_groups(options.mcast_groups, f);
        for (const auto &w : groups.warnings)
            if (options.log) options.log("multicast: " + w);
        r.mcast = routing::route_mcast_groups(r.chain, f, options.routing, r.tables, groups.groups);
        for (const auto &why : r.mcast.failures)
            if (options.log) options.log("multicast: left out: " + why);
        std::size_t entries = 0;
        for (const routing::McastTree &tree : r.mcast.trees)
            for (const auto &ports : tree.ports) entries += !ports.empty();
        phase.end(std::to_string(groups.groups.size()) + " groups, " + std::to_string(r.mcast.trees.size()) +
                  " trees checked (" + std::to_string(entries) + " switch entries), " +
                  std::to_string(r.mcast.failures.size()) + " left out");
    }
    if (!options.program) {
        r.outcome = SweepOutcome::kVerifiedDryRun;
        return;
    }
    {
        Phase phase(r, engine, clock, options, "programming");
        ProgramOptions po;
        po.log = options.log;
        po.held = options.held;
        po.mcast = &r.mcast.trees;
        r.program = program_fabric(engine, clock, d, r.tables, r.sm_lid, po);
        const ProgramReport &p = r.program;
        phase.end(std::to_string(p.port_info_sets) + " LID Sets, " + std::to_string(p.switch_info_sets) +
                  " SwitchInfo Sets, LFT blocks " + std::to_string(p.lft_blocks_set) + " written, " +
                  std::to_string(p.lft_blocks_unchanged) + " unchanged of " +
                  std::to_string(p.lft_blocks_read) + " read and " + std::to_string(p.lft_blocks_remembered) +
                  " remembered, " + std::to_string(p.sl2vl_sets) + " SL2VL Sets (" +
                  std::to_string(p.sl2vl_unchanged) + " unchanged), MFT blocks " +
                  std::to_string(p.mft_blocks_set) + " written, " + std::to_string(p.mft_blocks_unchanged) +
                  " unchanged, " + std::to_string(p.armed) + " ports armed, " + std::to_string(p.activated) +
                  " activated, " + std::to_string(p.failures) + " failures");
    }
    if (options.ethernet) {
        Phase phase(r, engine, clock, options, "ethernet");
        EthernetOptions eo = *options.ethernet;
        if (!eo.log) eo.log = options.log;
        if (eo.ars.hop_weights.empty())
            eo.ars.hop_weights = options.routing.hop_weights;  // minimal as routed
        r.ethernet = program_ethernet(engine, clock, d, r.tables, eo);
        const EthernetReport &e = r.ethernet;
        phase.end(std::to_string(e.switches) + " weft switches, " + std::to_string(e.subnets) + " subnets, " +
                  std::to_string(e.compile.groups) + " groups, " + std::to_string(e.compile.routes) +
                  " routes; " + std::to_string(e.commits) + " commits, blocks " +
                  std::to_string(e.group_blocks_set + e.route_blocks_set) + " written, " +
                  std::to_string(e.blocks_unchanged) + " unchanged, " + std::to_string(e.unchanged) +
                  " switches unchanged, " + std::to_string(e.failures) + " failures");
    }
    r.outcome = SweepOutcome::kProgrammed;
}

SweepReport heavy_sweep(SmpEngine &engine, const SmClock &clock, const SweepOptions &options) {
    SweepReport r;
    const SmpCounters before = engine.counters();
    sweep(engine, clock, options, r);
    r.smps = counters_since(engine.counters(), before);
    for (const PhaseReport &p : r.phases) r.seconds += p.seconds;
    return r;
}

}  // namespace weft::sm
