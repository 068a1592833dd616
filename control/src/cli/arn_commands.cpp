// ARN in the command set (arn_state.hpp, arn/ARN_FORMAT.md): the switch's id, its dragonfly
// group as configured (local links, global links, the next-hop group toward each destination
// group) and whether the SM's takes its place, the detector's thresholds and repeat interval, the receive
// rate limit, the EtherType, on and off; show arn [json]: each watched port's state, the best-path table, the
// news held and when it changed, counters sent / received / forwarded / dropped by reason. CLI ports are
// dataplane ports; ARN's numbering on the wire is one more.
#include <cmdline.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "cli_internal.hpp"
#include "weft/arn/decode_error.hpp"
#include "weft/arn/prefix_labels.hpp"
#include "weft/control/arn_apply.hpp"
#include "weft/dataplane/arn_agent.hpp"

namespace weft::control::cli {

namespace dp = weft::dataplane;

namespace {

std::string hex(std::uint64_t v) {
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
    return s;
}

void adopt(CommandContext &ctx, struct cmdline *cl, const ArnState &next) {
    if (auto why = adopt_arn_state(ctx, next)) refuse(ctx, cl, *why);
}

template <typename T>
void set_insert(std::vector<T> &v, const T &x, bool del) {
    const auto it = std::lower_bound(v.begin(), v.end(), x);
    const bool there = it != v.end() && *it == x;
    if (del && there) v.erase(it);
    if (!del && !there) v.insert(it, x);
}

// ---- arn enable|disable ----
struct OnOffCmd {
    cmdline_fixed_string_t arn, onoff;
};
WEFT_TOK_STR(OnOffCmd, arn, "arn");
WEFT_TOK_STR(OnOffCmd, onoff, "enable#disable");
void onoff_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    ArnState next = ctx.arn;
    next.enabled = std::string(static_cast<OnOffCmd *>(res)->onoff) == "enable";
    adopt(ctx, cl, next);
}
Inst<2> inst_onoff{
    onoff_cmd, nullptr, "arn enable|disable", {WEFT_HDR(OnOffCmd_arn), WEFT_HDR(OnOffCmd_onoff), nullptr}};

// ---- arn topology sm|config ----
struct TopologyCmd {
    cmdline_fixed_string_t arn, kw, which;
};
WEFT_TOK_STR(TopologyCmd, arn, "arn");
WEFT_TOK_STR(TopologyCmd, kw, "topology");
WEFT_TOK_STR(TopologyCmd, which, "sm#config");
void topology_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    ArnState next = ctx.arn;
    next.use_sm = std::string(static_cast<TopologyCmd *>(res)->which) == "sm";
    adopt(ctx, cl, next);
}
Inst<3> inst_topology{
    topology_cmd,
    nullptr,
    "arn topology sm|config",
    {WEFT_HDR(TopologyCmd_arn), WEFT_HDR(TopologyCmd_kw), WEFT_HDR(TopologyCmd_which), nullptr}};

// ---- arn switch-id <id> ----
struct IdCmd {
    cmdline_fixed_string_t arn, kw;
    uint64_t id;
};
WEFT_TOK_STR(IdCmd, arn, "arn");
WEFT_TOK_STR(IdCmd, kw, "switch-id");
WEFT_TOK_NUM(IdCmd, id, RTE_UINT64);
void id_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    ArnState next = ctx.arn;
    next.self = static_cast<IdCmd *>(res)->id;
    adopt(ctx, cl, next);
}
Inst<3> inst_id{id_cmd,
                nullptr,
                "arn switch-id <id>",
                {WEFT_HDR(IdCmd_arn), WEFT_HDR(IdCmd_kw), WEFT_HDR(IdCmd_id), nullptr}};

// ---- arn link [del] <switch> <port> <switch> <port> ----
struct LinkCmd {
    cmdline_fixed_string_t arn, link, del;
    uint64_t a;
    uint16_t pa;
    uint64_t b;
    uint16_t pb;
};
WEFT_TOK_STR(LinkCmd, arn, "arn");
WEFT_TOK_STR(LinkCmd, link, "link");
WEFT_TOK_STR(LinkCmd, del, "del");
WEFT_TOK_NUM(LinkCmd, a, RTE_UINT64);
WEFT_TOK_NUM(LinkCmd, pa, RTE_UINT16);
WEFT_TOK_NUM(LinkCmd, b, RTE_UINT64);
WEFT_TOK_NUM(LinkCmd, pb, RTE_UINT16);
void link_cmd(void *res, struct cmdline *cl, void *data, bool del) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<LinkCmd *>(res);
    if (r->a == r->b) return refuse(ctx, cl, "a link joins two switches");
    ArnLocalLink l{r->a, r->pa, r->b, r->pb};
    if (l.b < l.a) l = ArnLocalLink{r->b, r->pb, r->a, r->pa};
    ArnState next = ctx.arn;
    set_insert(next.links, l, del);
    adopt(ctx, cl, next);
}
void link_add(void *res, struct cmdline *cl, void *data) {
    link_cmd(res, cl, data, false);
}
void link_del(void *res, struct cmdline *cl, void *data) {
    link_cmd(res, cl, data, true);
}
Inst<6> inst_link{link_add,
                  nullptr,
                  "arn link <switch> <port> <switch> <port>",
                  {WEFT_HDR(LinkCmd_arn), WEFT_HDR(LinkCmd_link), WEFT_HDR(LinkCmd_a), WEFT_HDR(LinkCmd_pa),
                   WEFT_HDR(LinkCmd_b), WEFT_HDR(LinkCmd_pb), nullptr}};
Inst<7> inst_link_del{
    link_del,
    nullptr,
    "arn link del <switch> <port> <switch> <port>",
    {WEFT_HDR(LinkCmd_arn), WEFT_HDR(LinkCmd_link), WEFT_HDR(LinkCmd_del), WEFT_HDR(LinkCmd_a),
     WEFT_HDR(LinkCmd_pa), WEFT_HDR(LinkCmd_b), WEFT_HDR(LinkCmd_pb), nullptr}};

// ---- arn global [del] <switch> <port> group <g> ----
struct GlobalCmd {
    cmdline_fixed_string_t arn, global, del;
    uint64_t owner;
    uint16_t port;
    cmdline_fixed_string_t group_kw;
    uint16_t group;
};
WEFT_TOK_STR(GlobalCmd, arn, "arn");
WEFT_TOK_STR(GlobalCmd, global, "global");
WEFT_TOK_STR(GlobalCmd, del, "del");
WEFT_TOK_NUM(GlobalCmd, owner, RTE_UINT64);
WEFT_TOK_NUM(GlobalCmd, port, RTE_UINT16);
WEFT_TOK_STR(GlobalCmd, group_kw, "group");
WEFT_TOK_NUM(GlobalCmd, group, RTE_UINT16);
void global_cmd(void *res, struct cmdline *cl, void *data, bool del) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<GlobalCmd *>(res);
    ArnState next = ctx.arn;
    set_insert(next.globals, ArnGlobalLink{r->owner, r->port, r->group}, del);
    adopt(ctx, cl, next);
}
void global_add(void *res, struct cmdline *cl, void *data) {
    global_cmd(res, cl, data, false);
}
void global_del(void *res, struct cmdline *cl, void *data) {
    global_cmd(res, cl, data, true);
}
Inst<6> inst_global{
    global_add,
    nullptr,
    "arn global <switch> <port> group <g>",
    {WEFT_HDR(GlobalCmd_arn), WEFT_HDR(GlobalCmd_global), WEFT_HDR(GlobalCmd_owner), WEFT_HDR(GlobalCmd_port),
     WEFT_HDR(GlobalCmd_group_kw), WEFT_HDR(GlobalCmd_group), nullptr}};
Inst<7> inst_global_del{
    global_del,
    nullptr,
    "arn global del <switch> <port> group <g>",
    {WEFT_HDR(GlobalCmd_arn), WEFT_HDR(GlobalCmd_global), WEFT_HDR(GlobalCmd_del), WEFT_HDR(GlobalCmd_owner),
     WEFT_HDR(GlobalCmd_port), WEFT_HDR(GlobalCmd_group_kw), WEFT_HDR(GlobalCmd_group), nullptr}};

// ---- arn nhg <id> group <g> | arn nhg <id> none ----
struct NhgGroupCmd {
    cmdline_fixed_string_t arn, nhg_kw;
    uint32_t id;
    cmdline_fixed_string_t group_kw;
    uint16_t group;
    cmdline_fixed_string_t none;
};
WEFT_TOK_STR(NhgGroupCmd, arn, "arn");
WEFT_TOK_STR(NhgGroupCmd, nhg_kw, "nhg");
WEFT_TOK_NUM(NhgGroupCmd, id, RTE_UINT32);
WEFT_TOK_STR(NhgGroupCmd, group_kw, "group");
WEFT_TOK_NUM(NhgGroupCmd, group, RTE_UINT16);
WEFT_TOK_STR(NhgGroupCmd, none, "none");
void nhg_group(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<NhgGroupCmd *>(res);
    ArnState next = ctx.arn;
    next.nhgs[r->id] = r->group;
    adopt(ctx, cl, next);
}
void nhg_none(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    ArnState next = ctx.arn;
    next.nhgs.erase(static_cast<NhgGroupCmd *>(res)->id);
    adopt(ctx, cl, next);
}
Inst<5> inst_nhg_group{nhg_group,
                       nullptr,
                       "arn nhg <id> group <g>",
                       {WEFT_HDR(NhgGroupCmd_arn), WEFT_HDR(NhgGroupCmd_nhg_kw), WEFT_HDR(NhgGroupCmd_id),
                        WEFT_HDR(NhgGroupCmd_group_kw), WEFT_HDR(NhgGroupCmd_group), nullptr}};
Inst<4> inst_nhg_none{nhg_none,
                      nullptr,
                      "arn nhg <id> none",
                      {WEFT_HDR(NhgGroupCmd_arn), WEFT_HDR(NhgGroupCmd_nhg_kw), WEFT_HDR(NhgGroupCmd_id),
                       WEFT_HDR(NhgGroupCmd_none), nullptr}};

// ---- arn threshold util|queue <on> <off> ----
struct ThresholdCmd {
    cmdline_fixed_string_t arn, threshold, what;
    uint64_t on, off;
};
WEFT_TOK_STR(ThresholdCmd, arn, "arn");
WEFT_TOK_STR(ThresholdCmd, threshold, "threshold");
WEFT_TOK_STR(ThresholdCmd, what, "util#queue");
WEFT_TOK_NUM(ThresholdCmd, on, RTE_UINT64);
WEFT_TOK_NUM(ThresholdCmd, off, RTE_UINT64);
void threshold_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ThresholdCmd *>(res);
    ArnState next = ctx.arn;
    arn::DetectorConfig &d = next.detector;
    // Severity 1 starts at `on`; the levels above it spread up to line rate (utilization) or
    // double each level (queue depth).
    if (std::string(r->what) == "util") {
        if (r->on == 0 || r->on > 100 || r->off > r->on)
            return refuse(ctx, cl, "utilization thresholds: 0 < on <= 100 percent, off <= on");
        for (std::size_t s = 0; s < d.util_levels.size(); ++s)
            d.util_levels[s] =
                static_cast<std::uint32_t>(r->on + (100 - r->on) * s / (d.util_levels.size() - 1));
        d.util_off_percent = static_cast<std::uint32_t>(r->off);
    } else {
        if (r->on == 0 || r->on > (std::uint64_t{1} << 40) || r->off > r->on)
            return refuse(ctx, cl, "queue thresholds: 0 < on <= 2^40 bytes, off <= on");
        for (std::size_t s = 0; s < d.queue_levels.size(); ++s) d.queue_levels[s] = r->on << s;
        d.queue_off_bytes = r->off;
    }
    adopt(ctx, cl, next);
}
Inst<5> inst_threshold{
    threshold_cmd,
    nullptr,
    "arn threshold util|queue <on> <off>",
    {WEFT_HDR(ThresholdCmd_arn), WEFT_HDR(ThresholdCmd_threshold), WEFT_HDR(ThresholdCmd_what),
     WEFT_HDR(ThresholdCmd_on), WEFT_HDR(ThresholdCmd_off), nullptr}};

// ---- arn encapsulation ethernet|udp4|udp6 ----
const char *encapsulation_name(dp::ArnEncapsulation e) {
    switch (e) {
        case dp::ArnEncapsulation::kUdp4:
            return "udp4";
        case dp::ArnEncapsulation::kUdp6:
            return "udp6";
        default:
            return "ethernet";
    }
}
struct EncapCmd {
    cmdline_fixed_string_t arn, kw, which;
};
WEFT_TOK_STR(EncapCmd, arn, "arn");
WEFT_TOK_STR(EncapCmd, kw, "encapsulation");
WEFT_TOK_STR(EncapCmd, which, "ethernet#udp4#udp6");
void encap_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const std::string which = static_cast<EncapCmd *>(res)->which;
    ArnState next = ctx.arn;
    next.encapsulation = which == "udp4"   ? dp::ArnEncapsulation::kUdp4
                         : which == "udp6" ? dp::ArnEncapsulation::kUdp6
                                           : dp::ArnEncapsulation::kEthernet;
    adopt(ctx, cl, next);
}
Inst<3> inst_encap{encap_cmd,
                   nullptr,
                   "arn encapsulation ethernet|udp4|udp6",
                   {WEFT_HDR(EncapCmd_arn), WEFT_HDR(EncapCmd_kw), WEFT_HDR(EncapCmd_which), nullptr}};

// ---- arn interval <us> | arn window <us> | arn hold <intervals> | arn ethertype <type> | arn udp-port <p>
// ----
struct ValueCmd {
    cmdline_fixed_string_t arn, what;
    uint32_t value;
};
WEFT_TOK_STR(ValueCmd, arn, "arn");
WEFT_TOK_STR(ValueCmd, what, "interval#window#hold#ethertype#udp-port");
WEFT_TOK_NUM(ValueCmd, value, RTE_UINT32);
void value_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<ValueCmd *>(res);
    ArnState next = ctx.arn;
    if (std::string(r->what) == "interval") {
        next.detector.repeat_interval_us = r->value;
    } else if (std::string(r->what) == "window") {
        next.detector.window_us = r->value;
    } else if (std::string(r->what) == "udp-port") {
        if (r->value == 0 || r->value > 0xFFFF) return refuse(ctx, cl, "a UDP port 1..65535");
        next.udp_port = static_cast<std::uint16_t>(r->value);
    } else if (std::string(r->what) == "hold") {
        next.detector.hold_intervals = r->value;  // 0 and holds past 65535 ms: the detector refuses
    } else {
        // Not one the parser takes for itself: those frames would never reach ARN.
        if (r->value < 0x0600 || r->value > 0xFFFF || r->value == 0x0800 || r->value == 0x86DD ||
            r->value == 0x8100 || r->value == 0x88A8 || r->value == ctx.dp->config().parser.iboe_ethertype)
            return refuse(ctx, cl,
                          "EtherType " + hex(r->value) + ": 0x0600..0xffff, not IPv4, IPv6, VLAN or IBoE");
        next.ethertype = static_cast<std::uint16_t>(r->value);
    }
    adopt(ctx, cl, next);
}
Inst<3> inst_value{value_cmd,
                   nullptr,
                   "arn interval <us> | arn window <us> | arn hold <intervals> | arn ethertype <type> | arn "
                   "udp-port <p>",
                   {WEFT_HDR(ValueCmd_arn), WEFT_HDR(ValueCmd_what), WEFT_HDR(ValueCmd_value), nullptr}};

// ---- arn rate-limit <pps> <burst> ----
struct RateCmd {
    cmdline_fixed_string_t arn, kw;
    uint32_t pps, burst;
};
WEFT_TOK_STR(RateCmd, arn, "arn");
WEFT_TOK_STR(RateCmd, kw, "rate-limit");
WEFT_TOK_NUM(RateCmd, pps, RTE_UINT32);
WEFT_TOK_NUM(RateCmd, burst, RTE_UINT32);
void rate_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<RateCmd *>(res);
    if (r->burst == 0 && r->pps != 0) return refuse(ctx, cl, "a burst of at least 1 frame");
    ArnState next = ctx.arn;
    next.rx_pps = r->pps;
    next.rx_burst = r->burst;
    adopt(ctx, cl, next);
}
Inst<4> inst_rate{
    rate_cmd,
    nullptr,
    "arn rate-limit <pps> <burst>",
    {WEFT_HDR(RateCmd_arn), WEFT_HDR(RateCmd_kw), WEFT_HDR(RateCmd_pps), WEFT_HDR(RateCmd_burst), nullptr}};

// ---- arn port <p> speed <mbps> ----
struct SpeedCmd {
    cmdline_fixed_string_t arn, port_kw;
    uint16_t port;
    cmdline_fixed_string_t speed;
    uint64_t mbps;
};
WEFT_TOK_STR(SpeedCmd, arn, "arn");
WEFT_TOK_STR(SpeedCmd, port_kw, "port");
WEFT_TOK_NUM(SpeedCmd, port, RTE_UINT16);
WEFT_TOK_STR(SpeedCmd, speed, "speed");
WEFT_TOK_NUM(SpeedCmd, mbps, RTE_UINT64);
void speed_cmd(void *res, struct cmdline *cl, void *data) {
    CommandContext &ctx = context_of(data);
    const auto *r = static_cast<SpeedCmd *>(res);
    if (r->port >= ctx.dp->num_ports()) return refuse(ctx, cl, "no port " + std::to_string(r->port));
    if (r->mbps == 0) return refuse(ctx, cl, "a line rate of at least 1 Mbit/s");
    ArnState next = ctx.arn;
    next.speeds[r->port] = r->mbps;
    adopt(ctx, cl, next);
}
Inst<5> inst_speed{speed_cmd,
                   nullptr,
                   "arn port <p> speed <mbps>",
                   {WEFT_HDR(SpeedCmd_arn), WEFT_HDR(SpeedCmd_port_kw), WEFT_HDR(SpeedCmd_port),
                    WEFT_HDR(SpeedCmd_speed), WEFT_HDR(SpeedCmd_mbps), nullptr}};

// ---- show arn [json] ----
const char *condition_name(arn::PortCondition c) {
    switch (c) {
        case arn::PortCondition::kCongested:
            return "congested";
        case arn::PortCondition::kDown:
            return "down";
        default:
            return "clear";
    }
}
const char *link_condition_name(arn::LinkCondition c) {
    switch (c) {
        case arn::LinkCondition::kCongested:
            return "congested";
        case arn::LinkCondition::kFailed:
            return "failed";
        default:
            return "clear";
    }
}
const char *path_kind_name(arn::PathKind k) {
    switch (k) {
        case arn::PathKind::kDirect:
            return "direct";
        case arn::PathKind::kViaPeer:
            return "via-peer";
        default:
            return "via-group";
    }
}

Json arn_record(const CommandContext &ctx) {
    const ArnState &s = ctx.arn;
    const dp::ArnTables *t = ctx.dp->arn_publisher().owned().get();
    Json r{{"enabled", s.enabled},
           {"switch_id", hex(t != nullptr ? t->self : 0)},
           {"ethertype", hex(s.ethertype)},
           {"encapsulation", encapsulation_name(s.encapsulation)},
           {"udp_port", s.udp_port},
           {"topology", s.uses_sm() ? "sm" : "config"},
           {"sm_topology", s.from_sm.has_value()},
           {"repeat_interval_us", s.detector.repeat_interval_us},
           {"window_us", s.detector.window_us},
           {"hold_intervals", s.detector.hold_intervals},
           {"util_on_percent", s.detector.util_levels[0]},
           {"util_off_percent", s.detector.util_off_percent},
           {"queue_on_bytes", s.detector.queue_levels[0]},
           {"queue_off_bytes", s.detector.queue_off_bytes},
           {"rate_limit_pps", s.rx_pps},
           {"rate_limit_burst", s.rx_burst}};
    Json ports = Json::array();
    const dp::ArnAgentView v = ctx.arn_agent != nullptr ? ctx.arn_agent->view() : dp::ArnAgentView{};
    for (std::uint16_t p = 0; p < ctx.dp->num_ports(); ++p) {
        const dp::ControlTxTotals tx = ctx.dp->arn_tx(p);
        Json j{{"port", p},
               {"fabric", t != nullptr && t->fabric(p)},
               {"arn_tx", ctx.dp->port_status(p).arn_tx},
               {"tx_sent", tx.sent},
               {"tx_failed", tx.failed}};
        for (std::size_t i = 0; i < v.watched.size(); ++i) {
            if (v.watched[i].port != p + 1) continue;
            const arn::PortStatus &st = v.status[i];
            j["watched"] = true;
            j["speed_mbps"] = v.watched[i].speed_mbps;
            if (v.watched[i].peer_group) j["peer_group"] = *v.watched[i].peer_group;
            j["state"] = condition_name(st.condition);
            j["severity"] = st.severity;
            j["util_percent"] = st.util_percent;
            j["told"] = condition_name(st.sent);
            j["told_severity"] = st.sent_severity;
            j["changed_at_us"] = v.last_change_us[i];
        }
        ports.push_back(j);
    }
    r["ports"] = ports;
    Json group = Json::array();
    if (t != nullptr)
        for (arn::SwitchId id : t->reporters) group.push_back(hex(id));
    r["group"] = group;
    Json dests = Json::array();
    for (const dp::ArnAgentView::Destination &d : v.destinations) {
        Json paths = Json::array();
        for (std::size_t i = 0; i < d.paths.size(); ++i) {
            Json links = Json::array();
            for (const arn::LinkRef &l : d.paths[i].links)
                links.push_back(hex(l.sw) + ":" + std::to_string(l.port - 1));
            paths.push_back(Json{{"kind", path_kind_name(d.paths[i].kind)},
                                 {"port", d.paths[i].first_port - 1},
                                 {"cost", d.paths[i].cost},
                                 {"effective_cost", d.cost[i]},
                                 {"band", d.band[i]},
                                 {"chosen", d.chosen && *d.chosen == i},
                                 {"links", links}});
        }
        dests.push_back(Json{{"group", d.group}, {"paths", paths}});
    }
    r["bpt"] = dests;
    Json news = Json::array();
    for (const auto &[link, n] : v.news)
        news.push_back(Json{{"switch", hex(link.sw)},
                            {"port", link.port - 1},
                            {"condition", link_condition_name(n.condition)},
                            {"severity", n.severity},
                            {"sequence", n.sequence},
                            {"messages", n.messages},
                            {"changed_at_us", n.changed_at_us}});
    r["news"] = news;
    const dp::ArnWorkerTotals w = dp::sum_arn(ctx.dp->arn_counters());
    const dp::Totals totals = dp::sum_totals(ctx.dp->counters());
    Json dropped = Json::object();
    for (dp::DropReason why :
         {dp::DropReason::ArnNotFabricPort, dp::DropReason::ArnRateLimited, dp::DropReason::ArnMalformed,
          dp::DropReason::ArnUnknownReporter, dp::DropReason::ArnOwnNews, dp::DropReason::ArnUnexpectedPort,
          dp::DropReason::ArnRingFull})
        dropped[dp::drop_reason_name(why)] = totals.drops[static_cast<std::size_t>(why)];
    Json malformed = Json::object();
    for (std::size_t i = 0; i < arn::kArnDropCount; ++i)
        if (w.malformed[i] != 0) malformed[arn::arn_drop_name(static_cast<arn::ArnDrop>(i))] = w.malformed[i];
    Json sent_by_type = Json::object();
    for (std::uint8_t type = arn::kMinArnType; type <= arn::kMaxArnType; ++type)
        sent_by_type[arn::arn_type_name(static_cast<arn::ArnType>(type))] = v.detector.sent[type];
    r["counters"] = Json{{"received", w.received},
                         {"forwarded", w.forwarded},
                         {"delivered", w.delivered},
                         {"dropped", dropped},
                         {"malformed", malformed},
                         {"applied", v.counters.applied},
                         {"stale", v.counters.stale},
                         {"expired", v.bpt.expired},
                         {"rechosen", v.bpt.rechosen},
                         {"sent", v.counters.sent},
                         {"sent_by_type", sent_by_type},
                         {"repeats", v.detector.repeats},
                         {"deferred_gap", v.detector.deferred_gap},
                         {"deferred_budget", v.detector.deferred_budget},
                         {"send_failed", v.counters.send_failed},
                         {"remote_slots", v.slots.size()},
                         {"remote_published", v.counters.published}};
    return r;
}

struct ShowArnCmd {
    cmdline_fixed_string_t show, arn, json;
};
WEFT_TOK_STR(ShowArnCmd, show, "show");
WEFT_TOK_STR(ShowArnCmd, arn, "arn");
WEFT_TOK_STR(ShowArnCmd, json, "json");

std::string dump(const Json &j) {
    return j.is_string() ? j.get<std::string>() : j.dump();
}

void show_arn(struct cmdline *cl, void *data, bool json) {
    CommandContext &ctx = context_of(data);
    const Json r = arn_record(ctx);
    if (json) return print_json(cl, r);
    const std::string carried = r["encapsulation"] == "ethernet"
                                    ? "EtherType " + dump(r["ethertype"])
                                    : dump(r["encapsulation"]) + " port " + r["udp_port"].dump();
    cmdline_printf(cl, "ARN %s, switch %s, %s, repeat every %s us, group of %zu switches (%s)\n",
                   r["enabled"].get<bool>() ? "on" : "off", dump(r["switch_id"]).c_str(), carried.c_str(),
                   r["repeat_interval_us"].dump().c_str(), r["group"].size(),
                   r["topology"] == "sm" ? "as the SM found it" : "as configured");
    cmdline_printf(cl, "%-5s %-7s %-7s %-10s %-5s %-9s %s\n", "port", "fabric", "arn-tx", "state", "util%",
                   "told", "tx (sent/failed)");
    for (const Json &p : r["ports"])
        cmdline_printf(
            cl, "%-5s %-7s %-7s %-10s %-5s %-9s %s/%s\n", p["port"].dump().c_str(),
            p["fabric"].get<bool>() ? "yes" : "no", p["arn_tx"].get<bool>() ? "yes" : "none",
            p.contains("state")
                ? (dump(p["state"]) + (p["severity"].get<int>() != 0 ? "/" + p["severity"].dump() : ""))
                      .c_str()
                : "-",
            p.contains("util_percent") ? p["util_percent"].dump().c_str() : "-",
            p.contains("told") ? dump(p["told"]).c_str() : "-", p["tx_sent"].dump().c_str(),
            p["tx_failed"].dump().c_str());
    for (const Json &d : r["bpt"]) {
        cmdline_printf(cl, "group %s:", d["group"].dump().c_str());
        for (const Json &p : d["paths"])
            cmdline_printf(cl, " %s%s port %s cost %s/%s band %s", p["chosen"].get<bool>() ? "*" : "",
                           dump(p["kind"]).c_str(), p["port"].dump().c_str(), p["cost"].dump().c_str(),
                           p["effective_cost"].dump().c_str(), p["band"].dump().c_str());
        cmdline_printf(cl, "\n");
    }
    for (const Json &n : r["news"])
        cmdline_printf(cl, "news %s port %s: %s severity %s seq %s (%s messages)\n",
                       dump(n["switch"]).c_str(), n["port"].dump().c_str(), dump(n["condition"]).c_str(),
                       n["severity"].dump().c_str(), n["sequence"].dump().c_str(),
                       n["messages"].dump().c_str());
    const Json &c = r["counters"];
    cmdline_printf(cl,
                   "received %s forwarded %s delivered %s applied %s stale %s expired %s; sent %s (repeats "
                   "%s, failed %s)\n",
                   c["received"].dump().c_str(), c["forwarded"].dump().c_str(), c["delivered"].dump().c_str(),
                   c["applied"].dump().c_str(), c["stale"].dump().c_str(), c["expired"].dump().c_str(),
                   c["sent"].dump().c_str(), c["repeats"].dump().c_str(), c["send_failed"].dump().c_str());
    cmdline_printf(cl, "dropped:");
    for (const auto &[why, n] : c["dropped"].items())
        cmdline_printf(cl, " %s %s", why.c_str(), n.dump().c_str());
    for (const auto &[why, n] : c["malformed"].items())
        cmdline_printf(cl, " malformed/%s %s", why.c_str(), n.dump().c_str());
    cmdline_printf(cl, "\n");
}
void show_arn_text(void *, struct cmdline *cl, void *data) {
    show_arn(cl, data, false);
}
void show_arn_json(void *, struct cmdline *cl, void *data) {
    show_arn(cl, data, true);
}
Inst<2> inst_show_arn{
    show_arn_text, nullptr, "show arn", {WEFT_HDR(ShowArnCmd_show), WEFT_HDR(ShowArnCmd_arn), nullptr}};
Inst<3> inst_show_arn_json{
    show_arn_json,
    nullptr,
    "show arn json",
    {WEFT_HDR(ShowArnCmd_show), WEFT_HDR(ShowArnCmd_arn), WEFT_HDR(ShowArnCmd_json), nullptr}};

}  // namespace

std::string arn_running_config(const CommandContext &ctx) {
    const ArnState &s = ctx.arn;
    const ArnState defaults;
    std::ostringstream out;
    out << "# ARN: the group, the detector, the receive limit\n";
    if (s.self) out << "arn switch-id " << hex(*s.self) << "\n";
    if (s.ethertype != defaults.ethertype) out << "arn ethertype " << hex(s.ethertype) << "\n";
    if (s.udp_port != defaults.udp_port) out << "arn udp-port " << s.udp_port << "\n";
    if (s.encapsulation != defaults.encapsulation)
        out << "arn encapsulation " << encapsulation_name(s.encapsulation) << "\n";
    for (const ArnLocalLink &l : s.links)
        out << "arn link " << hex(l.a) << " " << l.port_a << " " << hex(l.b) << " " << l.port_b << "\n";
    for (const ArnGlobalLink &g : s.globals)
        out << "arn global " << hex(g.owner) << " " << g.port << " group " << g.peer_group << "\n";
    for (const auto &[id, g] : s.nhgs) out << "arn nhg " << id << " group " << g << "\n";
    for (const auto &[p, mbps] : s.speeds) out << "arn port " << p << " speed " << mbps << "\n";
    const arn::DetectorConfig &d = s.detector;
    const arn::DetectorConfig &dd = defaults.detector;
    if (d.util_levels != dd.util_levels || d.util_off_percent != dd.util_off_percent)
        out << "arn threshold util " << d.util_levels[0] << " " << d.util_off_percent << "\n";
    if (d.queue_levels != dd.queue_levels || d.queue_off_bytes != dd.queue_off_bytes)
        out << "arn threshold queue " << d.queue_levels[0] << " " << d.queue_off_bytes << "\n";
    if (d.repeat_interval_us != dd.repeat_interval_us) out << "arn interval " << d.repeat_interval_us << "\n";
    if (d.window_us != dd.window_us) out << "arn window " << d.window_us << "\n";
    if (d.hold_intervals != dd.hold_intervals) out << "arn hold " << d.hold_intervals << "\n";
    if (s.rx_pps != defaults.rx_pps || s.rx_burst != defaults.rx_burst)
        out << "arn rate-limit " << s.rx_pps << " " << s.rx_burst << "\n";
    if (!s.use_sm) out << "arn topology config\n";
    if (s.enabled) out << "arn enable\n";
    return out.str();
}

InstList arn_commands() {
    return {as_inst(inst_onoff),        as_inst(inst_topology),   as_inst(inst_encap),
            as_inst(inst_id),           as_inst(inst_link),       as_inst(inst_link_del),
            as_inst(inst_global),       as_inst(inst_global_del), as_inst(inst_nhg_group),
            as_inst(inst_nhg_none),     as_inst(inst_threshold),  as_inst(inst_value),
            as_inst(inst_rate),         as_inst(inst_speed),      as_inst(inst_show_arn),
            as_inst(inst_show_arn_json)};
}

}  // namespace weft::control::cli
