// The ARS part of the command set: profile, per-port settings, ARS objects, LAGs, ARS next-hop
// groups, ACL rules and monitoring. Every change is validated by building a complete ars::Config
// first; a refused change prints the library's messages and leaves both the accepted state and
// the published tables as they were.
#include <cmdline.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_internal.hpp"
#include "weft/ars/capabilities.hpp"
#include "weft/ars/port_config.hpp"
#include "weft/control/cli.hpp"

namespace weft::control {

namespace dp = weft::dataplane;

namespace cli {

namespace {

std::optional<bool> on_off(const std::string &s) {
    if (s == "on" || s == "enable") return true;
    if (s == "off" || s == "disable") return false;
    return std::nullopt;
}

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
    ars::BuildResult r = next.build(ctx.ticks_per_us);
    if (!r.ok()) {
        ++ctx.errors;
        for (const auto &e : r.errors) cmdline_printf(cl, "error: %s\n", e.message.c_str());
        cmdline_printf(cl, "nothing changed\n");
        return false;
    }
    ctx.ars = next;
    ctx.ars_config = r.config;
    ctx.fib->set_ars(r.config);
    if (ctx.sampler != nullptr) ctx.sampler->set_config(r.config);
    return publish ? commit(ctx, cl) : true;
}

// The dataplane members of an ARS group, in ARS member order; a LAG member adds its ports.
std::vector<dp::NhgMemberSpec> dataplane_members(const ArsState &state, const ars::NhgConfig &n) {
    std::vector<dp::NhgMemberSpec> out;
    for (const ars::NhgMember &m : n.members) {
        if (m.target.kind == ars::EgressTarget::Kind::kPort) {
            out.push_back({m.target.id, {}});
        } else if (const auto it = state.lags.find(m.target.id); it != state.lags.end()) {
            for (std::uint16_t p : it->second.ports) out.push_back({p, {}});
        }
    }
    return out;
}

// ---- set ars profile <attr> <value> ----
bool set_profile(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    // w: set ars profile attr value...
    if (w.size() < 5) return bad(ctx, cl, "set ars profile needs an attribute and a value");
    ArsState next = ctx.ars;
    ars::Profile &p = next.profile;
    const std::string &attr = w[3];
    auto u32 = [&](const std::string &s) { return number(s, 0xFFFFFFFFu); };
    if (attr == "band") {
        if (w.size() != 7) return bad(ctx, cl, "set ars profile band <0..7> <min-mbps> <max-mbps>");
        const auto i = number(w[4], 7);
        const auto lo = u32(w[5]), hi = u32(w[6]);
        if (!i || !lo || !hi) return bad(ctx, cl, "bad band: index 0..7, thresholds in Mbps");
        p.bands[*i] = ars::LoadBand{static_cast<std::uint32_t>(*lo), static_cast<std::uint32_t>(*hi)};
        return accept(ctx, cl, next);
    }
    if (w.size() != 5) return bad(ctx, cl, "set ars profile " + attr + " takes one value");
    const std::string &v = w[4];
    if (attr == "past-load" || attr == "future-load" || attr == "current-load") {
        const auto b = on_off(v);
        if (!b) return bad(ctx, cl, attr + " is on or off");
        (attr == "past-load"     ? p.past_load_enabled
         : attr == "future-load" ? p.future_load_enabled
                                 : p.current_load_enabled) = *b;
        return accept(ctx, cl, next);
    }
    const auto n = u32(v);
    if (!n) return bad(ctx, cl, "bad value " + v);
    if (attr == "sampling-interval") {
        p.sampling_interval_us = static_cast<std::uint32_t>(*n);
    } else if (attr == "seed") {
        p.random_seed = static_cast<std::uint32_t>(*n);
    } else if (attr == "past-weight" || attr == "future-weight" || attr == "ewma-exponent") {
        if (*n > 255) return bad(ctx, cl, attr + " " + v + " does not fit 0..255");
        (attr == "past-weight"     ? p.past_load_weight
         : attr == "future-weight" ? p.future_load_weight
                                   : p.ewma_exponent) = static_cast<std::uint8_t>(*n);
    } else {
        return bad(ctx, cl, "unknown profile attribute " + attr);
    }
    return accept(ctx, cl, next);
}

// ---- set ars port N enable|disable|speed G|scale T|weights PAST FUTURE ----
bool set_port(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() < 5)
        return bad(ctx, cl,
                   "set ars port <p> enable|disable|speed <G>|scale <tenths>|weights <past> <future>");
    const auto port = port_arg(ctx, w[3]);
    if (!port) return bad(ctx, cl, "no port " + w[3]);
    ArsState next = ctx.ars;
    ars::PortConfig &pc = next.ports[*port];
    pc.id = *port;
    const std::string &what = w[4];
    if ((what == "enable" || what == "disable") && w.size() == 5) {
        pc.ars_enabled = what == "enable";
    } else if (what == "speed" && w.size() == 6) {
        const auto g = number(w[5], 0xFFFFFFFFu);
        const auto t = g ? ars::scale_tenths_for_speed_gbps(static_cast<std::uint32_t>(*g)) : std::nullopt;
        if (!t) return bad(ctx, cl, "speed " + w[5] + " has no scaling factor (10 25 40 50 100 200 400 800)");
        pc.scale_tenths = *t;
    } else if (what == "scale" && w.size() == 6) {
        const auto t = number(w[5], 0xFFFFFFFFu);
        if (!t) return bad(ctx, cl, "bad scale " + w[5]);
        pc.scale_tenths = static_cast<std::uint32_t>(*t);
    } else if (what == "weights" && w.size() == 7) {
        const auto a = number(w[5], 255), b = number(w[6], 255);
        if (!a || !b) return bad(ctx, cl, "weights are percentages");
        pc.past_weight_percent = static_cast<std::uint8_t>(*a);
        pc.future_weight_percent = static_cast<std::uint8_t>(*b);
    } else {
        return bad(ctx, cl,
                   "set ars port <p> enable|disable|speed <G>|scale <tenths>|weights <past> <future>");
    }
    return accept(ctx, cl, next);
}

// ---- ars object add ID mode M idle-time US max-flows N [monitor on|off] | ars object del ID ----
bool object_cmd(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() == 4 && w[2] == "del") {
        const auto id = number(w[3], 0xFFFF);
        if (!id || ctx.ars.objects.count(static_cast<std::uint16_t>(*id)) == 0)
            return bad(ctx, cl, "no ARS object " + w[3]);
        ArsState next = ctx.ars;
        next.objects.erase(static_cast<std::uint16_t>(*id));
        return accept(ctx, cl, next);
    }
    if (w.size() < 4 || w[2] != "add" || (w.size() - 4) % 2 != 0)
        return bad(ctx, cl, "ars object add <id> mode <m> idle-time <us> max-flows <n> [monitor on|off]");
    const auto id = number(w[3], 0xFFFE);
    if (!id) return bad(ctx, cl, "bad ARS object id " + w[3]);
    ars::ArsObjectConfig o;
    o.id = static_cast<std::uint16_t>(*id);
    for (std::size_t i = 4; i + 1 < w.size(); i += 2) {
        const std::string &k = w[i], &v = w[i + 1];
        if (k == "mode") {
            const auto m = mode_of(v);
            if (!m)
                return bad(
                    ctx, cl,
                    "mode is flowlet-quality|flowlet-random|per-packet-quality|per-packet-random|fixed");
            o.mode = *m;
        } else if (k == "idle-time" || k == "max-flows") {
            const auto n = number(v, 0xFFFFFFFFu);
            if (!n) return bad(ctx, cl, "bad " + k + " " + v);
            (k == "idle-time" ? o.idle_time_us : o.max_flows) = static_cast<std::uint32_t>(*n);
        } else if (k == "monitor") {
            const auto b = on_off(v);
            if (!b) return bad(ctx, cl, "monitor is on or off");
            o.monitoring = *b;
        } else {
            return bad(ctx, cl, "unknown ARS object attribute " + k);
        }
    }
    ArsState next = ctx.ars;
    next.objects[o.id] = o;
    return accept(ctx, cl, next);
}

// ---- lag add ID ports P[,P..] [ars OBJ] | lag del ID ----
bool lag_cmd(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() == 3 && w[1] == "del") {
        const auto id = number(w[2], 0xFFFF);
        if (!id || ctx.ars.lags.count(static_cast<std::uint16_t>(*id)) == 0)
            return bad(ctx, cl, "no LAG " + w[2]);
        ArsState next = ctx.ars;
        next.lags.erase(static_cast<std::uint16_t>(*id));
        return accept(ctx, cl, next);
    }
    if (!(w.size() == 5 || w.size() == 7) || w[1] != "add" || w[3] != "ports" ||
        (w.size() == 7 && w[5] != "ars"))
        return bad(ctx, cl, "lag add <id> ports <p>[,<p>...] [ars <object>]");
    const auto id = number(w[2], 0xFFFF);
    if (!id) return bad(ctx, cl, "bad LAG id " + w[2]);
    ars::LagConfig lag;
    lag.id = static_cast<std::uint16_t>(*id);
    for (const std::string &s : split(w[4], ',')) {
        const auto p = port_arg(ctx, s);
        if (!p) return bad(ctx, cl, "no port " + s);
        lag.ports.push_back(*p);
    }
    if (w.size() == 7) {
        const auto o = number(w[6], 0xFFFE);
        if (!o) return bad(ctx, cl, "bad ARS object " + w[6]);
        lag.ars_object = static_cast<std::uint16_t>(*o);
    }
    ArsState next = ctx.ars;
    next.lags[lag.id] = lag;
    if (!next.build(ctx.ticks_per_us).ok()) return accept(ctx, cl, next);  // prints why, changes nothing
    // ARS groups with this LAG as a member get its new ports as dataplane members.
    for (const auto &[nhg_id, n] : next.nhgs) {
        bool uses = false;
        for (const ars::NhgMember &m : n.members)
            uses |= m.target.kind == ars::EgressTarget::Kind::kLag && m.target.id == lag.id;
        if (!uses) continue;
        const dp::Status s = ctx.fib->set_nhg(nhg_id, dataplane_members(next, n), dp::NhgMode::Ars);
        if (!s.ok()) return bad(ctx, cl, s.message());
    }
    return accept(ctx, cl, next);
}

// ---- nhg add ID ars OBJ|none primary M[,M..] [alternate M[,M..]] [cost C] [bias B] [threshold T] ----
// A member M is a port number or lag<L>.
bool nhg_ars(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    const char *usage =
        "nhg add <id> ars <object>|none primary <m>[,<m>...] [alternate <m>[,<m>...]] [cost <c>] [bias <b>] "
        "[threshold <t>]   (m: <port> or lag<id>)";
    if (w.size() < 7 || (w.size() - 5) % 2 != 0) return bad(ctx, cl, usage);
    const auto id = number(w[2], 0xFFFFFFFFu);
    if (!id) return bad(ctx, cl, usage);
    ars::NhgConfig n;
    n.id = static_cast<std::uint32_t>(*id);
    if (w[4] != "none") {
        const auto o = number(w[4], 0xFFFE);
        if (!o) return bad(ctx, cl, "bad ARS object " + w[4]);
        n.ars_object = static_cast<std::uint16_t>(*o);
    }
    ArsState next = ctx.ars;
    bool have_primary = false;
    std::vector<ars::NhgMember> primaries, alternates;
    for (std::size_t i = 5; i + 1 < w.size(); i += 2) {
        const std::string &k = w[i], &v = w[i + 1];
        if (k == "primary" || k == "alternate") {
            have_primary |= k == "primary";
            for (const std::string &m : split(v, ',')) {
                ars::NhgMember member;
                member.role = k == "primary" ? ars::MemberRole::kPrimary : ars::MemberRole::kAlternate;
                if (m.rfind("lag", 0) == 0) {
                    const auto l = number(m.substr(3), 0xFFFF);
                    const auto it = l ? next.lags.find(static_cast<std::uint16_t>(*l)) : next.lags.end();
                    if (it == next.lags.end()) return bad(ctx, cl, "no LAG " + m);
                    member.target = ars::EgressTarget::lag(it->first);
                } else {
                    const auto p = port_arg(ctx, m);
                    if (!p) return bad(ctx, cl, "no port " + m);
                    member.target = ars::EgressTarget::port(*p);
                }
                (k == "primary" ? primaries : alternates).push_back(member);
            }
        } else if (k == "cost" || k == "bias" || k == "threshold") {
            const auto c = number(v, 0xFFFFFFFFu);
            if (!c) return bad(ctx, cl, "bad " + k + " " + v);
            (k == "cost"   ? n.path_selection.alternate_cost
             : k == "bias" ? n.path_selection.alternate_bias
                           : n.path_selection.primary_quality_threshold) = static_cast<std::uint32_t>(*c);
        } else {
            return bad(ctx, cl, usage);
        }
    }
    if (!have_primary) return bad(ctx, cl, usage);
    // ARS member order (primaries, then alternates) is also the dataplane member order, so the
    // index ARS returns names the dataplane member; LAG members add each of their ports.
    for (auto *set : {&primaries, &alternates})
        for (ars::NhgMember &m : *set) {
            m.member_id = static_cast<std::uint32_t>(n.members.size());
            n.members.push_back(m);
        }
    std::vector<dp::NhgMemberSpec> dp_members = dataplane_members(next, n);
    next.nhgs[n.id] = n;
    const ArsState before = ctx.ars;
    const auto before_config = ctx.ars_config;
    if (!accept(ctx, cl, next, false)) return false;
    const dp::Status s = ctx.fib->set_nhg(n.id, std::move(dp_members), dp::NhgMode::Ars);
    if (!s.ok()) {
        ctx.ars = before;
        ctx.ars_config = before_config;
        ctx.fib->set_ars(before_config);
        if (ctx.sampler != nullptr) ctx.sampler->set_config(before_config);
        return bad(ctx, cl, s.message());
    }
    return commit(ctx, cl);
}

// ---- acl add PRIO [match...] action A [A...] | acl clear ----
bool acl_cmd(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    const char *usage =
        "acl add <priority> [ethertype <x>] [ip-version 4|6] [proto <n>] [sport <a>[-<b>]] [dport <a>[-<b>]] "
        "[dscp <d>[,<d>...]] action disable-ars|set-ars <object>|monitor on|off ... | acl clear";
    if (w.size() == 2 && w[1] == "clear") {
        ArsState next = ctx.ars;
        next.acl.clear();
        return accept(ctx, cl, next);
    }
    if (w.size() < 5 || w[1] != "add") return bad(ctx, cl, usage);
    const auto prio = number(w[2], 0xFFFFFFFFu);
    if (!prio) return bad(ctx, cl, usage);
    ars::AclRule rule;
    rule.priority = static_cast<std::uint32_t>(*prio);
    auto range = [](const std::string &s) -> std::optional<ars::PortRange> {
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
    };
    std::size_t i = 3;
    for (; i + 1 < w.size() && w[i] != "action"; i += 2) {
        const std::string &k = w[i], &v = w[i + 1];
        if (k == "ethertype") {
            const auto x = number(v, 0xFFFF);
            if (!x) return bad(ctx, cl, "bad ethertype " + v);
            rule.match.ether_type = static_cast<std::uint16_t>(*x);
        } else if (k == "ip-version") {
            if (v != "4" && v != "6") return bad(ctx, cl, "ip-version is 4 or 6");
            rule.match.ip_version = static_cast<std::uint8_t>(v == "4" ? 4 : 6);
        } else if (k == "proto") {
            const auto x = number(v, 255);
            if (!x) return bad(ctx, cl, "bad protocol " + v);
            rule.match.ip_protocol = static_cast<std::uint8_t>(*x);
        } else if (k == "sport" || k == "dport") {
            const auto r = range(v);
            if (!r) return bad(ctx, cl, "bad port range " + v);
            (k == "sport" ? rule.match.l4_src_ports : rule.match.l4_dst_ports) = *r;
        } else if (k == "dscp") {
            std::uint64_t set = 0;
            for (const std::string &d : split(v, ',')) {
                const auto x = number(d, 63);
                if (!x) return bad(ctx, cl, "DSCP values are 0..63");
                set |= std::uint64_t{1} << *x;
            }
            rule.match.dscp_set = set;
        } else {
            return bad(ctx, cl, usage);
        }
    }
    if (i >= w.size() || w[i] != "action" || i + 1 >= w.size()) return bad(ctx, cl, usage);
    for (++i; i < w.size();) {
        if (w[i] == "disable-ars") {
            rule.action.disable_ars = true;
            ++i;
        } else if (w[i] == "set-ars" && i + 1 < w.size()) {
            const auto o = number(w[i + 1], 0xFFFE);
            if (!o) return bad(ctx, cl, "bad ARS object " + w[i + 1]);
            rule.action.set_ars = static_cast<std::uint16_t>(*o);
            i += 2;
        } else if (w[i] == "monitor" && i + 1 < w.size() && on_off(w[i + 1])) {
            rule.action.set_monitoring = *on_off(w[i + 1]);
            i += 2;
        } else {
            return bad(ctx, cl, usage);
        }
    }
    ArsState next = ctx.ars;
    next.acl.push_back(rule);
    return accept(ctx, cl, next);
}

// ---- the cmdline instances: their words go to ars_command ----
struct ArsCmd {
    cmdline_fixed_string_t first, second;
    cmdline_multi_string_t rest;
};
static cmdline_parse_token_string_t ArsCmd_set = TOKEN_STRING_INITIALIZER(ArsCmd, first, "set");
static cmdline_parse_token_string_t ArsCmd_show = TOKEN_STRING_INITIALIZER(ArsCmd, first, "show");
static cmdline_parse_token_string_t ArsCmd_ars2 = TOKEN_STRING_INITIALIZER(ArsCmd, second, "ars");
static cmdline_parse_token_string_t ArsCmd_ars1 = TOKEN_STRING_INITIALIZER(ArsCmd, first, "ars");
static cmdline_parse_token_string_t ArsCmd_word1 = TOKEN_STRING_INITIALIZER(ArsCmd, first, "lag#acl");
static cmdline_parse_token_string_t ArsCmd_rest = TOKEN_STRING_INITIALIZER(ArsCmd, rest, TOKEN_STRING_MULTI);

void ars_two(void *res, struct cmdline *cl, void *data) {
    auto *r = static_cast<ArsCmd *>(res);
    ars_command(context_of(data), cl, words_after({r->first, r->second}, r->rest));
}
void ars_one(void *res, struct cmdline *cl, void *data) {
    auto *r = static_cast<ArsCmd *>(res);
    ars_command(context_of(data), cl, words_after({r->first}, r->rest));
}
Inst<3> inst_set_ars{ars_two,
                     nullptr,
                     "set ars profile|port ...",
                     {WEFT_HDR(ArsCmd_set), WEFT_HDR(ArsCmd_ars2), WEFT_HDR(ArsCmd_rest), nullptr}};
Inst<3> inst_show_ars{ars_two,
                      nullptr,
                      "show ars nhg <id>|quality [json]",
                      {WEFT_HDR(ArsCmd_show), WEFT_HDR(ArsCmd_ars2), WEFT_HDR(ArsCmd_rest), nullptr}};
Inst<2> inst_ars_object{
    ars_one, nullptr, "ars object add|del ...", {WEFT_HDR(ArsCmd_ars1), WEFT_HDR(ArsCmd_rest), nullptr}};
Inst<2> inst_ars_words{
    ars_one, nullptr, "lag ... | acl ...", {WEFT_HDR(ArsCmd_word1), WEFT_HDR(ArsCmd_rest), nullptr}};

}  // namespace

bool ars_command(CommandContext &ctx, struct cmdline *cl, const Words &w) {
    if (w.size() >= 3 && w[0] == "set" && w[1] == "ars" && w[2] == "profile") return set_profile(ctx, cl, w);
    if (w.size() >= 3 && w[0] == "set" && w[1] == "ars" && w[2] == "port") return set_port(ctx, cl, w);
    if (w.size() >= 2 && w[0] == "ars" && w[1] == "object") return object_cmd(ctx, cl, w);
    if (w.size() >= 1 && w[0] == "lag") return lag_cmd(ctx, cl, w);
    if (w.size() >= 1 && w[0] == "acl") return acl_cmd(ctx, cl, w);
    if (w.size() >= 4 && w[0] == "nhg" && w[1] == "add" && w[3] == "ars") return nhg_ars(ctx, cl, w);
    if (w.size() >= 3 && w[0] == "show" && w[1] == "ars") return show_ars(ctx, cl, w);
    return bad(ctx, cl, "bad ARS command");
}

bool set_monitoring(CommandContext &ctx, struct cmdline *cl, bool on) {
    ArsState next = ctx.ars;
    next.monitor = on;
    return accept(ctx, cl, next);
}

InstList ars_commands() {
    return {as_inst(inst_set_ars), as_inst(inst_show_ars), as_inst(inst_ars_object), as_inst(inst_ars_words)};
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
