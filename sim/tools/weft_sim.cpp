// weft-sim: runs a scenario file (sim/scenarios/README.md) and prints its summary; per-flow CSV
// and a JSON summary on request. Exit status: 0 done, 2 refused scenario or usage, 1 other errors.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "weft/routing/parse_error.hpp"
#include "weft/sim/results.hpp"
#include "weft/sim/scenario.hpp"
#include "weft/sim/simulator.hpp"

namespace {

constexpr const char *kUsage =
    "usage: weft-sim [options] SCENARIO\n"
    "  --set SECTION.KEY=VALUE  override a setting (workload.* and failure.* set every such section)\n"
    "  --flows FILE             write one CSV line per flow\n"
    "  --links FILE             write one CSV line per link direction\n"
    "  --summary FILE           write the summary as JSON\n"
    "  --quiet                  no summary on stdout\n"
    "  --progress | --no-progress   a progress line on stderr (default: when stderr is a terminal)\n"
    "  --check                  read the scenario and build the fabric, do not run\n";

struct Args {
    std::string scenario;
    std::vector<std::string> sets;
    std::string flows, summary, links;
    bool quiet = false, check = false;
    int progress = -1;  // -1: when stderr is a terminal
};

bool parse_args(int argc, char **argv, Args &a) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](std::string &out) {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            out = argv[++i];
        };
        if (arg == "--set") {
            std::string v;
            value(v);
            a.sets.push_back(v);
        } else if (arg == "--flows") {
            value(a.flows);
        } else if (arg == "--links") {
            value(a.links);
        } else if (arg == "--summary") {
            value(a.summary);
        } else if (arg == "--quiet") {
            a.quiet = true;
        } else if (arg == "--progress") {
            a.progress = 1;
        } else if (arg == "--no-progress") {
            a.progress = 0;
        } else if (arg == "--check") {
            a.check = true;
        } else if (arg == "-h" || arg == "--help") {
            std::fputs(kUsage, stdout);
            return false;
        } else if (!arg.empty() && arg.front() == '-') {
            throw std::invalid_argument("unknown option " + arg);
        } else if (a.scenario.empty()) {
            a.scenario = arg;
        } else {
            throw std::invalid_argument("one scenario only (" + a.scenario + ", " + arg + ")");
        }
    }
    if (a.scenario.empty()) throw std::invalid_argument("no scenario given");
    return true;
}

void show_progress(const weft::sim::Simulator::Progress &p, bool tty) {
    std::fprintf(stderr,
                 "%sweft-sim: %9.3f / %.3f ms simulated, %6.1f M events (%5.2f M/s), flows %llu done of %llu "
                 "started, %.1f s%s",
                 tty ? "\r" : "", static_cast<double>(p.now) / 1e9, static_cast<double>(p.stop) / 1e9,
                 static_cast<double>(p.events) / 1e6,
                 p.wall_seconds > 0 ? static_cast<double>(p.events) / p.wall_seconds / 1e6 : 0.0,
                 static_cast<unsigned long long>(p.flows_done),
                 static_cast<unsigned long long>(p.flows_started), p.wall_seconds, tty ? "" : "\n");
    std::fflush(stderr);
}

}  // namespace

int main(int argc, char **argv) {
    Args a;
    try {
        if (!parse_args(argc, argv, a)) return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "weft-sim: %s\n%s", e.what(), kUsage);
        return 2;
    }
    try {
        weft::sim::Scenario s = weft::sim::read_scenario_file(a.scenario);
        for (const std::string &set : a.sets) weft::sim::apply_override(s, set, "--set " + set);
        weft::sim::Simulator sim(s);
        const bool tty = isatty(STDERR_FILENO) != 0;
        if (a.check) {
            std::printf("%s: %s\n", s.file.c_str(), sim.describe().c_str());
            return 0;
        }
        const bool progress = a.progress == 1 || (a.progress == -1 && tty);
        const weft::sim::Results r =
            progress ? sim.run([tty](const weft::sim::Simulator::Progress &p) { show_progress(p, tty); })
                     : sim.run();
        if (progress && tty) std::fputc('\n', stderr);
        const weft::sim::Summary sum = weft::sim::summarize(r);
        if (!a.quiet) weft::sim::write_summary_text(std::cout, s, r, sum);
        if (!a.links.empty()) {
            std::ofstream out(a.links);
            weft::sim::write_links_csv(out, r);
            if (!out.flush()) throw std::runtime_error("cannot write " + a.links);
        }
        if (!a.flows.empty()) {
            std::ofstream out(a.flows);
            weft::sim::write_flows_csv(out, r);
            if (!out.flush()) throw std::runtime_error("cannot write " + a.flows);
        }
        if (!a.summary.empty()) {
            std::ofstream out(a.summary);
            weft::sim::write_summary_json(out, s, r, sum);
            if (!out.flush()) throw std::runtime_error("cannot write " + a.summary);
        }
        return 0;
    } catch (const weft::routing::ParseError &e) {
        std::fprintf(stderr, "weft-sim: %s\n", e.what());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "weft-sim: %s\n", e.what());
        return 1;
    }
}
