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
#include "weft/routing/text_file.hpp"
#include "weft/routing/topology_io.hpp"
#include "weft/sm/heavy_sweep.hpp"
#include "weft/sm/light_sweep.hpp"
#include "weft/sm/notice.hpp"
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

// What a resident SM carries from one sweep to the next.
struct Resident {
    sm::TableMemory held;                               // what it programmed: compared with instead of read
    sm::NodeDescriptions descriptions;                  // read once per node, as OpenSM does
    routing::UcastCache cache;                          // -A
    std::optional<sm::DiscoveryResult> last;            // the fabric the last good heavy sweep found
    std::vector<routing::McastGroupSpec> mcast_groups;  // --mcast-groups, read at start
};

int sweep_once(const SmArgs &a, sm::SmpEngine &engine, const sm::SmClock &clock, Log &log,
               const routing::RoutingOptions &ro, Resident &mem) {
    sm::TableMemory &held = mem.held;
    std::optional<sm::DiscoveryResult> &last = mem.last;
    sm::SweepOptions so;
    so.held = &held;
    so.ignore_existing_lfts = a.route.ignore_existing_lfts;
    so.descriptions = &mem.descriptions;
    so.cache = &mem.cache;
    so.mcast_groups = mem.mcast_groups;
    so.chain = a.route.chain;
    so.routing = ro;
    so.program = !a.verify_only;
    if (!a.route.guid2lid.empty() && exists(a.route.guid2lid))
        so.guid2lid = routing::read_guid2lid(routing::read_text_file(a.route.guid2lid), a.route.guid2lid);
    so.log = [&log](std::string_view line) {
        if (line.rfind("phase ", 0) == 0 || line.rfind("routing: auto: ", 0) == 0)
            log.note(line);  // progress and what -R auto chose; the rest are problems
        else
            log.problem(line);
    };
    sm::SweepReport r = sm::heavy_sweep(engine, clock, so);
    if (r.outcome == sm::SweepOutcome::kProgrammed) held = std::move(r.program.programmed);
    if (r.discovery.reached) mem.descriptions = sm::descriptions_of(r.discovery);
    last.reset();  // light sweeps look at the fabric of a sweep that got through
    if (r.outcome == sm::SweepOutcome::kProgrammed || r.outcome == sm::SweepOutcome::kVerifiedDryRun)
        last = r.discovery;
    if (r.outcome == sm::SweepOutcome::kUnreachable) {
        log.problem("cannot reach the fabric: " + r.why);
        return kNoFabric;
    }
    if (!a.write_net.empty()) spill(a.write_net, routing::write_ibsim_net(r.discovery.fabric));
    if (r.outcome == sm::SweepOutcome::kLidsExhausted || r.outcome == sm::SweepOutcome::kNoRoute ||
        r.outcome == sm::SweepOutcome::kVerificationFailed) {
        log.problem(r.why);
        return kNotRouted;
    }
    if (!a.route.guid2lid.empty()) spill(a.route.guid2lid, routing::write_guid2lid(r.discovery.fabric));
    if (!a.dump_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(a.dump_dir, ec);  // as OpenSM makes its dump directory
        if (ec) throw std::runtime_error("cannot create " + a.dump_dir + ": " + ec.message());
        spill(a.dump_dir + "/opensm-lfts.dump", routing::write_lft_dump(r.discovery.fabric, r.tables));
        spill(a.dump_dir + "/guid2lid", routing::write_guid2lid(r.discovery.fabric));
        spill(a.dump_dir + "/opensm-subnet.lst", sm::write_subnet_lst(r.discovery, &r.program));
        if (!mem.mcast_groups.empty())
            spill(a.dump_dir + "/weft-mfts.dump",
                  routing::write_mft_listing(r.discovery.fabric, r.mcast.trees));
    }
    const sm::SmpKindCounters total = r.smps.total();
    char line[256];
    std::snprintf(
        line, sizeof line,
        "sweep %s: %.3f s, SMPs sent %llu, received %llu, retried %llu, timed out %llu, malformed %llu, "
        "max on the wire %zu of %zu",
        r.outcome == sm::SweepOutcome::kProgrammed ? "programmed" : "verified (not programmed)", r.seconds,
        static_cast<unsigned long long>(total.sent), static_cast<unsigned long long>(total.received),
        static_cast<unsigned long long>(total.retried), static_cast<unsigned long long>(total.timed_out),
        static_cast<unsigned long long>(total.malformed), engine.counters().max_outstanding,
        engine.config().max_wire_smps);
    log.note(line);
    log.note("SMPs by kind: " + sm::smp_summary(r.smps));
    if (r.program.failures) {
        log.problem(std::to_string(r.program.failures) + " programming failures (see above)");
        return kProgramFailures;
    }
    return kOk;
}

// Logs and represses a trap; true when it says the fabric changed.
bool answer_trap(sm::SmpEngine &engine, const sm::SmClock &clock, Log &log, const sm::UnsolicitedSmp &u) {
    if (u.smp.method != sm::Method::kTrap) return false;
    const auto notice = sm::decode_notice(u.smp);
    if (!notice) {
        log.problem("a trap from LID " + std::to_string(u.slid) +
                    " does not decode: " + notice.error().message());
        return false;
    }
    engine.post({sm::make_trap_repress(u.smp), u.slid, 0}, clock());
    // Trap 128 (a port changed state) calls for a sweep; others (144: a port's capabilities,
    // e.g. this SM's own IsSM) are noted.
    const std::string head =
        "trap " + std::to_string(notice->trap_number) + " from LID " + std::to_string(u.slid);
    if (notice->trap_number != sm::kTrapPortStateChange) {
        log.note(head + " (answered)");
        return false;
    }
    const auto change = sm::decode_port_state_change(*notice);
    log.note(head + ": port state change" +
             (change ? " on the switch with LID " + std::to_string(change->lid)
                     : " (" + change.error().message() + ")") +
             "; sweeping");
    return true;
}

int run(const SmArgs &a) {
    Log log(a.log_file, a.quiet);
    const routing::RoutingOptions ro = rt::routing_options(a.route);
    std::vector<routing::McastGroupSpec> mcast_groups;
    if (!a.route.mcast_groups.empty())
        mcast_groups =
            routing::read_mcast_groups(routing::read_text_file(a.route.mcast_groups), a.route.mcast_groups);
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
    Resident mem;
    mem.mcast_groups = std::move(mcast_groups);
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::optional<sm::DiscoveryResult> &last = mem.last;
    int rc = kOk;
    bool heavy = true;
    for (;;) {
        if (heavy) rc = sweep_once(a, engine, clock, log, ro, mem);
        if (a.once) return rc;
        // Until the next light sweep is due, listen for traps: a port that changed state sends
        // trap 128 to its SM; it is answered (TrapRepress, or the switch repeats it) and the
        // fabric swept at once. Traps that came during the sweep count too.
        const sm::SmTime due = clock() + std::chrono::seconds(a.sweep_seconds);
        bool trapped = false;
        while (!g_stop && !trapped && clock() < due) {
            engine.pump(clock, std::chrono::milliseconds(100));
            while (auto u = engine.next_unsolicited()) trapped |= answer_trap(engine, clock, log, *u);
        }
        if (g_stop) return rc;
        heavy = trapped || !last;
        if (heavy) continue;
        // A light sweep: one SwitchInfo per switch; a heavy sweep only when it finds a change.
        const sm::LightSweepReport lr = sm::light_sweep(engine, clock, *last);
        char line[160];
        std::snprintf(line, sizeof line, "light sweep: %.3f s, %llu SMPs, %zu switches", lr.seconds,
                      static_cast<unsigned long long>(lr.smps.total().sent), lr.switches);
        log.note(std::string(line) + (lr.changed ? "; " + lr.why + ": heavy sweep" : "; no change"));
        heavy = lr.changed;
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
