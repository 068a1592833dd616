// The FPM server's commands (fpm_commands.cpp), for the command table and the running-config.
#pragma once

#include <string>

#include "cli_internal.hpp"
#include "cmdline_inst.hpp"
#include "weft/control/command_context.hpp"
#include "weft/control/fpm_server.hpp"

namespace weft::control::cli {

InstList fpm_commands();  // fpm listen|stop|port|grace|remote|policy, show fpm
// `show fpm json`'s record (and /weft/fpm's).
Json fpm_record(const FpmServer &s);
// The running-config lines of the FPM server's settings (none without a server).
std::string fpm_running_config(const CommandContext &ctx);

}  // namespace weft::control::cli
