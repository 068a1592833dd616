// The weft command set on DPDK's cmdline library, shared by the interactive prompt and
// --cmdline-file. Commands that change forwarding state go through the FibBuilder (which refuses
// bad input without changing anything) and publish a new snapshot on success.
#pragma once

#include <cmdline_parse.h>

#include <string>

#include "ars_cli.hpp"
#include "weft/dataplane/ars_sampler.hpp"
#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/fib_builder.hpp"

namespace weft::app {

struct CommandContext {
    dataplane::Dataplane *dp = nullptr;
    dataplane::FibBuilder *fib = nullptr;
    dataplane::ArsSampler *sampler = nullptr;
    ArsState ars;                                           // accepted ARS state
    std::shared_ptr<const ars::Config> ars_config;          // built from `ars`, published with the FIB
    std::vector<std::unique_ptr<MonitorLog>> monitor_logs;  // one per worker
    ars::Ticks ticks_per_us = 1;
    bool quit = false;
    unsigned errors = 0;  // commands refused since start
};

// Binds the command set to `ctx` (one context per process) and returns the cmdline context.
cmdline_parse_ctx_t *command_set(CommandContext &ctx);

// Parses and runs one line (blank lines and # comments are skipped). A line that matches no
// command prints why and the usage, counts an error and changes nothing.
bool run_line(CommandContext &ctx, struct cmdline *cl, const std::string &line);

// The usage text `help` prints.
extern const char kUsage[];

// Prints "error: why" and the usage; counts the error.
void refuse(struct cmdline *cl, const std::string &why);

// Builds and publishes the builder's state; prints and counts a failure.
bool commit(CommandContext &ctx, struct cmdline *cl);

// The text `show port stats` prints (also printed at exit).
void print_port_stats(const CommandContext &ctx, struct cmdline *cl);

}  // namespace weft::app
