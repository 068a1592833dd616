// The command table, the usage `help` prints, and running one line through cmdline's parser.
#include <cmdline.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "cli_internal.hpp"
#include "fpm_cli.hpp"
#include "weft/control/cli.hpp"

namespace weft::control {

const char kUsage[] =
    "commands:\n"
    "  route add <prefix> nhg <id>            IPv4 or IPv6 prefix -> next-hop group\n"
    "  route del <prefix>\n"
    "  route load <file>                      route add|del lines, applied as one batch (one publication)\n"
    "  nhg add <id> ports <m> [<m> ...]       hash ECMP; member m: <port> or <port>@<neighbour-ip>,\n"
    "                                         either with *<weight> (1..255): its share of the flows\n"
    "  nhg add <id> ars <obj>|none primary <m>[,<m>...] [alternate <m>[,<m>...]] [cost <c>] [bias <b>]\n"
    "          [threshold <t>]                ARS group; m: <port> or lag<id>; MACs from the ports' "
    "neighbours\n"
    "  nhg del <id>\n"
    "  neigh add <ip> <mac> port <p>          next-hop IP -> MAC on port\n"
    "  neigh del <ip>\n"
    "  lft set <lid> port <p> | lft set <lid> nhg <id> | lft del <lid>\n"
    "  mft set <mlid> ports <p> [<p> ...]     multicast LID 0xC000..0xFFFE -> ports\n"
    "  mft del <mlid>\n"
    "  sl2vl set port <p> sl <sl> vl <vl>\n"
    "  set ars profile sampling-interval|seed|past-weight|future-weight|ewma-exponent <n>\n"
    "  set ars profile past-load|future-load|current-load on|off\n"
    "  set ars profile band <0..7> <min-mbps> <max-mbps>\n"
    "  set ars port <p> enable|disable|speed <G>|scale <tenths>|weights <past%> <future%>\n"
    "  ars object add <id> mode flowlet-quality|flowlet-random|per-packet-quality|per-packet-random|fixed\n"
    "          idle-time <us> max-flows <n> [monitor on|off]\n"
    "  ars object del <id>\n"
    "  lag add <id> ports <p>[,<p>...] [ars <obj>] | lag del <id>\n"
    "  acl add <prio> [ethertype <x>] [ip-version 4|6] [proto <n>] [sport <a>[-<b>]] [dport <a>[-<b>]]\n"
    "          [dscp <d>[,<d>...]] action disable-ars|set-ars <obj>|monitor on|off ...\n"
    "  acl clear\n"
    "  monitor start [file <path>] | monitor stop   report every ARS path reassignment; file: a pcapng\n"
    "          record of each reassigned packet, its interface the egress port\n"
    "  monitor file <path>|off                pcapng capture of what ARS objects and ACL rules monitor\n"
    "  show port stats [json] | show route [json] | show nhg [json] | show drops [json]\n"
    "  show neigh [json] | show lft [json] | show mft [json] | show sl2vl [json]\n"
    "  show port info <p>|all [json] | show config fwd [json] | show fwd stats [json]\n"
    "  show ars nhg <id>|all [json] | show ars quality [json] | show monitor [json]\n"
    "  show ars object [json] | show ars profile [json] | show ars port [json]\n"
    "  show lag [json] | show acl [json]\n"
    "  show running-config                    the commands that rebuild this state\n"
    "  save running-config <file>             writes them to a file (for --cmdline-file)\n"
    "  show version [json]\n"
    "  sm start|stop                          the SM inside this switch (weft -- --sm starts it with weft)\n"
    "  show sm [json] | show sm log           its state, last sweep phase by phase, what it logged\n"
    "  show fabric [json]                     switches, CAs, LIDs and links as its last sweep found them\n"
    "  show fib capacity [json]               routes and tbl8 groups in use, of what --fib4/6-* allow\n"
    "  clear port stats <p>|all               zero what show port stats shows (all: totals, drops too)\n"
    "  clear nhg stats <id>|all               zero what show nhg and show ars nhg count for the group\n"
    "  port start|stop <p>|all\n"
    "  port <p> fabric on|off                 take SMPs on the port (a port between switches)\n"
    "  port <p> ip [del] <addr>/<len>         a host port's subnet (IPv4 or IPv6), announced to the SM;\n"
    "                                         the first turns Ethernet/RoCE mode on\n"
    "  show sma [json]                        the switch's SMA: LID, ports, SMPs in and out, drops by "
    "reason\n"
    "  show linux-cp [json]                   the kernel mirror (--linux-cp): interfaces, frames to and "
    "from\n"
    "                                         the kernel, neighbours learned, drops by reason\n"
    "  set link-up|link-down port <p>\n"
    "  fpm listen <addr> <port> | fpm stop    the FPM server FRR's zebra connects to (dplane_fpm_nl)\n"
    "  fpm port <ifname> <p> | fpm port del <ifname>   zebra's interface <ifname> is weft port <p>\n"
    "  fpm grace <s>                          a reconnected zebra's time to replay (then stale routes go)\n"
    "  fpm remote allow|deny                  connections from non-loopback addresses (default deny)\n"
    "  show fpm [json]                        connection, messages, errors, pending routes, last commit\n"
    "  help [<command>] | quit                help nhg: the usage of every nhg command\n";

namespace cli {

void refuse(CommandContext &ctx, struct cmdline *cl, const std::string &why) {
    ++ctx.errors;
    if (ctx.batch_refusal != nullptr) {
        *ctx.batch_refusal = why;
        return;
    }
    cmdline_printf(cl, "error: %s\n%s", one_line(why).c_str(), usage_of(current_line()).c_str());
}

std::string one_line(const std::string &s) {
    std::string out;
    for (const char c : s)
        out += c == '\n' ? ' ' : static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return out;
}

void print_json(struct cmdline *cl, const Json &j) {
    // Bytes that are not UTF-8 (a file name) become U+FFFD rather than an exception.
    cmdline_printf(cl, "%s\n", j.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
}

bool bad(CommandContext &ctx, struct cmdline *cl, const std::string &why) {
    refuse(ctx, cl, why);
    return false;
}

bool apply(CommandContext &ctx, struct cmdline *cl, const dataplane::Status &s) {
    if (!s.ok()) return bad(ctx, cl, s.message());
    return ctx.batch_refusal != nullptr || commit(ctx, cl);  // a batch publishes once, at its end
}

Words words(const char *text) {
    std::istringstream in(text);
    Words out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

Words words_after(Words head, const char *rest) {
    for (std::string &w : words(rest)) head.push_back(std::move(w));
    return head;
}

std::optional<std::uint64_t> number(const std::string &s, std::uint64_t max) {
    const auto v = parse_number(s);
    if (!v || *v > max) return std::nullopt;
    return v;
}

std::optional<std::uint16_t> port_arg(const CommandContext &ctx, const std::string &s) {
    const auto v = number(s, 0xFFFF);
    if (!v || *v >= ctx.dp->num_ports()) return std::nullopt;
    return static_cast<std::uint16_t>(*v);
}

std::optional<std::vector<std::uint16_t>> ports_arg(const CommandContext &ctx, const std::string &s) {
    std::vector<std::uint16_t> ports;
    if (s == "all") {
        for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) ports.push_back(p);
        return ports;
    }
    const auto p = port_arg(ctx, s);
    if (!p) return std::nullopt;
    ports.push_back(*p);
    return ports;
}

namespace {

// ---- quit, help [<command>] ----
struct WordCmd {
    cmdline_fixed_string_t word;
    cmdline_multi_string_t rest;
};
WEFT_TOK_STR(WordCmd, word, "quit#exit");
static cmdline_parse_token_string_t WordCmd_help = TOKEN_STRING_INITIALIZER(WordCmd, word, "help");
WEFT_TOK_STR(WordCmd, rest, TOKEN_STRING_MULTI);
void quit_cmd(void *, struct cmdline *cl, void *data) {
    context_of(data).quit = true;
    cmdline_quit(cl);
}
void help_cmd(void *, struct cmdline *cl, void *) {
    cmdline_printf(cl, "%s", kUsage);
}
void help_command_cmd(void *res, struct cmdline *cl, void *data) {
    const std::string words = static_cast<WordCmd *>(res)->rest;
    const std::string usage = help_for(words);
    if (usage.empty())
        return refuse(context_of(data), cl, "no command starts with \"" + one_line(words) + "\"");
    cmdline_printf(cl, "%s", usage.c_str());
}
Inst<1> inst_quit{quit_cmd, nullptr, "quit", {WEFT_HDR(WordCmd_word), nullptr}};
Inst<1> inst_help{help_cmd, nullptr, "help", {WEFT_HDR(WordCmd_help), nullptr}};
Inst<2> inst_help_command{help_command_cmd,
                          nullptr,
                          "help <command words>: the usage of the commands that start with them",
                          {WEFT_HDR(WordCmd_help), WEFT_HDR(WordCmd_rest), nullptr}};

}  // namespace
}  // namespace cli

namespace cli {

const InstList &command_table() {
    // Built once: cmdline keeps the pointer, and the instances are static.
    static const InstList table = [] {
        InstList all;
        for (InstList part : {table_commands(), route_load_commands(), show_commands(), port_commands(),
                              port_stats_commands(), port_info_commands(), fwd_config_commands(),
                              fwd_stats_commands(), ars_commands(), ars_show_commands(), monitor_commands(),
                              running_config_commands(), version_commands(), fabric_commands(), sm_commands(),
                              fpm_commands(), linux_cp_commands(), arn_commands()})
            all.insert(all.end(), part.begin(), part.end());
        all.push_back(as_inst(inst_quit));
        all.push_back(as_inst(inst_help));
        all.push_back(as_inst(inst_help_command));
        all.push_back(catch_all_command());  // last: it takes only what no other command takes
        all.push_back(nullptr);
        return all;
    }();
    return table;
}

}  // namespace cli

cmdline_parse_ctx_t *command_set(CommandContext &ctx) {
    const cli::InstList &table = cli::command_table();
    for (cmdline_parse_inst_t *inst : table)
        if (inst != nullptr) inst->data = &ctx;
    return const_cast<cmdline_parse_ctx_t *>(table.data());
}

bool run_line(CommandContext &ctx, struct cmdline *cl, const std::string &line) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') return true;
    // cmdline_parse expects a whole input line, newline included.
    // A line no command takes runs the catch-all, which explains it and counts it; only an
    // ambiguous line comes back refused.
    const unsigned errors = ctx.errors;
    const int rc = cmdline_parse(cl, (line + "\n").c_str());
    if (rc >= 0) return ctx.errors == errors;  // the length parsed; the command may have refused
    ++ctx.errors;
    cmdline_printf(cl, "%s", cli::explain_refused(line).c_str());
    return false;
}

bool commit(CommandContext &ctx, struct cmdline *cl) {
    try {
        ctx.fib->commit(ctx.dp->publisher());
        return true;
    } catch (const std::exception &e) {
        ++ctx.errors;
        if (cl != nullptr) cmdline_printf(cl, "error: cannot publish tables: %s\n", e.what());
        return false;
    }
}

}  // namespace weft::control
