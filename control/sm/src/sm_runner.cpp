#include "weft/sm/sm_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "weft/routing/vswitch.hpp"
#include "weft/sm/notice.hpp"
#include "weft/sm/trap_sweep.hpp"

namespace weft::sm {

namespace {

double seconds_between(SmTime from, SmTime to) {
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace

const char *sweep_outcome_name(SweepOutcome o) {
    switch (o) {
        case SweepOutcome::kProgrammed:
            return "programmed";
        case SweepOutcome::kVerifiedDryRun:
            return "verified";
        case SweepOutcome::kUnreachable:
            return "unreachable";
        case SweepOutcome::kLidsExhausted:
            return "lids exhausted";
        case SweepOutcome::kNoRoute:
            return "no route";
        case SweepOutcome::kVerificationFailed:
            return "verification failed";
    }
    return "?";
}

std::string sweep_summary(const SweepReport &r, const SmpEngine &engine) {
    const SmpKindCounters total = r.smps.total();
    char line[256];
    std::snprintf(
        line, sizeof line,
        "sweep %s: %.3f s, SMPs sent %llu, received %llu, retried %llu, timed out %llu, malformed %llu, "
        "max on the wire %zu of %zu",
        r.outcome == SweepOutcome::kProgrammed ? "programmed" : "verified (not programmed)", r.seconds,
        static_cast<unsigned long long>(total.sent), static_cast<unsigned long long>(total.received),
        static_cast<unsigned long long>(total.retried), static_cast<unsigned long long>(total.timed_out),
        static_cast<unsigned long long>(total.malformed), engine.counters().max_outstanding,
        engine.config().max_wire_smps);
    return line;
}

SmRunner::SmRunner(SmpEngine &engine, SmClock clock, SmRunnerOptions options)
    : engine_(engine), clock_(std::move(clock)), options_(std::move(options)) {}

void SmRunner::note(std::string_view line) {
    if (options_.log) options_.log(SmLogLevel::kNote, line);
}

void SmRunner::problem(std::string_view line) {
    if (options_.log) options_.log(SmLogLevel::kProblem, line);
}

SmTime SmRunner::next_due() const {
    return heavy_due_ ? SmTime{0} : next_light_;
}

SmStep SmRunner::step() {
    const SmTime now = clock_();
    if (heavy_due_) {
        heavy();
        return SmStep::kHeavy;
    }
    if (now < next_light_) return SmStep::kNothing;
    // The last heavy sweep left something unsettled (a neighbour still starting, a link whose
    // carrier the port does not report, a switch too busy to answer): sweep whole again rather
    // than only look at the switches it knows, as OpenSM re-sweeps after a subnet
    // initialisation error; but less and less often while nothing changes, so that a port up
    // with nothing behind it does not cost a heavy sweep every interval for ever.
    if (stats_.unsettled > 0 && now >= next_retry_) {
        heavy();
        return SmStep::kHeavy;
    }
    if (!memory_.last) {  // nothing to sweep lightly: wait for the retry
        next_light_ = stats_.unsettled > 0 ? next_retry_ : now;
        if (stats_.unsettled == 0) {
            heavy();
            return SmStep::kHeavy;
        }
        return SmStep::kNothing;
    }
    light();
    return SmStep::kLight;
}

// What programming left in every node, written into the fabric the sweep read (LIDs, the SM's
// LID, LinearFDBTop, PortStateChange cleared, port states), so that a trap sweep starting from it
// sets only what changes next.
void SmRunner::remember_programmed(SweepReport &r) {
    DiscoveryResult &d = r.discovery;
    for (routing::NodeIdx n = 0; n < d.nodes.size(); ++n) {
        DiscoveredNode &x = d.nodes[n];
        if (x.is_switch() && x.switch_info) {
            x.switch_info->linear_fdb_top = static_cast<Lid>(routing::max_plid(d.fabric));
            x.switch_info->port_state_change = false;
        }
        for (PortNum port = 0; port < x.ports.size(); ++port) {
            if (x.is_switch() != (port == 0) || !x.ports[port]) continue;
            const routing::Port &fp = d.fabric.port(n, port);
            if (fp.lid == 0) continue;
            x.ports[port]->lid = static_cast<Lid>(fp.lid);
            x.ports[port]->lmc = fp.lmc;
            x.ports[port]->master_sm_lid = r.sm_lid;
        }
    }
    for (const auto &[end_port, state] : r.program.port_states) {
        auto &pi = d.nodes[end_port.first].ports[end_port.second];
        if (pi) pi->port_state = state;
    }
}

std::string unsettled_by(const SweepReport &r) {
    std::string s;
    auto add = [&s](std::size_t n, const char *what) {
        if (n == 0) return;
        if (!s.empty()) s += ", ";
        s += std::to_string(n) + " " + what;
    };
    if (r.outcome != SweepOutcome::kProgrammed && r.outcome != SweepOutcome::kVerifiedDryRun)
        s = std::string("outcome ") + sweep_outcome_name(r.outcome);
    add(r.discovery.stats.dark_ports, "ports up with nothing answering behind them");
    add(r.discovery.stats.problems(), "discovery problems");
    add(r.program.failures, "programming failures");
    add(r.ethernet.failures, "Ethernet programming failures");
    return s;
}

void SmRunner::heavy() {
    SweepOptions so;
    so.held = &memory_.held;
    so.ignore_existing_lfts = options_.ignore_existing_lfts;
    so.descriptions = &memory_.descriptions;
    so.cache = &memory_.cache;
    so.mcast_groups = options_.mcast_groups;
    so.chain = options_.chain;
    so.routing = options_.routing;
    so.program = options_.program;
    so.verify_threads = options_.verify_threads;
    so.vms = options_.vms;
    so.vswitch_state = &memory_.vswitch;
    if (options_.ethernet) {
        so.ethernet = *options_.ethernet;
        so.ethernet->held = &memory_.ethernet;
    }
    if (options_.guid2lid) so.guid2lid = options_.guid2lid();
    so.log = [this](std::string_view line) {
        if (line.rfind("phase ", 0) == 0 || line.rfind("routing: auto: ", 0) == 0)
            note(line);  // progress and what -R auto chose; the rest are problems
        else
            problem(line);
    };
    heavy_due_ = false;
    const std::optional<SmTime> trap = std::exchange(pending_trap_, std::nullopt);
    const std::vector<Lid> trapped = std::exchange(trapped_, {});
    std::optional<SweepReport> fast;
    if (trap && options_.trap_sweeps && memory_.last && !trapped.empty()) {
        TrapSweepResult t = trap_sweep(engine_, clock_, so, *memory_.last, trapped);
        if (t.report) {
            fast = std::move(t.report);
            ++stats_.trap_sweeps;
        } else {
            note("trap sweep: " + t.why_not + "; a heavy sweep instead");
        }
    }
    SweepReport r = fast ? std::move(*fast) : heavy_sweep(engine_, clock_, so);
    const SmTime end = clock_();
    ++stats_.heavy_sweeps;
    if (r.outcome == SweepOutcome::kProgrammed && r.program.failures == 0) remember_programmed(r);
    if (r.outcome == SweepOutcome::kProgrammed) {
        memory_.held = r.program.programmed;
        if (options_.ethernet) memory_.ethernet = r.ethernet.programmed;
    }
    if (r.discovery.reached) memory_.descriptions = descriptions_of(r.discovery);
    memory_.last.reset();  // light sweeps look at the fabric of a sweep that got through
    const bool good = r.outcome == SweepOutcome::kProgrammed || r.outcome == SweepOutcome::kVerifiedDryRun;
    if (good) memory_.last = r.discovery;
    if (good && options_.vms) memory_.vswitch = routing::vswitch_state(r.discovery.fabric);
    if (r.outcome == SweepOutcome::kProgrammed) ++stats_.programmed;
    if (!good) ++stats_.failed;
    if (r.outcome == SweepOutcome::kUnreachable)
        problem("cannot reach the fabric: " + r.why);
    else if (!good)
        problem(r.why);
    else {
        note(sweep_summary(r, engine_));
        note("SMPs by kind: " + smp_summary(r.smps));
        if (r.program.failures)
            problem(std::to_string(r.program.failures) + " programming failures (see above)");
    }
    if (trap && r.outcome == SweepOutcome::kProgrammed)
        stats_.trap_to_programmed = seconds_between(*trap, end);
    next_light_ = end + options_.sweep_interval;
    if (const std::string why = unsettled_by(r); !why.empty()) {
        ++stats_.unsettled;
        const auto cap = std::max(options_.sweep_interval, options_.max_retry_interval);
        auto wait = options_.sweep_interval;
        for (std::uint64_t i = 1; i < stats_.unsettled && wait < cap; ++i) wait *= 2;
        wait = std::min(wait, cap);
        next_retry_ = end + wait;
        char when[64];
        std::snprintf(when, sizeof when, "; swept whole again in %.3f s",
                      std::chrono::duration<double>(wait).count());
        note("unsettled: " + why + when);
    } else {
        stats_.unsettled = 0;
    }
    last_heavy_at_ = end;
    last_heavy_ = std::move(r);
}

void SmRunner::light() {
    // Ethernet mode: the host subnets each weft switch had when the SM last read them.
    SubnetVersions versions;
    if (options_.ethernet)
        for (const auto &[guid, held] : memory_.ethernet)
            if (held.subnets_version) versions[guid] = held.subnets_version;
    LightSweepReport lr =
        light_sweep(engine_, clock_, *memory_.last, options_.ethernet ? &versions : nullptr);
    ++stats_.light_sweeps;
    char line[160];
    std::snprintf(line, sizeof line, "light sweep: %.3f s, %llu SMPs, %zu switches", lr.seconds,
                  static_cast<unsigned long long>(lr.smps.total().sent), lr.switches);
    note(std::string(line) + (lr.changed ? "; " + lr.why + ": heavy sweep" : "; no change"));
    heavy_due_ = lr.changed;
    next_light_ = clock_() + options_.sweep_interval;
    last_light_ = std::move(lr);
}

LiveMigrationReport SmRunner::migrate(const routing::Migration &m, std::string_view method) {
    LiveMigrationReport out;
    out.plan.migration = m;
    auto refused = [&](std::string why) {
        out.plan.error = std::move(why);
        ++stats_.migrations_refused;
        problem("migrate: refused: " + out.plan.error);
        return out;
    };
    if (!last_heavy_ || last_heavy_->outcome != SweepOutcome::kProgrammed)
        return refused("no programmed fabric to move a VM in (the last heavy sweep did not program one)");
    SweepReport &r = *last_heavy_;
    routing::Fabric &f = r.discovery.fabric;
    std::string not_tree;
    const auto sky = routing::FatTreeSkyline::build(f, &not_tree);
    LiveMigrationOptions o;
    o.chain = options_.chain;
    o.routing = options_.routing;
    o.method = sky ? routing::ReconfigMethod::FTreeMinRC : routing::ReconfigMethod::ItRC;
    if (method == "full") {
        o.method = routing::ReconfigMethod::FullReroute;
    } else if (method == "itrc") {
        o.method = routing::ReconfigMethod::ItRC;
    } else if (method == "ftree-minrc" || method == "ftree-minrc-rebalance") {
        if (!sky) return refused(std::string(method) + " needs a fat tree: " + not_tree);
        o.method = routing::ReconfigMethod::FTreeMinRC;
        o.rebalance = method == "ftree-minrc-rebalance";
    } else if (!method.empty()) {
        return refused("unknown method '" + std::string(method) +
                       "' (full, itrc, ftree-minrc or ftree-minrc-rebalance)");
    }
    const std::string from = m.vm < f.vms().size() ? f.node(f.vms()[m.vm].hypervisor).desc : "?";
    out = migrate_live(engine_, clock_, r.discovery, r.tables, m, o, sky ? &*sky : nullptr);
    if (!out.plan.ok()) return refused(out.plan.error);
    ++stats_.migrations;
    // What the switches hold now: the next heavy sweep compares with it. A switch a Set failed on
    // is forgotten, so that sweep reads it, and is due.
    for (const routing::SwitchUpdate &u : out.plan.updates) {
        const auto it = memory_.held.find(f.node(f.switch_node(u.sw)).guid);
        if (it == memory_.held.end()) continue;
        if (out.failures) {
            memory_.held.erase(it);
            continue;
        }
        for (const routing::LftEntry &e : u.entries) {
            if (e.lid < it->second.entries.size()) it->second.entries[e.lid] = e.port;
            if (const auto v = it->second.vlid.find(e.lid / kLftBlockSize); v != it->second.vlid.end())
                v->second[e.lid % kLftBlockSize] = e.port;
        }
    }
    if (out.failures) heavy_due_ = true;
    memory_.cache.invalidate();  // its tables are the routing before the move
    memory_.last = r.discovery;
    memory_.vswitch = routing::vswitch_state(f);
    const std::string line = "migrate: " + migration_summary(out, f, from);
    if (out.failures) {
        problem(line);
        for (const std::string &p : out.problems) problem("migrate: " + p);
    } else {
        note(line);
    }
    return out;
}

bool SmRunner::take_unsolicited() {
    bool trapped = false;
    while (std::optional<UnsolicitedSmp> u = engine_.next_unsolicited()) {
        if (u->smp.method != Method::kTrap) continue;
        const auto notice = decode_notice(u->smp);
        if (!notice) {
            ++stats_.traps_undecodable;
            problem("a trap from LID " + std::to_string(u->slid) +
                    " does not decode: " + notice.error().message());
            continue;
        }
        engine_.post({make_trap_repress(u->smp), u->slid, 0}, clock_());
        ++stats_.traps;
        // Trap 128 (a port changed state) calls for a sweep; others (144: a port's capabilities,
        // e.g. this SM's own IsSM) are noted.
        const std::string head =
            "trap " + std::to_string(notice->trap_number) + " from LID " + std::to_string(u->slid);
        if (notice->trap_number != kTrapPortStateChange) {
            note(head + " (answered)");
            continue;
        }
        const auto change = decode_port_state_change(*notice);
        note(head + ": port state change" +
             (change ? " on the switch with LID " + std::to_string(change->lid)
                     : " (" + change.error().message() + ")") +
             "; sweeping");
        if (change && std::find(trapped_.begin(), trapped_.end(), change->lid) == trapped_.end())
            trapped_.push_back(change->lid);
        const SmTime now = clock_();
        stats_.trap_at = now;
        if (!pending_trap_) pending_trap_ = now;
        heavy_due_ = true;
        if (stats_.unsettled > 1) stats_.unsettled = 1;  // news: the back-off starts over
        trapped = true;
    }
    return trapped;
}

}  // namespace weft::sm
