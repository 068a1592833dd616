// weft-sm: the subnet manager over rdma-core (a real HCA, or ibsim through libumad2sim). Each
// heavy sweep discovers the fabric, assigns LIDs (keeping the ports' and the guid2lid file's),
// routes with the engine chain, verifies the routing and only then programs it; with -o it does
// this once and exits. Options as OpenSM names them where it has them; the routing options are
// weft-route's, parsed by the same code.
#include <getopt.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "sm_args.hpp"
#include "weft/routing/lft_dump.hpp"
#include "weft/routing/lid_assignment.hpp"
#include "weft/routing/mcast_groups.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/reconfig.hpp"
#include "weft/routing/text_file.hpp"
#include "weft/routing/topology_io.hpp"
#include "weft/routing/verification.hpp"
#include "weft/routing/vswitch.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/live_migration.hpp"
#include "weft/sm/sm_runner.hpp"
#include "weft/sm/subnet_lst.hpp"
#include "weft/sm/umad_transport.hpp"

namespace {

using namespace weft;
namespace rt = weft::routing::tools;
using sm::tools::SmArgs;

enum Exit { kOk = 0, kProgramFailures = 1, kUsage = 2, kNoFabric = 3, kNotRouted = 4 };

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) {
    g_stop = 1;
}

class Log {
  public:
    Log(const std::string &file, bool quiet) : quiet_(quiet) {
        if (!file.empty()) {
            file_.open(file, std::ios::app);
            if (!file_) throw std::runtime_error("cannot open log file " + file);
        }
    }
    // Phase lines and notes (left out with -q); problems always.
    void note(std::string_view line) { write(line, !quiet_); }
    void problem(std::string_view line) { write(line, true); }

  private:
    void write(std::string_view line, bool to_stderr) {
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        char stamp[32];
        std::snprintf(stamp, sizeof stamp, "[%9.3f] ", t);
        if (to_stderr)
            std::fprintf(stderr, "weft-sm: %s%.*s\n", stamp, static_cast<int>(line.size()), line.data());
        if (file_) file_ << stamp << line << '\n' << std::flush;
    }
    bool quiet_;
    std::ofstream file_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

void spill(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path);
}

bool exists(const std::string &path) {
    return std::ifstream(path).good();
}

// What weft-sm does with a heavy sweep's report beside what the runner logged: its files, and
// its exit status for -o.
int after_sweep(const SmArgs &a, const sm::SweepReport &r, bool has_mcast) {
    if (r.outcome == sm::SweepOutcome::kUnreachable) return kNoFabric;
    if (!a.write_net.empty()) spill(a.write_net, routing::write_ibsim_net(r.discovery.fabric));
    if (r.outcome == sm::SweepOutcome::kLidsExhausted || r.outcome == sm::SweepOutcome::kNoRoute ||
        r.outcome == sm::SweepOutcome::kVerificationFailed)
        return kNotRouted;
    if (!a.route.guid2lid.empty()) spill(a.route.guid2lid, routing::write_guid2lid(r.discovery.fabric));
    if (!a.dump_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(a.dump_dir, ec);  // as OpenSM makes its dump directory
        if (ec) throw std::runtime_error("cannot create " + a.dump_dir + ": " + ec.message());
        spill(a.dump_dir + "/opensm-lfts.dump", routing::write_lft_dump(r.discovery.fabric, r.tables));
        spill(a.dump_dir + "/guid2lid", routing::write_guid2lid(r.discovery.fabric));
        spill(a.dump_dir + "/opensm-subnet.lst", sm::write_subnet_lst(r.discovery, &r.program));
        if (has_mcast)
            spill(a.dump_dir + "/weft-mfts.dump",
                  routing::write_mft_listing(r.discovery.fabric, r.mcast.trees));
    }
    return r.program.failures ? kProgramFailures : kOk;
}

// Seed 002 on the live fabric: the VMs moved one by one by the resident SM (SmRunner::migrate)
// with the method asked for, each sending only the LFT blocks it changes; a line per move (the
// runner's) and the totals, then every pair traced. The SM keeps the VMs where they went.
int live_migrations(const SmArgs &a, sm::SmRunner &runner, Log &log) {
    const routing::Fabric &f = runner.last_heavy()->discovery.fabric;
    if (f.vms().empty()) {
        log.problem("--migrate: the fabric runs no VM");
        return kProgramFailures;
    }
    const std::vector<routing::Migration> steps =
        !a.route.migrate_file.empty()
            ? routing::read_migrations(routing::read_text_file(a.route.migrate_file), a.route.migrate_file, f)
            : routing::generate_migrations(f, *routing::parse_migration_pattern(a.route.migrate_pattern),
                                           a.route.seed);
    std::string not_tree;
    if (a.route.reconfig.rfind("ftree-minrc", 0) == 0 && !routing::FatTreeSkyline::build(f, &not_tree))
        throw rt::UsageError("--reconfig " + a.route.reconfig + ": " + not_tree);
    log.note("migrations: " + std::to_string(steps.size()) + ", method " +
             (a.route.reconfig.empty() ? "ftree-minrc on a fat tree, itrc elsewhere" : a.route.reconfig) +
             ", " + (f.extended_vlids ? "vLIDs" : "16-bit VF LIDs"));
    std::size_t switches = 0, blocks = 0, failures = 0;
    std::uint64_t sent = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const sm::LiveMigrationReport x = runner.migrate(steps[i], a.route.reconfig);
        if (!x.plan.ok()) {
            log.problem("migrate " + std::to_string(i + 1) + ": refused: " + x.plan.error);
            return kProgramFailures;
        }
        switches += x.switches;
        blocks += x.lft_blocks_set;
        failures += x.failures;
        sent += x.smps.total().sent;
    }
    const sm::SweepReport &r = *runner.last_heavy();
    const routing::PathReport pr = routing::trace_paths(r.discovery.fabric, r.tables);
    char line[256];
    std::snprintf(line, sizeof line,
                  "migrations done: %zu switches, %zu LFT blocks, %llu SMPs, %zu failures; after them "
                  "%llu pairs unreachable, %llu loops",
                  switches, blocks, static_cast<unsigned long long>(sent), failures,
                  static_cast<unsigned long long>(pr.unreachable), static_cast<unsigned long long>(pr.loops));
    log.note(line);
    return failures || pr.unreachable || pr.loops ? kProgramFailures : kOk;
}

int run(const SmArgs &a) {
    Log log(a.log_file, a.quiet);
    sm::SmRunnerOptions ro;
    ro.chain = a.route.chain;
    ro.routing = rt::routing_options(a.route);
    ro.ignore_existing_lfts = a.route.ignore_existing_lfts;
    ro.program = !a.verify_only;
    if (!a.vms.empty()) ro.vms = routing::parse_vm_spec(a.vms);
    ro.sweep_interval = std::chrono::seconds(a.sweep_seconds);
    if (!a.route.mcast_groups.empty())
        ro.mcast_groups =
            routing::read_mcast_groups(routing::read_text_file(a.route.mcast_groups), a.route.mcast_groups);
    if (!a.route.guid2lid.empty())
        ro.guid2lid = [&a] {
            return exists(a.route.guid2lid)
                       ? routing::read_guid2lid(routing::read_text_file(a.route.guid2lid), a.route.guid2lid)
                       : std::vector<routing::Guid2LidEntry>{};
        };
    ro.log = [&log](sm::SmLogLevel level, std::string_view line) {
        if (level == sm::SmLogLevel::kNote)
            log.note(line);
        else
            log.problem(line);
    };
    std::optional<sm::UmadTransport> transport;
    try {
        transport.emplace(a.ca, a.port, 0, /*claim_sm=*/true);
    } catch (const sm::UmadError &e) {
        log.problem(std::string("cannot reach the fabric: ") + e.what());
        return kNoFabric;
    }
    const sm::UmadPortInfo &local = transport->port();
    char where[160];
    std::snprintf(where, sizeof where,
                  "on %s port %d (port GUID 0x%016llx, LID %u, state %u), engine chain %s, LMC %u",
                  local.ca_name.c_str(), local.port_num, static_cast<unsigned long long>(local.port_guid),
                  local.lid, local.state, a.route.chain.c_str(), a.route.lmc);
    log.note(where);
    sm::SmpEngine engine(*transport, a.engine);
    const sm::SmClock clock = [] { return std::chrono::steady_clock::now().time_since_epoch(); };
    const bool has_mcast = !ro.mcast_groups.empty();
    sm::SmRunner runner(engine, clock, std::move(ro));
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    int rc = kOk;
    // The migrations run once, after the first sweep that programmed the fabric; a resident SM
    // then keeps the VMs where they went.
    bool migrate = !a.route.migrate_file.empty() || !a.route.migrate_pattern.empty();
    for (;;) {
        if (runner.step() == sm::SmStep::kHeavy) {
            if (migrate && runner.last_heavy()->outcome == sm::SweepOutcome::kProgrammed) {
                migrate = false;
                const int m = live_migrations(a, runner, log);
                rc = after_sweep(a, *runner.last_heavy(), has_mcast);
                if (rc == kOk) rc = m;
            } else {
                rc = after_sweep(a, *runner.last_heavy(), has_mcast);
            }
        }
        if (a.once) return rc;
        // Until the next sweep is due, listen for traps: a port that changed state sends trap 128
        // to its SM; it is answered (TrapRepress, or the switch repeats it) and the fabric swept
        // at once. Traps that came during the sweep count too.
        while (!g_stop && clock() < runner.next_due()) {
            engine.pump(clock, std::chrono::milliseconds(100));
            runner.take_unsolicited();
        }
        if (g_stop) return rc;
    }
}

}  // namespace

int main(int argc, char **argv) {
    try {
        const SmArgs a = sm::tools::parse_sm_args(argc, argv);
        if (a.route.help) {
            std::fputs(sm::tools::sm_usage().c_str(), stdout);
            return kOk;
        }
        return run(a);
    } catch (const rt::UsageError &e) {
        std::fprintf(stderr, "weft-sm: %s\n(see weft-sm --help)\n", e.what());
        return kUsage;
    } catch (const routing::ParseError &e) {
        std::fprintf(stderr, "weft-sm: %s\n", e.what());
        return kUsage;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "weft-sm: %s\n", e.what());
        return kUsage;
    }
}
