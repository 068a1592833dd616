// The weft command set on DPDK's cmdline library (testpmd's vocabulary where it has one; weft's
// own table, ARS and monitoring commands), shared by the interactive prompt and --cmdline-file.
// Commands that change forwarding state go through the FibBuilder (which refuses bad input
// without changing anything) and publish a new snapshot on success.
#pragma once

#include <cmdline_parse.h>

#include <string>

#include "weft/control/command_context.hpp"

struct cmdline;

namespace weft::control {

// Binds the command set to `ctx` (one context per process) and returns the cmdline context.
cmdline_parse_ctx_t *command_set(CommandContext &ctx);

// Parses and runs one line (blank lines and # comments are skipped). A line that matches no
// command prints why and the usage, counts an error and changes nothing.
bool run_line(CommandContext &ctx, struct cmdline *cl, const std::string &line);

// The usage text `help` prints.
extern const char kUsage[];

// The first ARS configuration (every port with its defaults); call once before the first commit.
void ars_init(CommandContext &ctx);

// Builds and publishes the builder's state; prints (when `cl` is given) and counts a failure.
bool commit(CommandContext &ctx, struct cmdline *cl);

// The text `show port stats` prints (also printed at exit).
void print_port_stats(const CommandContext &ctx, struct cmdline *cl);

// Prints the monitoring events the workers logged since the last call.
void print_monitor_events(CommandContext &ctx, struct cmdline *cl);

}  // namespace weft::control
