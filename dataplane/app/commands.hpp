// The weft command set on DPDK's cmdline library, shared by the interactive prompt and
// --cmdline-file. Commands that change forwarding state go through the FibBuilder (which refuses
// bad input without changing anything) and publish a new snapshot on success.
#pragma once

#include <cmdline_parse.h>

#include <string>

#include "weft/dataplane/dataplane.hpp"
#include "weft/dataplane/fib_builder.hpp"

namespace weft::app {

struct CommandContext {
    dataplane::Dataplane *dp = nullptr;
    dataplane::FibBuilder *fib = nullptr;
    bool quit = false;
    unsigned errors = 0;  // commands refused since start
};

// Binds the command set to `ctx` (one context per process) and returns the cmdline context.
cmdline_parse_ctx_t *command_set(CommandContext &ctx);

// Parses and runs one line (blank lines and # comments are skipped). A line that matches no
// command prints why and the usage, counts an error and changes nothing.
bool run_line(CommandContext &ctx, struct cmdline *cl, const std::string &line);

// Builds and publishes the builder's state; prints and counts a failure.
bool commit(CommandContext &ctx, struct cmdline *cl);

// The text `show port stats` prints (also printed at exit).
void print_port_stats(const CommandContext &ctx, struct cmdline *cl);

}  // namespace weft::app
