// What the parts of the command set share: refusing a command, committing a change, small word
// parsers, and each part's list of cmdline instances.
#pragma once

#include <nlohmann/json.hpp>

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
// JSON output: one record per object, rendered by nlohmann::json (keys in insertion order).
using Json = nlohmann::ordered_json;

// Prints "error: why" on one line and the usage of the command being run; counts the error.
void refuse(CommandContext &ctx, struct cmdline *cl, const std::string &why);
// `s` on one line: newlines as blanks, other control characters as '?'.
std::string one_line(const std::string &s);
// `j` on one line.
void print_json(struct cmdline *cl, const Json &j);
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

// ---- matching lines against the command table (line_check.cpp) ----
// Every instance of the command set, null-terminated (the catch-all last).
const InstList &command_table();
// The instance that takes every line no command takes, and explains why.
cmdline_parse_inst_t *catch_all_command();
// A refused line: one line saying what is wrong and where, then the usage of the commands it
// came closest to.
std::string explain_refused(const std::string &line);
// The usage of the commands that take `line` in full ("usage: ..." lines).
std::string usage_of(const std::string &line);
// The usage of every command that starts with `words`; empty when none does.
std::string help_for(const std::string &words);
// The line cmdline is parsing or has just parsed (for the messages of its command).
const std::string &current_line();
// What a token takes, in words ("a number 0..65535", "one of add|del").
std::string describe_token(const cmdline_parse_token_hdr_t *t);
bool is_grammar_token(const cmdline_parse_token_hdr_t *t);

// Each part's commands.
InstList table_commands();           // route, nhg, neigh, lft, mft, sl2vl
InstList route_load_commands();      // route load
InstList route_change_commands();    // route add|del: the lines `route load` takes
InstList show_commands();            // show route|nhg|drops
InstList port_commands();            // port start|stop, set link-up|down, clear port stats
InstList port_stats_commands();      // show port stats
InstList port_info_commands();       // show port info
InstList fwd_config_commands();      // show config fwd
InstList fwd_stats_commands();       // show fwd stats
InstList ars_commands();             // set ars, ars object, lag, acl, nhg add ... ars
InstList ars_show_commands();        // show ars nhg|quality|object|profile|port, show lag, show acl
InstList monitor_commands();         // monitor start|stop|file, show monitor
InstList running_config_commands();  // show running-config, save running-config
InstList version_commands();         // show version
InstList sm_commands();              // sm start|stop, show sm [json|log], show fabric [json]
InstList fabric_commands();          // port <p> fabric on|off, port <p> ip [del] <a>/<len>, show sma
InstList linux_cp_commands();        // show linux-cp [json]
InstList arn_commands();             // arn ..., show arn [json]

// Refuses (true) a hand-made command on NHG `id` when the id is one the fabric's groups take.
bool fabric_nhg_refused(CommandContext &ctx, struct cmdline *cl, std::uint32_t id);
// The running-config lines of the SMA's settings (fabric ports, host addresses).
std::string fabric_running_config(const CommandContext &ctx);

// The running-config lines of the ARN state (after the ARS groups it names).
std::string arn_running_config(const CommandContext &ctx);

// Monitoring of every ARS object on or off (the `monitor` flag of the ARS state), published.
bool set_monitoring(CommandContext &ctx, struct cmdline *cl, bool on);
// Removes the ARS part of NHG `id` (its plain `nhg add ... ports` or `nhg del` replaced it).
void ars_forget_nhg(CommandContext &ctx, std::uint32_t id);

}  // namespace weft::control::cli
