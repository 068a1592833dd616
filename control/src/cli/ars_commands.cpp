// The ARS part of the command set: profile, per-port settings, ARS objects, LAGs, ARS next-hop
// groups and ACL rules, as cmdline tokens (keyword lists through Grammar). Every change is
// validated by building a complete ars::Config first; a refused change prints the library's
// messages and leaves both the accepted state and the published tables as they were.
#include <cmdline.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_internal.hpp"
#include "grammar.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/ars/port_config.hpp"
#include "weft/control/ars_apply.hpp"
#include "weft/control/cli.hpp"

namespace weft::control {

namespace dp = weft::dataplane;

namespace cli {

namespace {

std::optional<ars::Mode> mode_of(const std::string &s) {
    if (s == "flowlet-quality") return ars::Mode::kFlowletQuality;
    if (s == "flowlet-random") return ars::Mode::kFlowletRandom;
    if (s == "per-packet-quality") return ars::Mode::kPerPacketQuality;
    if (s == "per-packet-random") return ars::Mode::kPerPacketRandom;
    if (s == "fixed") return ars::Mode::kFixed;
    return std::nullopt;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

// Validates `next` as a whole; on success it becomes the accepted state and is published with
// the FIB (`publish` false: the caller changes the FIB too and commits itself).
bool accept(CommandContext &ctx, struct cmdline *cl, const ArsState &next, bool publish = true) {
    if (const auto why = adopt_ars_state(ctx, next)) return bad(ctx, cl, *why + " (nothing changed)");
    return publish ? commit(ctx, cl) : true;
}

// ---- set ars profile <attr> <n> | <load> on|off | band <i> <min> <max> ----
struct ProfileCmd {
    cmdline_fixed_string_t set, ars, profile, attr;
    uint32_t value;
    cmdline_fixed_string_t onoff;
    uint8_t band;
    uint32_t lo, hi;
};
WEFT_TOK_STR(ProfileCmd, set, "set");
WEFT_TOK_STR(ProfileCmd, ars, "ars");
WEFT_TOK_STR(ProfileCmd, profile, "profile");
WEFT_TOK_STR(ProfileCmd, attr, "sampling-interval#seed#past-weight#future-weight#ewma-exponent");
WEFT_TOK_NUM(ProfileCmd, value, RTE_UINT32);
static cmdline_parse_token_string_t ProfileCmd_load =
    TOKEN_STRING_INITIALIZER(ProfileCmd, attr, "past-load#future-load#current-load");
WEFT_TOK_STR(ProfileCmd, onoff, "on#off");
static cmdline_parse_token_string_t ProfileCmd_band_kw = TOKEN_STRING_INITIALIZER(ProfileCmd, attr, "band");
WEFT_TOK_NUM(ProfileCmd, band, RTE_UINT8);
WEFT_TOK_NUM(ProfileCmd, lo, RTE_UINT32);
WEFT_TOK_NUM(ProfileCmd, hi, RTE_UINT32);

void profile_value(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ProfileCmd *>(res);
    const std::string attr = r->attr;
    ArsState next = ctx.ars;
    ars::Profile &p = next.profile;
    if (attr == "sampling-interval") {
        p.sampling_interval_us = r->value;
    } else if (attr == "seed") {
        p.random_seed = r->value;
    } else {
        if (r->value > 255)
            return refuse(ctx, cl, attr + " " + std::to_string(r->value) + " does not fit 0..255");
        (attr == "past-weight"     ? p.past_load_weight
         : attr == "future-weight" ? p.future_load_weight
                                   : p.ewma_exponent) = static_cast<std::uint8_t>(r->value);
    }
    accept(ctx, cl, next);
}
void profile_load(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ProfileCmd *>(res);
    const std::string attr = r->attr;
    ArsState next = ctx.ars;
    ars::Profile &p = next.profile;
    (attr == "past-load"     ? p.past_load_enabled
     : attr == "future-load" ? p.future_load_enabled
                             : p.current_load_enabled) = std::string(r->onoff) == "on";
    accept(ctx, cl, next);
}
void profile_band(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ProfileCmd *>(res);
    if (r->band >= ars::kBandCount)
        return refuse(ctx, cl, "band " + std::to_string(r->band) + ": bands are 0..7");
    ArsState next = ctx.ars;
    next.profile.bands[r->band] = ars::LoadBand{r->lo, r->hi};
    accept(ctx, cl, next);
}
Inst<5> inst_profile_value{
    profile_value,
    nullptr,
    "set ars profile sampling-interval|seed|past-weight|future-weight|ewma-exponent <n>",
    {WEFT_HDR(ProfileCmd_set), WEFT_HDR(ProfileCmd_ars), WEFT_HDR(ProfileCmd_profile),
     WEFT_HDR(ProfileCmd_attr), WEFT_HDR(ProfileCmd_value), nullptr}};
Inst<5> inst_profile_load{profile_load,
                          nullptr,
                          "set ars profile past-load|future-load|current-load on|off",
                          {WEFT_HDR(ProfileCmd_set), WEFT_HDR(ProfileCmd_ars), WEFT_HDR(ProfileCmd_profile),
                           WEFT_HDR(ProfileCmd_load), WEFT_HDR(ProfileCmd_onoff), nullptr}};
Inst<7> inst_profile_band{profile_band,
                          nullptr,
                          "set ars profile band <0..7> <min-mbps> <max-mbps>",
                          {WEFT_HDR(ProfileCmd_set), WEFT_HDR(ProfileCmd_ars), WEFT_HDR(ProfileCmd_profile),
                           WEFT_HDR(ProfileCmd_band_kw), WEFT_HDR(ProfileCmd_band), WEFT_HDR(ProfileCmd_lo),
                           WEFT_HDR(ProfileCmd_hi), nullptr}};

// ---- set ars port <p> enable|disable | speed <G> | scale <tenths> | weights <past> <future> ----
struct ArsPortCmd {
    cmdline_fixed_string_t set, ars, port_kw;
    uint16_t port;
    cmdline_fixed_string_t what;
    uint32_t value;
    uint8_t past, future;
};
WEFT_TOK_STR(ArsPortCmd, set, "set");
WEFT_TOK_STR(ArsPortCmd, ars, "ars");
WEFT_TOK_STR(ArsPortCmd, port_kw, "port");
WEFT_TOK_NUM(ArsPortCmd, port, RTE_UINT16);
WEFT_TOK_STR(ArsPortCmd, what, "enable#disable");
static cmdline_parse_token_string_t ArsPortCmd_sized =
    TOKEN_STRING_INITIALIZER(ArsPortCmd, what, "speed#scale");
WEFT_TOK_NUM(ArsPortCmd, value, RTE_UINT32);
static cmdline_parse_token_string_t ArsPortCmd_weights =
    TOKEN_STRING_INITIALIZER(ArsPortCmd, what, "weights");
WEFT_TOK_NUM(ArsPortCmd, past, RTE_UINT8);
WEFT_TOK_NUM(ArsPortCmd, future, RTE_UINT8);

void ars_port(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ArsPortCmd *>(res);
    if (r->port >= ctx.dp->num_ports()) return refuse(ctx, cl, "no port " + std::to_string(r->port));
    ArsState next = ctx.ars;
    ars::PortConfig &pc = next.ports[r->port];
    pc.id = r->port;
    const std::string what = r->what;
    if (what == "enable" || what == "disable") {
        pc.ars_enabled = what == "enable";
    } else if (what == "speed") {
        const auto t = ars::scale_tenths_for_speed_gbps(r->value);
        if (!t)
            return refuse(
                ctx, cl,
                "speed " + std::to_string(r->value) + " has no scaling factor (10 25 40 50 100 200 400 800)");
        pc.scale_tenths = *t;
    } else if (what == "scale") {
        pc.scale_tenths = r->value;
    } else {
        pc.past_weight_percent = r->past;
        pc.future_weight_percent = r->future;
    }
    accept(ctx, cl, next);
}
Inst<5> inst_ars_port_enable{
    ars_port,
    nullptr,
    "set ars port <p> enable|disable",
    {WEFT_HDR(ArsPortCmd_set), WEFT_HDR(ArsPortCmd_ars), WEFT_HDR(ArsPortCmd_port_kw),
     WEFT_HDR(ArsPortCmd_port), WEFT_HDR(ArsPortCmd_what), nullptr}};
Inst<6> inst_ars_port_sized{
    ars_port,
    nullptr,
    "set ars port <p> speed <G>|scale <tenths>",
    {WEFT_HDR(ArsPortCmd_set), WEFT_HDR(ArsPortCmd_ars), WEFT_HDR(ArsPortCmd_port_kw),
     WEFT_HDR(ArsPortCmd_port), WEFT_HDR(ArsPortCmd_sized), WEFT_HDR(ArsPortCmd_value), nullptr}};
Inst<7> inst_ars_port_weights{
    ars_port,
    nullptr,
    "set ars port <p> weights <past%> <future%>",
    {WEFT_HDR(ArsPortCmd_set), WEFT_HDR(ArsPortCmd_ars), WEFT_HDR(ArsPortCmd_port_kw),
     WEFT_HDR(ArsPortCmd_port), WEFT_HDR(ArsPortCmd_weights), WEFT_HDR(ArsPortCmd_past),
     WEFT_HDR(ArsPortCmd_future), nullptr}};

// ---- ars object add <id> [mode M] [idle-time US] [max-flows N] [monitor on|off] | ars object del <id> ----
struct ObjectCmd {
    GrammarSeen seen;  // mode, idle-time, max-flows, monitor
    cmdline_fixed_string_t ars, object, op;
    uint16_t id;
    cmdline_fixed_string_t mode;
    uint32_t idle, flows;
    cmdline_fixed_string_t monitor;
};
WEFT_TOK_STR(ObjectCmd, ars, "ars");
WEFT_TOK_STR(ObjectCmd, object, "object");
WEFT_TOK_STR(ObjectCmd, op, "add");
WEFT_TOK_NUM(ObjectCmd, id, RTE_UINT16);
WEFT_TOK_STR(ObjectCmd, mode, "flowlet-quality#flowlet-random#per-packet-quality#per-packet-random#fixed");
WEFT_TOK_NUM(ObjectCmd, idle, RTE_UINT32);
WEFT_TOK_NUM(ObjectCmd, flows, RTE_UINT32);
WEFT_TOK_STR(ObjectCmd, monitor, "on#off");
static cmdline_parse_token_string_t ObjectCmd_del = TOKEN_STRING_INITIALIZER(ObjectCmd, op, "del");

void object_add(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ObjectCmd *>(res);
    if (r->id > 0xFFFE) return refuse(ctx, cl, "bad ARS object id " + std::to_string(r->id));
    ars::ArsObjectConfig o;
    o.id = r->id;
    if (r->seen.has(0)) o.mode = *mode_of(r->mode);
    if (r->seen.has(1)) o.idle_time_us = r->idle;
    if (r->seen.has(2)) o.max_flows = r->flows;
    if (r->seen.has(3)) o.monitoring = std::string(r->monitor) == "on";
    ArsState next = ctx.ars;
    next.objects[o.id] = o;
    accept(ctx, cl, next);
}
void object_dispatch(void *a, struct cmdline *cl, void *b);
Grammar object_grammar(
    "ars object add <id> mode flowlet-quality|flowlet-random|per-packet-quality|per-packet-random|fixed "
    "idle-time <us> max-flows <n> [monitor on|off]",
    {WEFT_HDR(ObjectCmd_ars), WEFT_HDR(ObjectCmd_object), WEFT_HDR(ObjectCmd_op), WEFT_HDR(ObjectCmd_id)},
    {{nullptr,
      {{"mode", WEFT_HDR(ObjectCmd_mode)},
       {"idle-time", WEFT_HDR(ObjectCmd_idle)},
       {"max-flows", WEFT_HDR(ObjectCmd_flows)},
       {"monitor", WEFT_HDR(ObjectCmd_monitor)}},
      0}},
    object_add, object_dispatch);
void object_dispatch(void *a, struct cmdline *cl, void *b) {
    object_grammar.on_callback(a, cl, b);
}

// Removes ARS object or LAG `id` from the state (refused when there is none).
template <typename Map>
void erase_setting(CommandContext &ctx, struct cmdline *cl, Map ArsState::*settings, std::uint16_t id,
                   const char *what) {
    if ((ctx.ars.*settings).count(id) == 0)
        return refuse(ctx, cl, std::string("no ") + what + " " + std::to_string(id));
    ArsState next = ctx.ars;
    (next.*settings).erase(id);
    accept(ctx, cl, next);
}

void object_del(void *res, struct cmdline *cl, void *data) {
    erase_setting(context_of(data), cl, &ArsState::objects, static_cast<ObjectCmd *>(res)->id, "ARS object");
}
Inst<4> inst_object_del{object_del,
                        nullptr,
                        "ars object del <id>",
                        {WEFT_HDR(ObjectCmd_ars), WEFT_HDR(ObjectCmd_object), WEFT_HDR(ObjectCmd_del),
                         WEFT_HDR(ObjectCmd_id), nullptr}};

// ---- lag add <id> ports <p>[,<p>...] [ars <obj>] | lag del <id> ----
struct LagCmd {
    GrammarSeen seen;  // ars
    cmdline_fixed_string_t lag, op;
    uint16_t id;
    cmdline_fixed_string_t ports_kw, ports;
    uint16_t object;
};
WEFT_TOK_STR(LagCmd, lag, "lag");
WEFT_TOK_STR(LagCmd, op, "add");
WEFT_TOK_NUM(LagCmd, id, RTE_UINT16);
WEFT_TOK_STR(LagCmd, ports_kw, "ports");
WEFT_TOK_STR(LagCmd, ports, nullptr);
WEFT_TOK_NUM(LagCmd, object, RTE_UINT16);
static cmdline_parse_token_string_t LagCmd_del = TOKEN_STRING_INITIALIZER(LagCmd, op, "del");

void lag_add(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<LagCmd *>(res);
    ars::LagConfig lag;
    lag.id = r->id;
    for (const std::string &s : split(r->ports, ',')) {
        const auto p = port_arg(ctx, s);
        if (!p) return refuse(ctx, cl, "no port " + s);
        lag.ports.push_back(*p);
    }
    if (r->seen.has(0)) {
        if (r->object > 0xFFFE) return refuse(ctx, cl, "bad ARS object " + std::to_string(r->object));
        lag.ars_object = r->object;
    }
    ArsState next = ctx.ars;
    next.lags[lag.id] = lag;
    if (!next.build(ctx.ticks_per_us).ok()) return (void)accept(ctx, cl, next);  // says why, changes nothing
    // ARS groups with this LAG as a member get its new ports as dataplane members.
    for (const auto &[nhg_id, n] : next.nhgs) {
        bool uses = false;
        for (const ars::NhgMember &m : n.members)
            uses |= m.target.kind == ars::EgressTarget::Kind::kLag && m.target.id == lag.id;
        if (!uses) continue;
        const dp::Status s = ctx.fib->set_nhg(nhg_id, ars_dataplane_members(next, n), dp::NhgMode::Ars);
        if (!s.ok()) return refuse(ctx, cl, s.message());
    }
    accept(ctx, cl, next);
}
void lag_dispatch(void *a, struct cmdline *cl, void *b);
Grammar lag_grammar("lag add <id> ports <p>[,<p>...] [ars <object>]",
                    {WEFT_HDR(LagCmd_lag), WEFT_HDR(LagCmd_op), WEFT_HDR(LagCmd_id),
                     WEFT_HDR(LagCmd_ports_kw), WEFT_HDR(LagCmd_ports)},
                    {{nullptr, {{"ars", WEFT_HDR(LagCmd_object)}}, 0}}, lag_add, lag_dispatch);
void lag_dispatch(void *a, struct cmdline *cl, void *b) {
    lag_grammar.on_callback(a, cl, b);
}

void lag_del(void *res, struct cmdline *cl, void *data) {
    erase_setting(context_of(data), cl, &ArsState::lags, static_cast<LagCmd *>(res)->id, "LAG");
}
Inst<3> inst_lag_del{lag_del,
                     nullptr,
                     "lag del <id>",
                     {WEFT_HDR(LagCmd_lag), WEFT_HDR(LagCmd_del), WEFT_HDR(LagCmd_id), nullptr}};

// ---- nhg add <id> ars <obj>|none primary <m>[,<m>..] [alternate <m>[,<m>..]] [cost c] [bias b] [threshold
// t] ---- A member is a port number or lag<L>.
struct NhgArsCmd {
    GrammarSeen seen;  // primary, alternate, cost, bias, threshold
    cmdline_fixed_string_t nhg, add;
    uint32_t id;
    cmdline_fixed_string_t ars, object, primary, alternate;
    uint32_t cost, bias, threshold;
};
WEFT_TOK_STR(NhgArsCmd, nhg, "nhg");
WEFT_TOK_STR(NhgArsCmd, add, "add");
WEFT_TOK_NUM(NhgArsCmd, id, RTE_UINT32);
WEFT_TOK_STR(NhgArsCmd, ars, "ars");
WEFT_TOK_STR(NhgArsCmd, object, nullptr);
WEFT_TOK_STR(NhgArsCmd, primary, nullptr);
WEFT_TOK_STR(NhgArsCmd, alternate, nullptr);
WEFT_TOK_NUM(NhgArsCmd, cost, RTE_UINT32);
WEFT_TOK_NUM(NhgArsCmd, bias, RTE_UINT32);
WEFT_TOK_NUM(NhgArsCmd, threshold, RTE_UINT32);

// The members of one role, from "1,lag2,3".
std::optional<std::string> read_members(CommandContext &ctx, const ArsState &state, const char *list,
                                        ars::MemberRole role, std::vector<ars::NhgMember> &out) {
    for (const std::string &m : split(list, ',')) {
        ars::NhgMember member;
        member.role = role;
        if (m.rfind("lag", 0) == 0) {
            const auto l = number(m.substr(3), 0xFFFF);
            const auto it = l ? state.lags.find(static_cast<std::uint16_t>(*l)) : state.lags.end();
            if (it == state.lags.end()) return "no LAG " + m;
            member.target = ars::EgressTarget::lag(it->first);
        } else {
            const auto p = port_arg(ctx, m);
            if (!p) return "no port " + m;
            member.target = ars::EgressTarget::port(*p);
        }
        out.push_back(member);
    }
    return std::nullopt;
}

void nhg_ars(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<NhgArsCmd *>(res);
    if (fabric_nhg_refused(ctx, cl, r->id)) return;
    ars::NhgConfig n;
    n.id = r->id;
    if (std::string(r->object) != "none") {
        const auto o = number(r->object, 0xFFFE);
        if (!o) return refuse(ctx, cl, std::string("bad ARS object ") + r->object + " (a number or none)");
        n.ars_object = static_cast<std::uint16_t>(*o);
    }
    if (r->seen.has(2)) n.path_selection.alternate_cost = r->cost;
    if (r->seen.has(3)) n.path_selection.alternate_bias = r->bias;
    if (r->seen.has(4)) n.path_selection.primary_quality_threshold = r->threshold;
    ArsState next = ctx.ars;
    std::vector<ars::NhgMember> primaries, alternates;
    if (auto e = read_members(ctx, next, r->primary, ars::MemberRole::kPrimary, primaries))
        return refuse(ctx, cl, *e);
    if (r->seen.has(1))
        if (auto e = read_members(ctx, next, r->alternate, ars::MemberRole::kAlternate, alternates))
            return refuse(ctx, cl, *e);
    // ARS member order (primaries, then alternates) is also the dataplane member order, so the
    // index ARS returns names the dataplane member; LAG members add each of their ports.
    for (auto *set : {&primaries, &alternates})
        for (ars::NhgMember &m : *set) {
            m.member_id = static_cast<std::uint32_t>(n.members.size());
            n.members.push_back(m);
        }
    std::vector<dp::NhgMemberSpec> dp_members = ars_dataplane_members(next, n);
    next.nhgs[n.id] = n;
    const ArsState before = ctx.ars;
    const auto before_config = ctx.ars_config;
    if (!accept(ctx, cl, next, false)) return;
    const dp::Status s = ctx.fib->set_nhg(n.id, std::move(dp_members), dp::NhgMode::Ars);
    if (!s.ok()) {
        ctx.ars = before;
        ctx.ars_config = before_config;
        ctx.fib->set_ars(before_config);
        if (ctx.sampler != nullptr) ctx.sampler->set_config(before_config);
        return refuse(ctx, cl, s.message());
    }
    commit(ctx, cl);
}
void nhg_ars_dispatch(void *a, struct cmdline *cl, void *b);
Grammar nhg_ars_grammar(
    "nhg add <id> ars <object>|none primary <m>[,<m>...] [alternate <m>[,<m>...]] [cost <c>] "
    "[bias <b>] [threshold <t>]   (m: <port> or lag<id>)",
    {WEFT_HDR(NhgArsCmd_nhg), WEFT_HDR(NhgArsCmd_add), WEFT_HDR(NhgArsCmd_id), WEFT_HDR(NhgArsCmd_ars),
     WEFT_HDR(NhgArsCmd_object)},
    {{nullptr,
      {{"primary", WEFT_HDR(NhgArsCmd_primary), true},
       {"alternate", WEFT_HDR(NhgArsCmd_alternate)},
       {"cost", WEFT_HDR(NhgArsCmd_cost)},
       {"bias", WEFT_HDR(NhgArsCmd_bias)},
       {"threshold", WEFT_HDR(NhgArsCmd_threshold)}},
      0}},
    nhg_ars, nhg_ars_dispatch);
void nhg_ars_dispatch(void *a, struct cmdline *cl, void *b) {
    nhg_ars_grammar.on_callback(a, cl, b);
}

// ---- acl add <prio> [match...] action <action>... | acl clear ----
struct AclCmd {
    GrammarSeen seen;  // ethertype, ip-version, proto, sport, dport, dscp | disable-ars, set-ars, monitor
    cmdline_fixed_string_t acl, op;
    uint32_t prio;
    uint16_t ethertype;
    cmdline_fixed_string_t ip_version;
    uint8_t proto;
    cmdline_fixed_string_t sport, dport, dscp;
    uint16_t set_ars;
    cmdline_fixed_string_t monitor;
};
WEFT_TOK_STR(AclCmd, acl, "acl");
WEFT_TOK_STR(AclCmd, op, "add");
WEFT_TOK_NUM(AclCmd, prio, RTE_UINT32);
WEFT_TOK_NUM(AclCmd, ethertype, RTE_UINT16);
WEFT_TOK_STR(AclCmd, ip_version, "4#6");
WEFT_TOK_NUM(AclCmd, proto, RTE_UINT8);
WEFT_TOK_STR(AclCmd, sport, nullptr);
WEFT_TOK_STR(AclCmd, dport, nullptr);
WEFT_TOK_STR(AclCmd, dscp, nullptr);
WEFT_TOK_NUM(AclCmd, set_ars, RTE_UINT16);
WEFT_TOK_STR(AclCmd, monitor, "on#off");
static cmdline_parse_token_string_t AclCmd_clear = TOKEN_STRING_INITIALIZER(AclCmd, op, "clear");

std::optional<ars::PortRange> port_range(const std::string &s) {
    const auto parts = split(s, '-');
    if (parts.size() == 1) {
        const auto a = number(parts[0], 0xFFFF);
        if (!a) return std::nullopt;
        return ars::PortRange{static_cast<std::uint16_t>(*a), static_cast<std::uint16_t>(*a)};
    }
    if (parts.size() != 2) return std::nullopt;
    const auto a = number(parts[0], 0xFFFF), b = number(parts[1], 0xFFFF);
    if (!a || !b || *a > *b) return std::nullopt;
    return ars::PortRange{static_cast<std::uint16_t>(*a), static_cast<std::uint16_t>(*b)};
}

void acl_add(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<AclCmd *>(res);
    ars::AclRule rule;
    rule.priority = r->prio;
    if (r->seen.has(0)) rule.match.ether_type = r->ethertype;
    if (r->seen.has(1)) rule.match.ip_version = static_cast<std::uint8_t>(r->ip_version[0] == '4' ? 4 : 6);
    if (r->seen.has(2)) rule.match.ip_protocol = r->proto;
    for (const unsigned item : {3u, 4u}) {
        if (!r->seen.has(item)) continue;
        const char *v = item == 3 ? r->sport : r->dport;
        const auto range = port_range(v);
        if (!range) return refuse(ctx, cl, std::string("bad port range ") + v + " (<a> or <a>-<b>, a <= b)");
        (item == 3 ? rule.match.l4_src_ports : rule.match.l4_dst_ports) = *range;
    }
    if (r->seen.has(5)) {
        std::uint64_t set = 0;
        for (const std::string &d : split(r->dscp, ',')) {
            const auto x = number(d, 63);
            if (!x) return refuse(ctx, cl, "DSCP values are 0..63");
            set |= std::uint64_t{1} << *x;
        }
        rule.match.dscp_set = set;
    }
    rule.action.disable_ars = r->seen.has(6);
    if (r->seen.has(7)) {
        if (r->set_ars > 0xFFFE) return refuse(ctx, cl, "bad ARS object " + std::to_string(r->set_ars));
        rule.action.set_ars = r->set_ars;
    }
    if (r->seen.has(8)) rule.action.set_monitoring = std::string(r->monitor) == "on";
    ArsState next = ctx.ars;
    next.acl.push_back(rule);
    accept(ctx, cl, next);
}
void acl_dispatch(void *a, struct cmdline *cl, void *b);
Grammar acl_grammar(
    "acl add <priority> [ethertype <x>] [ip-version 4|6] [proto <n>] [sport <a>[-<b>]] "
    "[dport <a>[-<b>]] [dscp <d>[,<d>...]] action [disable-ars] [set-ars <object>] "
    "[monitor on|off]",
    {WEFT_HDR(AclCmd_acl), WEFT_HDR(AclCmd_op), WEFT_HDR(AclCmd_prio)},
    {{nullptr,
      {{"ethertype", WEFT_HDR(AclCmd_ethertype)},
       {"ip-version", WEFT_HDR(AclCmd_ip_version)},
       {"proto", WEFT_HDR(AclCmd_proto)},
       {"sport", WEFT_HDR(AclCmd_sport)},
       {"dport", WEFT_HDR(AclCmd_dport)},
       {"dscp", WEFT_HDR(AclCmd_dscp)}},
      0},
     {"action",
      {{"disable-ars", nullptr},
       {"set-ars", WEFT_HDR(AclCmd_set_ars)},
       {"monitor", WEFT_HDR(AclCmd_monitor)}},
      1}},
    acl_add, acl_dispatch);
void acl_dispatch(void *a, struct cmdline *cl, void *b) {
    acl_grammar.on_callback(a, cl, b);
}

void acl_clear(void *, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    ArsState next = ctx.ars;
    next.acl.clear();
    accept(ctx, cl, next);
}
Inst<2> inst_acl_clear{
    acl_clear, nullptr, "acl clear", {WEFT_HDR(AclCmd_acl), WEFT_HDR(AclCmd_clear), nullptr}};

}  // namespace

bool set_monitoring(CommandContext &ctx, struct cmdline *cl, bool on) {
    ArsState next = ctx.ars;
    next.monitor = on;
    return accept(ctx, cl, next);
}

InstList ars_commands() {
    return {as_inst(inst_profile_value),   as_inst(inst_profile_load),   as_inst(inst_profile_band),
            as_inst(inst_ars_port_enable), as_inst(inst_ars_port_sized), as_inst(inst_ars_port_weights),
            object_grammar.inst(),         as_inst(inst_object_del),     lag_grammar.inst(),
            as_inst(inst_lag_del),         nhg_ars_grammar.inst(),       acl_grammar.inst(),
            as_inst(inst_acl_clear)};
}

void ars_forget_nhg(CommandContext &ctx, std::uint32_t id) {
    if (ctx.ars.nhgs.erase(id) == 0) return;
    ars::BuildResult r = ctx.ars.build(ctx.ticks_per_us);
    if (!r.ok()) return;  // removing a group cannot make a valid config invalid
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
}

}  // namespace cli

void ars_init(CommandContext &ctx) {
    ctx.ars.profile.random_seed = 1;
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        ars::PortConfig pc;
        pc.id = p;
        ctx.ars.ports[p] = pc;
    }
    ars::BuildResult r = ctx.ars.build(ctx.ticks_per_us);
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
}

}  // namespace weft::control
