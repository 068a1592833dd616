// The FPM server's commands (fpm_commands.cpp), for the command table and the running-config.
#pragma once

#include <string>

#include "cmdline_inst.hpp"
#include "weft/control/command_context.hpp"

namespace weft::control::cli {

InstList fpm_commands();  // fpm listen|stop|port|grace|remote, show fpm
// The running-config lines of the FPM server's settings (none without a server).
std::string fpm_running_config(const CommandContext &ctx);

}  // namespace weft::control::cli
