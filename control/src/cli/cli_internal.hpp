// What the parts of the command set share: refusing a command, committing a change, small word
// parsers, and each part's list of cmdline instances.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cmdline_inst.hpp"
#include "weft/control/command_context.hpp"
#include "weft/dataplane/status.hpp"

struct cmdline;

namespace weft::control::cli {

using Words = std::vector<std::string>;

// Prints "error: why" and the usage; counts the error.
void refuse(CommandContext &ctx, struct cmdline *cl, const std::string &why);
// refuse() for code that answers with a bool.
bool bad(CommandContext &ctx, struct cmdline *cl, const std::string &why);
// A FibBuilder result: refused, or committed (built and published).
bool apply(CommandContext &ctx, struct cmdline *cl, const dataplane::Status &s);

// `text` split on blanks.
Words words(const char *text);
// Words of a multi-string token appended to `head`.
Words words_after(Words head, const char *rest);
// A number (decimal, or hexadecimal with 0x) no larger than `max`; nothing for signs or junk.
std::optional<std::uint64_t> number(const std::string &s, std::uint64_t max);
// A port number below the dataplane's port count.
std::optional<std::uint16_t> port_arg(const CommandContext &ctx, const std::string &s);
// "all" or one port number: the ports it names, or nothing when it names none.
std::optional<std::vector<std::uint16_t>> ports_arg(const CommandContext &ctx, const std::string &s);

inline unsigned long long ull(std::uint64_t v) {
    return static_cast<unsigned long long>(v);
}

// Each part's commands.
InstList table_commands();       // route, nhg, neigh, lft, mft, sl2vl
InstList show_commands();        // show route|nhg|drops
InstList port_commands();        // port start|stop, set link-up|down, show port stats, clear port stats
InstList port_info_commands();   // show port info
InstList fwd_config_commands();  // show config fwd
InstList fwd_stats_commands();   // show fwd stats
InstList ars_commands();         // set ars, ars object, lag, acl, nhg add ... ars, show ars
InstList monitor_commands();     // monitor start|stop|file, show monitor

// The ARS words of a command line (ARS configuration, monitoring, show ars).
bool ars_command(CommandContext &ctx, struct cmdline *cl, const Words &w);
// Monitoring of every ARS object on or off (the `monitor` flag of the ARS state), published.
bool set_monitoring(CommandContext &ctx, struct cmdline *cl, bool on);
// show ars nhg <id> [json] | show ars quality [json]; `w` starts with "show ars".
bool show_ars(CommandContext &ctx, struct cmdline *cl, const Words &w);
// Removes the ARS part of NHG `id` (its plain `nhg add ... ports` or `nhg del` replaced it).
void ars_forget_nhg(CommandContext &ctx, std::uint32_t id);

}  // namespace weft::control::cli
