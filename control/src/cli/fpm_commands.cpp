// The FPM server's commands: fpm listen <addr> <port> | fpm stop | fpm port <ifname> <p> |
// fpm port del <ifname> | fpm grace <s> | fpm remote allow|deny | fpm policy off |
// fpm policy tables|weights [...] | show fpm [json].
#include <cmdline.h>

#include <map>
#include <sstream>

#include "cli_internal.hpp"
#include "fpm_cli.hpp"
#include "fpm_counters.hpp"
#include "fpm_rib.hpp"
#include "grammar.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/control/fib/dragonfly_groups.hpp"
#include "weft/control/fpm_server.hpp"
#include "weft/control/input_line.hpp"

namespace weft::control {

namespace cli {

namespace {

FpmServer *server(CommandContext &ctx, struct cmdline *cl) {
    FpmServer *s = ctx.fpm;
    if (s == nullptr) refuse(ctx, cl, "this weft has no FPM server");
    return s;
}

// ---- fpm listen <addr> <port> | fpm stop ----
struct FpmListenCmd {
    cmdline_fixed_string_t fpm, listen, addr;
    uint16_t port;
};
WEFT_TOK_STR(FpmListenCmd, fpm, "fpm");
WEFT_TOK_STR(FpmListenCmd, listen, "listen");
WEFT_TOK_STR(FpmListenCmd, addr, nullptr);
WEFT_TOK_NUM(FpmListenCmd, port, RTE_UINT16);
void fpm_listen(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<FpmListenCmd *>(res);
    FpmServer *s = server(ctx, cl);
    if (s == nullptr) return;
    if (const dataplane::Status st = s->listen(r->addr, r->port); !st.ok())
        return refuse(ctx, cl, st.message());
    cmdline_printf(cl, "fpm: listening on %s port %u\n", s->config().address.c_str(), s->config().port);
}
Inst<4> inst_fpm_listen{fpm_listen,
                        nullptr,
                        "fpm listen <addr> <port>",
                        {WEFT_HDR(FpmListenCmd_fpm), WEFT_HDR(FpmListenCmd_listen),
                         WEFT_HDR(FpmListenCmd_addr), WEFT_HDR(FpmListenCmd_port), nullptr}};

struct FpmWordCmd {
    cmdline_fixed_string_t fpm, word;
};
WEFT_TOK_STR(FpmWordCmd, fpm, "fpm");
WEFT_TOK_STR(FpmWordCmd, word, "stop");
void fpm_stop(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (FpmServer *s = server(ctx, cl)) {
        s->stop();
        cmdline_printf(cl, "fpm: stopped (routes kept until a zebra replays them)\n");
    }
}
Inst<2> inst_fpm_stop{
    fpm_stop, nullptr, "fpm stop", {WEFT_HDR(FpmWordCmd_fpm), WEFT_HDR(FpmWordCmd_word), nullptr}};

// ---- fpm port <ifname> <p> | fpm port del <ifname> ----
struct FpmPortCmd {
    cmdline_fixed_string_t fpm, port_kw, ifname;
    uint16_t port;
};
WEFT_TOK_STR(FpmPortCmd, fpm, "fpm");
WEFT_TOK_STR(FpmPortCmd, port_kw, "port");
WEFT_TOK_STR(FpmPortCmd, ifname, nullptr);
WEFT_TOK_NUM(FpmPortCmd, port, RTE_UINT16);
void fpm_port(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    auto *r = static_cast<FpmPortCmd *>(res);
    FpmServer *s = server(ctx, cl);
    if (s == nullptr) return;
    const auto port = port_arg(ctx, std::to_string(r->port));
    if (!port) return refuse(ctx, cl, "no port " + std::to_string(r->port));
    const std::string name = r->ifname;
    if (name.empty() || name.size() >= 16) return refuse(ctx, cl, "bad interface name " + printable(name));
    s->map_port(name, *port);
}
Inst<4> inst_fpm_port{fpm_port,
                      nullptr,
                      "fpm port <ifname> <p>: zebra's interface <ifname> is weft port <p>",
                      {WEFT_HDR(FpmPortCmd_fpm), WEFT_HDR(FpmPortCmd_port_kw), WEFT_HDR(FpmPortCmd_ifname),
                       WEFT_HDR(FpmPortCmd_port), nullptr}};

struct FpmPortDelCmd {
    cmdline_fixed_string_t fpm, port_kw, del, ifname;
};
WEFT_TOK_STR(FpmPortDelCmd, fpm, "fpm");
WEFT_TOK_STR(FpmPortDelCmd, port_kw, "port");
WEFT_TOK_STR(FpmPortDelCmd, del, "del");
WEFT_TOK_STR(FpmPortDelCmd, ifname, nullptr);
void fpm_port_del(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string name = static_cast<FpmPortDelCmd *>(res)->ifname;
    FpmServer *s = server(ctx, cl);
    if (s == nullptr) return;
    if (!s->port_map().contains(name)) return refuse(ctx, cl, "no fpm port " + printable(name));
    s->map_port(name, std::nullopt);
}
Inst<4> inst_fpm_port_del{fpm_port_del,
                          nullptr,
                          "fpm port del <ifname>",
                          {WEFT_HDR(FpmPortDelCmd_fpm), WEFT_HDR(FpmPortDelCmd_port_kw),
                           WEFT_HDR(FpmPortDelCmd_del), WEFT_HDR(FpmPortDelCmd_ifname), nullptr}};

// ---- fpm grace <s> | fpm remote allow|deny ----
struct FpmGraceCmd {
    cmdline_fixed_string_t fpm, grace;
    uint32_t seconds;
};
WEFT_TOK_STR(FpmGraceCmd, fpm, "fpm");
WEFT_TOK_STR(FpmGraceCmd, grace, "grace");
WEFT_TOK_NUM(FpmGraceCmd, seconds, RTE_UINT32);
void fpm_grace(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::uint32_t seconds = static_cast<FpmGraceCmd *>(res)->seconds;
    FpmServer *s = server(ctx, cl);
    if (s == nullptr) return;
    if (seconds == 0 || seconds > kMaxFpmGraceSeconds)
        return refuse(ctx, cl, "grace: 1.." + std::to_string(kMaxFpmGraceSeconds) + " seconds");
    s->set_grace(std::chrono::seconds(seconds));
}
Inst<3> inst_fpm_grace{
    fpm_grace,
    nullptr,
    "fpm grace <seconds>: how long a reconnected zebra has to replay its routes",
    {WEFT_HDR(FpmGraceCmd_fpm), WEFT_HDR(FpmGraceCmd_grace), WEFT_HDR(FpmGraceCmd_seconds), nullptr}};

struct FpmRemoteCmd {
    cmdline_fixed_string_t fpm, remote, how;
};
WEFT_TOK_STR(FpmRemoteCmd, fpm, "fpm");
WEFT_TOK_STR(FpmRemoteCmd, remote, "remote");
WEFT_TOK_STR(FpmRemoteCmd, how, "allow#deny");
void fpm_remote(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (FpmServer *s = server(ctx, cl))
        s->set_allow_remote(std::string(static_cast<FpmRemoteCmd *>(res)->how) == "allow");
}
Inst<3> inst_fpm_remote{
    fpm_remote,
    nullptr,
    "fpm remote allow|deny: take connections from non-loopback addresses",
    {WEFT_HDR(FpmRemoteCmd_fpm), WEFT_HDR(FpmRemoteCmd_remote), WEFT_HDR(FpmRemoteCmd_how), nullptr}};

// ---- fpm policy off | fpm policy tables|weights [primary-table t] [alternate-table t]
// [primary-weight w] [object o] [threshold t] [cost c] [bias b] [max-alternates n]
// [ecmp-without-alternates] ----
struct FpmPolicyCmd {
    GrammarSeen seen;
    cmdline_fixed_string_t fpm, policy, source;
    uint32_t primary_table, alternate_table, primary_weight, object, threshold, cost, bias, max_alternates;
};
WEFT_TOK_STR(FpmPolicyCmd, fpm, "fpm");
WEFT_TOK_STR(FpmPolicyCmd, policy, "policy");
WEFT_TOK_STR(FpmPolicyCmd, source, "tables#weights");
WEFT_TOK_NUM(FpmPolicyCmd, primary_table, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, alternate_table, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, primary_weight, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, object, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, threshold, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, cost, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, bias, RTE_UINT32);
WEFT_TOK_NUM(FpmPolicyCmd, max_alternates, RTE_UINT32);
static cmdline_parse_token_string_t FpmPolicyCmd_off = TOKEN_STRING_INITIALIZER(FpmPolicyCmd, source, "off");

void fpm_policy(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<FpmPolicyCmd *>(res);
    FpmServer *s = server(ctx, cl);
    if (s == nullptr) return;
    fib::DragonflyPolicy p;
    p.source = std::string(r->source) == "weights" ? fib::DragonflyPolicy::Source::Weights
                                                   : fib::DragonflyPolicy::Source::Tables;
    const bool tables = p.source == fib::DragonflyPolicy::Source::Tables;
    if (r->seen.has(0)) p.primary_table = r->primary_table;
    if (r->seen.has(1)) {
        if (!tables) return refuse(ctx, cl, "alternate-table: the weights policy reads one table");
        p.alternate_table = r->alternate_table;
    }
    if (r->seen.has(2)) {
        if (tables) return refuse(ctx, cl, "primary-weight: the tables policy has no weights");
        if (r->primary_weight < 1 || r->primary_weight > dataplane::kMaxNhgWeight)
            return refuse(ctx, cl, "primary-weight: 1.." + std::to_string(dataplane::kMaxNhgWeight));
        p.primary_weight_min = static_cast<std::uint16_t>(r->primary_weight);
    }
    if (r->seen.has(3)) {
        if (r->object == 0 || r->object >= ars::Capabilities{}.max_ars_objects)
            return refuse(ctx, cl, "object: 1.." + std::to_string(ars::Capabilities{}.max_ars_objects - 1));
        p.ars_object = static_cast<std::uint16_t>(r->object);
    }
    if (r->seen.has(4)) p.path.primary_quality_threshold = r->threshold;
    if (r->seen.has(5)) p.path.alternate_cost = r->cost;
    if (r->seen.has(6)) p.path.alternate_bias = r->bias;
    if (r->seen.has(7)) {
        if (r->max_alternates > ars::Capabilities{}.max_alternate_members)
            return refuse(ctx, cl,
                          "max-alternates: 0.." + std::to_string(ars::Capabilities{}.max_alternate_members));
        p.max_alternates = r->max_alternates;
    }
    p.ecmp_without_alternates = r->seen.has(8);
    if (tables && p.primary_table == p.alternate_table)
        return refuse(ctx, cl, "the primary and alternate tables are one table");
    s->set_policy(p);
}
void fpm_policy_dispatch(void *a, struct cmdline *cl, void *b);
Grammar fpm_policy_grammar(
    "fpm policy tables|weights [primary-table <t>] [alternate-table <t>] [primary-weight <w>] "
    "[object <o>] [threshold <t>] [cost <c>] [bias <b>] [max-alternates <n>] "
    "[ecmp-without-alternates]: zebra's routes as ARS primaries and alternates",
    {WEFT_HDR(FpmPolicyCmd_fpm), WEFT_HDR(FpmPolicyCmd_policy), WEFT_HDR(FpmPolicyCmd_source)},
    {{nullptr,
      {{"primary-table", WEFT_HDR(FpmPolicyCmd_primary_table)},
       {"alternate-table", WEFT_HDR(FpmPolicyCmd_alternate_table)},
       {"primary-weight", WEFT_HDR(FpmPolicyCmd_primary_weight)},
       {"object", WEFT_HDR(FpmPolicyCmd_object)},
       {"threshold", WEFT_HDR(FpmPolicyCmd_threshold)},
       {"cost", WEFT_HDR(FpmPolicyCmd_cost)},
       {"bias", WEFT_HDR(FpmPolicyCmd_bias)},
       {"max-alternates", WEFT_HDR(FpmPolicyCmd_max_alternates)},
       {"ecmp-without-alternates", nullptr}},
      0}},
    fpm_policy, fpm_policy_dispatch);
void fpm_policy_dispatch(void *a, struct cmdline *cl, void *b) {
    fpm_policy_grammar.on_callback(a, cl, b);
}

void fpm_policy_off(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    if (FpmServer *s = server(ctx, cl)) s->set_policy(std::nullopt);
}
Inst<3> inst_fpm_policy_off{
    fpm_policy_off,
    nullptr,
    "fpm policy off: zebra's main-table routes as they are",
    {WEFT_HDR(FpmPolicyCmd_fpm), WEFT_HDR(FpmPolicyCmd_policy), WEFT_HDR(FpmPolicyCmd_off), nullptr}};

// The policy's settings as the words of `fpm policy` (the running-config's line, less its head).
std::string policy_words(const fib::DragonflyPolicy &p) {
    std::ostringstream out;
    const bool tables = p.source == fib::DragonflyPolicy::Source::Tables;
    out << (tables ? "tables" : "weights") << " primary-table " << p.primary_table;
    if (tables) out << " alternate-table " << p.alternate_table;
    if (!tables) out << " primary-weight " << p.primary_weight_min;
    out << " object " << p.ars_object << " threshold " << p.path.primary_quality_threshold << " cost "
        << p.path.alternate_cost << " bias " << p.path.alternate_bias << " max-alternates "
        << p.max_alternates;
    if (p.ecmp_without_alternates) out << " ecmp-without-alternates";
    return out.str();
}

Json policy_record(const fib::DragonflyGroups *g) {
    if (g == nullptr) return Json(nullptr);
    const fib::DragonflyPolicy &p = g->policy();
    const bool tables = p.source == fib::DragonflyPolicy::Source::Tables;
    Json j;
    j["source"] = tables ? "tables" : "weights";
    j["primary_table"] = p.primary_table;
    j["alternate_table"] = tables ? Json(p.alternate_table) : Json(nullptr);
    j["primary_weight_min"] = tables ? Json(nullptr) : Json(p.primary_weight_min);
    j["ars_object"] = p.ars_object;
    j["threshold"] = p.path.primary_quality_threshold;
    j["cost"] = p.path.alternate_cost;
    j["bias"] = p.path.alternate_bias;
    j["max_alternates"] = p.max_alternates;
    j["ecmp_without_alternates"] = p.ecmp_without_alternates;
    j["prefixes"] = g->prefixes();
    j["groups"] = g->groups();
    j["refused_prefixes"] = g->refused();
    const fib::PolicyCounters &c = g->counters();
    j["groups_made"] = c.groups_made;
    j["groups_changed_in_place"] = c.groups_changed_in_place;
    j["groups_freed"] = c.groups_freed;
    j["prefixes_moved"] = c.prefixes_moved;
    j["refusals"] = c.refusals;
    j["last_refusal"] = c.last_refusal;
    return j;
}

}  // namespace

// ---- show fpm [json] ----
Json fpm_record(const FpmServer &s) {
    const fpm::ServerCounters &c = s.counters();
    const fpm::Rib &rib = s.rib();
    Json j;
    j["state"] = s.connected() ? "connected" : s.listening() ? "listening" : "stopped";
    j["address"] = s.config().address;
    j["port"] = s.config().port;
    j["peer"] = s.connected() ? Json(s.peer()) : Json(nullptr);
    j["allow_remote"] = s.config().allow_remote;
    j["kernel_routes"] = s.config().kernel_routes;
    j["grace_s"] = s.config().grace.count();
    j["connections"] = c.connections;
    j["refused_connections"] = c.refused_connections;
    j["disconnects"] = c.disconnects;
    j["last_disconnect"] = c.last_disconnect;
    j["frames"] = c.frames;
    j["bytes"] = c.bytes;
    Json msgs;
    for (std::size_t k = 0; k < c.messages.size(); ++k)
        msgs[std::string(fpm::msg_kind_name(static_cast<fpm::MsgKind>(k)))] = c.messages[k];
    j["messages"] = msgs;
    Json errors;
    for (std::size_t k = 0; k < c.errors.size(); ++k)
        errors[std::string(fpm::error_name(static_cast<fpm::Error>(k)))] = c.errors[k];
    errors["truncated_at_close"] = c.truncated_at_close;
    j["errors"] = errors;
    Json ignored;
    for (std::size_t k = 0; k < c.ignored.size(); ++k)
        ignored[std::string(fpm::ignored_name(static_cast<fpm::Ignored>(k)))] = c.ignored[k];
    j["ignored"] = ignored;
    j["routes"] = rib.routes();
    j["installed"] = rib.installed();
    Json held;
    for (std::size_t k = 1; k < static_cast<std::size_t>(fpm::Hold::kCount); ++k)
        held[std::string(fpm::hold_name(static_cast<fpm::Hold>(k)))] = rib.held(static_cast<fpm::Hold>(k));
    j["pending"] = held;
    j["pending_total"] = rib.held_total();
    j["partial"] = rib.partial();  // installed, some next hops waiting for their neighbour
    j["stale"] = rib.stale();
    j["nexthops"] = rib.nexthops();
    j["groups"] = rib.groups();
    const fpm::RibCounters &rc = rib.counters();
    j["held_for_group"] = rc.held_for_group;
    j["held_applied"] = rc.held_applied;
    j["removed_with_nexthop"] = rc.removed_with_nexthop;
    j["groups_updated_in_place"] = rc.groups_updated_in_place;
    j["groups_adopted"] = rc.groups_adopted;
    j["unknown_deletes"] = rc.unknown_deletes;
    j["sweeps"] = rc.sweeps;
    j["swept_routes"] = rc.swept_routes;
    j["sweep_in_s"] =
        rib.sweep_at() ? Json(std::chrono::duration<double>(*rib.sweep_at() - fpm::Rib::Clock::now()).count())
                       : Json(nullptr);
    j["fib_refusals"] = rc.fib_refusals;
    j["last_refusal"] = rc.last_refusal;
    j["commits"] = c.commits;
    j["commit_failures"] = c.commit_failures;
    j["last_commit"] = {{"messages", c.last_commit_messages},
                        {"prefixes", c.last_commit_prefixes},
                        {"ms", c.last_commit_ms},
                        {"error", c.last_commit_error}};
    Json ports = Json::object();
    for (const auto &[name, port] : s.port_map()) ports[name] = port;
    j["ports"] = ports;
    j["policy"] = policy_record(s.policy());
    return j;
}

namespace {

struct ShowFpmCmd {
    cmdline_fixed_string_t show, fpm, json;
};
WEFT_TOK_STR(ShowFpmCmd, show, "show");
WEFT_TOK_STR(ShowFpmCmd, fpm, "fpm");
WEFT_TOK_STR(ShowFpmCmd, json, "json");
void show_fpm(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    FpmServer *s = server(ctx, cl);
    if (s == nullptr) return;
    const Json j = fpm_record(*s);
    if (std::string(static_cast<ShowFpmCmd *>(res)->json) == "json") return print_json(cl, j);
    cmdline_printf(cl,
                   "fpm: %s on %s port %u%s%s; grace %llu s; %llu connections, %llu refused, %llu closed\n",
                   j["state"].get<std::string>().c_str(), s->config().address.c_str(), s->config().port,
                   s->connected() ? ", peer " : "", s->connected() ? s->peer().c_str() : "",
                   ull(j["grace_s"].get<std::uint64_t>()), ull(j["connections"]),
                   ull(j["refused_connections"]), ull(j["disconnects"]));
    std::ostringstream line;
    line << "messages:";
    for (const auto &[k, v] : j["messages"].items()) line << " " << k << " " << v.get<std::uint64_t>();
    line << "\nrefused by reason:";
    for (const auto &[k, v] : j["errors"].items())
        if (v.get<std::uint64_t>() != 0) line << " " << k << " " << v.get<std::uint64_t>();
    line << "\nignored:";
    for (const auto &[k, v] : j["ignored"].items())
        if (v.get<std::uint64_t>() != 0) line << " " << k << " " << v.get<std::uint64_t>();
    line << "\nroutes " << j["routes"].get<std::size_t>() << ", installed "
         << j["installed"].get<std::size_t>() << ", pending " << j["pending_total"].get<std::size_t>()
         << " (";
    bool first = true;
    for (const auto &[k, v] : j["pending"].items()) {
        line << (first ? "" : ", ") << k << " " << v.get<std::size_t>();
        first = false;
    }
    line << "), stale " << j["stale"].get<std::size_t>() << "; nexthops " << j["nexthops"].get<std::size_t>()
         << ", weft groups " << j["groups"].get<std::size_t>() << "\n";
    line << "held for a group " << j["held_for_group"].get<std::uint64_t>() << ", held then applied "
         << j["held_applied"].get<std::uint64_t>() << ", removed with their nexthop "
         << j["removed_with_nexthop"].get<std::uint64_t>() << ", sweeps " << j["sweeps"].get<std::uint64_t>()
         << " (" << j["swept_routes"].get<std::uint64_t>() << " routes), FIB refusals "
         << j["fib_refusals"].get<std::uint64_t>() << "\n";
    line << "commits " << j["commits"].get<std::uint64_t>() << "; last: " << j["last_commit"]["messages"]
         << " messages, " << j["last_commit"]["prefixes"] << " prefixes, "
         << j["last_commit"]["ms"].get<double>() << " ms\n";
    if (const fib::DragonflyGroups *g = s->policy()) {
        const Json &p = j["policy"];
        line << "policy: " << policy_words(g->policy()) << "\n  " << p["prefixes"].get<std::size_t>()
             << " prefixes on " << p["groups"].get<std::size_t>() << " ARS groups, "
             << p["refused_prefixes"].get<std::size_t>() << " refused; groups made "
             << p["groups_made"].get<std::uint64_t>() << ", changed in place "
             << p["groups_changed_in_place"].get<std::uint64_t>() << ", freed "
             << p["groups_freed"].get<std::uint64_t>() << "; prefixes moved "
             << p["prefixes_moved"].get<std::uint64_t>() << "\n";
    } else {
        line << "policy: off\n";
    }
    cmdline_printf(cl, "%s", line.str().c_str());
}
Inst<2> inst_show_fpm{
    show_fpm, nullptr, "show fpm", {WEFT_HDR(ShowFpmCmd_show), WEFT_HDR(ShowFpmCmd_fpm), nullptr}};
Inst<3> inst_show_fpm_json{
    show_fpm,
    nullptr,
    "show fpm json",
    {WEFT_HDR(ShowFpmCmd_show), WEFT_HDR(ShowFpmCmd_fpm), WEFT_HDR(ShowFpmCmd_json), nullptr}};

}  // namespace

InstList fpm_commands() {
    return {as_inst(inst_fpm_listen),   as_inst(inst_fpm_stop),       as_inst(inst_fpm_port),
            as_inst(inst_fpm_port_del), as_inst(inst_fpm_grace),      as_inst(inst_fpm_remote),
            fpm_policy_grammar.inst(),  as_inst(inst_fpm_policy_off), as_inst(inst_show_fpm),
            as_inst(inst_show_fpm_json)};
}

std::string fpm_running_config(const CommandContext &ctx) {
    const FpmServer *s = ctx.fpm;
    if (s == nullptr) return {};
    std::ostringstream out;
    const FpmConfig &c = s->config();
    out << "fpm grace " << c.grace.count() << "\n";
    out << "fpm remote " << (c.allow_remote ? "allow" : "deny") << "\n";
    for (const auto &[name, port] : s->port_map()) out << "fpm port " << name << " " << port << "\n";
    if (s->policy() != nullptr) out << "fpm policy " << policy_words(s->policy()->policy()) << "\n";
    if (s->listening()) out << "fpm listen " << c.address << " " << c.port << "\n";
    return out.str();
}

}  // namespace cli
}  // namespace weft::control
