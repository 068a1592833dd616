// A resident SM over any transport: what weft-sm (umad) and a weft switch's control thread
// (IB-over-Ethernet frames) both run. It decides what is due — a heavy sweep at start, after a
// trap 128 or when a light sweep saw a change; a light sweep every `sweep_interval`, and a heavy
// one again while the last left something unsettled (ports up with nothing answering behind
// them, requests unanswered, programming that failed), backing off — and carries
// the memory from one sweep to the next (tables programmed, node descriptions, the unicast
// cache, the Ethernet tables, the last good fabric). The caller owns the loop: between steps it
// pumps the engine and hands unsolicited SMPs (traps) to take_unsolicited(). A heavy sweep runs
// to its end inside step() (the SM core's phases block on the engine); light sweeps and traps
// are short. Time enters through the clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/light_sweep.hpp"

namespace weft::sm {

enum class SmLogLevel : std::uint8_t { kNote, kProblem };

struct SmRunnerOptions {
    std::string chain = "minhop";  // -R
    routing::RoutingOptions routing;
    bool ignore_existing_lfts = false;
    bool program = true;          // false: verify only
    unsigned verify_threads = 0;  // SweepOptions::verify_threads
    std::vector<routing::McastGroupSpec> mcast_groups;
    std::optional<EthernetOptions> ethernet;  // the Ethernet/RoCE tables after the LFTs
    std::optional<routing::VmParams> vms;     // hypervisors and VMs (SweepOptions::vms)
    std::chrono::milliseconds sweep_interval{std::chrono::seconds(10)};
    // A fabric left unsettled is swept whole again after sweep_interval, then after twice as
    // long each time it stays so, up to this (or sweep_interval if longer); a trap starts over.
    std::chrono::milliseconds max_retry_interval{std::chrono::seconds(30)};
    // A trap 128 from a switch the SM knows re-reads that switch only (trap_sweep.hpp) instead
    // of discovering the whole fabric again.
    bool trap_sweeps = true;
    // Before each heavy sweep: the LIDs to keep (weft-sm reads its guid2lid file here).
    std::function<std::vector<routing::Guid2LidEntry>()> guid2lid;
    // Phase lines, what -R auto chose and what happened are notes; the rest are problems.
    std::function<void(SmLogLevel, std::string_view)> log;
};

// The memory a resident SM carries from one sweep to the next.
struct SmMemory {
    TableMemory held;                     // what it programmed: compared with instead of read
    NodeDescriptions descriptions;        // read once per node, as OpenSM does
    routing::UcastCache cache;            // -A
    EthernetMemory ethernet;              // the Ethernet tables it committed
    std::optional<DiscoveryResult> last;  // the fabric of the last sweep that got through
    routing::VswitchState vswitch;        // with vms: where the VMs run, the VFs' LIDs
};

struct SmRunnerStats {
    std::uint64_t heavy_sweeps = 0, light_sweeps = 0, traps = 0, traps_undecodable = 0;
    std::uint64_t programmed = 0, failed = 0;  // heavy sweeps by outcome (dry runs count in neither)
    std::uint64_t unsettled = 0;               // heavy sweeps in a row that left something unsettled
    std::uint64_t trap_sweeps = 0;             // heavy sweeps that re-read only the trapping switches
    std::optional<SmTime> trap_at;             // the last trap 128 taken
    std::optional<double> trap_to_programmed;  // seconds from that trap to the end of the sweep it caused
    std::uint64_t migrations = 0, migrations_refused = 0;
};

enum class SmStep : std::uint8_t { kNothing, kHeavy, kLight };

class SmRunner {
  public:
    SmRunner(SmpEngine &engine, SmClock clock, SmRunnerOptions options);

    // Runs what is due now, if anything; a heavy sweep's report is then last_heavy().
    SmStep step();
    // When step() next has work (now when a heavy sweep is due).
    SmTime next_due() const;
    bool heavy_due() const { return heavy_due_; }
    void request_heavy() { heavy_due_ = true; }

    // Answers the traps the engine holds (TrapRepress, so the SMA stops repeating) and marks a
    // heavy sweep due on a trap 128; true when one was.
    bool take_unsolicited();

    // Seed 002's live migration on the fabric the last heavy sweep programmed: VM m.vm moved to
    // hypervisor m.to, only the LFT blocks `method` changes sent (migrate_live; "full", "itrc",
    // "ftree-minrc", "ftree-minrc-rebalance", or "" for FTreeMinRC on a fat tree and ItRC
    // elsewhere; a full re-route runs the runner's chain). The VM then stays there: later sweeps
    // put it back where it now runs (SmMemory::vswitch), a trap sweep starts from the moved fabric
    // and the next heavy sweep compares with what the switches now hold. Refused (plan.error,
    // nothing sent) without a programmed fabric, for an unknown method and for what
    // routing::migration_refusal refuses. A Set that failed leaves that switch to be read again
    // by a heavy sweep, which is then due.
    LiveMigrationReport migrate(const routing::Migration &m, std::string_view method);

    const std::optional<SweepReport> &last_heavy() const { return last_heavy_; }
    const std::optional<LightSweepReport> &last_light() const { return last_light_; }
    std::optional<SmTime> last_heavy_at() const { return last_heavy_at_; }
    const SmMemory &memory() const { return memory_; }
    const SmRunnerStats &stats() const { return stats_; }
    const SmRunnerOptions &options() const { return options_; }
    SmpEngine &engine() { return engine_; }

  private:
    void heavy();
    void light();
    void remember_programmed(SweepReport &r);
    void note(std::string_view line);
    void problem(std::string_view line);

    SmpEngine &engine_;
    SmClock clock_;
    SmRunnerOptions options_;
    SmMemory memory_;
    bool heavy_due_ = true;
    SmTime next_light_{0};
    std::optional<SweepReport> last_heavy_;
    std::optional<LightSweepReport> last_light_;
    std::optional<SmTime> last_heavy_at_;
    std::optional<SmTime> pending_trap_;  // a trap that asked for the sweep still to run
    SmTime next_retry_{0};                // when an unsettled fabric is swept whole again
    std::vector<Lid> trapped_;            // the switches whose traps asked for the sweep
    SmRunnerStats stats_;
};

// What a heavy sweep left unsettled, to be swept again ("2 ports up with nothing answering, ..."),
// or empty.
std::string unsettled_by(const SweepReport &r);

// "programmed", "verified", "unreachable", "lids exhausted", "no route", "verification failed".
const char *sweep_outcome_name(SweepOutcome o);

// The summary line of a heavy sweep ("sweep programmed: 0.012 s, SMPs sent ...").
std::string sweep_summary(const SweepReport &r, const SmpEngine &engine);

}  // namespace weft::sm
